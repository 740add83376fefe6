/* exit.c - the process ends with events open (docs/contract.md §4.4: complete=false).

     exit MODE   work (1), then level (2) > level (1) > level (0) > leave (0),
                 which ends the process by MODE: exit (an atexit handler runs
                 the event cleanup inside leave), _exit or abort
     exit return a manual event "Session" around work (3) is open when main
                 returns
     exit thread a second thread waits inside blocked (7) while the main
                 thread, in no event, calls exit  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dsprof.h>

static const char *mode;

DSPROF_EVENT int
work (int n)
{
  return 2 * n;
}

DSPROF_EVENT void
cleanup (void)
{
}

static void
at_exit (void)
{
  cleanup ();
}

DSPROF_EVENT void
leave (int code)
{
  if (strcmp (mode, "exit") == 0)
    exit (code);
  if (strcmp (mode, "_exit") == 0)
    _exit (code);
  abort ();
}

DSPROF_EVENT int
level (int n)
{
  if (n == 0)
    leave (0);
  return level (n - 1) + 1;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int inside;

DSPROF_EVENT void
blocked (int n)
{
  (void) n;
  pthread_mutex_lock (&lock);
  inside = 1;
  pthread_cond_broadcast (&cond);
  for (;;)
    pthread_cond_wait (&cond, &lock);
}

static void *
waiter (void *arg)
{
  (void) arg;
  blocked (7);
  return NULL;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    return 2;
  mode = argv[1];
  if (strcmp (mode, "return") == 0)
    {
      dsprof_start ("Session");
      work (3);
      return 0;
    }
  if (strcmp (mode, "thread") == 0)
    {
      pthread_t t;
      pthread_create (&t, NULL, waiter, NULL);
      pthread_mutex_lock (&lock);
      while (!inside)
        pthread_cond_wait (&cond, &lock);
      pthread_mutex_unlock (&lock);
      exit (0);
    }
  atexit (at_exit);
  work (1);
  return level (2);
}
