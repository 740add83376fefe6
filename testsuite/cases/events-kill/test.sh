# events-kill: events recorded before a SIGKILL are in the profile (docs/contract.md §3
# durability, §4.4).  kill runs 50 times outer (i) > inner (i, 0), inner (i, 1),
# then waits inside hang (50) > snooze (1).  The file is read while the process
# waits (a running program's profile), then after kill -9: both times the 150
# complete records and the two open ones, complete=false.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/kill.c" .
dscc -O2 -o kill kill.c || fail "kill.c does not compile"
line () { grep -n "^$1 (" kill.c | cut -d: -f1; }
INNER=$(line inner) OUTER=$(line outer) HANG=$(line hang) SNOOZE=$(line snooze)

# The expected records, from kill.c's logic.
{
  for i in $(seq 0 49); do
    n=$((3 * i + 1))
    echo "#$n event=inner name=inner file=kill.c line=$INNER thread=1 i=$i k=0 result=$((2 * i)) complete=true"
    echo "#$((n + 1)) event=inner name=inner file=kill.c line=$INNER thread=1 i=$i k=1 result=$((2 * i + 1)) complete=true"
    echo "#$((n + 2)) event=outer name=outer file=kill.c line=$OUTER thread=1 i=$i result=$((4 * i + 1)) complete=true -> #$n #$((n + 1))"
  done
  echo "#151 event=snooze name=snooze file=kill.c line=$SNOOZE thread=1 n=1 complete=false"
  echo "#152 event=hang name=hang file=kill.c line=$HANG thread=1 n=50 complete=false -> #151"
} >expected

# check WHEN: the records now.
check () {
  run_dsprof records >records.raw 2>err || fail "dsprof records ($1): status $? ($(cat err))"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
  expect_same expected records
}

./kill 50 >out &
pid=$!
for _ in $(seq 200); do
  grep -q '^ready 1$' out && break
  sleep 0.05
done
grep -q '^ready 1$' out || { kill -9 "$pid"; fail "kill never got inside snooze"; }
check "while running"
kill -9 "$pid"
wait "$pid" && fail "kill was not killed"
check "after kill -9"
# The trace: a Start and an end for each record, the two open ones ending in
# Abandon; info counts the same events.
run_dsprof trace >trace 2>err || fail "dsprof trace: status $? ($(cat err))"
[ "$(wc -l <trace)" -eq 304 ] || fail "dsprof trace: $(wc -l <trace) lines, not 304"
tail -n 2 trace | awk '{ print $3, $4, $5, $NF }' >trace.end
printf '%s\n' 'Abandon event=snooze name=snooze complete=false' \
  'Abandon event=hang name=hang complete=false' >trace.end.expected
expect_same trace.end.expected trace.end
run_dsprof info --count >info 2>err || fail "dsprof info: status $? ($(cat err))"
for want in 'threads: 1' 'events: 304' 'records: 152' 'dropped events: 0'; do
  grep -Eq "^$want( |\$)" info || fail "dsprof info lacks '$want': $(cat info)"
done
exit 0
