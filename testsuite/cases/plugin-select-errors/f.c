/* f.c - plugin-select-errors: the functions the selection files name.  */
#include <stdlib.h>
int
f (int a, int b)
{
  free (malloc (a));
  return a + b;
}
