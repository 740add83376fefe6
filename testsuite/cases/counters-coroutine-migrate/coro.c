/* coro.c - counters-coroutine-migrate: the instrumented coroutine body.  The
   scheduler (sched.c, built without the plugin) runs body () on a ucontext
   stack and resumes it after each yield on a new thread, which has run no
   counted code of this unit.  step () is local to the unit and called only
   from counted code, so it reaches its counters without testing the
   thread's pointer to them; after the yield it runs on the new thread.  */
#include <stdio.h>

void sched_yield_now (void);
long coro_result;

static __attribute__ ((noinline, noclone)) long
step (long i)
{
  long r = i * 3;               /* BEFORE */
  sched_yield_now ();
  if (r % 2)
    r += 1;                     /* ODD */
  return r + i;                 /* AFTER */
}

void
body (long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += step (i);              /* LOOP */
  coro_result = s;
}
