/* plugin-lto: the main unit; step () is in step.c.  */
#include <dsprof.h>
#include <stdio.h>
#include <stdlib.h>

int step (int x);

DSPROF_EVENT static int
twice (int x)
{
  return 2 * x;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10, sum = 0;
  for (int i = 0; i < n; i++)
    {
      if (i % 3 == 0)
        sum += step (i);
      else
        sum += twice (i);
    }
  printf ("%d\n", sum);
  if (sum < 0)
    abort ();
  return 0;
}
