# counters-labels: a line holding a case, default or named label, or a macro
# that expands to one (vmcase (OP_ADD) as in Lua's lvm.c), has the count of the
# block the label starts, as gcov gives it: in `dsprof annotate' (##### for a
# label never reached), in `dsprof lines' (the block's line is the label's) and
# in the lcov export (DA:LINE,COUNT).  At -O0 and -O2.  The expected count of
# each label is written beside it in labels.c (/* NAME COUNT */), worked out by
# hand: the program runs the code twice, halting at each OP_HALT.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/labels.c" .
for o in -O0 -O2; do
  dscc $o -o labels labels.c || fail "labels.c does not compile at $o"
  rm -f labels.data
  DSPROF_OUT=labels.data ./labels >labels.out || fail "labels ($o) exited with status $?"
  [ "$(cat labels.out)" = 2 ] || fail "labels ($o) printed $(cat labels.out), not 2"
  rm -rf bb && run_dsprof annotate -o bb labels.data || fail "dsprof annotate ($o): status $?"
  run_dsprof lines labels.data >labels.lines || fail "dsprof lines ($o): status $?"
  run_dsprof export --format lcov -o labels.lcov labels.data || fail "dsprof export lcov ($o): status $?"
  n=0
  while IFS=: read -r line text; do
    set -- $(echo "$text" | sed -E 's|.*/\* ([A-Z]+) ([0-9]+) \*/.*|\1 \2|')
    name=$1 want=$2 n=$((n + 1))
    shown=$want
    [ "$want" -eq 0 ] && shown='#####'
    got=$(awk -F: -v l="$line" '$2 + 0 == l { c = $1; gsub(/ /, "", c); print c }' bb/labels.c.bb)
    [ "$got" = "$shown" ] || fail "$o: annotate shows '$got' on the $name label (line $line), not $shown"
    grep -qx "labels.c:$line: $want" labels.lines \
      || fail "$o: dsprof lines has no block '$want' on the $name label (line $line): $(cat labels.lines)"
    grep -qx "DA:$line,$want" labels.lcov \
      || fail "$o: the lcov export has no DA:$line,$want for the $name label: $(grep DA: labels.lcov)"
  done < <(grep -n '/\* [A-Z]* [0-9]* \*/' labels.c)
  [ $n -eq 6 ] || fail "labels.c: $n marked labels, not 6"
done
exit 0
