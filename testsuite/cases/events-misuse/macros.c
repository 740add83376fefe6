/* macros.c - annotations only, no calls into libdsprof: links without it when
   built without the plugin.  */

#include <stdio.h>

#include <dsprof.h>

DSPROF_EVENT static int square (int n);
DSPROF_EVENT_TYPE ("Step") void step (const char *what);

static int
square (int n)
{
  return n * n;
}

void
step (const char *what)
{
  printf ("%s %d\n", what, square (7));
}

int
main (void)
{
  step ("square");
  return 0;
}
