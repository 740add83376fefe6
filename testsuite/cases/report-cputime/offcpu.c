/* offcpu.c - a record that sleeps and one that spins (report-cputime):

     offcpu sleep   wait() sleeps 300 ms of its run: off any CPU
     offcpu spin    spin() busy-waits until this thread has run 100 ms on a
                    CPU (its own CPU clock): at least 100 ms of CPU time
     offcpu hang    wait() again and again, until killed

   Each is an annotated function, a record of the profile.  */
#include <string.h>
#include <time.h>

#include "dsprof.h"

DSPROF_EVENT __attribute__ ((noipa)) void
wait (void)
{
  struct timespec t = { 0, 300000000 };
  while (nanosleep (&t, &t) != 0)
    ;
}

static long
cpu_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

DSPROF_EVENT __attribute__ ((noipa)) void
spin (void)
{
  long start = cpu_ns ();
  while (cpu_ns () - start < 100000000L)
    ;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    return 2;
  if (!strcmp (argv[1], "sleep"))
    wait ();
  else if (!strcmp (argv[1], "hang"))
    for (;;)
      wait ();
  else
    spin ();
  return 0;
}
