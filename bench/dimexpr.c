/* dimexpr.c - the cost of a selection file's NAME=EXPR dimensions
   (docs/select.md, "Expressions") on op records (scripts/bench.sh, row
   "dim_expr"):

     dimexpr N

   runs N opcodes of a toy VM whose dispatch, run's `switch', the benchmark
   makes op records with a `dispatch' directive, with 0, 1 and 3 expression
   dims: addr=pc-vm->code (a local less a member, no load but the member's),
   then steps=vm->steps and fdepth=vm->frame->depth (one and two loads).
   Prints a sum that every build must agree on.  */

#include <stdio.h>
#include <stdlib.h>

struct frame
{
  int depth;
};

struct vm
{
  const unsigned char *code;
  long steps;
  struct frame *frame;
};

static volatile unsigned long sink;

unsigned long
run (struct vm *vm, long n)
{
  unsigned long acc = sink;
  const unsigned char *pc = vm->code;
  for (long i = 0; i < n; i++)
    {
      if (pc == vm->code + 1024)
        pc = vm->code;
      switch (*pc++)
        {
        case 0: acc += 1; break;
        case 1: acc ^= (unsigned long) i; break;
        case 2: acc *= 3; break;
        default: acc -= 7; break;
        }
    }
  vm->steps += n;
  return acc;
}

int
main (int argc, char **argv)
{
  long n = argc == 2 ? atol (argv[1]) : 0;
  if (n < 0)
    {
      fprintf (stderr, "usage: dimexpr N\n");
      return 1;
    }
  static unsigned char code[1024];
  for (int i = 0; i < 1024; i++)
    code[i] = (unsigned char) ((i * 7 + i / 5) & 3);
  struct frame f = { 3 };
  struct vm vm = { code, 0, &f };
  printf ("%lu\n", run (&vm, n));
  return 0;
}
