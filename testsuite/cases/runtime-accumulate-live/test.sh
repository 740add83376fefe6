# runtime-accumulate-live: an accumulated profile is not stale while any of
# its processes runs (README, Environment): its creator has exited, another
# accumulating process still steps in it, and a run without
# DSPROF_ACCUMULATE leaves it alone, writing NAME.<pid> with one line naming
# that process; the accumulated profile then holds the creator's steps and
# all the live process did.  Once every process of it has ended (exited, or
# killed), the next run without DSPROF_ACCUMULATE replaces it, as any stale
# profile.  Then 4 rounds of 6 accumulating runs started together and 3
# runs without it meanwhile: no accumulating run says its profile was
# deleted under it, and every step of theirs is in NAME or NAME.<pid>.
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
# Each round's profile is made by a run that exits; then 6 accumulating runs
# start (and wait for ./go before they step) and 3 runs without
# DSPROF_ACCUMULATE start and end meanwhile.  A run without may replace the
# profile only while no accumulating run has joined it (the accumulating
# runs then make NAME.<pid>, saying so), never after: nothing an
# accumulating run counted is lost, and none says its profile was deleted.
for round in 1 2 3 4; do
  name=r$round.data
  DSPROF_ACCUMULATE=1 DSPROF_OUT=$name ./acc 100 >/dev/null || fail "round $round: the creator: status $?"
  pids=()
  for k in 1 2 3 4 5 6; do
    DSPROF_ACCUMULATE=1 DSPROF_OUT=$name ./acc 300 go >/dev/null 2>"acc.$round.$k" &
    pids+=($!)
  done
  for k in 1 2 3; do
    DSPROF_OUT=$name ./acc 7 >/dev/null 2>"one.$round.$k" || fail "round $round: a run without: status $?"
  done
  touch go
  for p in "${pids[@]}"; do
    wait "$p" || fail "round $round: process $p: status $?"
  done
  rm go
  ! grep -v "is being written by" acc.$round.* one.$round.* ||
    fail "round $round: a run said what it should not"
  want=$((6 * 300 + 3 * 7 + 100))
  for k in 1 2 3; do
    [ -s "one.$round.$k" ] || want=$((6 * 300 + 3 * 7))   # it replaced the stale profile
  done
  # shellcheck disable=SC2086
  [ "$(steps "$name" $name.*)" = "$want" ] ||
    fail "round $round: $(steps "$name" $name.*) steps in $name*, not $want ($(ls $name*))"
  echo "round $round: $(ls $name* | wc -l) profiles, $want steps; $(cat one.$round.* | wc -l) runs without wrote $name.<pid>"
done
