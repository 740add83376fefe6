/* work.c - an instrumented library whose one event the program of dlclose.c
   calls from its threads.  */
#include <dsprof.h>

DSPROF_EVENT int
work (int n)
{
  return 2 * n;
}
