/* oneline.c - a dispatch written on one line, as a macro writes it, with a
   default of its own: 33 of each of opcodes 0 and 1, 33 that the default
   runs (7), and the halt (2): 100 dispatches.  */
#include <stdio.h>
#define VM(pc, acc) for (;;) switch (*pc++) { case 0: acc += 1; break; case 1: acc += 2; break; case 2: return acc; default: acc += 3; break; }
__attribute__ ((noinline)) unsigned run (const unsigned char *pc) { unsigned acc = 0; VM (pc, acc) }
int
main (void)
{
  unsigned char code[100];
  for (int i = 0; i < 99; i++)
    code[i] = (unsigned char[]) { 0, 1, 7 }[i % 3];
  code[99] = 2;
  printf ("%u\n", run (code));
  return 0;
}
