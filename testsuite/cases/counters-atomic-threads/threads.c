/* threads: 4 threads each run a loop 1,000,000 times, all at once.  */
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ROUNDS 1000000

static volatile unsigned long sink[THREADS * 16];
static pthread_barrier_t start;

static void *
work (void *arg)
{
  long t = (long) arg;
  int i;
  pthread_barrier_wait (&start);
  for (i = 0; i < ROUNDS; i++)
    sink[t * 16] += i & 3; /* BODY */
  return NULL;
}

int
main (void)
{
  pthread_t th[THREADS];
  long t;
  pthread_barrier_init (&start, NULL, THREADS);
  for (t = 0; t < THREADS; t++)
    if (pthread_create (&th[t], NULL, work, (void *) t) != 0)
      return 1;
  for (t = 0; t < THREADS; t++)
    pthread_join (th[t], NULL);
  printf ("%lu\n", sink[0] + sink[16] + sink[32] + sink[48]);
  return 0;
}
