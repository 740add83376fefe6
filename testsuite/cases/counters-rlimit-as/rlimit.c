/* rlimit.c - counters-rlimit-as: ./rlimit THREADS MB [starve].  THREADS
   threads each call work () 100 times and wait until all of them have (so
   that all are alive at once); then the main thread mallocs MB megabytes
   and says whether it got them.  Prints "malloc ok" or "malloc failed", and
   the sum of work ()'s results.  With "starve", the main thread first maps
   all the address space it can get (64 KiB at a time, under RLIMIT_AS), so
   that the threads' first counted code finds none left.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static pthread_barrier_t go, all_ran, may_end;

static long
work (long i)
{
  return i % 7;                 /* WORK */
}

/* Not static: it tests its thread's pointer to its counters itself.  */
__attribute__ ((noinline)) void *
thread (void *arg)
{
  long s = 0;
  for (long i = 0; i < 100; i++)
    s += work (i);
  pthread_barrier_wait (&all_ran);
  pthread_barrier_wait (&may_end);
  *(long *) arg = s;
  return NULL;
}

/* Not counted (the case builds with -fplugin-arg-dsprof-exclude=uncounted_*):
   the threads' first counted code runs once the main thread says so.  */
static void *
uncounted_start (void *arg)
{
  pthread_barrier_wait (&go);
  return thread (arg);
}

int
main (int argc, char **argv)
{
  if (argc != 3 && argc != 4)
    return 2;
  int n = atoi (argv[1]);
  size_t mb = strtoul (argv[2], NULL, 10);
  pthread_t *t = calloc (n, sizeof *t);
  long *sums = calloc (n, sizeof *sums);
  if (!t || !sums)
    return 3;
  pthread_barrier_init (&go, NULL, n + 1);
  pthread_barrier_init (&all_ran, NULL, n + 1);
  pthread_barrier_init (&may_end, NULL, n + 1);
  for (int i = 0; i < n; i++)
    if (pthread_create (&t[i], NULL, uncounted_start, &sums[i]) != 0)
      {
        printf ("pthread_create failed at %d\n", i);
        return 4;
      }
  size_t eaten = 0;
  while (argc == 4 && mmap (NULL, 65536, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED)
    eaten++;
  pthread_barrier_wait (&go);
  pthread_barrier_wait (&all_ran);
  char *p = malloc (mb << 20);
  printf ("malloc %s\n", p ? "ok" : "failed");
  if (p)
    memset (p, 1, 4096);
  free (p);
  pthread_barrier_wait (&may_end);
  long total = 0;
  for (int i = 0; i < n; i++)
    {
      pthread_join (t[i], NULL);
      total += sums[i];
    }
  printf ("%ld\n", total);
  return 0;
}
