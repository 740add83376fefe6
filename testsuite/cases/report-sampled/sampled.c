/* sampled.c - records of known CPU time for the CPU-time sampler
   (report-sampled, DSPROF_SAMPLE):

     sampled run      outer() burns 100 ms of its thread's CPU time and
                      calls inner() twice, each burning 150 ms; nap()
                      sleeps 200 ms, off any CPU; a second thread's
                      worker() burns 300 ms, then a third's, which blocks
                      the sampler's signal (unsampled); then a forked
                      child's worker() burns 300 ms in the child's own
                      profile
     sampled handler  installs a SIGURG handler of its own first, then
                      burns in inner() (the sampler must stand aside)

   Each function is annotated: a record of the profile.  */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dsprof.h"

static long
cpu_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void
burn (long ms)
{
  long start = cpu_ns ();
  while (cpu_ns () - start < ms * 1000000L)
    ;
}

DSPROF_EVENT __attribute__ ((noipa)) void
inner (void)
{
  burn (150);
}

DSPROF_EVENT __attribute__ ((noipa)) void
outer (void)
{
  burn (100);
  inner ();
  inner ();
}

DSPROF_EVENT __attribute__ ((noipa)) void
nap (void)
{
  struct timespec t = { 0, 200000000 };
  while (nanosleep (&t, &t) != 0)
    ;
}

DSPROF_EVENT __attribute__ ((noipa)) void
worker (void)
{
  burn (300);
}

static void *
thread_main (void *arg)
{
  if (arg)
    {
      sigset_t urg;
      sigemptyset (&urg);
      sigaddset (&urg, SIGURG);
      pthread_sigmask (SIG_BLOCK, &urg, NULL);
    }
  worker ();
  return NULL;
}

static volatile sig_atomic_t own_signals;

static void
own_handler (int sig)
{
  (void) sig;
  own_signals++;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && !strcmp (argv[1], "handler"))
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = own_handler;
      sigaction (SIGURG, &sa, NULL);
      inner ();
      return own_signals != 0;   /* no SIGURG of the sampler's reached it */
    }
  outer ();
  nap ();
  for (int blocked = 0; blocked < 2; blocked++)
    {
      pthread_t th;
      if (pthread_create (&th, NULL, thread_main, blocked ? &th : NULL) != 0
          || pthread_join (th, NULL) != 0)
        return 2;
    }
  pid_t pid = fork ();
  if (pid < 0)
    return 3;
  if (pid == 0)
    {
      worker ();
      _exit (0);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0)
    return 4;
  return 0;
}
