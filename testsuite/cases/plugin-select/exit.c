/* exit.c - plugin-select: a call site that does not return (exit), a builtin
   that a `call' pattern matches but is no call site, and a
   call through a pointer of a function a `call' directive names.  */
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  int (*say) (const char *) = puts;
  puts ("direct");                           /* PUTS */
  say ("through a pointer");
  if (__builtin_expect (argc > 1, 0))
    exit (atoi (argv[1]));                   /* EXIT */
  return 0;
}
