# export-merge: `dsprof merge -o OUT IN...` (docs/contract.md §5.8) over runs of two programs
# (graph-callgraph's cg.c twice, export-formats' ex.c once, whose event sites
# have clashing ids in their own profiles): the merged profile reads as the
# inputs read together - same lines, records, trace, report and call graph -
# with each input's threads renumbered after the previous input's.
. "$(dirname "$0")/../../lib.sh"

dscc -O1 -o cg "$FIXTURES/cg.c" || fail "cg.c does not compile"
dscc -O1 -o ex "$FIXTURES/ex.c" || fail "ex.c does not compile"
DSPROF_OUT=a.data ./cg >/dev/null && DSPROF_OUT=b.data ./ex >/dev/null \
  && DSPROF_OUT=c.data ./cg >/dev/null || fail "a program failed"

run_dsprof merge -o m.data a.data b.data c.data || fail "merge: status $?"

# Counters: every unit once, counts summed.
run_dsprof lines a.data b.data c.data >want-lines.txt
run_dsprof lines m.data >got-lines.txt
expect_same want-lines.txt got-lines.txt
# cg.c's lines count what its two runs counted, added line by line.
run_dsprof lines a.data >a-lines.txt
run_dsprof lines c.data >c-lines.txt
paste -d'|' a-lines.txt c-lines.txt \
  | awk -F'|' '{ split($1, x, ": "); split($2, y, ": "); printf "%s: %.0f\n", x[1], x[2] + y[2] }' >sum.txt
grep "^$(head -1 a-lines.txt | cut -d: -f1):" got-lines.txt >cg-lines.txt
expect_same sum.txt cg-lines.txt

run_dsprof info m.data >info.txt || fail "info m.data: status $?"
grep -qx 'units: 2' info.txt || fail "want 2 units: $(cat info.txt)"
grep -qx 'threads: 4' info.txt || fail "want 4 threads (1 + 2 + 1): $(cat info.txt)"
grep -qx 'repaired events: 4' info.txt || fail "want ex's 4 repaired events: $(cat info.txt)"
grep -qx "pid: $(run_dsprof info a.data | sed -n 's/^pid: //p')" info.txt \
  || fail "pid is not the first input's"

# Records and trace: the same but for thread numbers; a's thread 1 stays 1,
# b's 1 and 2 become 2 and 3, c's 1 becomes 4.
run_dsprof records a.data b.data c.data | sed 's/ thread=[0-9]*//' >want-rec.txt
run_dsprof records m.data >rec.txt
sed 's/ thread=[0-9]*//' rec.txt >got-rec.txt
expect_same want-rec.txt got-rec.txt
got=$(grep -o ' thread=[0-9]*' rec.txt | sort | uniq -c | awk '{ printf "%s%s", sep, $1 $2; sep = " " }')
[ "$got" = "18thread=1 10thread=2 5thread=3 18thread=4" ] || fail "records by thread: $got"
run_dsprof trace a.data b.data c.data | sed 's/ t[0-9]* / /; s/ thread=[0-9]*//' >want-trace.txt
run_dsprof trace m.data | sed 's/ t[0-9]* / /; s/ thread=[0-9]*//' >got-trace.txt
expect_same want-trace.txt got-trace.txt

# Reports: raw times are the inputs' exactly (the run time is their sum).
run_dsprof report name --raw --format json a.data b.data c.data >want-rep.json
run_dsprof report name --raw --format json m.data >got-rep.json
expect_same want-rep.json got-rep.json
run_dsprof callgraph --raw --unit ns a.data b.data c.data >want-cg.txt
run_dsprof callgraph --raw --unit ns m.data >got-cg.txt
expect_same want-cg.txt got-cg.txt
run_dsprof report name m.data >/dev/null || fail "report of m.data: status $?"

# OUT may be an input; a merged profile merges again (c's thread 1 after m's 4).
cp a.data a2.data
run_dsprof merge -o a2.data a2.data b.data c.data || fail "merge into an input: status $?"
run_dsprof lines a2.data >in-place.txt
expect_same want-lines.txt in-place.txt
run_dsprof merge -o mm.data m.data c.data || fail "merge of a merged profile: status $?"
run_dsprof lines a.data b.data c.data c.data >want4.txt
run_dsprof lines mm.data >got4.txt
expect_same want4.txt got4.txt
[ "$(run_dsprof records mm.data | grep -c ' thread=5 ')" = 18 ] || fail "mm.data: c's thread is not 5"

# Bad input: exit 2, a message naming the file, no output written; usage: 1.
set +e
head -c 10000 b.data >cut.data
run_dsprof merge -o bad.data a.data cut.data 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q cut.data err.txt || fail "truncated input: status $rc, $(cat err.txt)"
[ -e bad.data ] && fail "bad.data written from a bad input"
run_dsprof merge -o bad.data a.data nothere.data 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q nothere.data err.txt || fail "missing input: status $rc"
[ -e bad.data ] && fail "bad.data written from a missing input"
ls bad.data.* 2>/dev/null && fail "temporary files left behind"
run_dsprof merge a.data >/dev/null 2>&1; rc=$?
[ $rc = 1 ] || fail "no -o: status $rc"
run_dsprof merge -o x.data >/dev/null 2>&1; rc=$?
[ $rc = 1 ] || fail "no input: status $rc"
run_dsprof merge -o /nonexistent/dir/x.data a.data >/dev/null 2>err.txt; rc=$?
[ $rc = 2 ] || fail "unwritable output: status $rc"
exit 0
