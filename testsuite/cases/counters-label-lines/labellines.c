/* counters-label-lines: lines that hold only a label, in the shapes where
   gcov does not count them as the block the label starts.  Every line marked
   LABEL must show gcov's count of it; the count beside it is gcov's, worked
   out by hand for the input of main.  */
#include <stdio.h>

#define check(c) /* nothing, as a disabled assertion */

static int sink;

static void
note (int v)
{
  sink += v;
}

/* An empty default whose block GCC joins with the code after the switch (and
   after the if): the line counts the if's jumps past the switch, never the
   default, which never runs.  */
static int
compare (int op, int a, int b)
{
  int i = 0;
  if (a >= 0 && b >= 0) {
    switch (op) {
      case 0: i = a == b; break;
      case 1: i = a < b; break;
      case 2: i = a <= b; break;
      default: check (0);                       /* LABEL 4 */
    }
  }
  note (i);
  return i;
}

/* `ret:' reached by gotos and by falling in from the line above, and by a
   loop's exit: the line counts the loop's exit.  */
static int
vm (int op, int n)
{
  int r = 0;
  switch (op) {
    case 0:                                     /* LABEL 7 */
      r = n;
      goto ret;
    case 1:                                     /* LABEL 7 */
      if (n > 100) {
        note (n);
        r = -1;
      }
      else {
        r = n + 1;
        if (n == 0)
          r = 0;
        else {
          for (; n > 1; n--)
            r++;
        }
      }
     ret:                                       /* LABEL 7 */
      if (r > 50)
        return r;
      else {
        note (r);
        break;
      }
    default:                                    /* LABEL 6 */
      r = 7;
  }
  return r;
}

/* An empty `case A:' falling into `case B:', and a `default:' followed by a
   label at the end of the switch, whose block GCC joins with the code after
   the switch and the if: the default's line counts the if's jumps past the
   switch; the label's, that a goto and the other cases reach, its block.  */
static int
cases (int c)
{
  int r = 0;
  if (c != 'q')
    switch (c) {
      case 'a':                                 /* LABEL 4 */
      case 'b':
        r += 1;
        break;
      case 'c':                                 /* LABEL 1 */
        r += 2;
        goto out;
      default:                                  /* LABEL - */
      out:                                      /* LABEL 4 */
        ;
    }
  return r;
}

/* `retry:' reached only by falling in after an if, and `end:' before the
   function's return, reached by a goto and after an if: each line counts
   the if's jump.  */
static int
search (const char *s, int c)
{
  int tries = 0, n = 0;
  if (!s)
    return -1;
  if (c == 'z')
    c = 'y';
retry:                                          /* LABEL 3 */
  tries++;
  for (; *s; s++)
    {
      if (*s == c)
        goto end;
      n++;
    }
  if (n > 4)
    n = 4;
end:                                            /* LABEL 1 */
  return n + tries;
}

int
main (void)
{
  int t = 0;
  for (int k = 0; k < 10; k++)
    t += compare (k % 3, k, 5 - k);
  for (int k = 0; k < 20; k++)
    t += vm (k % 3, k * 5);
  const char *w = "abcabxdqyq";
  for (const char *p = w; *p; p++)
    t += cases (*p);
  t += search ("hello", 'l') + search ("hey", 'z') + search ("abcdefg", 'q')
       + search ("ab", 'q') + search (NULL, 0);
  printf ("%d\n", t);
  return 0;
}
