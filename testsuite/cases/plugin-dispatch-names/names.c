/* names.c - a VM whose opcodes the source writes in every way a case label
   can name one, for plugin-dispatch-names: its switch is on an int, its
   case labels macros, enumerators of an enum that is not the switch's type,
   a literal, a char literal, an expression, several labels on one block, a
   real range, labels made by macros (one taking the opcode as argument,
   one pasting it, one invoked by another macro, one on continued lines).  Prints a checksum, the same with and without the
   plugin.  */

#include <stdio.h>

#define INST_PUSH1 20
#define INST_PUSH0 21
#define vmcase(l) case l:
#define opcase(x) case OP_##x:
#define nested(y) vmcase (y)
#define spliced(z, unused) \
  case /* the opcode */ \
    z:

enum opcode { OP_ADD = 30, OP_SUB, OP_MUL, OP_NEG, OP_END, OP_DUP, OP_ROT };

int
run (const int *pc)
{
  int acc = 0;
  for (;;)
    {
      int op = *pc++;
      switch (op)
        {
        case INST_PUSH1:
          acc += 1;
          break;
        case INST_PUSH0:        /* a comment */
          break;
        case OP_ADD:
          acc += 5;
          break;
        case 7:
          acc += 7;
          break;
        case 'x':
          acc ^= 0x55;
          break;
        case OP_NEG  +   10:
          acc = -acc;
          break;
        case 52:
        case 53:
          acc += op;
          break;
        case 60:
        case INST_PUSH1 + 50:
          acc -= 2;
          break;
        case 1 ... 3:
          acc *= op;
          break;
        vmcase(OP_SUB)
          acc -= 3;
          break;
        opcase(MUL)
          acc *= 2;
          break;
        nested(OP_DUP)
          acc += acc;
          break;
        spliced (OP_ROT, 0)
          acc += 9;
          break;
        case OP_END:
          return acc;
        }
    }
}

int
main (void)
{
  static const int code[] = { 20, 21, 30, 7, 'x', 43, 52, 53, 60, 70, 1, 2,
                              3, 31, 32, 20, 35, 36, 30, 52, 34 };
  printf ("%d\n", run (code));
  return 0;
}
