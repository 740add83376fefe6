/* execer: a loop run 4 times, then exec of argv[1] (if given) in the same
   process.  Used by runtime-out-pidreuse.  */
#include <stdio.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  volatile int s = 0;
  for (int i = 0; i < 4; i++)
    s += i; /* EXECLOOP */
  if (argc > 1)
    {
      fflush (stdout);
      execv (argv[1], argv + 1);
      perror ("execv");
      return 1;
    }
  return s == 6 ? 0 : 1;
}
