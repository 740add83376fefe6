/* tiny.c - many calls of tiny functions, for a functions=all build: each
   record is a few instructions long, the kind whose time the deduction of
   the hooks' costs can exceed (report-clamped).  */

#include <stdio.h>
#include <stdlib.h>

static __attribute__ ((noinline)) long
leaf (long x)
{
  return x * 3 + 1;
}

static __attribute__ ((noinline)) long
twice (long x)
{
  return leaf (x) + leaf (x + 1);
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000, s = 0;
  for (long i = 0; i < n; i++)
    s += twice (i);
  printf ("%ld\n", s);
  return 0;
}
