/* signal.c - annotated functions called from a signal handler while the
   interrupted code is inside another event (docs/contract.md §4.4).  The handler runs
   on_signal (SIG) > in_handler (1).

     signal timer     main spins inside spin (1) until a SIGALRM from a timer
                      has been handled
     signal altstack  the same in a second thread whose handler runs on an
                      alternate signal stack mapped before the thread's own
                      stack (so at a higher address), signalled by main
     signal jump      inside guarded (1), raise (SIGUSR2): its handler runs
                      on_jump (SIG) > deep (1) > deep (0), which siglongjmps
                      back into guarded; guarded then calls after_jump (1)
     signal storm N   main runs N trees of node events (node (3): 15 events),
                      then waits until the handler has run 200 times, while a
                      second thread sends it SIGUSR1 as fast as it can; prints
                      the number of trees and of handler runs  */

#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include <dsprof.h>

static volatile sig_atomic_t handled;
static volatile int stop;

DSPROF_EVENT int
in_handler (int n)
{
  return n;
}

DSPROF_EVENT void
on_signal (int sig)
{
  in_handler (1);
  (void) sig;
}

static void
handler (int sig)
{
  on_signal (sig);
  handled++;
}

static volatile int spinning;
static int use_timer;

/* Spins until a signal has been handled: the signal comes (from a timer, or
   from main once SPINNING is set) only once the event has started.  */
DSPROF_EVENT int
spin (int n)
{
  if (use_timer)
    {
      struct itimerval it = { { 0, 0 }, { 0, 2000 } };
      setitimer (ITIMER_REAL, &it, NULL);
    }
  spinning = 1;
  while (!handled)
    ;
  return n;
}

DSPROF_EVENT int
node (int depth)
{
  if (depth == 0)
    return 1;
  return node (depth - 1) + node (depth - 1) + 1;
}

static sigjmp_buf jump_back;

DSPROF_EVENT int
deep (int n)
{
  if (n == 0)
    siglongjmp (jump_back, 1);
  return deep (n - 1) + 1;
}

DSPROF_EVENT void
on_jump (int sig)
{
  (void) sig;
  deep (1);
}

static void
jumper (int sig)
{
  on_jump (sig);
}

DSPROF_EVENT int
after_jump (int n)
{
  return n;
}

DSPROF_EVENT int
guarded (int n)
{
  if (sigsetjmp (jump_back, 1) == 0)
    raise (SIGUSR2);
  return after_jump (n);
}

static pthread_t main_thread;

static void *
sender (void *arg)
{
  (void) arg;
  while (!stop)
    {
      pthread_kill (main_thread, SIGUSR1);
      for (volatile int i = 0; i < 2000; i++)
        ;
    }
  return NULL;
}

static void *
altstack_worker (void *arg)
{
  stack_t ss;
  memset (&ss, 0, sizeof ss);
  ss.ss_sp = arg;
  ss.ss_size = 1 << 20;
  if (sigaltstack (&ss, NULL) != 0)
    exit (5);
  spin (1);
  return NULL;
}

static void
install (int sig, int flags)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART | flags;
  sigemptyset (&sa.sa_mask);
  sigaction (sig, &sa, NULL);
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "timer") == 0)
    {
      install (SIGALRM, 0);
      use_timer = 1;
      spin (1);
      return 0;
    }
  if (argc == 2 && strcmp (argv[1], "altstack") == 0)
    {
      void *alt = mmap (NULL, 1 << 20, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (alt == MAP_FAILED)
        return 4;
      install (SIGUSR1, SA_ONSTACK);
      pthread_t t;
      pthread_create (&t, NULL, altstack_worker, alt);
      while (!spinning)
        ;
      usleep (1000);
      pthread_kill (t, SIGUSR1);
      pthread_join (t, NULL);
      return 0;
    }
  if (argc == 2 && strcmp (argv[1], "jump") == 0)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = jumper;
      sigemptyset (&sa.sa_mask);
      sigaction (SIGUSR2, &sa, NULL);
      return guarded (1) == 1 ? 0 : 1;
    }
  if (argc == 3 && strcmp (argv[1], "storm") == 0)
    {
      int n = atoi (argv[2]);
      install (SIGUSR1, 0);
      main_thread = pthread_self ();
      sigset_t set, old;
      sigemptyset (&set);
      sigaddset (&set, SIGUSR1);
      pthread_sigmask (SIG_BLOCK, &set, &old);
      pthread_t t;
      pthread_create (&t, NULL, sender, NULL);
      pthread_sigmask (SIG_SETMASK, &old, NULL);
      long trees = 0;
      while (trees < n)
        if (node (3) == 15)
          trees++;
      /* The handler runs a loaded machine has not yet delivered come between
         the trees, so the profile's size does not grow with the load.  */
      while (handled < 200)
        sched_yield ();
      stop = 1;
      pthread_join (t, NULL);
      printf ("%ld %d\n", trees, (int) handled);
      return 0;
    }
  return 2;
}
