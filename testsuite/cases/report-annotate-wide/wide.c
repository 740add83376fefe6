/* wide.c - one hot loop for report-annotate-wide.  */
#include <stdio.h>

int
main (void)
{
  volatile unsigned long sum = 0;
  for (unsigned long i = 0; i < 2000000; i++)
    sum += i & 7;
  if (sum == 1)
    puts ("never");
  printf ("%lu\n", sum);
  return 0;
}
