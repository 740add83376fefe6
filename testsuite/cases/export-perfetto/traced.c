/* traced.c - a profile for the perfetto export with every kind of slice:

     main thread:  work ("main"), whose SIGUSR1 handler records on_signal ->
                   leaf inside it and whose thrower (2) -> thrower (1) ->
                   thrower (0) longjmps back (three slices closed by repair);
                   then, after the child ended, N manual events named m0 ..
                   m(N-1) (argv[1]), each with a dimension added, and M calls
                   of leaf (argv[2])
     a thread:     work ("thread"), the same
     a child:      forked after the thread: work ("child"), into its own
                   profile (traced.data.<pid>)

   Prints the child's pid.  */

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dsprof.h>

static __thread jmp_buf back;

DSPROF_EVENT __attribute__ ((noipa)) int
leaf (int i, double x)
{
  return i + (int) x;
}

DSPROF_EVENT_TYPE ("Signal") __attribute__ ((noipa)) void
on_signal (int sig)
{
  leaf (sig, 0.5);
}

static void
handler (int sig)
{
  on_signal (sig);
}

DSPROF_EVENT __attribute__ ((noipa)) void
thrower (int n)
{
  if (n == 0)
    longjmp (back, 1);
  thrower (n - 1);
}

DSPROF_EVENT __attribute__ ((noipa)) long
work (const char *who, void *p)
{
  raise (SIGUSR1);
  if (!setjmp (back))
    thrower (2);
  long s = 0;
  for (int i = 0; i < 3; i++)
    s += leaf (i, 1.25);
  return s + (long) strlen (who) + (p != NULL);
}

static void *
thread_main (void *arg)
{
  work ("thread", arg);
  return NULL;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 0;
  long m = argc > 2 ? atol (argv[2]) : 0;
  signal (SIGUSR1, handler);
  work ("main", &n);
  pthread_t t;
  pthread_create (&t, NULL, thread_main, &t);
  pthread_join (t, NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      work ("child", NULL);
      exit (0);
    }
  waitpid (pid, NULL, 0);
  char name[32];
  for (long i = 0; i < n; i++)
    {
      snprintf (name, sizeof name, "m%ld", i);
      dsprof_id id = dsprof_start (name);
      dsprof_dim_int ("i", i);
      dsprof_finish (id);
    }
  for (long i = 0; i < m; i++)
    leaf ((int) i, 0.0);
  printf ("%d\n", (int) pid);
  return 0;
}
