/* times.c - known busy-wait durations in a recursive evaluator, for the report's
   Self, Desc and Total (docs/contract.md §5.3):

     value (2)  spins 1 ms, demands value (1), which spins 1 ms and demands value (0)
     other ()   spins 2 ms, demands value (1)

   so, by name:   value  count 5, Self 5 ms, Desc 0, Total 5 ms (value inside value
                         is not counted twice)
                  other  count 1, Self 2 ms, Desc 2 ms, Total 4 ms
   and the profiled time is 3 + 4 = 7 ms.  */

#include <stdio.h>
#include <time.h>

#include <dsprof.h>

static void
spin (long us)
{
  struct timespec t0, t;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  do
    clock_gettime (CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

DSPROF_EVENT_TYPE ("Eval") long
value (int n)
{
  spin (1000);
  return n > 0 ? value (n - 1) + 1 : 0;
}

DSPROF_EVENT_TYPE ("Eval") long
other (void)
{
  spin (2000);
  return value (1);
}

int
main (void)
{
  printf ("%ld %ld\n", value (2), other ());
  return 0;
}
