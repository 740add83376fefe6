# graph-callgraph: `dsprof callgraph` (docs/contract.md §5.7) on cg.c, a call graph with
# direct recursion (fact) and a cycle of two functions (even, odd).  The entries,
# their callers and callees with call counts, the cycle and its members are
# derived by hand in cg.c (check.py); times are checked for consistency (exact
# with --raw, within the recorder's deduction otherwise) and against
# `dsprof report`.
. "$(dirname "$0")/../../lib.sh"

dscc -O1 -o cg "$FIXTURES/cg.c" || fail "cg.c does not compile"
[ "$(./cg)" = 2 ] || fail "cg printed the wrong result"

run_dsprof callgraph --raw --unit ns >raw.txt || fail "callgraph --raw: status $?"
run_dsprof report name --raw --format json >raw.json
python3 "$CASE/check.py" raw.txt raw.json 0 || fail "callgraph --raw (raw.txt) is wrong"

# Deducted: the same structure, sums within the deduction (18 records).
run_dsprof callgraph --unit ns >ded.txt || fail "callgraph: status $?"
run_dsprof report name --format json >ded.json
python3 "$CASE/check.py" ded.txt ded.json 50000 || fail "callgraph (ded.txt) is wrong"

# The check can fail: a count changed by hand must be caught.
sed 's|2/5      fact|3/5      fact|' raw.txt >bad.txt
cmp -s raw.txt bad.txt && fail "no 2/5 fact line to change in raw.txt"
python3 "$CASE/check.py" bad.txt raw.json 0 2>/dev/null && fail "check.py accepts a wrong count"

# --dim event: every record is a `call`: one value, 2 calls from the top level,
# 16 from itself.
run_dsprof callgraph --dim event --raw --unit ns >event.txt
grep -Eq '^\[1\] +100\.0 +[0-9]+ +0 +2\+16  call \[1\]$' event.txt \
  || fail "--dim event: want '[1] 100.0 ... 2+16 call [1]': $(cat event.txt)"
grep -Eq '^ +[0-9]+ +0 +2/2 +<spontaneous>$' event.txt || fail "--dim event: <spontaneous> 2/2"
[ "$(grep -Ec '^ +16 +call \[1\]$' event.txt)" = 2 ] \
  || fail "--dim event: want 'call' as its own caller and callee, 16 calls"
[ "$(grep -c '^\[' event.txt)" = 1 ] || fail "--dim event: want one entry"

# Default unit is readable; -o writes the same text.
run_dsprof callgraph >auto.txt
grep -q '^Call graph by name: 18 records, profiled time [0-9.]* ms$' auto.txt \
  || fail "default unit: $(head -1 auto.txt)"
run_dsprof callgraph -o out.txt && expect_same auto.txt out.txt

# The HTML report shows it.
run_dsprof html -o page.html || fail "html: status $?"
grep -q '&lt;cycle 1 as a whole&gt;' page.html || fail "html has no call graph with the cycle"

# Bad input: exit 2 with a message naming the file; usage errors exit 1.
set +e
run_dsprof callgraph nothere.data 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q 'nothere.data' err.txt || fail "missing profile: status $rc, $(cat err.txt)"
head -c 6000 dsprof.data >cut.data
run_dsprof callgraph cut.data >/dev/null 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q 'cut.data' err.txt || fail "truncated profile: status $rc, $(cat err.txt)"
printf 'not a profile at all' >junk.data
run_dsprof callgraph junk.data >/dev/null 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q 'junk.data' err.txt || fail "junk profile: status $rc"
run_dsprof callgraph --bogus >/dev/null 2>&1; rc=$?
[ $rc = 1 ] || fail "unknown option: status $rc"
run_dsprof callgraph --unit hours >/dev/null 2>&1; rc=$?
[ $rc = 1 ] || fail "bad --unit: status $rc"
run_dsprof callgraph -o /nonexistent/dir/x.txt >/dev/null 2>&1; rc=$?
[ $rc = 2 ] || fail "unwritable -o: status $rc"
set -e
run_dsprof callgraph --help | grep -q '^usage: dsprof callgraph' || fail "--help"
exit 0
