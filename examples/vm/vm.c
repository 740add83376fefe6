/* vm.c - a tiny stack-based bytecode VM, the kind of runtime dsprof is for.
   It runs a program that sums the squares of 1..N and prints the result.
   Build it with the plugin and look at where the interpreter loop spends its
   dispatches:  make demo  (or see README.md).  */

#include <stdio.h>
#include <stdlib.h>

enum op { PUSH, LOAD, STORE, ADD, MUL, LT, JZ, JMP, PRINT, HALT };

struct insn
{
  enum op op;
  long arg;
};

/* sum = 0; i = 1; while (i < n) { sum = sum + i * i; i = i + 1; } print sum  */
static const struct insn program[] = {
  { PUSH, 0 },  { STORE, 0 },                      /* sum = 0 */
  { PUSH, 1 },  { STORE, 1 },                      /* i = 1 */
  { LOAD, 1 },  { LOAD, 2 },   { LT, 0 }, { JZ, 20 },
  { LOAD, 0 },  { LOAD, 1 },   { LOAD, 1 }, { MUL, 0 }, { ADD, 0 }, { STORE, 0 },
  { LOAD, 1 },  { PUSH, 1 },   { ADD, 0 }, { STORE, 1 },
  { JMP, 4 },   { HALT, 0 },
  { LOAD, 0 },  { PRINT, 0 },  { HALT, 0 },
};

static long
run (const struct insn *code, long *vars)
{
  long stack[64];
  int sp = 0;
  long steps = 0;
  for (int pc = 0;; pc++, steps++)
    {
      const struct insn *in = &code[pc];
      switch (in->op)
        {
        case PUSH: stack[sp++] = in->arg; break;
        case LOAD: stack[sp++] = vars[in->arg]; break;
        case STORE: vars[in->arg] = stack[--sp]; break;
        case ADD: sp--; stack[sp - 1] += stack[sp]; break;
        case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
        case LT: sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; break;
        case JZ:
          if (stack[--sp] == 0)
            pc = in->arg - 1;
          break;
        case JMP: pc = in->arg - 1; break;
        case PRINT: printf ("%ld\n", stack[--sp]); break;
        case HALT: return steps;
        default: abort ();
        }
    }
}

int
main (int argc, char **argv)
{
  long vars[3] = { 0, 0, argc > 1 ? atol (argv[1]) : 1000 };
  long steps = run (program, vars);
  fprintf (stderr, "vm: %ld instructions\n", steps);
  return 0;
}
