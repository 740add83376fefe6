/* spawn MODE PROG [ARG...]: runs a loop 10 times, then with MODE "fork" forks a
   child that runs a loop 2 times and execs PROG, while the parent waits for it
   and runs a loop 3 times; with MODE "exec" it execs PROG itself.  Prints the pid
   of the process that execs PROG.  The test finds lines by the words at their
   ends; each marks the first line of a block (dsprof lines gives block lines
   only: EXECSELF is the block that ends in execv).  */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  int i, s = 0, status;
  pid_t pid;

  if (argc < 3)
    return 2;
  for (i = 0; i < 10; i++)
    s += i; /* BEFORE */
  if (strcmp (argv[1], "exec") == 0)
    {
      printf ("%d\n", (int) getpid ()); /* EXECSELF */
      fflush (stdout);
      execv (argv[2], argv + 2);
      return 126;
    }
  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    return 1;
  if (pid == 0)
    {
      for (i = 0; i < 2; i++)
        s += i; /* CHILD */
      execv (argv[2], argv + 2); /* EXECCHILD */
      _exit (126);
    }
  if (waitpid (pid, &status, 0) != pid)
    return 1;
  for (i = 0; i < 3; i++)
    s += i; /* PARENT */
  printf ("%d\n", (int) pid);
  return !WIFEXITED (status) || WEXITSTATUS (status) != 0;
}
