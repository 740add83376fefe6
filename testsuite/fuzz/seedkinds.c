/* seedkinds.c - the program behind the seeds of the kinds of profile the
   runtime writes besides a single process's (make-seeds.sh):
     seedkinds threads N     N steps in each of two threads and main: with
                             update=thread, a shard per thread;
     seedkinds fork N        N steps in a forked child and N in the parent;
     seedkinds exec N        N steps, then execs `seedkinds threads N`;
     seedkinds wait FILE N   N steps, prints "waiting", waits for FILE to
                             appear (`dsprof ctl` switches events meanwhile:
                             the control chunk's log), N steps more.
   Run with DSPROF_ACCUMULATE=1, fork and exec make an accumulated profile.
   Each step is an event (step) with an int and a string dimension.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dsprof.h>

static volatile long sink;

DSPROF_EVENT static int
step (int i, const char *who)
{
  sink += i + (long) strlen (who);
  return i & 1;
}

static void
steps (int n, const char *who)
{
  for (int i = 0; i < n; i++)
    step (i, who);
}

static void *
thread_main (void *arg)
{
  steps (*(int *) arg, "thread");
  return NULL;
}

static int
threads (int n)
{
  pthread_t t[2];
  for (int k = 0; k < 2; k++)
    if (pthread_create (&t[k], NULL, thread_main, &n) != 0)
      return 2;
  steps (n, "main");
  for (int k = 0; k < 2; k++)
    pthread_join (t[k], NULL);
  return 0;
}

int
main (int argc, char **argv)
{
  int n = argc > 2 ? atoi (argv[argc - 1]) : 10;
  const char *what = argc > 1 ? argv[1] : "threads";
  if (strcmp (what, "fork") == 0)
    {
      int status;
      pid_t pid = fork ();
      steps (n, pid == 0 ? "child" : "parent");
      if (pid == 0)
        _exit (0);
      return pid < 0 || waitpid (pid, &status, 0) != pid || status != 0;
    }
  if (strcmp (what, "exec") == 0)
    {
      char arg[16];
      steps (n, "before exec");
      snprintf (arg, sizeof arg, "%d", n);
      execl ("/proc/self/exe", "seedkinds", "threads", arg, (char *) NULL);
      return 2;
    }
  if (strcmp (what, "wait") == 0 && argc > 3)
    {
      steps (n, "before");
      printf ("waiting\n");
      fflush (stdout);
      while (access (argv[2], F_OK) != 0)
        usleep (1000);
      steps (n, "after");
      return 0;
    }
  return threads (n);
}
