/* entry.c - where a thread's first counted code is (counters-thread-shards):
     entry N
   A function the plugin does not count (exclude=) starts each of 4 threads
   and calls a static counted function, which only loads the shard pointer
   (its callers test it): so the uncounted caller tests it.  Another starts
   4 threads that first enter counted code with 8 doubles and 2 integers in
   their argument registers, which the runtime's first call in the thread
   must leave as they were.  A preinit function calls counted code before
   its unit registers: later calls count in the unit's place.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long n;
static volatile double dsink;
static volatile long lsink;

static __attribute__ ((noinline)) void
helper (long i)
{
  lsink += i; /* HELPER */
}

static void *
uncounted_start (void *arg)
{
  for (long i = 0; i < n; i++)
    helper (i);
  return arg;
}

__attribute__ ((noinline)) double
vector_args (double a, double b, double c, double d, double e, double f,
             double g, double h, long i, long j)
{
  return a + 2 * b + 4 * c + 8 * d + 16 * e + 32 * f + 64 * g + 128 * h
         + 256 * i + 512 * j; /* VECTOR */
}

static void *
uncounted_vector_start (void *arg)
{
  double r = vector_args (1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
  if (r != 1 + 4 + 12 + 32 + 80 + 192 + 448 + 1024 + 2304 + 5120)
    {
      fprintf (stderr, "vector_args returned %g\n", r);
      exit (5);
    }
  dsink = r;
  return arg;
}

__attribute__ ((noinline)) void
early (void)
{
  lsink += 1; /* EARLY */
}

static void
preinit (void)
{
  early ();
}

__attribute__ ((section (".preinit_array"), used))
static void (*const preinit_fn) (void) = preinit;

static void
run (void *(*start) (void *))
{
  pthread_t t[4];
  for (long k = 0; k < 4; k++)
    if (pthread_create (&t[k], NULL, start, NULL) != 0)
      exit (3);
  for (int k = 0; k < 4; k++)
    pthread_join (t[k], NULL);
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    return 2;
  n = atol (argv[1]);
  for (long i = 0; i < n; i++)
    early ();
  run (uncounted_start);
  run (uncounted_vector_start);
  return 0;
}
