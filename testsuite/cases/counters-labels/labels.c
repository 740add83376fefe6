/* counters-labels: a bytecode loop whose cases are written as a VM writes
   them, through a macro that expands to the case label, plus default, a case
   never taken and named labels.  Each marked label line must have the count of
   the block it starts.  */
#include <stdio.h>

#define vmcase(op) case op:
#define vmbreak break

enum { OP_ADD, OP_SUB, OP_HALT, OP_NEVER };

static int
run (const int *code)
{
  int acc = 0, pc = 0;
retry:                                          /* RETRY 2 */
  for (;; pc++)
    {
      switch (code[pc])
        {
          vmcase (OP_ADD)                       /* ADD 3 */
            acc += 2;
            vmbreak;
          vmcase (OP_SUB)                       /* SUB 4 */
            acc -= 1;
            vmbreak;
          case OP_NEVER:                        /* NEVER 0 */
            acc = 0;
            break;
          default:                              /* DEFAULT 2 */
            goto done;
        }
    }
done:                                           /* DONE 2 */
  if (pc < 7)
    {
      pc++;
      goto retry;
    }
  return acc;
}

int
main (void)
{
  static const int code[] = { OP_ADD, OP_ADD, OP_SUB, OP_SUB, OP_HALT,
                              OP_ADD, OP_SUB, OP_SUB, OP_HALT };
  printf ("%d\n", run (code));
  return 0;
}
