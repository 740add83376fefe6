/* off.c - events and counters together: 25 calls of the event step, one
   manual event, dimensions added inside and outside events.  */

#include <stdio.h>

#include <dsprof.h>

DSPROF_EVENT int
step (int i)
{
  dsprof_dim_int ("twice", 2 * i);   /* BODY */
  return i * 3;
}

int
main (void)
{
  int total = 0;
  dsprof_dim_int ("stray", 1);
  dsprof_id all = dsprof_start ("All");
  for (int i = 0; i < 25; i++)
    total += step (i);   /* LOOP */
  dsprof_finish (all);
  printf ("%d\n", total);
  return 0;
}
