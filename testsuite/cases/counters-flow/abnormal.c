/* abnormal: blocks entered other than by an edge code can be put on.  longjmp
   and siglongjmp back to setjmp and sigsetjmp, __builtin_setjmp, a computed
   goto dispatch loop, a nested function's goto out of its parent's loop, and
   cleanups run on every way out of a scope (built with -fexceptions).  */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static sigjmp_buf senv;
static void *bbuf[5];
static int thrown, cleaned;

__attribute__ ((noinline)) static void
thrower (int i)
{
  if (i % 4 == 1)
    {
      thrown++;
      longjmp (env, i);
    }
  if (i % 4 == 2)
    siglongjmp (senv, i);
}

static int
with_setjmp (int i)
{
  int r = setjmp (env);
  if (r == 0)
    {
      thrower (i % 4 == 2 ? i + 1 : i);
      return 0;
    }
  return r;
}

static int
with_sigsetjmp (int i)
{
  if (sigsetjmp (senv, 1))
    return 1;
  if (setjmp (env))
    return 2;
  thrower (i);
  return 3;
}

__attribute__ ((noinline)) static void
bthrow (int i)
{
  if (i % 5 == 0)
    __builtin_longjmp (bbuf, 1);
}

static int
with_builtin_setjmp (int i)
{
  if (__builtin_setjmp (bbuf))
    return 7;
  bthrow (i);
  return i;
}

static int
dispatch (const unsigned char *code)
{
  static void *ops[] = { &&add, &&twice, &&loop, &&halt };
  int acc = 0, pc = 0;
  goto *ops[code[pc++]];
add:
  acc++;
  goto *ops[code[pc++]];
twice:
  if (acc > 100)
    acc -= 100;
  else
    acc *= 2;
  goto *ops[code[pc++]];
loop:
  for (int k = 0; k < 3; k++)
    acc += k;
  goto *ops[code[pc++]];
halt:
  return acc;
}

static int
nested (int n)
{
  __label__ out;
  int acc = 0;
  void inner (int k)
  {
    if (k > 5)
      goto out;
    acc += k;
  }
  for (int i = 0; i < n; i++)
    inner (i);
  return acc;
out:
  return -acc;
}

static void
release (int *p)
{
  cleaned += *p;
}

static int
scoped (int n)
{
  int r = 0;
  for (int i = 0; i < n; i++)
    {
      int x __attribute__ ((cleanup (release))) = 1;
      if (i % 3 == 0)
        continue;
      if (i == 7)
        break;
      r += x;
    }
  return r;
}

int
main (void)
{
  static const unsigned char code[] = { 0, 1, 2, 0, 1, 0, 2, 1, 3 };
  long s = 0;
  for (int i = 0; i < 100; i++)
    s += with_setjmp (i) + with_sigsetjmp (i) + with_builtin_setjmp (i);
  for (int i = 0; i < 10; i++)
    s += dispatch (code) + nested (i) + scoped (i);
  printf ("%ld %d %d\n", s, thrown, cleaned);
  return 0;
}
