# events-costs: the recorder's cost measured in the run (dsprof-format.h,
# section 4; docs/contract.md §4.4).  costs.c records events of every hook
# kind (enter, exit, start, finish, dim): the profile carries each kind's
# sampled cost, and so does a killed process's; `dsprof report` deducts from
# each record what the documented formula gives from the figures `dsprof
# info` prints (checked exactly on the leaves, which hold no chunk setup,
# and within the setups on the nodes); the instrumentation line is printed
# and consistent; a profile without measurements (its trailers wiped) is
# deducted by the start-up figure per pair as before; a counters-only
# profile has none to measure, and says so.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/costs.c" .
dscc -O2 -o costs costs.c || fail "costs.c does not compile"
DSPROF_OUT=c.data ./costs 20000 >out || fail "costs: status $?"
[ "$(cat out)" = 1200000000 ] || fail "costs printed $(cat out)"

run_dsprof info --count c.data >info.txt || fail "info: status $?"
for h in enter exit start finish dim; do
  grep -Eq "^hook cost $h: [0-9.]+ ns before the time stamp, [0-9.]+ ns after \([1-9][0-9]* calls sampled in the run\)$" info.txt \
    || fail "info has no measured cost of $h: $(cat info.txt)"
done
grep -Eq '^hook cost caller: [0-9.]+ ns per hook call \(calibrated at start\)$' info.txt \
  || fail "info has no caller's part: $(cat info.txt)"
grep -Eq '^chunk setups: [0-9.]+ ms \(each timed in the run\)$' info.txt \
  || fail "info has no chunk setups: $(cat info.txt)"

# share FILE WHAT EVENTS RUN_MS: FILE's instrumentation line is consistent:
# its cost at most the run time RUN_MS (if given), its share at most 100 %
# and its own, EVENTS events, and WHAT.
share () {
  python3 - "$@" <<'PY' || fail "instrumentation line of $1"
import re, sys
f, what, events = sys.argv[1], sys.argv[2], int(sys.argv[3])
run = float(sys.argv[4]) if len(sys.argv) > 4 else None
lines = [l for l in open(f) if l.lower().startswith("instrumentation: ")]
if len(lines) != 1:
    sys.exit("%d instrumentation lines" % len(lines))
m = re.match(r"[Ii]nstrumentation: ([0-9.]+) ms of ([0-9.]+) ms \(([0-9.]+) %\) by ([0-9]+) events, (.*)$",
             lines[0].rstrip("\n"))
# costs.c is all events: its estimate may come to the run or beyond, which
# the line then says (the estimate failed) instead of a share.
f = re.match(r"[Ii]nstrumentation: the estimate failed: ([0-9.]+) ms, more than the run's ([0-9.]+) ms, "
             r"by ([0-9]+) events, (.*); times deducted by it are too low \(--raw: as recorded\)$",
             lines[0].rstrip("\n"))
if f:
    cost, total, n, how = float(f[1]), float(f[2]), int(f[3]), f[4]
    sys.exit(not (cost >= total and n == events and how == what
                  and (run is None or abs(total - run) < 0.002)))
if not m:
    sys.exit("no match: " + lines[0])
cost, total, pct, n, how = float(m[1]), float(m[2]), float(m[3]), int(m[4]), m[5]
ok = (0 <= cost <= total and pct <= 100.0 and n == events and how == what
      and (run is None or abs(total - run) < 0.002)
      and abs(pct - (100.0 * cost / total if total else 0)) < 0.06)
if not ok:
    sys.exit("inconsistent: " + lines[0])
PY
}
events=$(sed -n 's/^events: \([0-9]*\) .*/\1/p' info.txt)
[ "$events" = 200000 ] || fail "info --count: $events events, not 200000"
run_ms=$(sed -n 's/^run time: \([0-9.]*\) s$/\1/p' info.txt | awk '{ printf "%.3f", $1 * 1000 }')
share info.txt "measured in the run" "$events" "$run_ms"
run_dsprof report name c.data >report.txt || fail "report: status $?"
share report.txt "measured in the run" "$events" "$run_ms"
run_dsprof html --dims name -o r.html c.data || fail "html: status $?"
# The page says what the report says (the estimate's share, or that it failed
# when a busy machine made it exceed the run).
python3 - r.html >html.txt <<'PY'
import html, re, sys
for line in open(sys.argv[1]):
    m = re.match(r'<p class="summary">(Instrumentation: .*)\.</p>$', line.rstrip("\n"))
    if m:
        print(html.unescape(m[1]))
PY
share html.txt "measured in the run" "$events" "$run_ms"
run_dsprof report name --format json c.data >report.json || fail "report json: status $?"
python3 - report.json "$events" <<'PY' || fail "json instrumentation"
import json, sys
d = json.load(open(sys.argv[1]))
i = d["instrumentation"]
sys.exit(not (i["events"] == int(sys.argv[2]) and 0 < i["cost_ns"]
              and (i["cost_ns"] >= d["total_ns"]) == i["failed"]
              and i["measured_threads"] == i["threads"] == 1))
PY

# check PROFILE MODE: the report's Self of leaf and mleaf is exactly the sum
# over their records of (duration - deduction, at least 0), the deduction
# being the formula's from info's figures (MODE measured) or half the
# header's pair figure (MODE startup); node's Self lies between the same
# with and without the chunk setups.
check () {
  run_dsprof records "$1" >records.txt || fail "records: status $?"
  run_dsprof info "$1" >info1.txt || fail "info: status $?"
  run_dsprof report name --format json --unit ns "$1" >rep.json || fail "report: status $?"
  python3 - "$2" info1.txt records.txt rep.json "$1" <<'PY' || fail "deduction ($2)"
import json, math, re, struct, sys
mode, info, records, rep, prof = sys.argv[1:6]
text = open(info).read()
def ps(x):
    return int(round(float(x) * 1000))
B, A = {}, {}
for m in re.finditer(r"^hook cost (\w+): ([0-9.]+) ns before the time stamp, ([0-9.]+) ns after", text, re.M):
    B[m[1]], A[m[1]] = ps(m[2]), ps(m[3])
m = re.search(r"^hook cost caller: ([0-9.]+) ns", text, re.M)
C = ps(m[1]) if m else 0
m = re.search(r"^chunk setups: ([0-9.]+) ms", text, re.M)
setups = float(m[1]) * 1e6 if m else 0
recs = {}
for line in open(records):
    m = re.match(r"#(\d+) (\d+)ns event=(\w+).*?(?: -> (.*))?$", line.rstrip("\n"))
    kids = [int(k[1:]) for k in m[4].split()] if m[4] else []
    recs[int(m[1])] = (int(m[2]), m[3], kids)
def full(h):
    return B[h] + A[h] + C
if mode == "measured":
    own = {"leaf": A["enter"] + B["exit"], "mleaf": A["start"] + B["finish"],
           "node": A["enter"] + B["exit"] + full("dim")}
    cost = {"leaf": full("enter") + full("exit"), "mleaf": full("start") + full("finish"),
            "node": full("enter") + full("exit") + full("dim")}
else:
    pair = struct.unpack_from("<Q", open(prof, "rb").read(), 96)[0]
self_sum, adj = {}, {}
desc = {}
for n in sorted(recs):
    dur, ev, kids = recs[n]
    child = sum(adj[k] for k in kids)
    if mode == "measured":
        d = own[ev] + sum(desc[k] + cost[recs[k][1]] for k in kids)
        desc[n] = d - own[ev]
        ded = -(-d // 1000)
    else:
        nd = sum(desc[k] + 1 for k in kids)
        desc[n] = nd
        ded = math.ceil(pair / 1000.0 * (nd + 0.5))
    adj[n] = max(dur - ded, 0, child)
    self_sum[ev] = self_sum.get(ev, 0) + adj[n] - child
rows = {r["value"]: r for r in json.load(open(rep))["rows"]}
bad = [ev for ev in ("leaf", "mleaf") if rows[ev]["self_ns"] != self_sum[ev]]
got = rows["node"]["self_ns"]
if mode == "measured":
    if not (self_sum["node"] - setups - 1 <= got <= self_sum["node"]):
        bad.append("node %d, not within %d - setups %d" % (got, self_sum["node"], setups))
elif got != self_sum["node"]:
    bad.append("node")
if bad:
    sys.exit("Self differs: %s (want %s, got %s)"
             % (bad, self_sum, {k: rows[k]["self_ns"] for k in rows}))
PY
}
check c.data measured

# --raw keeps the recorded times: every row's Self sums its records' own.
run_dsprof report name --raw --format json --unit ns c.data >raw.json || fail "report --raw"
run_dsprof records c.data >records.txt
python3 - raw.json records.txt <<'PY' || fail "--raw deducted something"
import json, re, sys
rows = {r["value"]: r for r in json.load(open(sys.argv[1]))["rows"]}
tot = {}
for line in open(sys.argv[2]):
    m = re.match(r"#\d+ (\d+)ns event=(\w+)", line)
    tot[m[2]] = tot.get(m[2], 0) + int(m[1])
sys.exit(not all(rows[e]["total_ns"] == tot[e] for e in ("leaf", "mleaf", "node")))
PY

# A profile without measurements (an older recorder's): its trailers wiped,
# and a pair figure of 20 ns in its header, deducted as before.
python3 - c.data old.data <<'PY' || fail "cannot make old.data"
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<Q", b, 96, 20000)           # pair_overhead_ps
end = struct.unpack_from("<Q", b, 16)[0]
off, n = 4096, 0
while off < end:
    kind, check, size = struct.unpack_from("<IIQ", b, off)
    if kind == 2:
        struct.pack_into("<Q", b, off + size - 232, 0)    # the trailer's magic
        n += 1
    off += size
open(sys.argv[2], "wb").write(b)
sys.exit(n == 0)
PY
run_dsprof info --count old.data >info-old.txt || fail "info old.data: status $?"
grep -qx 'hook costs: not measured in the run (an older profile): the figure per event pair is deducted' info-old.txt \
  || fail "old.data reads as measured: $(cat info-old.txt)"
share info-old.txt "by the start-up figure (no measurement in the profile)" "$events"
check old.data startup

# A profile of counters only (events=off) has no hook costs, and says so; it is
# no older profile.
printf 'int main (int argc, char **argv) { return argc > 5 ? argv[0][0] : 0; }\n' >counting.c
dscc -O2 -o counting counting.c || fail "counting.c does not compile"
DSPROF_OUT=n.data ./counting || fail "counting: status $?"
run_dsprof info n.data >info-n.txt || fail "info n.data: status $?"
grep -qx 'hook costs: none (no event was recorded)' info-n.txt \
  || fail "a counters-only profile's hook costs: $(grep hook info-n.txt)"

# A killed process keeps its measurements.
./costs 20000 wait >kout &
pid=$!
for _ in $(seq 400); do
  grep -q '^ready$' kout && break
  sleep 0.05
done
grep -q '^ready$' kout || { kill -9 "$pid"; fail "costs never got ready"; }
kill -9 "$pid"
wait "$pid" && fail "costs was not killed"
run_dsprof info --count >info-kill.txt || fail "info of the killed run: status $?"
for h in enter exit; do
  grep -Eq "^hook cost $h: .*\([1-9][0-9]* calls sampled in the run\)$" info-kill.txt \
    || fail "the killed run lost the cost of $h: $(cat info-kill.txt)"
done
share info-kill.txt "measured in the run" 200000
echo "costs measured, deducted and stated"
