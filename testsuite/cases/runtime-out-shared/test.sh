# runtime-out-shared: processes started with the same DSPROF_OUT at once lose
# nothing (dsprof(1), ENVIRONMENT): the first one takes the name, every other one
# finds it held by a live process and writes <name>.<pid>, saying so once on
# stderr.  8 processes, each of 1000 steps, all alive together: the counts of
# all the profiles add up exactly and every process's events are there.  The
# profile of a process that ended (normally, or killed) is replaced by the next
# run, silently.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/shared.c" .
dscc -O1 -o shared shared.c || fail "shared.c does not compile"
STEP=$(grep -n '/\* STEP \*/' shared.c | cut -d: -f1)

pids=()
for k in 1 2 3 4 5 6 7 8; do
  DSPROF_OUT=prof.data ./shared go 1000 >"out.$k" 2>"err.$k" &
  pids+=($!)
done
# Every process has made its profile before it waits for go.
end=$((SECONDS + 20))
until [ "$(ls | grep -c '^prof\.data')" -ge 8 ] && ! ls | grep -q '\.tmp'; do
  [ $SECONDS -lt $end ] || { kill "${pids[@]}"; fail "8 profiles never appeared: $(ls)"; }
  sleep 0.01
done
touch go
for k in 1 2 3 4 5 6 7 8; do
  wait "${pids[$((k - 1))]}" || fail "process $k exited with status $?: $(cat "err.$k")"
  [ "$(cat "out.$k")" = "done 1" ] || fail "process $k printed $(cat "out.$k")"
done

# One process has the name, each of the others <name>.<its pid> and one line
# saying so.
[ -f prof.data ] || fail "no prof.data: $(ls)"
[ "$(ls | grep -c '^prof\.data\.[0-9]*$')" -eq 7 ] || fail "not 7 prof.data.PID: $(ls)"
owner=$(run_dsprof info prof.data | sed -n 's/^pid: //p')
for k in 1 2 3 4 5 6 7 8; do
  pid=${pids[$((k - 1))]}
  if [ -f "prof.data.$pid" ]; then
    [ "$(cat "err.$k")" = "dsprof: profile '$PWD/prof.data' is being written by process $owner: this process writes '$PWD/prof.data.$pid'" ] \
      || fail "process $k (pid $pid): not the one line saying where it writes: $(cat "err.$k")"
  else
    [ ! -s "err.$k" ] || fail "process $k (pid $pid) has the name, yet warned: $(cat "err.$k")"
  fi
done

run_dsprof lines prof.data prof.data.* >lines || fail "dsprof lines: status $?"
grep -qx "shared.c:$STEP: 8000" lines || fail "shared.c:$STEP: $(grep "^shared.c:$STEP:" lines), not 8000"
for f in prof.data prof.data.*; do
  n=$(run_dsprof records "$f" | grep -c ' name=step ') || true
  [ "$n" -eq 1000 ] || fail "$f: $n records of step, not 1000"
done

# A profile left by a process that ended is replaced: normally, then killed.
rm -f prof.data.*
DSPROF_OUT=prof.data ./shared go 0 >/dev/null 2>again.err || fail "shared (after the others) exited with status $?"
[ ! -s again.err ] && [ "$(ls | grep -c '^prof\.data')" -eq 1 ] \
  || fail "a finished process's profile was not replaced: $(cat again.err; ls)"
rm go
DSPROF_OUT=prof.data ./shared go 0 >/dev/null 2>killed.err &
job=$!
end=$((SECONDS + 20))
until run_dsprof info prof.data 2>/dev/null | grep -qx "pid: $job"; do
  [ $SECONDS -lt $end ] || { kill $job; fail "prof.data never became the profile of $job"; }
  sleep 0.01
done
kill -9 $job
wait $job 2>/dev/null || true
touch go
DSPROF_OUT=prof.data ./shared go 3 >/dev/null 2>after.err || fail "shared (after the killed one) exited with status $?"
[ ! -s after.err ] && [ "$(ls | grep -c '^prof\.data')" -eq 1 ] \
  || fail "a killed process's profile was not replaced: $(cat after.err; ls)"
grep -qx "shared.c:$STEP: 3" <(run_dsprof lines prof.data) || fail "prof.data: not the last run's counts"
exit 0
