/* other [fork]: runs a loop 5 times; with "fork", then forks a child that runs a
   loop 2 times, and waits for it.  */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  int i, s = 0, status;
  pid_t pid;

  for (i = 0; i < 5; i++)
    s += i; /* OTHER */
  if (argc > 1 && strcmp (argv[1], "fork") == 0)
    {
      pid = fork ();
      if (pid < 0)
        return 1;
      if (pid == 0)
        {
          for (i = 0; i < 2; i++)
            s += i; /* OTHERCHILD */
          _exit (0);
        }
      if (waitpid (pid, &status, 0) != pid || status != 0)
        return 1;
    }
  return s != 10;
}
