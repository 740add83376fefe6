/* chunks.c - two threads, each recording N mid records with two leaf records
   inside: enough events for several event chunks per thread (1 MB each), so
   that times are decoded across chunk boundaries.  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <dsprof.h>

static volatile unsigned long sink;

DSPROF_EVENT __attribute__ ((noipa)) int
leaf (int x)
{
  sink += (unsigned) x;
  return x + 1;
}

DSPROF_EVENT __attribute__ ((noipa)) int
mid (int x)
{
  return leaf (x) + leaf (x + 1);
}

static long n;

static void *
run (void *arg)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += mid ((int) (i & 1023));
  *(long *) arg = s;
  return NULL;
}

int
main (int argc, char **argv)
{
  n = argc > 1 ? atol (argv[1]) : 1000;
  pthread_t t;
  long s1 = 0, s2 = 0;
  if (pthread_create (&t, NULL, run, &s1) != 0)
    return 1;
  run (&s2);
  pthread_join (t, NULL);
  printf ("%ld\n", s1 + s2);
  return 0;
}
