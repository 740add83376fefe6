/* if/else, && and || with fixed inputs; code that never runs.  */
#include <stdio.h>

static int classify (int x)
{
  int r;
  if (x < 0)
    r = -1;
  else if (x == 0)
    r = 0;
  else
    r = 1;
  return r;
}

int never_called (int x)
{
  return x * 3;
}

int main (void)
{
  int i, sum = 0, both = 0, either = 0;
  for (i = -3; i <= 6; i++)
    {
      sum += classify (i);
      if (i % 2 == 0
          && i % 3 == 0)
        both++;
      if (i < -2
          || i > 4)
        either++;
    }
  if (sum > 100)
    puts ("never");
  printf ("%d %d %d\n", sum, both, either);
  return 0;
}
