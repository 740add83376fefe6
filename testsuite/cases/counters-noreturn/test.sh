# counters-noreturn: a line after a call that did not return (exit in a
# function of the unit, longjmp out of one) has the count of how often control
# came back and reached it, as gcov ends a block after every call that may not
# return: `my_exit (0);' then `break;' shows ##### on the break, not the count
# of the block that called my_exit.  In `dsprof annotate', `dsprof lines' and
# the lcov export, at -O0 and -O2.  The expected count of each marked line is
# written beside it in noreturn.c (/* NAME COUNT */): steps 0 to 4 run, 0 and 3
# longjmp back to main, 4 exits.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/noreturn.c" .
for o in -O0 -O2; do
  dscc $o -o noreturn noreturn.c || fail "noreturn.c does not compile at $o"
  rm -f noreturn.data
  DSPROF_OUT=noreturn.data ./noreturn >noreturn.out || fail "noreturn ($o) exited with status $?"
  [ "$(cat noreturn.out)" = 14 ] || fail "noreturn ($o) printed $(cat noreturn.out), not 14"
  rm -rf bb && run_dsprof annotate -o bb noreturn.data || fail "dsprof annotate ($o): status $?"
  run_dsprof lines noreturn.data >noreturn.lines || fail "dsprof lines ($o): status $?"
  run_dsprof export --format lcov -o noreturn.lcov noreturn.data || fail "dsprof export lcov ($o): status $?"
  n=0
  while IFS=: read -r line text; do
    set -- $(echo "$text" | sed -E 's|.*/\* ([A-Z]+) ([0-9]+) \*/.*|\1 \2|')
    name=$1 want=$2 n=$((n + 1))
    shown=$want
    [ "$want" -eq 0 ] && shown='#####'
    got=$(awk -F: -v l="$line" '$2 + 0 == l { c = $1; gsub(/ /, "", c); print c }' bb/noreturn.c.bb)
    [ "$got" = "$shown" ] || fail "$o: annotate shows '$got' on the $name line ($line), not $shown"
    grep -qx "noreturn.c:$line: $want" noreturn.lines \
      || fail "$o: dsprof lines has no block '$want' on the $name line ($line): $(cat noreturn.lines)"
    grep -qx "DA:$line,$want" noreturn.lcov \
      || fail "$o: the lcov export has no DA:$line,$want for the $name line: $(grep DA: noreturn.lcov)"
  done < <(grep -n '/\* [A-Z]* [0-9]* \*/' noreturn.c)
  [ $n -eq 5 ] || fail "noreturn.c: $n marked lines, not 5"
done
exit 0
