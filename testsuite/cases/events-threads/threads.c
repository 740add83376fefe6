/* threads.c - nested events in several threads at once (docs/contract.md §4.2, §4.4).

     threads NTHREADS ITERATIONS   NTHREADS workers; worker W first records
                                   hello (W), in turn (so it is thread W + 1),
                                   then, all at once, ITERATIONS times
                                   run (W, I), which opens a manual "Batch"
                                   event (dimension w = W) around node (W, 3):
                                   a full binary tree of 15 node events.
     threads stray                 a thread that only adds a dimension outside
                                   any event and finishes no event, then two
                                   threads that call hello (1) and hello (2),
                                   one after the other
     threads exit                  worker 0 as above with 1 iteration; when it
                                   has ended, worker 1 calls pthread_exit from
                                   inside three nested exiting_node events.

   Prints the sum of the results of all run events.  */

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dsprof.h>

#define DEPTH 3

static int iterations;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int turn;
static int exit_at_bottom = 1;

DSPROF_EVENT int
node (int worker, int depth)
{
  if (depth == 0)
    return 1;
  return node (worker, depth - 1) + node (worker, depth - 1) + 1;
}

DSPROF_EVENT_TYPE ("Run") long
run (int worker, int i)
{
  (void) i;
  dsprof_id batch = dsprof_start ("Batch");
  dsprof_dim_int ("w", worker);
  long n = node (worker, DEPTH);
  dsprof_finish (batch);
  return n;
}

DSPROF_EVENT int
hello (int worker)
{
  return worker;
}

static void *
worker_main (void *arg)
{
  int w = (int) (intptr_t) arg;
  pthread_mutex_lock (&lock);
  while (turn != w)
    pthread_cond_wait (&cond, &lock);
  hello (w);
  turn++;
  pthread_cond_broadcast (&cond);
  pthread_mutex_unlock (&lock);
  long total = 0;
  for (int i = 0; i < iterations; i++)
    total += run (w, i);
  return (void *) (intptr_t) total;
}

/* Ends its thread from inside its third nested event.  */
DSPROF_EVENT int
exiting_node (int worker, int depth)
{
  if (depth == 0)
    {
      if (exit_at_bottom)
        pthread_exit (NULL);
      return 0;
    }
  return exiting_node (worker, depth - 1);
}

static void *
exiting_main (void *arg)
{
  int w = (int) (intptr_t) arg;
  pthread_mutex_lock (&lock);
  while (turn != w)
    pthread_cond_wait (&cond, &lock);
  hello (w);
  turn++;
  pthread_cond_broadcast (&cond);
  pthread_mutex_unlock (&lock);
  exiting_node (w, 2);
  return NULL;
}

static void *
stray_main (void *arg)
{
  (void) arg;
  dsprof_dim_int ("stray", 1);
  dsprof_finish (1);
  return NULL;
}

static void *
hello_main (void *arg)
{
  hello ((int) (intptr_t) arg);
  return NULL;
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "stray") == 0)
    {
      pthread_t t;
      pthread_create (&t, NULL, stray_main, NULL);
      pthread_join (t, NULL);
      for (int w = 1; w <= 2; w++)
        {
          pthread_create (&t, NULL, hello_main, (void *) (intptr_t) w);
          pthread_join (t, NULL);
        }
      return 0;
    }
  if (argc == 2 && strcmp (argv[1], "exit") == 0)
    {
      pthread_t a, b;
      iterations = 1;
      void *ra, *rb;
      pthread_create (&a, NULL, worker_main, (void *) 0);
      pthread_join (a, &ra);
      pthread_create (&b, NULL, exiting_main, (void *) 1);
      pthread_join (b, &rb);
      printf ("%ld\n", (long) (intptr_t) ra);
      return rb == NULL ? 0 : 1;
    }
  if (argc != 3)
    return 2;
  int n = atoi (argv[1]);
  iterations = atoi (argv[2]);
  pthread_t tid[64];
  if (n < 1 || n > 64)
    return 2;
  for (int w = 0; w < n; w++)
    pthread_create (&tid[w], NULL, worker_main, (void *) (intptr_t) w);
  long total = 0;
  for (int w = 0; w < n; w++)
    {
      void *r;
      pthread_join (tid[w], &r);
      total += (long) (intptr_t) r;
    }
  printf ("%ld\n", total);
  return 0;
}
