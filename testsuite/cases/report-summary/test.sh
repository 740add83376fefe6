# report-summary: `dsprof summary` (docs/contract.md §5) on a program of two
# units (main.c, other.c) sharing a header function (sq.h), with a function
# never called (unused) and a branch never taken (main's x > 100, sq's x < 0).
# 1. Its totals of lines, functions and branches are `lcov --summary`'s of
#    `dsprof export --format lcov`.
# 2. Its table is expected.txt, figures by hand from the sources: unused 0 of
#    its 2 lines (9, 11) and 2 blocks, no branches; main 4 of its 5 lines (20,
#    the call to unused, never ran) and 2 of its 3 blocks, its if's 2
#    branches executed, 1 taken (x > 100 never holds); sq 3 of 4 lines (7
#    never ran), 3 blocks in each unit's copy, the x < 0 one never run: 4 of
#    6, its if's 2 branches (the copies' summed branch by branch, as lcov
#    does) executed, 1 taken; other all of its 2, no branches.
# 3. Its csv and json parse (python3) and hold the text's figures (check.py).
# 4. A missing profile, a corrupt one and an unknown format each get one line
#    and status 2, 2 and 1.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/main.c" "$CASE/other.c" "$CASE/sq.h" .
dscc -O0 -o prog main.c other.c || fail "the program does not compile"
./prog || fail "prog: status $?"

# ---- 1. lcov's totals ----
summary_is_lcovs dsprof.data
run_dsprof summary >summary.txt || fail "summary: status $?"

# ---- 2. the figures by hand ----
sed "s|$PWD/||" summary.txt >got.txt
expect_same "$CASE/expected.txt" got.txt

# ---- 3. csv and json ----
run_dsprof summary --format csv >summary.csv || fail "csv: status $?"
run_dsprof summary --format json -o summary.json || fail "json: status $?"
python3 "$CASE/check.py" summary.txt summary.csv summary.json \
  || fail "csv or json differ from the text"
# The check can fail: a figure changed in the csv.
sed '2s/,0,2,0,2,0,1,0,0,0$/,0,2,1,2,0,1,0,0,0/' summary.csv >bad.csv
cmp -s bad.csv summary.csv && fail "bad.csv is summary.csv"
python3 "$CASE/check.py" summary.txt bad.csv summary.json 2>/dev/null \
  && fail "check accepts bad.csv"

# ---- 4. bad input ----
set +e
run_dsprof summary missing.data >out.txt 2>err.txt; rc=$?
[ $rc = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && [ ! -s out.txt ] \
  || fail "missing profile: status $rc, $(cat err.txt)"
grep -q "missing.data" err.txt || fail "missing profile: $(cat err.txt)"
head -c 100 dsprof.data >cut.data
run_dsprof summary cut.data >out.txt 2>err.txt; rc=$?
[ $rc = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && [ ! -s out.txt ] \
  || fail "corrupt profile: status $rc, $(cat err.txt)"
grep -q "cut.data" err.txt || fail "corrupt profile: $(cat err.txt)"
run_dsprof summary --format xml >out.txt 2>err.txt; rc=$?
[ $rc = 1 ] && [ ! -s out.txt ] || fail "--format xml: status $rc, $(cat err.txt)"
grep -q "not 'xml'" err.txt || fail "--format xml: $(cat err.txt)"
set -e
echo "report-summary: ok"
