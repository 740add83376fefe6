/* prog: a line to stdout and one to stderr, a loop run 6 times, exit status 3.  */
#include <stdio.h>

int
main (void)
{
  int i, s = 0;
  for (i = 0; i < 6; i++)
    s += i; /* LOOP */
  printf ("out %d\n", s);
  fprintf (stderr, "err %d\n", s);
  return 3;
}
