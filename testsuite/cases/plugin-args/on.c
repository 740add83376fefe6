/* on: calls off_loop (a unit built with counters=off) twice.  */
#include <stdio.h>

int off_loop (int n);

int
main (void)
{
  printf ("%d\n", off_loop (3) + off_loop (5)); /* ON */
  return 0;
}
