# counters-coroutine-migrate: with update=thread (the default) a coroutine
# whose stack moves from thread to thread keeps counting exactly
# (docs/reliability.md, "Shards, threads and warnings").  A scheduler built
# without the plugin (ucontext and pthreads) resumes the instrumented body
# after each yield on a new thread that never ran counted code of the unit;
# the static function that yielded goes on counting there through its
# unit's sink, which the profile holds.  The output is the plain build's and
# update=single's, and every count is exact, at -O0, -O2 and -O3 and with
# -flto.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/coro.c" "$CASE/sched.c" .
gcc -O2 -c sched.c || fail "sched.c does not compile"
gcc -O2 -o coro-plain coro.c sched.o -lpthread || fail "the plain build fails"
dscc -O2 -o coro coro.c sched.o || fail "coro.c does not compile with the plugin"
dscc -O2 -fplugin-arg-dsprof-update=single -o coro-single coro.c sched.o \
  || fail "coro.c does not compile with update=single"
dscc -O0 -o coro-O0 coro.c sched.o || fail "coro.c does not compile at -O0"
dscc -O3 -o coro-O3 coro.c sched.o || fail "coro.c does not compile at -O3"
dscc -O2 -flto -fplugin-arg-dsprof-update=thread -o coro-lto coro.c sched.o \
  || fail "coro.c does not compile with -flto"

line_of () { grep -n "/\\* $1 \\*/" coro.c | cut -d: -f1; }
N=300
./coro-plain $N >plain.out || fail "the plain build: status $?"
[ "$(cat plain.out)" = "179550 $((N + 1))" ] || fail "the plain build printed $(cat plain.out)"
for prog in coro coro-single coro-O0 coro-O3 coro-lto; do
  rm -f $prog.data
  DSPROF_OUT=$prog.data ./$prog $N >$prog.out 2>$prog.err || fail "$prog: status $? ($(cat $prog.err))"
  expect_same plain.out $prog.out
  [ ! -s $prog.err ] || fail "$prog warns: $(cat $prog.err)"
  run_dsprof lines $prog.data >$prog.lines 2>/dev/null || fail "dsprof lines $prog.data: status $?"
  for what in BEFORE:$N AFTER:$N ODD:$((N / 2)) LOOP:$N; do
    line=$(line_of "${what%:*}")
    grep -qx "coro.c:$line: ${what#*:}" $prog.lines \
      || fail "$prog: ${what%:*} (coro.c:$line) not counted ${what#*:} times: $(grep "^coro.c:$line:" $prog.lines)"
  done
done
run_dsprof info coro.data >info.out || fail "dsprof info: status $?"
! grep -qi truncated info.out || fail "the profile is truncated: $(cat info.out)"
exit 0
