/* many.c - many short-lived threads that record one event each.

     many THREADS BATCH   starts THREADS threads, BATCH at a time (each batch
                          runs at once, then is joined); thread I records
                          one (I) and ends.

   Prints the sum of the results (THREADS * (THREADS - 1) / 2), then the
   process's peak resident set in KB on a second line.  */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <dsprof.h>

DSPROF_EVENT long
one (long i)
{
  return i;
}

static void *
thread_main (void *arg)
{
  return (void *) (intptr_t) one ((long) (intptr_t) arg);
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    return 2;
  long n = atol (argv[1]), batch = atol (argv[2]), sum = 0;
  pthread_t *t = malloc (batch * sizeof *t);
  for (long i = 0; i < n; i += batch)
    {
      long k = n - i < batch ? n - i : batch;
      for (long j = 0; j < k; j++)
        if (pthread_create (&t[j], NULL, thread_main, (void *) (intptr_t) (i + j)))
          return 3;
      for (long j = 0; j < k; j++)
        {
          void *r;
          pthread_join (t[j], &r);
          sum += (long) (intptr_t) r;
        }
    }
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  printf ("%ld\n%ld\n", sum, ru.ru_maxrss);
  free (t);
  return 0;
}
