/* job [GOFILE]: calls the event step 1,000 times, then (given GOFILE) prints
   "waiting" and waits until GOFILE exists (at most 60 s), then calls step
   300,000 more times;
   prints the result, a line on stderr, and exits with status 3.  The test finds
   lines by the words at their ends.  */
#include <stdio.h>
#include <unistd.h>
#include "dsprof.h"

DSPROF_EVENT static long
step (long x)
{
  return x + 1; /* STEP */
}

int
main (int argc, char **argv)
{
  long i, s = 0;
  int tries;

  for (i = 0; i < 1000; i++)
    s = step (s); /* FIRST */
  if (argc > 1)
    {
      printf ("waiting\n");
      fflush (stdout);
      for (tries = 0; tries < 60000 && access (argv[1], F_OK) != 0; tries++)
        usleep (1000);
    }
  for (i = 0; i < 300000; i++)
    s = step (s); /* SECOND */
  printf ("%ld\n", s);
  fprintf (stderr, "job done\n");
  return 3;
}
