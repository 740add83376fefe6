/* many.c N - the report-progress program: calls the event step N times, a
   profile of many events chunks (each chunk twice the last, up to 1 MiB).  */
#include <stdio.h>
#include <stdlib.h>
#include "dsprof.h"

DSPROF_EVENT static long
step (long x)
{
  return x * 3 + 1;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000, s = 0;
  for (long i = 0; i < n; i++)
    s += step (i) & 1;
  printf ("%ld\n", s);
  return 0;
}
