# runtime-accumulate-live: an accumulated profile is not stale while any of
# its processes runs (dsprof(1), ENVIRONMENT): its creator has exited, another
# accumulating process still steps in it, and a run without
# DSPROF_ACCUMULATE leaves it alone, writing NAME.<pid> with one line naming
# that process; the accumulated profile then holds the creator's steps and
# all the live process did.  Once every process of it has ended (exited, or
# killed), the next run without DSPROF_ACCUMULATE replaces it, as any stale
# profile.  Then 4 rounds of 6 accumulating runs joined, waiting, and 3 runs
# without it: NAME keeps them all; and 4 rounds of 6 and 3 started
# together: no accumulating run says its profile was deleted under it.
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/acc.c" .
dscc -O2 -o acc acc.c || fail "acc.c does not compile"
STEP=$(grep -n '/\* STEP \*/' acc.c | cut -d: -f1)
steps () {  # steps PROFILE...: the count of the STEP line
  run_dsprof lines "$@" >lines.out 2>lines.err || fail "dsprof lines $1: $(cat lines.err)"
  awk -F': ' -v at="acc.c:$STEP" '$1 == at { s += $2 } END { print s + 0 }' lines.out
}
procs () {
  run_dsprof info "$1" >info.out || fail "dsprof info $1: status $?"
  grep -c '^pid:' info.out
}

DSPROF_ACCUMULATE=1 DSPROF_OUT=acc.data ./acc 100 >/dev/null || fail "the creator: status $?"
DSPROF_ACCUMULATE=1 DSPROF_OUT=acc.data ./acc 0 2>live.err &
live=$!
trap 'kill -KILL $live 2>/dev/null || true' EXIT    # also when the case fails
wait_progress progress 1000 "the live accumulating process"
DSPROF_OUT=acc.data ./acc 10 >/dev/null 2>one.err || fail "the run without DSPROF_ACCUMULATE: status $?"
one=$(ls acc.data.* 2>/dev/null || true)
[ "$(cat one.err)" = "dsprof: profile '$PWD/acc.data' is being written by process $live: this process writes '$PWD/$one'" ] ||
  fail "the run without DSPROF_ACCUMULATE: $(cat one.err) ($(ls))"
[ "$(steps "$one")" = 10 ] || fail "$one: $(steps "$one") steps, not 10"
kill -KILL $live
wait $live 2>/dev/null || true
done=$(progress progress)
[ ! -s live.err ] || fail "the live process: $(cat live.err)"
got=$(steps acc.data)
[ "$got" -ge $((100 + done)) ] || fail "acc.data: $got steps, at least $((100 + done)) expected"
[ "$(procs acc.data)" = 2 ] || fail "acc.data: $(procs acc.data) processes, not 2"
echo "kept: acc.data $got steps in 2 processes, the other run wrote $one"

# Every process of it gone: stale, replaced.
DSPROF_OUT=acc.data ./acc 10 >/dev/null 2>one.err || fail "the run after the kill: status $?"
[ ! -s one.err ] || fail "the run after the kill: $(cat one.err)"
[ "$(steps acc.data)" = 10 ] || fail "the stale accumulated profile was not replaced: $(steps acc.data) steps"

# ---- rounds: accumulating runs and runs without, together ----
# Each round's profile is made by a run that exits; 6 accumulating runs
# start and join it (they wait for ./go before they step); then 3 runs
# without DSPROF_ACCUMULATE each write NAME.<pid>, saying so, and the
# accumulating runs step: NAME holds the 1,900 steps of its 7 processes.
# Then the same with the 3 runs started together with the 6: whichever
# comes first, no accumulating run says anything but that it writes
# NAME.<pid> (never that its profile was deleted), and every profile reads.
procs_in () {  # procs_in PROFILE: its processes, 0 while it is not there
  [ -f "$1" ] || { echo 0; return; }
  run_dsprof info "$1" 2>/dev/null | grep -c '^pid:' || true
}
for round in 1 2 3 4; do
  name=r$round.data
  DSPROF_ACCUMULATE=1 DSPROF_OUT=$name ./acc 100 >/dev/null || fail "round $round: the creator: status $?"
  pids=()
  for k in 1 2 3 4 5 6; do
    DSPROF_ACCUMULATE=1 DSPROF_OUT=$name ./acc 300 go >/dev/null 2>"acc.$round.$k" &
    pids+=($!)
  done
  end=$((SECONDS + 60))
  while [ "$(procs_in "$name")" != 7 ]; do
    [ $SECONDS -lt $end ] || fail "round $round: the 6 runs did not join $name: $(procs_in "$name") processes"
    sleep 0.05
  done
  for k in 1 2 3; do
    DSPROF_OUT=$name ./acc 7 >/dev/null 2>"one.$round.$k" || fail "round $round: a run without: status $?"
    grep -q "^dsprof: profile '$PWD/$name' is being written by process [0-9]*: this process writes '$PWD/$name\.[0-9]*'$" "one.$round.$k" ||
      fail "round $round: a run without: $(cat "one.$round.$k")"
  done
  touch go
  for p in "${pids[@]}"; do
    wait "$p" || fail "round $round: process $p: status $?"
  done
  rm go
  cat acc.$round.* >acc.err
  [ ! -s acc.err ] || fail "round $round: an accumulating run: $(cat acc.err)"
  [ "$(steps "$name")" = 1900 ] || fail "round $round: $name $(steps "$name") steps, not 1900"
  [ "$(procs "$name")" = 7 ] || fail "round $round: $name $(procs "$name") processes, not 7"
done
echo "rounds: 4 x 1900 steps in 7 processes, the runs without in NAME.<pid>"
for round in 1 2 3 4; do
  name=t$round.data
  DSPROF_ACCUMULATE=1 DSPROF_OUT=$name ./acc 100 >/dev/null || fail "round $round: the creator: status $?"
  pids=()
  for k in 1 2 3 4 5 6; do
    DSPROF_ACCUMULATE=1 DSPROF_OUT=$name ./acc 300 >/dev/null 2>"acc.$round.$k" &
    pids+=($!)
    [ "$k" -gt 3 ] || { DSPROF_OUT=$name ./acc 7 >/dev/null 2>"one.$round.$k" & pids+=($!); }
  done
  for p in "${pids[@]}"; do
    wait "$p" || fail "together, round $round: process $p: status $?"
  done
  ! grep -hv "is being written by" acc.$round.* one.$round.* ||
    fail "together, round $round: a run said the above"
  for f in "$name"*; do
    run_dsprof info "$f" >/dev/null 2>info.err || fail "together, round $round: $f: $(cat info.err)"
  done
done
echo "together: 4 rounds, $(ls t*.data* | wc -l) profiles, all read"
