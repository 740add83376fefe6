/* kill.c - runs ITERATIONS times outer (i) > inner (i, 0), inner (i, 1), then
   hang (ITERATIONS) > snooze (1), which prints "ready" and sleeps until the
   process is killed.  */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <dsprof.h>

DSPROF_EVENT int
inner (int i, int k)
{
  return 2 * i + k;
}

DSPROF_EVENT int
outer (int i)
{
  return inner (i, 0) + inner (i, 1);
}

DSPROF_EVENT void
snooze (int n)
{
  printf ("ready %d\n", n);
  fflush (stdout);
  for (;;)
    pause ();
}

DSPROF_EVENT void
hang (int n)
{
  snooze (1);
  (void) n;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 50;
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += outer (i);
  hang (n);
  return (int) (sum & 1);
}
