/* ?: with fixed inputs.  GCC gives the test of a ?: (and the statement
   around it) the location of its ':', so here the ':' and each arm have a
   line of their own.  */
#include <stdio.h>

static int twice (int x)
{
  return 2 * x;
}

static int negate (int x)
{
  return -x;
}

static int pick (int x)
{
  int r = x > 2
          ? twice (x)
          :
          negate (x);
  return r;
}

int main (void)
{
  int i, sum = 0;
  for (i = -3; i <= 6; i++)
    sum += pick (i);
  printf ("%d\n", sum);
  return 0;
}
