/* main.c - the report-summary program: a function never called (unused), a
   branch never taken (the x > 100 in main), a header function (sq.h) used by
   this unit and by other.c.  */
#include "sq.h"

int other (int);

static int
unused (int x)
{
  return x + 1;
}

int
main (int argc, char **argv)
{
  int x = argc + 2;
  (void) argv;
  if (x > 100)
    x = unused (x);
  return (sq (x) + other (x)) & 0;
}
