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
# And labels heading loops: `init:' that two gotos jump back to, Duff's
# device's `case 0:', a `case' heading a for (;;); with -Wformat-overflow
# (-Wall) GCC reshapes such loops before gcov instruments, and gcov counts
# some of these lines differently: dsprof must follow.  And the same `case'
# heading a for (;;) in a function that calls a function declared const: the
# cfg cleanup that such a call asks for gives the loop a forwarder block
# holding the labels before gcov instruments, with or without -Wall; and in a
# function into which an always_inline function is inlined (also at -O0),
# which asks for the same cleanup.  And a label heading a do-while in a block
# of its own (GCC gives a user label and the loop's label a block each) that
# gotos from after the loop jump back to: with -Wall its line counts the gotos.
# And a parser's actions as byacc writes them (yyact), whose #line directives
# put each `case' label on the line of labellines.y after its rule's action:
# gcov counts that line by the case above, whose block hangs on it (its
# largest line), not by the action on it.  And pcre2's backtracking
# (backtrack): RRETURN's gotos to RETURN_SWITCH, a label heading a loop with
# several latches in a function that calls a const function, where the
# cleanup before gcov's instrumentation leaves one RRETURN off the label's
# line.
#
# One binary built with the plugin AND gcc --coverage, at -O0 and at -O2, each
# without and with -Wall:
#   - at -O0, every marked line (/* LABEL COUNT [-Wall COUNT] */, worked out by
#     hand, `-' for a line no block holds) has that count in gcov's listing and
#     in `dsprof annotate', and compare.py finds no difference between the two
#     tools on any line, block or function (testsuite/fixtures/compare.py: it
#     accepts no line gcov says never ran, and a label's line must have gcov's
#     line count);
#   - at -O2 dsprof's listing is the -O0 one with the same warnings (the
#     counts do not depend on the -O level), so every marked line again has
#     gcov's -O0 count.  gcov's own -O2 counts are not the reference: GCC's
#     cleanup at -O2 moves the jumps.
. "$(dirname "$0")/../../lib.sh"

command -v gcov >/dev/null || fail "gcov is needed (scripts/deps.sh)"
src=labellines.c
cp "$CASE/$src" "$CASE/labellines.y" .
expected=$(gcc -o plain "$src" && ./plain) || fail "$src does not build or run without the plugin"

# count_column FILE LINE: the count column of LINE in a gcov or dsprof listing,
# blanks and `*' dropped ("-" and blank both print as -).
count_column () {
  awk -F: -v l="$2" '$2 + 0 == l { c = $1; gsub(/[ *]/, "", c); print (c == "" ? "-" : c); exit }' "$1"
}

# variant_flags V: the gcc options of variant V (O0, O2, O0-Wall, O2-Wall).
variant_flags () {
  case $1 in *-Wall) echo "-${1%-Wall} -Wall -Wno-unused-label" ;; *) echo "-$1" ;; esac
}

for o in O0 O2 O0-Wall O2-Wall; do
  rm -rf "$o" && mkdir "$o"
  (
    cd "$o"
    cp "../$src" ../labellines.y .
    # shellcheck disable=SC2046
    dscc $(variant_flags $o) --coverage -o labellines "$src" || fail "$src does not compile at $o"
    out=$(DSPROF_OUT=labellines.data ./labellines) || fail "labellines ($o) exited with status $?"
    [ "$out" = "$expected" ] || fail "labellines ($o) printed $out, not $expected"
    gcov "$src" >gcov.log 2>&1 || fail "gcov ($o): $(head -3 gcov.log)"
    run_dsprof annotate -o bb labellines.data || fail "dsprof annotate ($o): status $?"
    run_dsprof lines labellines.data >lines || fail "dsprof lines ($o): status $?"
    run_dsprof export --format lcov -o lcov labellines.data || fail "dsprof export ($o): status $?"
  ) || exit 1
done

n=0
for f in $src labellines.y; do
while IFS=: read -r line text; do
  # shellcheck disable=SC2046
  set -- $(echo "$text" | sed -E 's|.*/\* LABEL ([-0-9]+)( -Wall ([0-9]+))? \*/.*|\1 \3|')
  for w in "" -Wall; do
    want=$1
    [ -n "$w" ] && [ $# -gt 1 ] && want=$2
    [ "$want" = 0 ] && want='#####'
    g=$(count_column O0$w/$f.gcov "$line")
    [ "$g" = "$want" ] || fail "gcov's listing (O0$w) shows '$g' on $f:$line, not $want:$text"
    for o in O0$w O2$w; do
      d=$(count_column $o/bb/$f.bb "$line")
      [ "$d" = "$g" ] || fail "$o: dsprof annotate shows '$d' on $f:$line, gcov $g:$text"
    done
  done
  n=$((n + 1))
done < <(grep -n '/\* LABEL [-0-9]*\( -Wall [0-9]*\)\? \*/' "$f")
done
[ "$n" -eq 20 ] || fail "$src, labellines.y: $n marked lines, not 20"

for w in "" -Wall; do
  for f in $src labellines.y; do
    cmp -s O0$w/bb/$f.bb O2$w/bb/$f.bb ||
      fail "dsprof's listings of $f at -O0 and -O2 differ ($w): $(diff O0$w/bb/$f.bb O2$w/bb/$f.bb | head -5)"
  done
done

# compare.py on the -O0 builds: every line, block and function.
for o in O0 O0-Wall; do
  mkdir -p "gcov-$o" "src-$o"
  cp "$src" labellines.y "src-$o/" && cp $o/labellines.gcno "src-$o/labellines.gcno"
  (
    cd $o
    gcov --json-format --stdout labellines.gcda >../gcov-$o/labellines.json 2>/dev/null &&
      gcov -D -n labellines.gcda >../gcov-$o/labellines.debug 2>&1
  ) || fail "gcov --json-format failed ($o)"
  python3 "$FIXTURES/compare.py" "src-$o" $o/bb $o/lines $o/lcov "gcov-$o" >"compare-$o.out" 2>&1 || {
    cat "compare-$o.out" >&2
    fail "dsprof's counts differ from gcov's ($o, above)"
  }
  cat "compare-$o.out"
done
exit 0
