/* sched.c - counters-coroutine-migrate: a scheduler built without the
   plugin, as a coroutine library would be.  main runs coro.c's body () as a
   coroutine on a stack of its own; each time the body yields, a new thread
   resumes it (the one before has ended), so the body migrates from thread to
   thread.  Prints the body's result and the number of threads that ran it.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

void body (long n);
extern long coro_result;

static ucontext_t coro, worker;
static long n_steps;
static int finished;

void
sched_yield_now (void)
{
  swapcontext (&coro, &worker);
}

static void
entry (void)
{
  body (n_steps);
  finished = 1;
}

static void *
resume (void *arg)
{
  (void) arg;
  swapcontext (&worker, &coro);
  return NULL;
}

int
main (int argc, char **argv)
{
  n_steps = argc > 1 ? atol (argv[1]) : 100;
  static char stack[256 * 1024];
  getcontext (&coro);
  coro.uc_stack.ss_sp = stack;
  coro.uc_stack.ss_size = sizeof stack;
  coro.uc_link = &worker;
  makecontext (&coro, entry, 0);
  long threads = 0;
  while (!finished)
    {
      pthread_t t;
      if (pthread_create (&t, NULL, resume, NULL) != 0)
        return 2;
      pthread_join (t, NULL);
      threads++;
    }
  printf ("%ld %ld\n", coro_result, threads);
  return 0;
}
