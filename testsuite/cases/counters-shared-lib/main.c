/* main: calls the shared library's sq_sum three times.  */
#include <stdio.h>

int sq_sum (int n);

int
main (void)
{
  int k, s = 0;
  for (k = 0; k < 3; k++)
    s += sq_sum (4); /* MAIN */
  printf ("%d\n", s);
  return 0;
}
