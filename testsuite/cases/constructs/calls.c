/* early return and recursion.  */
#include <stdio.h>

static int hits;

static void note (int x)
{
  if (x < 0)
    return;
  hits += x;
}

static int first_multiple (int k, int limit)
{
  int i;
  for (i = 1; i <= limit; i++)
    if (i % k == 0)
      return i;
  return 0;
}

static int fact (int n)
{
  if (n <= 1)
    return 1;
  return n * fact (n - 1);
}

static int fib (int n)
{
  return n < 2 ? n : fib (n - 1) + fib (n - 2);
}

int main (void)
{
  int i;
  for (i = -2; i < 3; i++)
    note (i);
  printf ("%d %d %d\n", hits, first_multiple (3, 10), first_multiple (7, 5));
  printf ("%d %d\n", fact (5), fib (6));
  return 0;
}
