/* opflood.c - a toy bytecode VM that records op records as fast as it can,
   for `dsprof top` against a program writing millions of records a second
   (scripts/bench.sh, row "top_refresh"):

     opflood SECONDS

   runs its four one-line opcodes, the cases of run_dispatch's `switch' (op
   records with the plugin argument dispatch=run_dispatch, docs/vm.md), for
   SECONDS seconds, then prints how many ran.  */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* Run N opcodes of CODE (each 0..3), round and round.  */

static void
run_dispatch (const unsigned char *code, long n)
{
  unsigned long acc = sink;
  for (long pc = 0; pc < n; pc++)
    switch (code[pc & 1023])
      {
      case 0: acc += 1; break;
      case 1: acc ^= (unsigned long) pc; break;
      case 2: acc *= 3; break;
      default: acc -= 7; break;
      }
  sink = acc;
}

int
main (int argc, char **argv)
{
  double seconds = argc == 2 ? atof (argv[1]) : 0;
  if (!(seconds > 0))
    {
      fprintf (stderr, "usage: opflood SECONDS\n");
      return 1;
    }
  unsigned char code[1024];
  for (int i = 0; i < 1024; i++)
    code[i] = (unsigned char) ((i * 7 + i / 5) & 3);
  double end = now () + seconds;
  long total = 0;
  while (now () < end)
    {
      run_dispatch (code, 1000000);
      total += 1000000;
    }
  printf ("ops %ld\n", total);
  return 0;
}
