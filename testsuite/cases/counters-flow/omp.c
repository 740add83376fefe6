/* omp: the body of an OpenMP loop, which GCC moves out of main into a function
   of its own before dsprof counts it.  */
#include <stdio.h>

int
main (void)
{
  long s = 0;
#pragma omp parallel for reduction(+:s) num_threads(2)
  for (int i = 0; i < 1000; i++)
    if (i % 3)
      s += i; /* BODY */
  printf ("%ld\n", s);
  return 0;
}
