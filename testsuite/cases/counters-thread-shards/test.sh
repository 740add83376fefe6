# counters-thread-shards: with update=thread every thread counts into a shard of
# its own in the profile, and readers sum the shards (include/dsprof-format.h,
# section 2b; docs/contract.md §3): counts are exact with 8 threads running the
# same loops, with 1,000 short-lived threads, in a forked child, in a library
# loaded with dlopen while threads run, and durable when the program is killed;
# no lost-update warning, and merge and the reports read them; a thread's
# first counted code may be a static function under an uncounted caller,
# take vector arguments, or run before its unit registered.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/hot.c" "$CASE/plug.c" .
dscc -O2 -fplugin-arg-dsprof-update=thread -o hot hot.c -ldl \
  || fail "hot.c does not compile with update=thread"
dscc -O2 -fPIC -shared -fplugin-arg-dsprof-update=thread -o libplug.so plug.c \
  || fail "plug.c does not compile with update=thread"

line_of () { grep -n "/\\* $2 \\*/" "$1" | cut -d: -f1; }
BUMP=hot.c:$(line_of hot.c BUMP) THREAD=hot.c:$(line_of hot.c THREAD)
PLUG=plug.c:$(line_of plug.c PLUG)

# count PROFILE FILE:LINE: the count `dsprof lines PROFILE` gives the line, and
# no warning on stderr.
count () {
  run_dsprof lines "$1" >lines.out 2>lines.err \
    || fail "dsprof lines $1: status $? ($(cat lines.err))"
  [ ! -s lines.err ] || fail "dsprof lines $1 warns: $(cat lines.err)"
  awk -F': ' -v at="$2" 'substr($1, length($1) - length(at) + 1) == at { print $2; found = 1; exit }
    END { if (!found) exit 1 }' lines.out \
    || fail "dsprof lines $1 has no line $2: $(head -5 lines.out)"
}

# expect PROFILE FILE:LINE N
expect () {
  local c
  c=$(count "$1" "$2")
  [ "$c" = "$3" ] || fail "$1: $2 counted $c times, not $3"
}

# ---- 8 threads, the same loop, 200,000 calls each -------------------------------
N=200000
DSPROF_OUT=t.data ./hot threads $N || fail "hot threads: status $?"
expect t.data "$BUMP" $((8 * N))
expect t.data "$THREAD" 8
run_dsprof info t.data > info.out || fail "info: status $?"
! grep -q 'increments may be lost' info.out || fail "info warns: $(cat info.out)"
for cmd in "annotate -o bb" "summary" "export --format lcov -o x.info" "html -o x.html"; do
  run_dsprof $cmd t.data >/dev/null 2>err || fail "dsprof $cmd: status $?"
  [ ! -s err ] || fail "dsprof $cmd warns: $(cat err)"
done
grep -q "^DA:${BUMP#hot.c:},$((8 * N))\$" x.info || fail "lcov export: $(grep "^DA:${BUMP#hot.c:}," x.info)"
run_dsprof merge -o m.data t.data t.data || fail "merge: status $?"
expect m.data "$BUMP" $((16 * N))

# ---- two runs accumulated in one profile: each process's shards are its own,
# and holes but for what they count in -------------------------------------------
DSPROF_ACCUMULATE=1 DSPROF_OUT=acc.data ./hot threads 1000 || fail "accumulate 1: status $?"
DSPROF_ACCUMULATE=1 DSPROF_OUT=acc.data ./hot threads 2000 || fail "accumulate 2: status $?"
expect acc.data "$BUMP" 24000
disk=$(du -k acc.data | cut -f1)
[ "$disk" -lt 16384 ] || fail "the accumulated profile takes $disk KB of disk"

# ---- 1,000 short-lived threads, 8 at a time: their shards are reused --------------
DSPROF_OUT=churn.data ./hot churn 1000 || fail "hot churn: status $?"
expect churn.data "$BUMP" 1000000
expect churn.data "$THREAD" 1000
size=$(stat -c %s churn.data)
[ "$size" -lt $((16 * ((1 << 22) * 8 + 4096))) ] \
  || fail "1,000 threads made a profile of $size bytes: shards are not reused"

# ---- fork: the child counts from the fork, in a file of its own ------------------
DSPROF_OUT=f.data ./hot fork 5000 || fail "hot fork: status $?"
child=$(ls f.data.* 2>/dev/null)
[ -n "$child" ] || fail "no child profile"
expect f.data "$BUMP" 40000
expect f.data "$THREAD" 8
expect "$child" "$BUMP" 10000
expect "$child" "$THREAD" 2

# ---- dlopen while the threads run: the library's counts too -----------------------
DSPROF_OUT=dl.data ./hot dl 3000 ./libplug.so || fail "hot dl: status $?"
expect dl.data "$BUMP" 24000
expect dl.data "$PLUG" 24000

# ---- where a thread's first counted code is: under an uncounted caller of
# a static function, with vector arguments, before its unit registered ------------
cp "$CASE/entry.c" .
dscc -O2 -fplugin-arg-dsprof-update=thread \
  -fplugin-arg-dsprof-exclude='uncounted_*:preinit' -o entry entry.c \
  || fail "entry.c does not compile with update=thread"
dscc -O2 -flto -fplugin-arg-dsprof-update=thread \
  -fplugin-arg-dsprof-exclude='uncounted_*:preinit' -o entry-lto entry.c \
  || fail "entry.c does not compile with update=thread and -flto"
for prog in entry entry-lto; do
  rm -f e.data dsprof.data
  DSPROF_OUT=e.data ./$prog 5000 || fail "$prog: status $?"
  [ ! -e dsprof.data ] || fail "$prog made a profile before it read DSPROF_OUT"
  # The preinit call is made before the unit registers: in the unit's sink,
  # which the profile holds (an executable's unit has one but at a -flto
  # link, where it counts nowhere).
  early=5001
  [ $prog = entry ] || early=5000
  expect e.data "entry.c:$(line_of entry.c EARLY)" $early
  expect e.data "entry.c:$(line_of entry.c HELPER)" 20000
  expect e.data "entry.c:$(line_of entry.c VECTOR)" 4
done

# ---- SIGKILL mid-run: the counts so far, never above the truth --------------------
pid=
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true' EXIT
DSPROF_OUT=k.data ./hot kill 0 prog &
pid=$!
sum () { od -An -tu8 -w8 prog 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
end=$((SECONDS + 20))
while [ "$(sum)" -lt 400000 ]; do
  [ $SECONDS -lt $end ] || fail "the killed program did not get going"
  sleep 0.01
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null && fail "the killed program exited normally"
pid=
done_calls=$(sum)
c=$(count k.data "$BUMP")
# Each thread has made the calls it recorded, and may be inside one more.
[ "$c" -ge "$done_calls" ] && [ "$c" -le $((done_calls + 8)) ] \
  || fail "killed after $done_calls calls, but $BUMP counted $c"
exit 0
