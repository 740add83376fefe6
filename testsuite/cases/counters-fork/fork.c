/* fork: the parent runs a loop 10 times, forks, then the child runs a loop 7
   times and the parent one 3 times.  With an argument PROG, the child instead
   execs PROG and the parent runs its loop after the child ended.  The parent
   prints the child's pid.  The test finds lines by the words at their ends.  */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  int i, s = 0, status;
  pid_t pid;

  for (i = 0; i < 10; i++)
    s += i; /* BEFORE */
  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    return 1;
  if (pid == 0)
    {
      if (argc > 1)
        {
          execv (argv[1], argv + 1); /* EXEC */
          _exit (126);
        }
      for (i = 0; i < 7; i++)
        s += i; /* CHILD */
      exit (0);
    }
  if (argc > 1 && waitpid (pid, &status, 0) != pid)
    return 2;
  for (i = 0; i < 3; i++)
    s += i; /* PARENT */
  if (argc == 1 && waitpid (pid, &status, 0) != pid)
    return 2;
  printf ("%d\n", (int) pid);
  return !WIFEXITED (status) || WEXITSTATUS (status) != 0;
}
