/* cost.c - N calls of an event with two int dimensions (N from argv).  */

#include <stdlib.h>
#include <stdio.h>

#include <dsprof.h>

DSPROF_EVENT int
add (int a, int b)
{
  return a + b;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 0;
  int total = 0;
  for (int i = 0; i < n; i++)
    total = add (total, i) & 0xffff;
  printf ("%d\n", total);
  return 0;
}
