/* leave: calls that return and calls that may not.  Functions of the unit
   that can only return (recursive, mutually recursive, called through a
   pointer, a loop without calls), one with a volatile access, one that may
   call exit and one that may longjmp, a vfork'd child that _exits, and the
   program's end by exit () three calls deep.  */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static jmp_buf jb;
static volatile int flag;

static int
leaf (int x)
{
  return x > 10 ? x - 10 : x + 1;
}

static int odd (int x);

static int
even (int x)
{
  return x == 0 ? 1 : odd (x - 1);
}

static int
odd (int x)
{
  return x == 0 ? 0 : even (x - 1);
}

static int
collatz (int x)
{
  int steps = 0;
  while (x != 1)
    {
      x = x & 1 ? 3 * x + 1 : x / 2;
      steps++;
    }
  return steps;
}

static int
touch (int x)
{
  flag = x;
  return flag + 1;
}

static void
maybe_exit (int x)
{
  if (x == 150)
    {
      printf ("exit at %d\n", x);
      fflush (stdout);
      exit (0);
    }
}

static int
deep (int x)
{
  maybe_exit (x);
  return leaf (x);
}

static void
maybe_jump (int x)
{
  if (x % 11 == 3)
    longjmp (jb, 1);
}

static int
apply (int (*f) (int), int x)
{
  return f (x);
}

static int
child (int k)
{
  pid_t p = vfork ();
  if (p == 0)
    _exit (k & 1);
  int st;
  waitpid (p, &st, 0);
  return WEXITSTATUS (st);
}

int
main (void)
{
  long s = 0;
  for (int i = 0; i < 200; i++)
    {
      if (setjmp (jb) == 0)
        {
          s += leaf (i) + even (i % 13) + touch (i) + apply (leaf, i);
          s += collatz (i + 1);
          maybe_jump (i);
          if (i % 50 == 0)
            s += child (i);
          s += deep (i);
        }
      else
        s--;
      if (i % 25 == 0)
        printf ("%d %ld\n", i, s);
    }
  return 1;
}
