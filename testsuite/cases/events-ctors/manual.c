/* manual.c - a program whose only events are manual ones, the first from a
   constructor: dsprof_start ("Setup") there, dsprof_start ("Main") in main.
   Prints 0.  */
#include <stdio.h>

#include <dsprof.h>

__attribute__ ((constructor)) static void
setup (void)
{
  dsprof_finish (dsprof_start ("Setup"));
}

int
main (void)
{
  dsprof_finish (dsprof_start ("Main"));
  printf ("0\n");
  return 0;
}
