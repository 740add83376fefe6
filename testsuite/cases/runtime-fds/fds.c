/* fds FILE...: records an event (its chunk made, the runtime needs no more
   descriptors), opens every FILE and keeps it open (the runtime must have left
   the descriptors free), runs a loop 6 times, prints "opened N" with the
   number it opened and closes them (for a sanitizer's checks at exit).  */
#include <dsprof.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

DSPROF_EVENT static int
work (int n)
{
  return n + 1;
}

int
main (int argc, char **argv)
{
  int n = 0, s = work (0), fds[8];
  for (int i = 1; i < argc && n < 8; i++)
    if ((fds[n] = open (argv[i], O_RDONLY)) >= 0)
      n++;
    else
      perror (argv[i]);
  for (int i = 0; i < 6; i++)
    s += i; /* LOOP */
  printf ("opened %d\n", n + 0 * s);
  fflush (stdout);
  while (n > 0)
    close (fds[--n]);
  return 0;
}
