/* vm-addr.c - a bytecode VM that counts its dispatches by the address of
   the opcode, with its switch or (-DVM_GOTO) its computed-goto table:
   events-dispatch-expr records its op records by `addr=pc-vm->code' and
   other NAME=EXPR dims of vm.sel, and checks them against these counts.

   At each dispatch pc points at the opcode's operand (the opcode has been
   fetched).  Prints ADDR OPCODE COUNT for each address dispatched, then the
   result.  Usage: vm-addr [LOOPS].  */

#include <stdio.h>
#include <stdlib.h>

enum op
{
  OP_HALT, OP_PUSH, OP_ADD, OP_DEC, OP_JNZ, OP_POP, NOPS
};

static const char *const op_name[NOPS] = {
  "OP_HALT", "OP_PUSH", "OP_ADD", "OP_DEC", "OP_JNZ", "OP_POP"
};

struct vm
{
  const unsigned char *code;
  const char *name;
  long counts[64];
};

#ifdef VM_GOTO
#define DISPATCH() goto *table[op];
#define CASE(l) L_##l:
#define NEXT() do { op = *pc++; vm->counts[pc - vm->code]++; DISPATCH () } while (0)
#else
#define DISPATCH() switch (op)
#define CASE(l) case l:
#define NEXT() break
#endif

long
run (struct vm *vm)
{
#ifdef VM_GOTO
  static const void *const table[NOPS] = {
    &&L_OP_HALT, &&L_OP_PUSH, &&L_OP_ADD, &&L_OP_DEC, &&L_OP_JNZ, &&L_OP_POP
  };
#endif
  long stack[16];
  int sp = 0, op;
  const unsigned char *pc = vm->code;
  stack[0] = 0;
  for (;;)
    {
      op = *pc++;
      vm->counts[pc - vm->code]++;
      DISPATCH ()
        {
          CASE (OP_PUSH)
            stack[++sp] = *pc++;
            NEXT ();
          CASE (OP_ADD)
            sp--;
            stack[sp] += stack[sp + 1];
            NEXT ();
          CASE (OP_DEC)
            stack[sp]--;
            NEXT ();
          CASE (OP_JNZ)
            if (stack[sp])
              pc = vm->code + *pc;
            else
              pc++;
            NEXT ();
          CASE (OP_POP)
            sp--;
            NEXT ();
          CASE (OP_HALT)
            return stack[sp];
        }
    }
}

int
main (int argc, char **argv)
{
  int loops = argc > 1 ? atoi (argv[1]) : 10;
  if (loops < 1 || loops > 255)
    return 2;
  /* PUSH 0; PUSH LOOPS; loop: PUSH 3; POP; DEC; JNZ loop; POP; PUSH 7;
     ADD; HALT.  */
  unsigned char code[] = {
    OP_PUSH, 0, OP_PUSH, (unsigned char) loops,
    /* 4: loop */ OP_PUSH, 3, OP_POP, OP_DEC, OP_JNZ, 4,
    OP_POP, OP_PUSH, 7, OP_ADD, OP_HALT
  };
  struct vm vm = { code, "demo", { 0 } };
  long r = run (&vm);
  for (int a = 0; a < 64; a++)
    if (vm.counts[a])
      printf ("%d %s %ld\n", a, op_name[code[a - 1]], vm.counts[a]);
  printf ("result %ld\n", r);
  return 0;
}
