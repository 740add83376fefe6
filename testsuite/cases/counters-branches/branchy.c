/* Every kind of branch, for counters-branches: dsprof's branch counts must be
   gcov's on the same run of one binary built with both.  */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static volatile int sink;

static int
classify (int x)
{
  if (x < 0)
    return -1;
  else if (x == 0)
    return 0;
  else
    return 1;
}

static int
logic (int a, int b)
{
  int r = 0;
  if (a > 2 && b < 5)
    r++;
  if (a == 0 || b == 0 || a == b)
    r += 2;
  r += a > b ? a : b;
  return r;
}

static int
with_default (int op)
{
  switch (op)
    {
    case 0:
      return 10;
    case 1:
    case 2:
      return 20;
    case 7:
      sink++;
      /* fall through */
    case 8:
      return 30;
    default:
      return -1;
    }
}

static int
no_default (int op)
{
  int r = 0;
  switch (op)
    {
    case 3: r = 3; break;
    case 4: r = 4; break;
    case 5: r = 5; break;
    }
  return r;
}

static int
loops (int n)
{
  int s = 0, i = 0;
  for (int k = 0; k < n; k++)
    s += k;
  while (i < n)
    i += 2;
  do
    s--;
  while (s > 40);
 again:
  if (s < 100)
    {
      s += 37;
      goto again;
    }
  return s + i;
}

static int
never_run (int x)
{
  if (x > 1000)
    return x / 3;
  return x;
}

static int
computed (int n)
{
  static void *ops[] = { &&inc, &&dec, &&done };
  int acc = 0, pc = 0;
  int prog[] = { 0, 0, 1, 0, 2 };
  (void) n;
  goto *ops[prog[pc]];
 inc:
  acc++;
  goto *ops[prog[++pc]];
 dec:
  acc--;
  goto *ops[prog[++pc]];
 done:
  return acc;
}

static void
thrower (int i)
{
  if (i % 3 == 2)
    longjmp (env, i);
}

int
main (int argc, char **argv)
{
  int total = 0, caught = 0;
  (void) argv;
  for (int i = -3; i < 10; i++)
    {
      total += classify (i);
      total += logic (i, 3 - i);
      total += with_default (i) + no_default (i);
    }
  total += loops (7) + loops (argc);
  if (argc > 5)
    total += never_run (argc);
  total += computed (argc);
  for (int i = 0; i < 6; i++)
    {
      if (setjmp (env) != 0)
        {
          caught++;
          continue;
        }
      thrower (i);
    }
  printf ("%d %d\n", total, caught);
  return 0;
}
