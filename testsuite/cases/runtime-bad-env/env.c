/* env [pid]: prints its pid first if asked, then a line to stdout and one to
   stderr, runs a loop 6 times and exits with status 3.  */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  int i, s = 0;
  if (argc > 1 && strcmp (argv[1], "pid") == 0)
    printf ("%d\n", (int) getpid ());
  for (i = 0; i < 6; i++)
    s += i; /* LOOP */
  printf ("out %d\n", s);
  fprintf (stderr, "err %d\n", s);
  return 3;
}
