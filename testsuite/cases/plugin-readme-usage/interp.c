/* interp.c - the smallest interpreter README's "Profiling your own program" can
   build: it sums the numbers of the script named on its command line, one event
   per statement.  */
#include <stdio.h>
#include <stdlib.h>
#include <dsprof.h>

DSPROF_EVENT long
statement (long value)
{
  return value * 2;
}

int
main (int argc, char **argv)
{
  FILE *f = argc > 1 ? fopen (argv[1], "r") : NULL;
  long v, sum = 0;
  if (!f)
    return 2;
  while (fscanf (f, "%ld", &v) == 1)
    sum += statement (v);            /* STATEMENT */
  fclose (f);
  printf ("%ld\n", sum);
  return 0;
}
