# graph-dot: `dsprof dot` (docs/contract.md §5.8) on the call graph of graph-callgraph's cg.c
# (counts by hand in cg.c): GraphViz's dot accepts it and draws every node and
# edge; values that need quoting (export-formats' ex.c, --dim s: quotes, a
# newline, bytes that are not UTF-8) keep the file valid.
. "$(dirname "$0")/../../lib.sh"

dscc -O1 -o cg "$FIXTURES/cg.c" || fail "cg.c does not compile"
./cg >/dev/null || fail "cg failed"

run_dsprof dot >g.dot || fail "dot: status $?"
dot -Tsvg g.dot -o g.svg 2>dot.err || fail "GraphViz rejects g.dot: $(cat dot.err)"
[ -s dot.err ] && fail "GraphViz warns: $(cat dot.err)"
python3 "$CASE/check.py" g.dot g.svg \
  '[["top",1],["fact",7],["even",3],["odd",2],["leaf",5]]' \
  '[["top","fact",1],["top","even",1],["top","leaf",2],["fact","fact",5],
    ["fact","leaf",2],["even","odd",2],["odd","even",2],["even","leaf",1]]' \
  || fail "dot by name is wrong (g.dot)"

# The check can fail.
sed 's/-> \(v[0-9]*\) \[label="5"/-> \1 [label="6"/' g.dot >bad.dot
cmp -s g.dot bad.dot && fail "no edge labelled 5 in g.dot"
python3 "$CASE/check.py" bad.dot g.svg '[["top",1],["fact",7],["even",3],["odd",2],["leaf",5]]' \
  '[["top","fact",1],["top","even",1],["top","leaf",2],["fact","fact",5],
    ["fact","leaf",2],["even","odd",2],["odd","even",2],["even","leaf",1]]' 2>/dev/null \
  && fail "check.py accepts a wrong edge count"

# --dim event: one node, 18 records, 16 of them inside another; -o.
run_dsprof dot --dim event -o e.dot || fail "dot --dim event -o: status $?"
dot -Tsvg e.dot -o e.svg || fail "GraphViz rejects e.dot"
python3 "$CASE/check.py" e.dot e.svg '[["call",18]]' '[["call","call",16]]' \
  || fail "dot --dim event is wrong (e.dot)"

# Values to quote: by the string parameter s of ex.c's word; the other records
# have no s (the empty value, shown "").
dscc -O1 -o ex "$FIXTURES/ex.c" || fail "ex.c does not compile"
rm -f dsprof.data
./ex >/dev/null || fail "ex failed"
run_dsprof dot --dim s >s.dot
dot -Tsvg s.dot -o s.svg 2>dot.err || fail "GraphViz rejects s.dot: $(cat dot.err)"
[ -s dot.err ] && fail "GraphViz warns on s.dot: $(cat dot.err)"
python3 "$CASE/check.py" s.dot s.svg \
  '[["plain",2],["\"a,b \\\"q\\\"\\nline\"",2],["\"\\xff\\xfe bytes\"",2],["\"\"",9]]' \
  '[["\"\"","plain",2],["\"\"","\"a,b \\\"q\\\"\\nline\"",2],
    ["\"\"","\"\\xff\\xfe bytes\"",2],["\"\"","\"\"",5]]' \
  || fail "dot --dim s is wrong (s.dot)"

set +e
run_dsprof dot nothere.data >/dev/null 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q nothere.data err.txt || fail "missing profile: status $rc"
run_dsprof dot --nope >/dev/null 2>&1; rc=$?
[ $rc = 1 ] || fail "unknown option: status $rc"
exit 0
