# report-names: every view names a record by one rule (docs/contract.md §4.4):
# its `name` dimension when that is a string, else its event type.  A manual
# event's `name` is its type from its Start on, and one added later (names.c
# adds the string "add" to one, the integer 7 to the other) does not replace
# it.  names.c makes the paths Op;leaf, Op;Op;leaf and ;leaf (a manual event
# of the empty type, whose folded frame is ""): folded export, the html flame
# graph by record and by name path, and the report's parent dimension all
# show those names and no other.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/names.c" .
dscc -o names names.c || fail "names.c does not compile"
./names || fail "names exited with status $?"

# Folded: the leaves' stacks, and no other name.
run_dsprof export --format folded >folded 2>err || fail "export folded: status $? ($(cat err))"
cut -d' ' -f1 folded | grep -qx 'Op;leaf' || fail "no Op;leaf stack: $(cat folded)"
cut -d' ' -f1 folded | grep -qx 'Op;Op;leaf' || fail "no Op;Op;leaf stack: $(cat folded)"
cut -d' ' -f1 folded | grep -qx '"";leaf' || fail "no \"\";leaf stack: $(cat folded)"
cut -d' ' -f1 folded | tr ';' '\n' | grep -vx 'Op\|leaf\|""' &&
  fail "a stack with another name: $(cat folded)"

# Html, one box per record: the manual events labelled by their type.
run_dsprof html -o exact.html 2>err || fail "dsprof html: status $? ($(cat err))"
# (Its name, not its drawn label: a box a busy machine left narrow has none.)
grep -q 'data-name="Op"' exact.html || fail "no box named Op"
grep -q '>add</text>\|>7</text>\|data-name="add"\|data-name="7"' exact.html &&
  fail "a box labelled by an added name"

# Html, one box per name path.
run_dsprof html --records 0 -o paths.html 2>err || fail "dsprof html --records 0: status $?"
for p in Op 'Op;leaf' 'Op;Op' 'Op;Op;leaf' ';leaf'; do
  grep -q "^path: $p\$" paths.html || grep -q "<title>path: $p\$" paths.html ||
    fail "no path $p in the flame graph"
done

# The report's parent dimension.
run_dsprof report --format csv parent name >report.csv 2>err ||
  fail "dsprof report: status $? ($(cat err))"
grep -qx "2,Op,leaf,.*,2,[0-9.]*" report.csv || fail "no leaf under Op: $(cat report.csv)"
cut -d, -f2,3 report.csv | grep -q 'add\|7' && fail "a parent named by an added name: $(cat report.csv)"
exit 0
