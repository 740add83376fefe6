/* ex.c - records for the exports: two threads, a string parameter with the
   characters CSV and JSON must quote, dimensions added during events, manual
   events, events left by longjmp (repaired) and one left open at exit.

     main thread:  run ("main"), then (after the worker) jumper (), then
                   dsprof_start ("Tail") never finished
     worker:       run ("worker")
     run (who):    a manual event "Phase;x" with dimensions items=3 and
                   label="x;y z", holding word (s) for each of the 3 words
     jumper ():    deep (2) -> deep (1) -> deep (0) longjmps back to jumper:
                   the three deep events are closed incomplete

   so: run 2, Phase;x 2, word 6, jumper 1, deep 3 (incomplete), Tail 1
   (incomplete): 15 records, 10 on the main thread, 5 on the worker.  */

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <dsprof.h>

static const char *const words[3] = {
  "plain", "a,b \"q\"\nline", "\xff\xfe bytes"
};

static void
spin (long us)
{
  struct timespec t0, t;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  do
    clock_gettime (CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

DSPROF_EVENT int
word (const char *s)
{
  spin (200);                                   /* L-word-body */
  return (int) strlen (s);
}

DSPROF_EVENT int
run (const char *who)
{
  int n = 0;
  dsprof_id ph = dsprof_start ("Phase;x");
  dsprof_dim_int ("items", 3);
  for (int i = 0; i < 3; i++)
    n += word (words[i]);                       /* L-run-loop */
  dsprof_dim_str ("label", "x;y z");
  dsprof_finish (ph);
  return n + (int) strlen (who);
}

static void *
worker (void *arg)
{
  (void) arg;
  run ("worker");
  return NULL;
}

static jmp_buf env;

DSPROF_EVENT void
deep (int n)
{
  if (n == 0)
    longjmp (env, 1);                           /* L-jump */
  deep (n - 1);
}

DSPROF_EVENT int
jumper (void)
{
  if (setjmp (env) == 0)
    deep (2);
  spin (100);
  return 1;
}

int
main (void)
{
  int n = run ("main");
  pthread_t t;
  if (pthread_create (&t, NULL, worker, NULL) != 0 || pthread_join (t, NULL) != 0)
    return 1;
  n += jumper ();
  dsprof_start ("Tail");
  printf ("%d\n", n);
  return 0;
}
