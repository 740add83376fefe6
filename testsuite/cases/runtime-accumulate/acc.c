/* acc.c - runtime-accumulate's program: acc N [STOP] runs N steps, each an
   event (step) around a counted loop body (STEP); with STOP it waits for that
   file to appear before it starts, so that processes start together; with
   N = 0 it steps until killed, keeping the steps done in ./progress (a
   64-bit count); acc fork N runs N steps in a forked child and N in the
   parent; acc exec N runs N steps, then execs acc N.  */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dsprof.h>

static volatile long sink;

DSPROF_EVENT static void
step (int i)
{
  sink += i;                    /* STEP */
}

int
main (int argc, char **argv)
{
  if (argc > 2 && strcmp (argv[1], "fork") == 0)
    {
      int n = atoi (argv[2]), status;
      pid_t pid = fork ();
      for (int i = 0; i < n; i++)
        step (i);
      if (pid == 0)
        _exit (0);
      waitpid (pid, &status, 0);
      puts ("forked");
      return 0;
    }
  if (argc > 2 && strcmp (argv[1], "exec") == 0)
    {
      int n = atoi (argv[2]);
      for (int i = 0; i < n; i++)
        step (i);
      execl ("/proc/self/exe", "acc", argv[2], (char *) NULL);
      return 2;
    }
  int n = argc > 1 ? atoi (argv[1]) : 10;
  if (argc > 2)
    while (access (argv[2], F_OK) != 0)
      usleep (1000);
  if (n == 0)
    {
      int fd = open ("progress", O_RDWR | O_CREAT, 0644);
      if (fd < 0 || ftruncate (fd, 8) != 0)
        return 2;
      volatile uint64_t *done = mmap (NULL, 8, PROT_READ | PROT_WRITE,
                                      MAP_SHARED, fd, 0);
      for (int i = 0;; i++)
        {
          step (i);
          *done = (uint64_t) i + 1;
        }
    }
  for (int i = 0; i < n; i++)
    step (i);
  printf ("done %d\n", n);
  return 0;
}
