/* sigalt.c - counters-sigaltstack: ./sigalt MODE SIZE N.  Runs SIGUSR1's
   handler (handler.c) N times on an alternate signal stack of SIZE bytes:
   MODE "thread" in a new thread whose start routine is not counted, so that
   the handler is the thread's first counted code; MODE "main" in the main
   thread after it ran counted code of this unit.  The stack's top is the
   end of a page and a PROT_NONE page lies below it: an overflow is a
   SIGSEGV, never memory of the program's overwritten.  Prints the number
   of signals handled.  */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

extern volatile sig_atomic_t handled;
void on_signal (int sig);

static size_t size;
static long n;

static long
counted_work (long k)
{
  long s = 0;
  for (long i = 0; i < k; i++)
    s += i;                     /* WORK */
  return s;
}

/* Not counted (the case builds with -fplugin-arg-dsprof-exclude=uncounted_*).  */
static void *
uncounted_signals (void *arg)
{
  stack_t ss;
  memset (&ss, 0, sizeof ss);
  size_t pages = (size + 4095) / 4096 * 4096;
  char *p = mmap (NULL, pages + 4096, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED || mprotect (p, 4096, PROT_NONE) != 0)
    exit (3);
  ss.ss_sp = p + 4096 + (pages - size);
  ss.ss_size = size;
  if (sigaltstack (&ss, NULL) != 0)
    {
      perror ("sigaltstack");
      exit (3);
    }
  for (long i = 0; i < n; i++)
    pthread_kill (pthread_self (), SIGUSR1);
  return arg;
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    return 2;
  size = strtoul (argv[2], NULL, 10);
  n = atol (argv[3]);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_ONSTACK;
  sigaction (SIGUSR1, &sa, NULL);
  if (strcmp (argv[1], "thread") == 0)
    {
      pthread_t t;
      if (pthread_create (&t, NULL, uncounted_signals, NULL) != 0)
        return 4;
      pthread_join (t, NULL);
    }
  else
    {
      if (counted_work (10) != 45)
        return 5;
      uncounted_signals (NULL);
    }
  printf ("%ld\n", (long) handled);
  return 0;
}
