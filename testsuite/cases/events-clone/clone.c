/* clone.c - a child made by a raw clone () (SIGCHLD, no CLONE_VM: a process
   with a copy of the parent's memory, and no fork handler run) records events
   while its parent does.

   main records outer (0) around N inner (0, I) events, then clones the child
   and, at the same time as the child, records N inner (1, I); after the child
   ended, outer (2) around N inner (2, I).  The child records outer (9) around
   N inner (9, I) and returns.  Prints the sum of the results of main's
   events, then the child's pid.  */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dsprof.h>

#define N 20000

static int go[2];

DSPROF_EVENT long
inner (int who, long i)
{
  return who + i;
}

DSPROF_EVENT long
outer (int who)
{
  long s = 0;
  for (long i = 0; i < N; i++)
    s += inner (who, i);
  return s;
}

static int
child (void *arg)
{
  (void) arg;
  char c;
  if (read (go[0], &c, 1) != 1)
    return 1;
  return outer (9) == 9L * N + (long) N * (N - 1) / 2 ? 0 : 1;
}

int
main (void)
{
  long s = outer (0);
  if (pipe (go) != 0)
    return 2;
  size_t size = 1 << 20;
  char *stack = malloc (size);
  pid_t pid = clone (child, stack + size, SIGCHLD, NULL);
  if (pid < 0)
    return 2;
  /* The child starts recording as the parent does.  */
  if (write (go[1], "g", 1) != 1)
    return 2;
  for (long i = 0; i < N; i++)
    s += inner (1, i);
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0)
    return 3;
  s += outer (2);
  printf ("%ld\n%ld\n", s, (long) pid);
  return 0;
}
