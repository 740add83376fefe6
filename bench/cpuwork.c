/* cpuwork.c - an annotated function of fixed work, for the busy_machine row
   of scripts/bench.sh: work() runs STEPS steps of a linear congruential
   generator, no clock read, no memory touched, so its CPU time per call is
   the same on an idle machine and beside busy processes, while its wall
   time grows by every preemption that falls in it.

   `cpuwork N` calls work() N times and prints the generator's last value
   (so that the work is not optimised away).  */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <dsprof.h>

enum { STEPS = 1000000 };

DSPROF_EVENT __attribute__ ((noipa)) uint64_t
work (uint64_t x)
{
  for (int i = 0; i < STEPS; i++)
    x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000;
  uint64_t x = 1;
  for (long i = 0; i < n; i++)
    x = work (x);
  printf ("%llu\n", (unsigned long long) x);
  return 0;
}
