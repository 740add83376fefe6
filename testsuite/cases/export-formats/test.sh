# export-formats: `dsprof export` (docs/contract.md §5.8) on ex.c (two threads, quoted
# strings, added dimensions, manual events, repaired events; expectations by hand
# in ex.c and check.py), each format read by its consumer: the Chrome JSON by
# python3's json with B/E balanced per thread, the folded stacks summed against
# `dsprof report`, the lcov tracefile rendered by genhtml, the CSV by python3's
# csv module.
. "$(dirname "$0")/../../lib.sh"

dscc -O1 -o ex "$FIXTURES/ex.c" || fail "ex.c does not compile"
[ "$(./ex)" = 30 ] || fail "ex printed the wrong result"
pid=$(run_dsprof info | sed -n 's/^pid: //p')
run_dsprof report name --raw --format json >raw.json
run_dsprof report name --format json >ded.json
run_dsprof records >records.txt

run_dsprof export --format chrome >trace.json || fail "chrome: status $?"
python3 "$CASE/check.py" chrome trace.json "$pid" raw.json || fail "chrome export (trace.json)"

run_dsprof export --format folded --raw >raw.folded || fail "folded --raw: status $?"
python3 "$CASE/check.py" folded-raw raw.folded raw.json || fail "folded --raw (raw.folded)"
run_dsprof export --format folded >ded.folded || fail "folded: status $?"
python3 "$CASE/check.py" folded ded.folded ded.json || fail "folded (ded.folded)"

run_dsprof export --format csv -o records.csv || fail "csv: status $?"
python3 "$CASE/check.py" csv records.csv "$pid" records.txt || fail "csv export (records.csv)"

# The checks can fail: one word's record dropped from the CSV, a folded line
# doubled.
sed '/^3,/d' records.csv >bad.csv
python3 "$CASE/check.py" csv bad.csv "$pid" records.txt 2>/dev/null && fail "check accepts bad.csv"
sed '1p' raw.folded >bad.folded
python3 "$CASE/check.py" folded-raw bad.folded raw.json 2>/dev/null \
  && fail "check accepts bad.folded"

# ---- lcov ----
run_dsprof export --format lcov >cov.info || fail "lcov: status $?"
src=$FIXTURES/ex.c
line_of () { grep -n -- "$1" "$src" | head -1 | cut -d: -f1; }
[ "$(grep -c '^SF:' cov.info)" = 1 ] || fail "want one SF record: $(grep '^SF:' cov.info)"
grep -qx "SF:$src" cov.info || fail "SF is not $src: $(grep '^SF:' cov.info)"
# Entry counts by hand: spin 6 words + 1 jumper, word 6, run 2 (main, worker),
# worker 1, deep 3, jumper 1, main 1.
for f in spin:7 word:6 run:2 worker:1 deep:3 jumper:1 main:1; do
  name=${f%:*} n=${f#*:}
  def=$(line_of "^$name (")
  grep -qx "FN:$def,$name" cov.info || fail "no FN:$def,$name"
  grep -qx "FNDA:$n,$name" cov.info || fail "want FNDA:$n,$name: $(grep "FNDA:.*,$name\$" cov.info)"
done
grep -qx 'FNF:7' cov.info && grep -qx 'FNH:7' cov.info || fail "FNF/FNH"
for m in L-word-body:6 L-run-loop:6 L-jump:1; do
  l=$(line_of "${m%:*}")
  grep -qx "DA:$l,${m#*:}" cov.info || fail "want DA:$l,${m#*:} ($m): $(grep "^DA:$l," cov.info)"
done
# Line counts as annotate shows them: its count column, ##### for 0, nothing
# for a line no block holds.
run_dsprof annotate -o ann >/dev/null
awk -F: '{ c = $1; gsub(/ /, "", c); n = $2 + 0
           if (c == "#####") print "DA:" n ",0"; else if (c != "") print "DA:" n "," c }' \
  "ann/$src.bb" >want-da.txt
grep '^DA:' cov.info >got-da.txt
expect_same want-da.txt got-da.txt
lf=$(wc -l <got-da.txt) lh=$(grep -vc ',0$' got-da.txt)
grep -qx "LF:$lf" cov.info && grep -qx "LH:$lh" cov.info || fail "LF/LH, want $lf/$lh"
tail -1 cov.info | grep -qx end_of_record || fail "no end_of_record"

genhtml -o html cov.info >genhtml.out 2>&1 || fail "genhtml rejects cov.info: $(cat genhtml.out)"
grep -Eq "lines\.+: [0-9.]+% \($lh of $lf lines\)" genhtml.out \
  || fail "genhtml's line summary: $(cat genhtml.out)"
grep -Eq 'functions\.+: 100\.0% \(7 of 7 functions\)' genhtml.out \
  || fail "genhtml's function summary: $(cat genhtml.out)"
page=$(find html -name 'ex.c.gcov.html' | head -1)
[ -n "$page" ] && grep -q 'L-word-body' "$page" || fail "genhtml wrote no page for ex.c"

# ---- bad input and usage ----
set +e
for f in chrome folded lcov csv; do
  run_dsprof export --format $f nothere.data >/dev/null 2>err.txt; rc=$?
  [ $rc = 2 ] && grep -q nothere.data err.txt || fail "$f, missing profile: status $rc"
done
head -c 9000 dsprof.data >cut.data
run_dsprof export --format chrome cut.data >/dev/null 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q cut.data err.txt || fail "truncated profile: status $rc"
# csv's first pass goes to a scratch file in $TMPDIR, gone once done; none
# there: one message, exit 2.
mkdir scratch
TMPDIR=$PWD/scratch run_dsprof export --format csv -o tmpdir.csv || fail "csv, TMPDIR set: status $?"
cmp -s records.csv tmpdir.csv || fail "csv differs with TMPDIR set"
[ -z "$(ls -A scratch)" ] || fail "csv left files in TMPDIR: $(ls -A scratch)"
TMPDIR=$PWD/nothere run_dsprof export --format csv -o none.csv 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q 'temporary file' err.txt && [ ! -e none.csv ] ||
  fail "csv, TMPDIR missing: status $rc ($(cat err.txt))"
run_dsprof export >/dev/null 2>&1; rc=$?
[ $rc = 1 ] || fail "no --format: status $rc"
run_dsprof export --format xml >/dev/null 2>&1; rc=$?
[ $rc = 1 ] || fail "--format xml: status $rc"
exit 0
