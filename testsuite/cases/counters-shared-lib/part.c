/* part: built with the plugin, linked with helper.c built without it.  */
#include <stdio.h>

int helper (int n);

int
main (void)
{
  int k, s = 0;
  for (k = 0; k < 6; k++)
    s += helper (k); /* PART */
  printf ("%d\n", s);
  return 0;
}
