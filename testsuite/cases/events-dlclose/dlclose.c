/* dlclose LIB - a program built without the plugin that dlopens LIB (an
   instrumented library, which pulls in libdsprof.so) and calls its event
   work (N) from threads:
     1. two threads in turn, each work (0), work (1), that end while LIB is
        loaded;
     2. four threads, work (10) .. work (13), and main, work (100); once all
        five have recorded, main dlcloses LIB, then lets the four end;
     3. four more threads that record nothing start and end.
   Prints the sum of the results (294).  */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

static int (*work) (int);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int closed, recorded;

/* Record work (ARG), then wait until main has closed the library (or says so
   at once, for step 1).  */
static void *
held (void *arg)
{
  int r = work ((int) (intptr_t) arg);
  pthread_mutex_lock (&lock);
  recorded++;
  pthread_cond_broadcast (&cond);
  while (!closed)
    pthread_cond_wait (&cond, &lock);
  pthread_mutex_unlock (&lock);
  return (void *) (intptr_t) r;
}

static void *
idle (void *arg)
{
  return arg;
}

static void
set_closed (int v)
{
  pthread_mutex_lock (&lock);
  closed = v;
  pthread_cond_broadcast (&cond);
  pthread_mutex_unlock (&lock);
}

int
main (int argc, char **argv)
{
  void *h = argc == 2 ? dlopen (argv[1], RTLD_NOW) : NULL;
  if (!h || !(work = (int (*) (int)) dlsym (h, "work")))
    {
      fprintf (stderr, "dlclose: %s\n", dlerror ());
      return 1;
    }
  long sum = 0;
  pthread_t t[4];
  void *r;

  /* 1. */
  set_closed (1);
  for (int i = 0; i < 2; i++)
    {
      pthread_create (&t[0], NULL, held, (void *) (intptr_t) i);
      pthread_join (t[0], &r);
      sum += (intptr_t) r;
    }

  /* 2. */
  set_closed (0);
  pthread_mutex_lock (&lock);
  recorded = 0;
  pthread_mutex_unlock (&lock);
  for (int i = 0; i < 4; i++)
    pthread_create (&t[i], NULL, held, (void *) (intptr_t) (10 + i));
  sum += work (100);
  pthread_mutex_lock (&lock);
  while (recorded < 4)
    pthread_cond_wait (&cond, &lock);
  pthread_mutex_unlock (&lock);
  dlclose (h);
  set_closed (1);
  for (int i = 0; i < 4; i++)
    {
      pthread_join (t[i], &r);
      sum += (intptr_t) r;
    }

  /* 3. */
  for (int i = 0; i < 4; i++)
    {
      pthread_create (&t[i], NULL, idle, NULL);
      pthread_join (t[i], NULL);
    }
  printf ("%ld\n", sum);
  return 0;
}
