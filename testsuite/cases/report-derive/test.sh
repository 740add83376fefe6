# report-derive: `dsprof report --derive LIB.so` with examples/derive/type.c on
# examples/expr (3 + 4 * 5): the six value records' subjects are Add (twice: once
# computed, once cached), Mul, and Num three times; iszero's subject is Add.
. "$(dirname "$0")/../../lib.sh"

dscc -o expr "$TOP/examples/expr/expr.c" || fail "expr.c does not compile"
./expr >/dev/null || fail "expr exited with $?"
gcc -shared -fPIC -Wall -Wextra -Werror -I"$TOP/include" -o type.so \
  "$TOP/examples/derive/type.c" || fail "type.c does not build warning-free"

run_dsprof report name type --derive ./type.so --format csv >type.csv \
  || fail "report --derive: status $?"
python3 - type.csv <<'PY' || fail "counts by derived type are wrong"
import csv, sys
got = {(r["name"], r["type"]): int(r["count"])
       for r in csv.DictReader(open(sys.argv[1])) if r["level"] == "2"}
want = {("value", "Add"): 2, ("value", "Mul"): 1, ("value", "Num"): 3,
        ("iszero", "Add"): 1}
if got != want:
    print("got", got, "want", want, file=sys.stderr); sys.exit(1)
PY

# The library sees a record's ancestors: every record's root subject is the
# whole expression.
run_dsprof report root --derive ./type.so --format csv >root.csv
grep -q '^1,"\?Add(Num(3),Mul(Num(4),Num(5)))"\?,.*,7,100.00$' root.csv \
  || fail "root: all 7 records under the whole expression: $(cat root.csv)"

# The NULL of a top-level record's parent and of a child past the last, given
# back to the accessors, is a record with nothing (nulls.c): all 7 records
# have the value "none,0,0,null".
gcc -shared -fPIC -Wall -Wextra -Werror -I"$TOP/include" -o nulls.so "$CASE/nulls.c" \
  || fail "nulls.c does not build warning-free"
run_dsprof report nulls --derive ./nulls.so --format csv >nulls.csv 2>nulls.err \
  || fail "report --derive nulls.so: status $? ($(cat nulls.err))"
grep -q '^1,"none,0,0,null",.*,7,100.00$' nulls.csv \
  || fail "nulls: not all 7 records 'none,0,0,null': $(cat nulls.csv)"

# A library that gives a built-in derived dimension (depth) a value: one
# clear error, status 1, whether the report buckets by it or filters on it;
# its own dimension (mine) works, and so does depth where it is not asked.
gcc -shared -fPIC -Wall -Wextra -Werror -I"$TOP/include" -o clash.so "$CASE/clash.c" \
  || fail "clash.c does not build warning-free"
for args in "depth" "name --where depth=0"; do
  set +e
  run_dsprof report $args --derive ./clash.so >clash.out 2>clash.err; rc=$?
  set -e
  [ $rc = 1 ] && grep -q "the --derive library defines 'depth', a built-in derived dimension" clash.err \
    && [ "$(wc -l <clash.err)" = 1 ] || fail "report $args with clash.so: status $rc, $(cat clash.err)"
done
run_dsprof report mine --derive ./clash.so --format csv >mine.csv 2>mine.err \
  || fail "report mine with clash.so: status $? ($(cat mine.err))"
grep -q '^1,mine-by-library,.*,7,100.00$' mine.csv || fail "mine: $(cat mine.csv)"

# A library without dsprof_derive, and a missing one: usage errors (exit 1).
echo 'int nothing;' >none.c && gcc -shared -fPIC -o none.so none.c
set +e
run_dsprof report name --derive ./none.so 2>err.txt; rc=$?
set -e
[ $rc = 1 ] && grep -q 'defines no dsprof_derive' err.txt \
  || fail "library without dsprof_derive: status $rc, $(cat err.txt)"
set +e
run_dsprof report name --derive ./missing.so 2>err.txt; rc=$?
set -e
[ $rc = 1 ] && grep -q 'missing.so' err.txt || fail "missing library: status $rc"
exit 0
