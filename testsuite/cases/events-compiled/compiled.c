/* compiled: what functions=all makes events of at -O2, where GCC inlines,
   clones and splits functions (the comments say what GCC 12 does; the test
   reads the symbols the build has).  main prints a sum that every build
   must print alike.  */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
sq (int x)                      /* inlined into scale */
{
  return x * x;
}

__attribute__ ((noinline)) static int
scale (int x, int k)            /* called with k = 3 only: scale.constprop.0 */
{
  return x * k + sq (x);
}

__attribute__ ((noinline)) int
callee (int a)
{
  return a ^ 0x55;
}

int
tailer (int a)                  /* a tail call of callee */
{
  return callee (a * 2);
}

/* Called through this pointer: tailer stays a function of its own.  */
int (*volatile tail_ptr) (int) = tailer;

static char buf[4096];

int
lookup (int x)                  /* a small head, inlined; a large part */
{
  if (__builtin_expect (x < 1000, 1))
    return x;
  for (int i = 0; i < 4000; i++)
    {
      buf[(i * x) & 4095] ^= (char) i;
      if (buf[i & 4095] == 17)
        snprintf (buf, 16, "%d", i);
    }
  return buf[x & 4095] + (int) strlen (buf);
}

/* Called through this pointer: lookup's own copy runs too, its head, which
   calls the part.  */
int (*volatile lookup_ptr) (int) = lookup;

int
rec (int n)                     /* recursive, not a tail call */
{
  return n <= 0 ? 0 : 1 + rec (n - 1) * 2 % 1000;
}

static jmp_buf env;

__attribute__ ((noinline)) void
thrower (int n)                 /* leaves by longjmp */
{
  if (n > 0)
    longjmp (env, n);
}

__attribute__ ((noinline)) int
deep (int n)
{
  thrower (n);
  return n + 1;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 5, s = 0;
  for (int i = 0; i < n; i++)
    s += scale (i, 3) + tail_ptr (i) + lookup (i) + lookup (i + 2000 * (i & 1))
         + lookup_ptr (i) + lookup_ptr (i + 3000);
  s += rec (n);
  int j = setjmp (env);
  if (!j)
    s += deep (n);
  printf ("%d %d\n", s, j);
  return 0;
}
