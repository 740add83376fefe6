/* sampled.c - records of known CPU time for the CPU-time sampler
   (report-sampled, DSPROF_SAMPLE):

     sampled run      outer() burns 100 ms of its thread's CPU time and
                      calls inner() twice, each burning 150 ms; nap()
                      sleeps 200 ms, off any CPU; a second thread's
                      worker() burns 300 ms, then a third's, which blocks
                      the sampler's signal (unsampled); then a forked
                      child's worker() burns 300 ms in the child's own
                      profile
     sampled handler  installs a SIGURG handler of its own first, then
                      burns in inner() (the sampler must stand aside)
     sampled waits    step() 1000 times: it burns 50 us and waits 1 ms in
                      poll() and 10 us in nanosleep(); prints how many of
                      them a signal cut short (EINTR)
     sampled denied   inner() in the main thread, then worker() in a second
                      thread that a seccomp filter of its own refuses
                      perf_event_open: its perf clock cannot open

   Each function is annotated: a record of the profile.  */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dsprof.h"

static long
cpu_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* Burn US microseconds of the thread's CPU time, in its own code: the
   clock is read (a system call) only between stretches of a loop.  */
static void
burn_us (long us)
{
  long start = cpu_ns ();
  while (cpu_ns () - start < us * 1000L)
    for (volatile int i = 0; i < 20000; i++)
      ;
}

static void
burn (long ms)
{
  burn_us (ms * 1000);
}

DSPROF_EVENT __attribute__ ((noipa)) void
inner (void)
{
  burn (150);
}

DSPROF_EVENT __attribute__ ((noipa)) void
outer (void)
{
  burn (100);
  inner ();
  inner ();
}

DSPROF_EVENT __attribute__ ((noipa)) void
nap (void)
{
  struct timespec t = { 0, 200000000 };
  while (nanosleep (&t, &t) != 0)
    ;
}

DSPROF_EVENT __attribute__ ((noipa)) void
worker (void)
{
  burn (300);
}

DSPROF_EVENT __attribute__ ((noipa)) void
hold (void)
{
}

/* Burn, then wait in two system calls that a signal's handler cuts short
   whatever SA_RESTART says; how many were.  */
DSPROF_EVENT __attribute__ ((noipa)) int
step (void)
{
  burn_us (50);
  struct timespec t = { 0, 10000 };
  return (poll (NULL, 0, 1) < 0 && errno == EINTR)
         + (nanosleep (&t, NULL) != 0 && errno == EINTR);
}

/* The process's perf event descriptors.  */
static int
perf_fds (void)
{
  DIR *d = opendir ("/proc/self/fd");
  struct dirent *e;
  char path[300], link[64];
  int n = 0;
  while (d && (e = readdir (d)))
    {
      snprintf (path, sizeof path, "/proc/self/fd/%s", e->d_name);
      ssize_t len = readlink (path, link, sizeof link - 1);
      if (len > 0)
        {
          link[len] = 0;
          n += !strcmp (link, "anon_inode:[perf_event]");
        }
    }
  if (d)
    closedir (d);
  return n;
}

/* The fourth thread: its clock starts at hold(); it says so on the pipe
   ARG[1] and waits on ARG[2] until the fork is done.  */
static void *
holder_main (void *arg)
{
  int *pipes = arg;
  char c;
  hold ();
  return write (pipes[1], "", 1) == 1 && read (pipes[2], &c, 1) == 1 ? NULL : arg;
}

static void *
thread_main (void *arg)
{
  if (arg)
    {
      sigset_t urg;
      sigemptyset (&urg);
      sigaddset (&urg, SIGURG);
      pthread_sigmask (SIG_BLOCK, &urg, NULL);
    }
  worker ();
  return NULL;
}

/* A thread whose own seccomp filter makes perf_event_open fail with
   EACCES (the other threads' are not filtered), then worker().  */
static void *
denied_main (void *arg)
{
  struct sock_filter f[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { sizeof f / sizeof f[0], f };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
    return arg;
  worker ();
  return NULL;
}

static volatile sig_atomic_t own_signals;

static void
own_handler (int sig)
{
  (void) sig;
  own_signals++;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && !strcmp (argv[1], "handler"))
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = own_handler;
      sigaction (SIGURG, &sa, NULL);
      inner ();
      return own_signals != 0;   /* no SIGURG of the sampler's reached it */
    }
  if (argc > 1 && !strcmp (argv[1], "denied"))
    {
      pthread_t th;
      inner ();
      if (pthread_create (&th, NULL, denied_main, NULL) != 0
          || pthread_join (th, NULL) != 0)
        return 2;
      return 0;
    }
  if (argc > 1 && !strcmp (argv[1], "waits"))
    {
      int cut = 0;
      for (int i = 0; i < 1000; i++)
        cut += step ();
      printf ("cut short %d\n", cut);
      return 0;
    }
  outer ();
  nap ();
  for (int blocked = 0; blocked < 2; blocked++)
    {
      pthread_t th;
      if (pthread_create (&th, NULL, thread_main, blocked ? &th : NULL) != 0
          || pthread_join (th, NULL) != 0)
        return 2;
    }
  int pipes[4];   /* ready: 0 <- 1; go: 2 <- 3 */
  pthread_t holder;
  char c;
  if (pipe (pipes) != 0 || pipe (pipes + 2) != 0
      || pthread_create (&holder, NULL, holder_main, pipes) != 0
      || read (pipes[0], &c, 1) != 1)
    return 2;
  printf ("parent %d\n", perf_fds ());
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    return 3;
  if (pid == 0)
    {
      printf ("child before %d\n", perf_fds ());
      worker ();
      printf ("child after %d\n", perf_fds ());
      fflush (stdout);
      _exit (0);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0)
    return 4;
  void *res;
  if (write (pipes[3], "", 1) != 1 || pthread_join (holder, &res) != 0 || res)
    return 5;
  return 0;
}
