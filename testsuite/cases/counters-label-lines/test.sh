# counters-label-lines: a line that holds only a label has gcov's count of it
# (docs/contract.md §3): how often the conditional jumps that carry the label's
# location were taken, when there are such jumps (an `if' whose end is the
# label, a loop's exit onto it), else the count of the block the label starts.
# labellines.c holds the shapes where the two differ from the count of the
# label's block: an empty `default:' whose block GCC joins with the code after
# the switch and the if, `ret:' reached by gotos, by falling in and by a loop's
# exit, `retry:' reached only by falling in after an if, `end:' before the
# return; and shapes where they agree (`case' lines, an empty `case A:'
# falling into `case B:', a `default:' followed by a label).
#
# One binary built with the plugin AND gcc --coverage, at -O0 and at -O2:
#   - at -O0, every marked line (/* LABEL COUNT */, COUNT worked out by hand,
#     `-' for a line no block holds) has that count in gcov's listing and in
#     `dsprof annotate', and compare.py finds no difference between the two
#     tools on any line, block or function (testsuite/fixtures/compare.py: it
#     accepts no line gcov says never ran, and a label's line must have gcov's
#     line count);
#   - at -O2 dsprof's listing is the -O0 one (the counts do not depend on the
#     -O level), so every marked line again has gcov's -O0 count.  gcov's own
#     -O2 counts are not the reference: GCC's cleanup at -O2 moves the jumps.
. "$(dirname "$0")/../../lib.sh"

command -v gcov >/dev/null || fail "gcov is needed (scripts/deps.sh)"
src=labellines.c
cp "$CASE/$src" .
expected=$(gcc -o plain "$src" && ./plain) || fail "$src does not build or run without the plugin"

# count_column FILE LINE: the count column of LINE in a gcov or dsprof listing,
# blanks and `*' dropped ("-" and blank both print as -).
count_column () {
  awk -F: -v l="$2" '$2 + 0 == l { c = $1; gsub(/[ *]/, "", c); print (c == "" ? "-" : c); exit }' "$1"
}

for o in O0 O2; do
  rm -rf "$o" && mkdir "$o"
  (
    cd "$o"
    cp "../$src" .
    dscc -$o --coverage -o labellines "$src" || fail "$src does not compile at $o"
    out=$(DSPROF_OUT=labellines.data ./labellines) || fail "labellines ($o) exited with status $?"
    [ "$out" = "$expected" ] || fail "labellines ($o) printed $out, not $expected"
    gcov "$src" >gcov.log 2>&1 || fail "gcov ($o): $(head -3 gcov.log)"
    run_dsprof annotate -o bb labellines.data || fail "dsprof annotate ($o): status $?"
    run_dsprof lines labellines.data >lines || fail "dsprof lines ($o): status $?"
    run_dsprof export --format lcov -o lcov labellines.data || fail "dsprof export ($o): status $?"
  ) || exit 1
done

n=0
while IFS=: read -r line text; do
  want=$(echo "$text" | sed -E 's|.*/\* LABEL ([-0-9]+) \*/.*|\1|')
  [ "$want" = 0 ] && want='#####'
  g=$(count_column O0/$src.gcov "$line")
  [ "$g" = "$want" ] || fail "gcov's listing shows '$g' on line $line, not $want:$text"
  for o in O0 O2; do
    d=$(count_column $o/bb/$src.bb "$line")
    [ "$d" = "$g" ] || fail "$o: dsprof annotate shows '$d' on line $line, gcov $g:$text"
  done
  n=$((n + 1))
done < <(grep -n '/\* LABEL [-0-9]* \*/' "$src")
[ "$n" -eq 11 ] || fail "$src: $n marked lines, not 11"

cmp -s O0/bb/$src.bb O2/bb/$src.bb ||
  fail "dsprof's listings at -O0 and -O2 differ: $(diff O0/bb/$src.bb O2/bb/$src.bb | head -5)"

# compare.py on the -O0 build: every line, block and function.
mkdir -p gcov src
cp "$src" src/ && cp O0/labellines.gcno src/labellines.gcno
(
  cd O0
  gcov --json-format --stdout labellines.gcda >../gcov/labellines.json 2>/dev/null &&
    gcov -D -n labellines.gcda >../gcov/labellines.debug 2>&1
) || fail "gcov --json-format failed"
python3 "$FIXTURES/compare.py" src O0/bb O0/lines O0/lcov gcov >compare.out 2>&1 || {
  cat compare.out >&2
  fail "dsprof's counts differ from gcov's (above)"
}
cat compare.out
exit 0
