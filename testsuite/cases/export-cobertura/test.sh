# export-cobertura: `dsprof export --format cobertura` (docs/contract.md §5.8)
# on a program of two directories (main.c; lib/scale.c), with a branch taken
# one way only, a switch way never taken and a function never called.
# 1. The XML is valid by Cobertura's coverage-04.dtd (xmllint --dtdvalid, the
#    DTD beside this script, no network).
# 2. Its totals, overall and per file, are the lcov export's and `dsprof
#    summary`'s (check.py); its <source> is the directory of both files and
#    its filenames are below it, a package per directory.
# 3. By hand: main.c's if (line 17) 1 of its 2 branches taken, its switch
#    (line 19) 1 of 3, scale.c's for (line 7) 2 of 2; unused's lines never ran.
# 4. The checks can fail: a required attribute dropped, a line's hits zeroed.
# 5. An unknown format is an error naming every format, with no output.
. "$(dirname "$0")/../../lib.sh"

mkdir -p lib
cp "$CASE/main.c" .
cp "$CASE/lib/scale.c" lib/
dscc -O0 -o prog main.c lib/scale.c || fail "the program does not compile"
./prog || fail "prog: status $?"

# ---- 1. valid ----
run_dsprof export --format cobertura -o cob.xml || fail "cobertura: status $?"
xmllint --nonet --noout --dtdvalid "$CASE/coverage-04.dtd" cob.xml 2>lint.txt ||
  fail "not valid by coverage-04.dtd: $(cat lint.txt)"

# ---- 2. the figures of lcov and summary ----
run_dsprof export --format lcov >cov.info || fail "lcov: status $?"
run_dsprof summary --format csv >summary.csv || fail "summary: status $?"
python3 "$CASE/check.py" cob.xml cov.info summary.csv "$PWD" ||
  fail "cobertura's figures differ from lcov's or summary's"

# ---- 3. by hand ----
grep -q '<class name="scale.c" filename="lib/scale.c"' cob.xml ||
  fail "no class lib/scale.c"
grep -q '<package name="lib"' cob.xml || fail "no package lib"
sed -n '/<class name="main.c"/,/<\/class>/p' cob.xml >main.xml
sed -n '/<class name="scale.c"/,/<\/class>/p' cob.xml >scale.xml
grep -q '<line number="17" hits="1" branch="true" condition-coverage="50% (1/2)"/>' main.xml ||
  fail "main.c:17 is not 1 of 2 branches: $(grep '"17"' main.xml)"
grep -q '<line number="19" hits="1" branch="true" condition-coverage="33% (1/3)"/>' main.xml ||
  fail "main.c:19 is not 1 of 3 branches: $(grep '"19"' main.xml)"
grep -q '<line number="7" hits="4" branch="true" condition-coverage="100% (2/2)"/>' scale.xml ||
  fail "scale.c:7 is not 2 of 2 branches: $(grep '"7"' scale.xml)"
grep -q '<method name="unused" signature="" line-rate="0.0000"' main.xml ||
  fail "unused ran: $(grep unused main.xml)"

# ---- 4. the checks can fail ----
sed '0,/ branch-rate="[^"]*"/s///' cob.xml >bad.xml
cmp -s bad.xml cob.xml && fail "bad.xml is cob.xml"
xmllint --nonet --noout --dtdvalid "$CASE/coverage-04.dtd" bad.xml 2>/dev/null &&
  fail "xmllint accepts a coverage without branch-rate"
sed 's/<line number="8" hits="3"/<line number="8" hits="0"/g' cob.xml >bad.xml
cmp -s bad.xml cob.xml && fail "bad.xml is cob.xml"
python3 "$CASE/check.py" bad.xml cov.info summary.csv "$PWD" 2>/dev/null &&
  fail "check accepts a line's hits zeroed"

# ---- 5. an unknown format ----
set +e
run_dsprof export --format xml >out.txt 2>err.txt; rc=$?
set -e
[ $rc = 1 ] && [ ! -s out.txt ] || fail "--format xml: status $rc, $(cat out.txt err.txt)"
grep -qx "dsprof export: --format wants chrome, folded, lcov, cobertura, csv, pprof or perfetto, not 'xml'" err.txt ||
  fail "--format xml: $(cat err.txt)"
echo "export-cobertura: ok"
