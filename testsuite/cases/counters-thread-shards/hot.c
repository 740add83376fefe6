/* hot.c - threads that run the same counted loops (counters-thread-shards).
     hot threads|churn|fork|kill|dl N [PROGRESS|LIBRARY]  */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

static long iters;
static volatile long sink;
static volatile long *progress;          /* kill: calls done, per thread */
static pthread_barrier_t loaded;
static long (*plug) (long);

static __attribute__ ((noinline)) void
bump (long i)
{
  sink += i; /* BUMP */
}

static void *
work (void *arg)
{
  long k = (long) arg;
  for (long i = 0; i < iters; i++)
    bump (i);
  if (plug)
    {
      pthread_barrier_wait (&loaded);
      pthread_barrier_wait (&loaded);
      sink += plug (iters);
    }
  for (long i = 0; progress; i++)
    {
      bump (i);
      progress[k] = i + 1;
    }
  return NULL; /* THREAD */
}

static void
run (int n)
{
  pthread_t t[8];
  for (long k = 0; k < n; k++)
    if (pthread_create (&t[k], NULL, work, (void *) k) != 0)
      exit (3);
  if (plug)
    {
      pthread_barrier_wait (&loaded);
      pthread_barrier_wait (&loaded);
    }
  for (int k = 0; k < n; k++)
    pthread_join (t[k], NULL);
}

static long
dummy (long n)
{
  return n;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    return 2;
  iters = atol (argv[2]);
  if (strcmp (argv[1], "threads") == 0)
    run (8);
  else if (strcmp (argv[1], "churn") == 0)
    for (int r = 0; r < 125; r++)
      run (8);
  else if (strcmp (argv[1], "fork") == 0)
    {
      run (8);
      pid_t pid = fork ();
      if (pid == 0)
        {
          run (2);
          return 0;
        }
      waitpid (pid, NULL, 0);
    }
  else if (strcmp (argv[1], "kill") == 0 && argc == 4)
    {
      int fd = open (argv[3], O_RDWR | O_CREAT | O_TRUNC, 0644);
      if (fd < 0 || ftruncate (fd, 8 * sizeof (long)) != 0)
        return 3;
      progress = mmap (NULL, 8 * sizeof (long), PROT_READ | PROT_WRITE,
                       MAP_SHARED, fd, 0);
      if (progress == MAP_FAILED)
        return 3;
      run (8);
    }
  else if (strcmp (argv[1], "dl") == 0 && argc == 4)
    {
      /* The threads count before the library is loaded, and in it after.  */
      pthread_barrier_init (&loaded, NULL, 9);
      plug = dummy;
      pthread_t t[8];
      for (long k = 0; k < 8; k++)
        pthread_create (&t[k], NULL, work, (void *) k);
      pthread_barrier_wait (&loaded);
      void *h = dlopen (argv[3], RTLD_NOW);
      if (!h || !(plug = (long (*) (long)) dlsym (h, "plug_work")))
        return 4;
      pthread_barrier_wait (&loaded);
      for (int k = 0; k < 8; k++)
        pthread_join (t[k], NULL);
    }
  else
    return 2;
  return 0;
}
