/* while, for, do-while, break and continue with fixed inputs.  */
#include <stdio.h>

int main (void)
{
  int i = 0, n = 0, evens = 0, odd = 0;

  while (i < 5)
    i += 2;

  for (i = 0; i < 4; i++)
    n += i;

  do
    {
      n--;
    }
  while (n > 3);

  for (i = 0; i < 10; i++)
    {
      if (i == 7)
        break;
      if (i % 2)
        continue;
      evens++;
    }

  i = 0;
  while (1)
    {
      odd += 2 * i + 1;
      if (++i >= 3)
        break;
    }
  printf ("%d %d %d %d\n", i, n, evens, odd);
  return 0;
}
