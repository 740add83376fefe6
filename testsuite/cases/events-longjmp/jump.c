/* jump.c - longjmp out of nested annotated functions (docs/contract.md §4.4).  inner (0)
   jumps to *target when it is set; main runs, in order:
     1. outer (5): setjmp in outer, middle (2) -> inner (2, 1, 0) jumps back to
        outer, which adds dimension "jumped": that call finds the events the
        jump left open and closes them, and the dimension goes to outer; then
        after (5) inside outer.
     2. after (1): a plain event at top level.
     3. guard (7): setjmp in guard, middle (1) -> inner (1, 0) jumps back; guard's
        own Finish closes what was left open.
     4. setjmp in main (no event open), middle (2) -> inner (2, 1, 0) jumps to
        main; dsprof_start ("Recover") closes them and is a top-level record,
        holding after (3).
     5. middle (1) -> inner (1, 0) jumps to main again; dimension "lost" closes
        the three events, then finds no event open (a stray dimension).
     6. middle (1) with no jump: the tree goes on as before.  */

#include <setjmp.h>
#include <stdio.h>

#include <dsprof.h>

static jmp_buf *target;   /* where inner (0) jumps; NULL: it returns */

DSPROF_EVENT int
inner (int n)
{
  if (n == 0)
    {
      if (target)
        longjmp (*target, 1);
      return 0;
    }
  return inner (n - 1) + 1;
}

DSPROF_EVENT int
middle (int n)
{
  return inner (n) + 10;
}

DSPROF_EVENT int
after (int n)
{
  return n * 2;
}

DSPROF_EVENT int
outer (int k)
{
  jmp_buf env;
  target = &env;
  if (setjmp (env) == 0)
    middle (2);
  target = NULL;
  dsprof_dim_int ("jumped", 1);
  return after (k);
}

DSPROF_EVENT int
guard (int k)
{
  jmp_buf env;
  target = &env;
  if (setjmp (env) == 0)
    middle (1);
  target = NULL;
  return k;
}

int
main (void)
{
  int sum = outer (5);
  sum += after (1);
  sum += guard (7);
  jmp_buf top;
  target = &top;
  if (setjmp (top) == 0)
    middle (2);
  target = NULL;
  dsprof_id recover = dsprof_start ("Recover");
  sum += after (3);
  dsprof_finish (recover);
  target = &top;
  if (setjmp (top) == 0)
    middle (1);
  target = NULL;
  dsprof_dim_int ("lost", 1);
  sum += middle (1);
  printf ("%d\n", sum);
  return 0;
}
