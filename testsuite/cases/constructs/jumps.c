/* labels and goto; switch with case, default and fall-through.  */
#include <stdio.h>

static int sum_to (int n)
{
  int i = 1, s = 0;
again:
  s += i;
  i++;
  if (i <= n)
    goto again;
  if (s > 100)
    goto big;
  return s;
big:
  return -1;
}

static int weight (int c)
{
  int w = 0;
  switch (c)
    {
    case 0:
      w += 1;
      break;
    case 1:
      w += 10;
      /* fall through */
    case 2:
    case 3:
      w += 100;
      break;
    default:
      w = -1;
    }
  return w;
}

int main (void)
{
  int c, total = 0;
  for (c = 0; c < 6; c++)
    total += weight (c);
  printf ("%d %d %d\n", sum_to (4), sum_to (20), total);
  return 0;
}
