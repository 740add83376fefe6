/* flat.c - one top-level event `run` with N direct descendants `step`: the
   shape of an interpreter whose dispatch loop is an event.  */
#include <stdio.h>
#include <stdlib.h>

#include <dsprof.h>

DSPROF_EVENT long
step (long i)
{
  return i & 7;
}

DSPROF_EVENT long
run (long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += step (i);
  return s;
}

int
main (int argc, char **argv)
{
  printf ("%ld\n", run (atol (argv[1])));
  return 0;
}
