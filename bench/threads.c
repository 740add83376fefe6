/* threads.c - a counter-heavy workload in 8 threads at once, for the cost of
   counter updates in multithreaded programs (scripts/bench.sh, "threads").

     threads N

   Each of 8 threads makes N calls of a small function with a loop and
   branches (about 40 counted edges run per call), all threads started
   together.  Prints the sum the threads computed, which every build must
   agree on.  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 8

static long calls;
static pthread_barrier_t start;

static __attribute__ ((noinline)) long
mix (long x)
{
  long s = 0; /* ENTRY: once per call */
  for (int k = 0; k < 8; k++)
    {
      if ((x + k) % 3 == 0)
        s += x >> 1;
      else if ((x ^ k) & 1)
        s -= k;
      else
        s += k * 3;
    }
  return s;
}

static void *
work (void *arg)
{
  long t = (long) arg, s = 0;
  pthread_barrier_wait (&start);
  for (long i = 0; i < calls; i++)
    s += mix (i + t);
  return (void *) s;
}

int
main (int argc, char **argv)
{
  if (argc != 2 || (calls = atol (argv[1])) <= 0)
    {
      fprintf (stderr, "usage: threads N\n");
      return 2;
    }
  pthread_t th[THREADS];
  pthread_barrier_init (&start, NULL, THREADS);
  for (long t = 0; t < THREADS; t++)
    if (pthread_create (&th[t], NULL, work, (void *) t) != 0)
      return 1;
  long sum = 0;
  for (int t = 0; t < THREADS; t++)
    {
      void *r;
      pthread_join (th[t], &r);
      sum += (long) r;
    }
  printf ("%ld\n", sum);
  return 0;
}
