/* fork100: forks 100 children; child k (1..100) runs its loop k times and
   exits; every 10th child first forks a grandchild, which runs its loop once and
   leaves by _exit, and waits for it.  The parent prints "k pid" for every child,
   waits for them all, then runs its own loop 3 times.  The test finds lines by
   the words at their ends.  */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 100

int
main (void)
{
  pid_t pids[CHILDREN], pid, g;
  int k, i, s = 0, status, bad = 0; /* MAIN */

  for (k = 1; k <= CHILDREN; k++)
    {
      fflush (stdout);
      pid = fork ();
      if (pid < 0)
        return 1;
      if (pid == 0) /* ISCHILD */
        {
          if (k % 10 == 0)
            {
              g = fork ();
              if (g < 0)
                exit (1);
              if (g == 0) /* ISGRAND */
                {
                  for (i = 0; i < 1; i++)
                    s += i; /* GRAND */
                  _exit (0);
                }
              if (waitpid (g, &status, 0) != g || status != 0)
                exit (1);
            }
          for (i = 0; i < k; i++)
            s += i; /* CHILD */
          exit (0);
        }
      pids[k - 1] = pid;
      printf ("%d %d\n", k, (int) pid);
    }
  for (k = 0; k < CHILDREN; k++)
    if (waitpid (pids[k], &status, 0) != pids[k] || status != 0)
      bad = 1;
  for (i = 0; i < 3; i++)
    s += i; /* PARENT */
  return bad;
}
