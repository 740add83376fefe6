/* phases DIR [fork]: three phases of 500 calls of the event step (phase, i),
   each running a loop of 10 iterations (the line marked WORK); after phase 1
   and phase 2 it prints "phase N done" and waits (at most 60 s) until DIR/goN
   exists, so that a test can switch events between phases.  Prints the sum
   at the end.  With "fork" it forks first: the child runs the phases, the
   parent waits for it, then runs them too (DIR/goN exist by then).  */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dsprof.h"

DSPROF_EVENT static long
step (int phase, long i)
{
  long s = 0;
  for (int j = 0; j < 10; j++)
    s += (j ^ i) + phase; /* WORK */
  return s;
}

int
main (int argc, char **argv)
{
  long sum = 0;
  char go[4096];
  if (argc < 2)
    return 1;
  if (argc > 2 && !strcmp (argv[2], "fork"))
    {
      pid_t child = fork ();
      if (child < 0)
        return 1;
      if (child > 0 && waitpid (child, NULL, 0) != child)
        return 1;
    }
  for (int phase = 1; phase <= 3; phase++)
    {
      for (long i = 0; i < 500; i++)
        sum += step (phase, i);
      if (phase == 3)
        break;
      printf ("phase %d done\n", phase);
      fflush (stdout);
      snprintf (go, sizeof go, "%s/go%d", argv[1], phase);
      for (int tries = 0; tries < 60000 && access (go, F_OK) != 0; tries++)
        usleep (1000);
    }
  printf ("%ld\n", sum);
  return 0;
}
