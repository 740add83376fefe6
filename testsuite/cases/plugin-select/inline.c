/* inline.c - plugin-select: `call more' makes the calls of a small static
   function of the program events, and `call realloc' the call inside it:
   more must stay a call for the two to nest (GCC inlines it at -O2).  */
#include <stdio.h>
#include <stdlib.h>

static void *
more (void *p, size_t n)
{
  return realloc (p, n);
}

int
main (void)
{
  void *p = NULL;
  for (int i = 1; i <= 3; i++)
    p = more (p, 16 * i);
  free (p);
  puts ("ok");
  return 0;
}
