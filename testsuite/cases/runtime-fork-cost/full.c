/* full FILL: forks; the child writes FILL until its file system is full, then
   calls g () of another unit 5 times (the first counts on that unit's page of
   its profile, a hole on a full disk), prints "child 20" and exits 0.  The
   parent waits for it and prints "parent STATUS".  */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int g (int);

int
main (int argc, char **argv)
{
  static char block[65536];
  int s = 0, status;
  if (argc < 2)
    return 2;
  pid_t pid = fork ();
  if (pid < 0)
    return 1;
  if (pid == 0)
    {
      int fd = open (argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
      memset (block, 1, sizeof block);
      while (fd >= 0 && write (fd, block, sizeof block) > 0)
        ;
      while (fd >= 0 && write (fd, block, 512) > 0)
        ;
      for (int i = 0; i < 5; i++)
        s += g (i); /* CHILD */
      printf ("child %d\n", s);
      return 0;
    }
  waitpid (pid, &status, 0);
  printf ("parent %d\n", status);
  return 0;
}
