# report-times: the report's Self, Desc and Total on a recursive evaluator with
# known busy-wait durations (times.c says what they must be).  Counts and the
# structure are exact; times must be at least the spins (a busy machine only
# lengthens them, so no upper bound is checked here: how close they come is a
# `make bench` figure, time_accuracy), and Self + Desc = Total on every row.
. "$(dirname "$0")/../../lib.sh"

dscc -O1 -o times "$FIXTURES/times.c" || fail "times.c does not compile"
./times >out.txt || fail "times exited with $?"
[ "$(cat out.txt)" = "2 1" ] || fail "times printed '$(cat out.txt)'"

run_dsprof report name --format csv >name.csv || fail "dsprof report name: status $?"
python3 - name.csv <<'PY' || fail "report name figures (name.csv) are wrong"
import csv, sys
rows = {r["name"]: r for r in csv.DictReader(open(sys.argv[1]))}
ms = lambda r, k: int(r[k]) / 1e6
ok = True
def expect(cond, what):
    global ok
    if not cond:
        print("wrong:", what, file=sys.stderr); ok = False
v, o = rows["value"], rows["other"]
expect(v["count"] == "5" and o["count"] == "1", "counts value 5, other 1")
for r in (v, o):
    expect(int(r["self_ns"]) + int(r["desc_ns"]) == int(r["total_ns"]), "self + desc = total")
# At least the spins (less 2% for the recorder's deducted cost).
for r, k, want in ((v, "self_ns", 5), (v, "total_ns", 5), (o, "self_ns", 2),
                   (o, "desc_ns", 2), (o, "total_ns", 4)):
    got = ms(r, k)
    expect(want * 0.98 <= got, f"{r['name']} {k} = {got:.3f} ms, want at least {want}")
expect(ms(v, "desc_ns") < 0.2, f"value desc {ms(v, 'desc_ns'):.3f} ms, want 0")
print(open(sys.argv[1]).read(), file=sys.stderr) if not ok else None
sys.exit(0 if ok else 1)
PY

# Profiled time in the header: 7 ms of top-level records, within the run time.
run_dsprof report name --unit ms >name.txt
prof=$(sed -n 's/^Profiled time: \([0-9.]*\) ms.*/\1/p' name.txt)
total=$(sed -n 's/^Total time: \([0-9.]*\) ms.*/\1/p' name.txt)
awk -v p="$prof" -v t="$total" 'BEGIN { exit !(p >= 6.9 && p <= t) }' \
  || fail "profiled time $prof ms, want at least 7 and at most the run's $total (name.txt: $(head -3 name.txt))"
grep -q '^Profile records: 6$' name.txt || fail "want 6 records: $(head -3 name.txt)"

# Nested: By parent for value - (top) 1, value 3, other 1; rows by Total.
run_dsprof report name parent --format csv >parent.csv
python3 - parent.csv <<'PY' || fail "report name parent is wrong"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["level"] == "2" and r["name"] == "value"]
got = {r["parent"]: int(r["count"]) for r in rows}
if got != {"(top)": 1, "value": 3, "other": 1}:
    print("by parent for value:", got, file=sys.stderr); sys.exit(1)
totals = [int(r["total_ns"]) for r in rows]
if totals != sorted(totals, reverse=True):
    print("rows not sorted by Total", totals, file=sys.stderr); sys.exit(1)
PY
grep -q '^By parent for value:$' <(run_dsprof report name parent) \
  || fail "no 'By parent for value:' table"

# --raw keeps the recorder's cost in: never less than the deducted figures.
run_dsprof report name --raw --format csv >raw.csv
python3 - name.csv raw.csv <<'PY' || fail "--raw times below the deducted ones"
import csv, sys
a = {r["name"]: int(r["total_ns"]) for r in csv.DictReader(open(sys.argv[1]))}
b = {r["name"]: int(r["total_ns"]) for r in csv.DictReader(open(sys.argv[2]))}
sys.exit(0 if all(b[k] >= a[k] for k in a) else 1)
PY

# JSON parses and holds the same counts.
run_dsprof report name parent --format json >r.json
python3 -m json.tool r.json >/dev/null || fail "report JSON does not parse"
python3 -c '
import json, sys
d = json.load(open("r.json"))
c = {r["value"]: r["count"] for r in d["rows"]}
sys.exit(0 if c == {"value": 5, "other": 1} and d["records"] == 6 else 1)' \
  || fail "JSON counts wrong: $(cat r.json)"

# --where and --top.
run_dsprof report name --where name!=other --format csv | grep -q '^1,other,' \
  && fail "--where name!=other kept other"
n=$(run_dsprof report name parent --top 1 --format csv | grep -c '^2,')
[ "$n" = 1 ] || fail "--top 1 printed $n nested rows, want 1 (one table, under the top row)"
exit 0
