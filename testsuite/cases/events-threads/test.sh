# events-threads: events in several threads at once (docs/contract.md §4.2 thread, §4.4).
#   1. 4 threads, 100 iterations each of Run > Batch (manual) > a 15-node tree:
#      thread = 1..4 in the order of first events, every record complete,
#      every tree consistent within its thread (check.awk).
#   2. 8 threads, 10000 iterations each (at least 3 event chunks per thread,
#      all threads writing at once): every thread's tree complete, nothing
#      dropped.
#   2b. A thread that only adds a dimension outside any event gets no thread
#      number: the next two threads with events are threads 1 and 2.
#   3. A thread that calls pthread_exit inside three nested events: they are
#      closed complete=false; the other thread's records are untouched
#      (exit.txt, derived by hand).
# At -O2 (-O0 for part 1 too).
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/threads.c" .
dscc -O2 -o threads threads.c || fail "threads.c does not compile at -O2"
dscc -O0 -o threads-O0 threads.c || fail "threads.c does not compile at -O0"

# run DIR PROGRAM N ITER: run and check the records of N threads x ITER.
run () {
  local dir=$1 prog=$2 n=$3 iter=$4
  mkdir "$dir" && cd "$dir"
  "../$prog" "$n" "$iter" >out || fail "$prog $n $iter exited with status $?"
  # Each Run returns the 15 nodes' sum: 15 per iteration.
  [ "$(cat out)" = $((15 * n * iter)) ] || fail "$prog $n $iter printed $(cat out)"
  run_dsprof records >records 2>err || fail "dsprof records ($dir): status $? ($(cat err))"
  awk -v N="$n" -v ITER="$iter" -f "$CASE/check.awk" records >&2 \
    || fail "$dir: the record trees are not as expected"
  run_dsprof info --count >info 2>err || fail "dsprof info ($dir): status $? ($(cat err))"
  for want in "threads: $n" 'dropped events: 0' 'repaired events: 0' \
              "events: $((2 * n * (1 + 17 * iter)))"; do
    grep -Eq "^$want( |\$)" info || fail "dsprof info ($dir) lacks '$want': $(cat info)"
  done
  # The report agrees: one row per thread with 1 + 17 * ITER records.
  run_dsprof report thread --format csv >report.csv 2>err \
    || fail "dsprof report thread ($dir): status $? ($(cat err))"
  sed 1d report.csv | awk -F, '{ print $2, $9 }' | sort -n >counts
  for t in $(seq "$n"); do echo "$t $((1 + 17 * iter))"; done >counts.expected
  expect_same counts.expected counts
  cd ..
}

run four threads 4 100
run four-O0 threads-O0 4 100
run eight threads 8 10000
event_chunks eight/dsprof.data | awk '{ n[$1]++ } END { for (t in n) print t, n[t] }' \
  | sort -n >eight/chunks
[ "$(wc -l <eight/chunks)" -eq 8 ] || fail "not 8 threads' chunks: $(cat eight/chunks)"
awk '$2 < 3 { exit 1 }' eight/chunks \
  || fail "8 x 10000 iterations: not several chunks per thread: $(cat eight/chunks)"

# ---- 2b. thread numbers count threads that record events, not callers -------
mkdir stray && cd stray
../threads stray || fail "threads stray exited with status $?"
HELLO=$(grep -n '^hello (' ../threads.c | cut -d: -f1)
run_dsprof records >records.raw 2>err || fail "dsprof records (stray): status $? ($(cat err))"
sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
printf '%s\n' \
  "#1 event=hello name=hello file=threads.c line=$HELLO thread=1 worker=1 result=1 complete=true" \
  "#2 event=hello name=hello file=threads.c line=$HELLO thread=2 worker=2 result=2 complete=true" \
  >expected
expect_same expected records
cd ..

# ---- 3. pthread_exit inside events ------------------------------------------
mkdir exit && cd exit
../threads exit >out || fail "threads exit exited with status $?"
[ "$(cat out)" = 15 ] || fail "threads exit printed $(cat out)"
for f in hello node run exiting_node; do
  echo "s/@$f@/$(grep -n "^$f (" ../threads.c | cut -d: -f1)/g"
done >subst.sed
sed -f subst.sed "$CASE/exit.txt" >expected
run_dsprof records >records.raw 2>err || fail "dsprof records (exit): status $? ($(cat err))"
sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
expect_same expected records
run_dsprof info --count >info 2>err || fail "dsprof info (exit): status $? ($(cat err))"
for want in 'threads: 2' 'repaired events: 3' 'dropped events: 0'; do
  grep -Eq "^$want( |\$)" info || fail "dsprof info (exit) lacks '$want': $(cat info)"
done
exit 0
