/* many.c - 30000 events, so the event stream runs over several pages.  */
#include <stdio.h>

__attribute__ ((dsprof_event, noinline)) static int
step (int i)
{
  return i % 7;
}

int
main (void)
{
  int sum = 0;
  for (int i = 0; i < 30000; i++)
    sum += step (i);
  printf ("%d\n", sum);
  return 0;
}
