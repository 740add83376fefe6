/* seedfork.c - a program whose forked child writes a profile of two units
   (this one and testsuite/fixtures/g.c): the seed of a
   DSPROF_CHUNK_UNITS chunk.  The parent waits for the child.  */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int g (int);

int
main (void)
{
  int s = 0;
  pid_t pid = fork ();
  if (pid < 0)
    return 1;
  for (int i = 0; i < 3; i++)
    s += pid == 0 ? g (i) : i;
  if (pid == 0)
    _exit (s != 6);
  int status;
  waitpid (pid, &status, 0);
  printf ("%d\n", s);
  return !WIFEXITED (status) || WEXITSTATUS (status) != 0;
}
