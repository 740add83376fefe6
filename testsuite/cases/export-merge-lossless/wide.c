/* wide.c - `wide N`: one manual event "outer" around N calls of an event
   function: a record with N direct children.  */

#include <stdio.h>
#include <stdlib.h>

#include <dsprof.h>

static volatile unsigned long sink;

__attribute__ ((noipa)) DSPROF_EVENT static void
leaf (int i)
{
  sink += (unsigned long) i;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000;
  dsprof_id id = dsprof_start ("outer");
  for (long i = 0; i < n; i++)
    leaf ((int) i);
  dsprof_finish (id);
  printf ("%lu\n", sink);
  return 0;
}
