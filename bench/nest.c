/* nest.c - the profile of scripts/bench.sh's report_instructions: N calls of
   an event function OUTER, each calling the event function INNER twice (3 N
   records, two nested event types with one integer dimension each).

     nest N

   DSPROF_EVENT marks them only when built with the plugin (README); noipa
   keeps GCC from inlining them, so each build makes the same calls.  Prints
   the sum the functions computed.  */

#include <stdio.h>
#include <stdlib.h>

#include <dsprof.h>

static volatile long sink;

DSPROF_EVENT __attribute__ ((noipa)) void
inner (long i)
{
  sink += i;
}

DSPROF_EVENT __attribute__ ((noipa)) void
outer (long i)
{
  inner (i);
  inner (i + 1);
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 2000000;
  for (long i = 0; i < n; i++)
    outer (i);
  printf ("%ld\n", (long) sink);
  return 0;
}
