/* costs.c - events of every hook kind, for the recorder's measured costs
   (events-costs): N times node (i) > leaf (i, 0), leaf (i, 1), leaf (i, 2),
   a manual "mleaf" event, and a dimension "n" added to node; then, with
   "wait", it prints "ready" and sleeps until it is killed.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dsprof.h>

DSPROF_EVENT __attribute__ ((noipa)) int
leaf (int i, int k)
{
  return 2 * i + k;
}

DSPROF_EVENT __attribute__ ((noipa)) int
node (int i)
{
  dsprof_dim_int ("n", i);
  dsprof_id m = dsprof_start ("mleaf");
  dsprof_finish (m);
  return leaf (i, 0) + leaf (i, 1) + leaf (i, 2);
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += node (i);
  printf ("%ld\n", sum);
  if (argc > 2 && strcmp (argv[2], "wait") == 0)
    {
      printf ("ready\n");
      fflush (stdout);
      for (;;)
        pause ();
    }
  return 0;
}
