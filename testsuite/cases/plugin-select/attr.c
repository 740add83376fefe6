/* attr.c - plugin-select: an annotated function that an `event' directive
   also selects keeps what its attribute says.  */
#include <stdio.h>
#include <dsprof.h>

DSPROF_EVENT_TYPE ("Attr") int
both (int a, int b)
{
  return a + b;
}

int
main (void)
{
  printf ("%d\n", both (1, 2));
  return 0;
}
