# counters-threads-warn: with update=single (the default in shared objects) a
# profile says how many threads ran counted code, and every command that prints
# counts warns once on stderr, naming the plugin argument that makes them exact,
# when more than one did (docs/contract.md §3); with update=atomic, with the
# default of an executable (update=thread), and for one thread, no warning.
. "$(dirname "$0")/../../lib.sh"

cp "$TOP/testsuite/cases/counters-atomic-threads/threads.c" .
cat > one.c <<'C'
#include <stdio.h>
int main (void) { long s = 0; for (int i = 0; i < 1000; i++) s += i; printf ("%ld\n", s); return 0; }
C

S=-fplugin-arg-dsprof-update=single
dscc -O2 $S -o single threads.c || fail "threads.c does not compile"
dscc -O2 -o default threads.c || fail "threads.c does not compile by default"
dscc -O2 -fplugin-arg-dsprof-update=atomic -o atomic threads.c \
  || fail "threads.c does not compile with update=atomic"
dscc -O2 $S -o one one.c || fail "one.c does not compile"
DSPROF_OUT=single.data ./single >/dev/null || fail "single: status $?"
DSPROF_OUT=atomic.data ./atomic >/dev/null || fail "atomic: status $?"
DSPROF_OUT=one.data ./one >/dev/null || fail "one: status $?"
DSPROF_OUT=default.data ./default >/dev/null || fail "default: status $?"

# The counting threads are the main thread and the 4 workers.
run_dsprof info single.data > info.out || fail "info: status $?"
grep -qx 'threads counting with update=single: 5 (increments may be lost: counts may be low)' info.out \
  || fail "info does not show the 5 threads: $(cat info.out)"
run_dsprof info one.data > info1.out || fail "info one: status $?"
grep -qx 'threads counting with update=single: 1' info1.out \
  || fail "info does not show the one thread: $(cat info1.out)"
run_dsprof info atomic.data > infoa.out || fail "info atomic: status $?"
! grep -q 'update=single' infoa.out || fail "info counts threads of update=atomic code"
run_dsprof info default.data > infod.out || fail "info default: status $?"
! grep -q 'update=single' infod.out || fail "info counts threads of the default's code"

# Every command that prints counts, each on each profile.
for data in single.data atomic.data one.data default.data; do
  for cmd in "lines" "annotate -o bb" "summary" "export --format lcov -o x.info" \
             "html -o x.html"; do
    run_dsprof $cmd $data >/dev/null 2>err || fail "dsprof $cmd $data: status $?"
    n=$(grep -c 'update=atomic makes them exact' err || true)
    case $data in
      single.data)
        [ "$n" = 1 ] || fail "dsprof $cmd $data warned $n times: $(cat err)"
        grep -q "single.data: 5 threads" err || fail "dsprof $cmd: $(cat err)";;
      *)
        [ ! -s err ] || fail "dsprof $cmd $data: $(cat err)";;
    esac
  done
done

# A merge keeps the warning; two profiles with one thread each do not add up
# to two.
run_dsprof merge -o merged.data single.data one.data || fail "merge: status $?"
run_dsprof lines merged.data 2>err >/dev/null || fail "lines merged: status $?"
grep -q 'merged.data: 5 threads' err || fail "merge lost the thread count: $(cat err)"
run_dsprof merge -o ones.data one.data one.data || fail "merge ones: status $?"
run_dsprof lines ones.data 2>err >/dev/null || fail "lines ones: status $?"
[ ! -s err ] || fail "two single-threaded runs warn: $(cat err)"

# A forked child counts its own threads: the one that forked it.
cat > fork.c <<'C'
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
static long sum;
static __attribute__ ((noinline)) long add (long n) { for (long i = 0; i < n; i++) sum += i; return sum; }
static void *work (void *arg) { add ((long) arg); return NULL; }
int main (void)
{
  pthread_t t[2];
  for (long k = 0; k < 2; k++)
    pthread_create (&t[k], NULL, work, (void *) 1000);
  for (int k = 0; k < 2; k++)
    pthread_join (t[k], NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      printf ("%ld\n", add (10));
      return 0;
    }
  waitpid (pid, NULL, 0);
  return 0;
}
C
dscc -O2 $S -o fork fork.c || fail "fork.c does not compile"
DSPROF_OUT=fork.data ./fork >/dev/null || fail "fork: status $?"
child=$(ls fork.data.* 2>/dev/null)
[ -n "$child" ] || fail "no child profile"
run_dsprof info fork.data | grep -qx 'threads counting with update=single: 3 (increments may be lost: counts may be low)' \
  || fail "parent: $(run_dsprof info fork.data)"
run_dsprof info "$child" | grep -qx 'threads counting with update=single: 1' \
  || fail "child: $(run_dsprof info "$child")"
run_dsprof lines "$child" 2>err >/dev/null || fail "lines child: status $?"
[ ! -s err ] || fail "the child warns: $(cat err)"
exit 0
