/* counters-label-lines: lines that hold only a label, in the shapes where
   gcov does not count them as the block the label starts.  Every line marked
   LABEL must show gcov's count of it; the count beside it is gcov's, worked
   out by hand for the input of main.  */
#include <stdio.h>
#include <string.h>

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

/* `init:' heading a loop that two gotos jump back to, after an if.  With
   -Wformat-overflow (-Wall) GCC gives the gotos a block of their own holding
   the label before gcov instruments, so gcov counts them on the line too.  */
static int
again (const int *p, int n)
{
  int r = 0;
  if (n > 100)
    return -1;
 init:                                          /* LABEL 5 -Wall 10 */
  r++;
  if (r < n)
    {
      if (p[r] == 1)
        goto init;
      r++;
      if (p[r] == 2)
        goto init;
    }
  return r;
}

/* Duff's device: `case 0:' heads the do-while, whose jump back carries the
   label's location but comes after it; and a `case' heading a for (;;)
   entered from the switch and by falling in, which -Wall gives a preheader
   holding the labels.  */
static unsigned
duff (const char *s, int len)
{
  unsigned h = 0;
  if (len > 0) {
    int loop = (len + 3) >> 2;
    switch (len & 3) {
    case 0:                                     /* LABEL 6 */
      do {
        h += *s++;
    case 3: h += *s++;
    case 2: h += *s++;
    case 1: h += *s++;
      } while (--loop);
    }
  }
  return h;
}

static int
lex (int c, const char *p)
{
  int n = 0;
  switch (c) {
  case '.':
    if (*p == 'x')
      return -1;
    else
      c = '0';
  case '0':                                     /* LABEL 8 -Wall 3 */
  case '1':
    for (;;) {
      n++;
      if (*p++ == 0)
        break;
    }
    break;
  default:
    n = 100;
  }
  return n;
}

/* The same `case' heading a for (;;), in a function that calls a function
   declared const: GCC's cfg cleanup (which a call of a const or pure
   function asks for) gives a loop header entered from several blocks a
   forwarder block holding its labels before gcov instruments, whatever the
   warnings and the -O level, so the line counts the ways into the loop, not
   its iterations.  */
static int digit_p (int c) __attribute__ ((const));

static int
digit_p (int c)
{
  return c >= '0' && c <= '9';
}

static int
number (int c, const char *p)
{
  int n = 0;
  switch (c) {
  case '.':
    if (!digit_p (*p))
      return -1;
    else
      c = '0';
  case '0':                                     /* LABEL 3 */
  case '1':
    for (;;) {
      n++;
      if (*p++ == 0)
        break;
    }
    break;
  default:
    n = 100;
  }
  return n;
}

/* And in a function into which GCC inlines a function declared
   always_inline (also at -O0, before gcov instruments), which asks for the
   same cleanup.  */
static inline __attribute__ ((always_inline)) void
bump (int *n)
{
  *n += 2;
}

static int
scan (int c, const char *p)
{
  int n = 0;
  switch (c) {
  case '.':
    n = 1; bump (&n);
    if (*p == 'x')
      return -1;
    n = 0;
  case '0':                                     /* LABEL 3 */
  case '1':
    for (;;) {
      n++;
      if (*p++ == 0)
        break;
    }
    break;
  default:
    n = 100;
  }
  return n;
}

/* A label heading a do-while (flex's `yy_match:'), which GCC puts in a
   block of its own before the loop's: gotos back to it from code after the
   loop make it the header of a loop with several latches, whose labels -Wall
   leaves with the gotos alone, so gcov counts the gotos on the line, not the
   way in by falling.  */
static int
match (const char *p, int k)
{
  int n = 0, st = 0;
  while (1)
    {
      st = k;
 again:                                         /* LABEL 7 -Wall 1 */
      do
        {
          n++;
          p++;
        }
      while (*p && *p != ' ');
      if (*p == 0)
        break;
      switch (k)
        {
        case 1:
          if (st > 100)
            {
              st = 2;
              goto again;
            }
          break;
        case 2:
          goto again;
        }
      p++;
    }
  return n + st;
}

/* A backtracking matcher as pcre2's match (): RMATCH saves where to come
   back and restarts at MATCH_RECURSE, RRETURN jumps to RETURN_SWITCH, whose
   switch goes back into the loop after the RMATCH that saved it.  The call
   of a function declared const has GCC's cfg cleanup give RETURN_SWITCH,
   heading a loop with several latches, a block of its own for the ways in
   before gcov instruments; and the cleanup, going by a depth-first walk,
   takes the RRETURN after the while loop (reached from the loop's test
   before and after an RMATCH in it came back through RETURN_SWITCH) for
   one more latch and gives it a forwarder block after the label's: the
   label's line does not count it.  */
#define RMATCH(at, id) { start = at; frames[depth++] = id; goto MATCH_RECURSE; L_##id:; }
#define RRETURN(ra) { rrc = ra; goto RETURN_SWITCH; }

static int
backtrack (const char *p, const char *end)
{
  int frames[64], depth = 0, rrc = 0, n = 0;
  const char *start = p;
MATCH_RECURSE:
  p = start;
  for (;;)
    {
      if (p >= end)
        RRETURN (0);
      switch (*p)
        {
        case 'a':
          RMATCH (p + 1, 1);
          if (rrc != 0)
            RRETURN (rrc);
          p++;
          continue;
        case 'b':
          {
            const char *q = p + 1;
            while (q < end && *q == 'b')
              {
                RMATCH (q + 1, 2);
                if (rrc != 0)
                  RRETURN (rrc);
                q++;
              }
            RRETURN (0);
          }
        case '1':
          if (digit_p (p[1]))
            RRETURN (1);
          p++;
          continue;
        default:
          n++;
          p++;
          continue;
        }
    }

RETURN_SWITCH:                                  /* LABEL 6 -Wall 0 */
  if (n > 100)
    n = 100;
  if (depth == 0)
    return rrc + n;
  switch (frames[--depth])
    {
    case 1: goto L_1;
    case 2: goto L_2;
    }
  return -1;
}

/* A parser's actions as byacc writes them, with #line directives naming the
   rules in labellines.y: each `case' label is on the line after the rule
   above's action there, which gcov counts as the case above.  */
static int
yyact (int yym)
{
  int r = 0;
  switch (yym)
    {
case 1:
#line 8 "labellines.y"
{ note (1); r = 1; }
break;
case 2:
#line 9 "labellines.y"
{ note (2); r = 2; }
break;
case 3:
#line 10 "labellines.y"
{ note (3); r = 3; }
break;
    }
#line 393 "labellines.c"
  return r;
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
  static const int a[20] = { 0, 1, 2, 1, 0, 2, 1 };
  for (int k = 0; k < 5; k++)
    t += again (a, 3 + k * 2);
  for (int k = 0; k < 9; k++)
    t += duff ("abcdefghijklmnop", k);
  t += lex ('.', "ab") + lex ('.', "x") + lex ('0', "abc") + lex ('1', "")
       + lex ('z', "");
  t += number ('.', "5ab") + number ('.', "x") + number ('0', "12")
       + number ('1', "") + number ('z', "");
  t += match ("ab cd ef", 0) + match ("x y", 1) + match ("p q", 2);
  t += scan ('.', "5ab") + scan ('.', "x") + scan ('0', "12") + scan ('1', "")
       + scan ('z', "");
  static const char *const res[] = { "abc", "abbbx", "aax1b1", "bbb", "xyz", "abab" };
  for (int k = 0; k < 6; k++)
    t += backtrack (res[k], res[k] + strlen (res[k]));
  for (int k = 0; k < 10; k++)
    t += yyact (k < 2 ? 1 : k < 5 ? 2 : 3);
  printf ("%d\n", t);
  return 0;
}
