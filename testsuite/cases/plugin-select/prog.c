/* prog.c - plugin-select's program: no dsprof annotation at all; sel.txt says
   what becomes an event.  risky () is in outside.c, built without the plugin:
   a function outside the program, which longjmps back to main when given a
   nonzero code (through call_risky's frame, which it leaves).  */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

jmp_buf back;
int risky (int code);

void *
grow (void *p, size_t n)
{
  return realloc (p, n);                     /* REALLOC */
}

int
lookup (const char *key, int depth)
{
  return (int) strlen (key) + depth;
}

int
helper (int x)
{
  return x * 2;
}

int
quiet_helper (int x)
{
  return x + 1;
}

char *
make_buf (void)
{
  return malloc (8);
}

/* Not inlined, so that risky's longjmp leaves this frame for main's.  */
__attribute__ ((noinline)) int
call_risky (int code)
{
  return risky (code);                       /* RISKY2 */
}

int
main (void)
{
  char *p = malloc (16);                     /* MALLOC */
  for (int i = 1; i <= 3; i++)
    p = grow (p, 100 * i);
  free (p);                                  /* FREE */
  free (make_buf ());
  int r = lookup ("abc", 2) + helper (3) + quiet_helper (4);
  r += risky (0);                            /* RISKY */
  if (setjmp (back) == 0)
    r += call_risky (7);
  r += helper (1);
  printf ("%d\n", r);
  return 0;
}
