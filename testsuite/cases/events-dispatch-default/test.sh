# events-dispatch-default: which case labels are opcodes.  At -O0, -O2, -Os,
# dispatch=run on oneline.c and dispatch=duff on duff.c:
#  - a `default:' of the source is an opcode even on the switch's own line
#    (oneline.c, a dispatch a macro writes on one line): 100 op records, 33
#    of them the default's, on that line;
#  - the default GCC gives a switch without one is none: Duff's device
#    (duff.c, the case labels inside a loop, no default) has one op record
#    per call, on its case's line, none named `default' nor on line 0, and
#    the record ends where control leaves the switch for code that never
#    dispatches again, so the event after it (after) has no op record
#    around it.
. "$(dirname "$0")/../../lib.sh"

for o in -O0 -O2 -Os; do
  dscc -w $o -fplugin-arg-dsprof-dispatch=run -o oneline "$CASE/oneline.c" 2>err ||
    fail "$o: oneline.c does not compile: $(cat err)"
  DSPROF_OUT=$PWD/oneline$o.data ./oneline >out || fail "$o: oneline: status $?"
  [ "$(cat out)" = 198 ] || fail "$o: oneline printed $(cat out)"
  run_dsprof report name line --where event=op --format csv oneline$o.data >oneline$o.csv ||
    fail "$o: dsprof report: status $?"
  awk -F, '$1 == 2 { print $2, $3, $10 }' oneline$o.csv | sort >ops
  printf '%s\n' "0 6 33" "1 6 33" "2 6 1" "default 6 33" >want
  diff -u want ops >&2 || fail "$o: oneline.c's op records (name, line, count) differ"

  dscc -w $o -fplugin-arg-dsprof-dispatch=duff -o duff "$CASE/duff.c" 2>err ||
    fail "$o: duff.c does not compile: $(cat err)"
  DSPROF_OUT=$PWD/duff$o.data ./duff >out || fail "$o: duff: status $?"
  [ "$(cat out)" = "$(gcc -w -o plain "$CASE/duff.c" && ./plain)" ] || fail "$o: duff printed $(cat out)"
  run_dsprof report name line --where event=op --format csv duff$o.data >duff$o.csv ||
    fail "$o: dsprof report duff: status $?"
  awk -F, '$1 == 2 { print $2, $3, $10 }' duff$o.csv | sort -n >ops
  # count % 8 for count 1..16: each of 0..7 twice; case K (1 to 7) is on line 26 - K,
  # case 0 on line 18.
  for k in 0 1 2 3 4 5 6 7; do
    echo "$k $([ $k = 0 ] && echo 18 || echo $((26 - k))) 2"
  done >want
  diff -u want ops >&2 || fail "$o: duff.c's op records (name, line, count) differ"
  run_dsprof report parent --where name=after --format csv duff$o.data >after.csv ||
    fail "$o: dsprof report parent: status $?"
  [ "$(awk -F, 'NR > 1 { print $2, $9 }' after.csv)" = "(top) 16" ] ||
    fail "$o: after's records are not top-level: $(cat after.csv)"
done
exit 0
