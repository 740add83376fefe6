/* threads8: 8 threads each run a loop of 10,000,000 iterations, all started at
   once, so that 2 cores interleave their counter updates all the time.  */
#include <pthread.h>
#include <stdio.h>

#define THREADS 8
#define ROUNDS 10000000

static volatile unsigned long sink[THREADS * 16];
static pthread_barrier_t start;

static void *
work (void *arg)
{
  long t = (long) arg;
  int i;
  pthread_barrier_wait (&start);
  for (i = 0; i < ROUNDS; i++)
    sink[t * 16] += 1; /* BODY */
  return NULL;
}

int
main (void)
{
  pthread_t th[THREADS];
  unsigned long total = 0;
  long t;
  pthread_barrier_init (&start, NULL, THREADS);
  for (t = 0; t < THREADS; t++)
    if (pthread_create (&th[t], NULL, work, (void *) t) != 0)
      return 1;
  for (t = 0; t < THREADS; t++)
    pthread_join (th[t], NULL);
  for (t = 0; t < THREADS; t++)
    total += sink[t * 16];
  printf ("%lu\n", total);
  return 0;
}
