/* fork.c - events across fork (docs/contract.md §4.5): a worker thread records first
   (thread 1), then the main thread (thread 2) forks from inside the event
   spawn (5).  The child records its own events, as thread 1, into its own
   file; spawn's Finish in the child has no Start there and is not recorded.
   The parent's file keeps spawn and everything the parent did.
   Prints the child's pid.  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dsprof.h>

static pid_t child;

DSPROF_EVENT int
work (int who, int n)
{
  return n * 2;
}

DSPROF_EVENT void
spawn (int k)
{
  work (0, 1);
  fflush (stdout);
  child = fork ();
  if (child < 0)
    exit (3);
  if (child == 0)
    {
      work (1, 2);
      work (1, 3);
      return;
    }
  int status;
  if (waitpid (child, &status, 0) != child || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0)
    exit (4);
  work (0, k - 1);
}

static void *
first (void *arg)
{
  (void) arg;
  work (2, 7);
  return NULL;
}

int
main (void)
{
  pthread_t t;
  pthread_create (&t, NULL, first, NULL);
  pthread_join (t, NULL);
  work (0, 0);
  spawn (5);
  if (child == 0)
    {
      work (1, 9);
      return 0;
    }
  work (0, 10);
  printf ("%d\n", (int) child);
  return 0;
}
