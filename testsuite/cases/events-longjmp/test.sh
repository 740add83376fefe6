# events-longjmp: longjmp out of nested annotated functions (docs/contract.md §4.4).  The
# events a jump leaves open are closed, complete=false, where the repair is
# noticed (the next Start, manual start or dsprof_dim_* call in an outer frame,
# or the Finish of the event that called setjmp); the tree stays intact and
# later events are recorded as usual.
# expected.txt (records) and trace.txt (the event kinds in order) are derived
# from jump.c by hand.  At -O0 and -O2.
. "$(dirname "$0")/../../lib.sh"

for opt in O0 O2; do
  mkdir "$opt" && cd "$opt"
  cp "$FIXTURES/jump.c" .
  dscc -"$opt" -o jump jump.c || fail "jump.c does not compile at -$opt"
  ./jump >out || fail "jump (-$opt) exited with status $?"
  [ "$(cat out)" = 36 ] || fail "jump (-$opt) printed $(cat out), not 36"

  for f in inner middle after outer guard; do
    echo "s/@$f@/$(grep -n "^$f (" jump.c | cut -d: -f1)/g"
  done >subst.sed
  sed -f subst.sed "$CASE/expected.txt" >expected
  run_dsprof records >records.raw 2>err || fail "dsprof records: status $? ($(cat err))"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
  expect_same expected records

  # The event stream: Abandon where each repair was noticed, nothing lost.
  run_dsprof trace >trace.raw 2>err || fail "dsprof trace: status $? ($(cat err))"
  awk '{ name = ""; for (i = 4; i <= NF; i++) if ($i ~ /^name=/) name = substr($i, 6)
         print $3, name }' trace.raw >trace
  expect_same "$CASE/trace.txt" trace
  awk '$3 == "Abandon" && $NF != "complete=false" { print; bad = 1 }
       $3 == "Finish" && $NF != "complete=true" { print; bad = 1 }
       END { exit bad }' trace.raw >&2 || fail "trace: Abandon/Finish with the wrong complete"

  run_dsprof info --count >info 2>err || fail "dsprof info: status $? ($(cat err))"
  for want in 'threads: 1' 'events: 46' 'dropped events: 0' 'repaired events: 14' \
              'stray dimensions: 1'; do
    grep -Eq "^$want( |\$)" info || fail "dsprof info (-$opt) lacks '$want': $(cat info)"
  done
  cd ..
done
exit 0
