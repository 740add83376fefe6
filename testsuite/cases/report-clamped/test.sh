# report-clamped: a deduction that exceeds what was measured says so
# (docs/contract.md §5.3).  tiny.c, built with functions=all, makes 30,000
# records of a few instructions each; its profile's caller's part of a hook
# call is then forced to 1 ms (every stream's trailer), an estimate far above
# the run.  The report must not print the deducted times as facts: its
# instrumentation line says the estimate failed, its deduction line counts
# the clamped records (text and HTML), every row holding one is marked
# (JSON's clamped, HTML's "Self clamped in N records") and the rows' counts
# add up to the line's;
# --raw deducts nothing and clamps nothing.  Structure only, no timing.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/tiny.c" .
dscc -O2 -fplugin-arg-dsprof-functions=all -o tiny tiny.c || fail "tiny.c does not compile"
DSPROF_OUT=t.data ./tiny 10000 >out || fail "tiny: status $?"
[ "$(cat out)" = 300020000 ] || fail "tiny printed $(cat out)"

# Every events chunk's trailer (dsprof-format.h, section 4): caller_ticks
# set to 10^9 per calibrated call.
python3 - t.data big.data <<'PY' || fail "cannot make big.data"
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
end = struct.unpack_from("<Q", b, 16)[0]
off, n = 4096, 0
while off < end:
    kind, check, size = struct.unpack_from("<IIQ", b, off)
    if kind == 2:
        t = off + size - 232
        calls = struct.unpack_from("<Q", b, t + 32)[0] or 1
        struct.pack_into("<QQ", b, t + 24, calls * 10**9, calls)
        n += 1
    off += size
open(sys.argv[2], "wb").write(b)
sys.exit(n == 0)
PY

run_dsprof report name big.data >rep.txt || fail "report: status $?"
grep -Eq '^Instrumentation: the estimate failed: [0-9.]+ ms, more than the run'"'"'s [0-9.]+ ms, by 60002 events, measured in the run; times deducted by it are too low \(--raw: as recorded\)$' rep.txt \
  || fail "no failed estimate: $(cat rep.txt)"
grep -Eq '^Deduction: hook costs estimated above the measured time of [1-9][0-9]* records? \([0-9.]+ %\), by [0-9.]+ (ms|us) in all' rep.txt \
  || fail "no deduction line: $(cat rep.txt)"

run_dsprof report name --format json big.data >rep.json || fail "json: status $?"
python3 - rep.json <<'PY' || fail "json: $(cat rep.json)"
import json, sys
d = json.load(open(sys.argv[1]))
i = d["instrumentation"]
rows = d["rows"]
ok = (i["failed"] is True and i["cost_ns"] > d["total_ns"] and i["clamped_records"] > 0
      and sum(r.get("clamped", 0) for r in rows) == i["clamped_records"]
      and all(r.get("clamped", 0) > 0 for r in rows if r["value"] in ("leaf", "twice"))
      and all(r.get("clamped", 0) <= r["count"] for r in rows)
      and all(r["self_ns"] == 0 for r in rows if r.get("clamped") == r["count"]))
sys.exit(not ok)
PY

run_dsprof html --dims name -o r.html big.data || fail "html: status $?"
grep -q '<p class="summary">Deduction: hook costs estimated above' r.html || fail "html has no deduction line"
grep -q 'Self clamped in' r.html || fail "html rows not marked"

run_dsprof report name --raw --format json big.data >raw.json || fail "raw: status $?"
python3 - raw.json <<'PY' || fail "--raw clamped: $(cat raw.json)"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["instrumentation"]["clamped_records"] == 0
              and not any("clamped" in r for r in d["rows"])))
PY
run_dsprof report name --raw big.data >raw.txt || fail "raw text: status $?"
grep -q '^Deduction:' raw.txt && fail "--raw prints a deduction: $(cat raw.txt)"
echo "a deduction above the measured time is stated, not shown as Self 0"
