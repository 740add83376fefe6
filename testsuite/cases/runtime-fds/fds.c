/* fds FILE...: records an event (its chunk made, the runtime needs no more
   descriptors), opens every FILE and keeps it open (the runtime must have left
   the descriptors free), runs a loop 6 times and prints "opened N" with the
   number it opened.  */
#include <dsprof.h>
#include <fcntl.h>
#include <stdio.h>

DSPROF_EVENT static int
work (int n)
{
  return n + 1;
}

int
main (int argc, char **argv)
{
  int n = 0, s = work (0);
  for (int i = 1; i < argc; i++)
    if (open (argv[i], O_RDONLY) >= 0)
      n++;
    else
      perror (argv[i]);
  for (int i = 0; i < 6; i++)
    s += i; /* LOOP */
  printf ("opened %d\n", n + 0 * s);
  return 0;
}
