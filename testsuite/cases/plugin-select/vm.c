/* vm.c - a dispatch loop with no annotation, for plugin-select's dispatch
   directives.  */
#include <stdio.h>

enum op { PUSH, ADD, HALT };

static const enum op code[] = { PUSH, PUSH, ADD, PUSH, ADD, HALT };

__attribute__ ((noinline)) static int
run (const enum op *pc)
{
  int acc = 0;
  for (;;)
    switch (*pc++)
      {
      case PUSH:
        acc += 1;
        break;
      case ADD:
        acc *= 2;
        break;
      case HALT:
        return acc;
      }
}

int
main (void)
{
  printf ("%d\n", run (code));
  return 0;
}
