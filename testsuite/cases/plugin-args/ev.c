/* ev: square is annotated as an event, twice and main are not; square and twice
   each run 3 times.  */
#include <stdio.h>
#include "dsprof.h"

DSPROF_EVENT static int
square (int x)
{
  return x * x; /* SQUARE */
}

static int
twice (int x)
{
  return 2 * x; /* TWICE */
}

int
main (void)
{
  int i, s = 0;
  for (i = 0; i < 3; i++)
    s += square (i) + twice (i);
  printf ("%d\n", s);
  return 0;
}
