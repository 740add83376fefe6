/* prog.c - plugin-cc's program: a loop calling an annotated function, a
   function a selection file or DSPROF_ARG_FUNCTIONS=all makes an event, and
   (with -DWITH_LIB) a function of libshape.so.  MSG and PROBED come from
   config.h, which the project's configure step writes, TAG from the command line
   (a -D with a space in it).  */
#include <stdio.h>
#include <dsprof.h>
#include "config.h"
#ifndef TAG
#define TAG ""
#endif

DSPROF_EVENT_TYPE ("step") int step (int x);
int twice (int x);
#ifdef WITH_LIB
int shape (int x);
#endif

int
step (int x)
{
  return x + 1;
}

int
twice (int x)
{
  return 2 * x;
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 7; i++)
    s += twice (step (i));
#ifdef WITH_LIB
  s += shape (3);
#endif
  printf ("%s%s %d %d\n", MSG, TAG, s, PROBED);
  return 0;
}
