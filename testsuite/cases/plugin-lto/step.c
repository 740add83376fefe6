/* plugin-lto: the second unit, called from main.c.  */
#include <dsprof.h>

DSPROF_EVENT int
step (int x)
{
  int r = 0;
  while (x > 0)
    {
      r += x & 1;
      x >>= 1;
    }
  return r;
}
