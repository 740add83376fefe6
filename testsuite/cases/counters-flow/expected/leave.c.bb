         :    1:/* leave: calls that return and calls that may not.  Functions of the unit
         :    2:   that can only return (recursive, mutually recursive, called through a
         :    3:   pointer, a loop without calls), one with a volatile access, one that may
         :    4:   call exit and one that may longjmp, a vfork'd child that _exits, and the
         :    5:   program's end by exit () three calls deep.  */
         :    6:#include <setjmp.h>
         :    7:#include <stdio.h>
         :    8:#include <stdlib.h>
         :    9:#include <sys/wait.h>
         :   10:#include <unistd.h>
         :   11:
         :   12:static jmp_buf jb;
         :   13:static volatile int flag;
         :   14:
         :   15:static int
      438:   16:leaf (int x)
         :   17:{
      438:   18:  return x > 10 ? x - 10 : x + 1;
         :   19:}
         :   20:
         :   21:static int odd (int x);
         :   22:
         :   23:static int
      559:   24:even (int x)
         :   25:{
      559:   26:  return x == 0 ? 1 : odd (x - 1);
         :   27:}
         :   28:
         :   29:static int
      478:   30:odd (int x)
         :   31:{
      478:   32:  return x == 0 ? 0 : even (x - 1);
         :   33:}
         :   34:
         :   35:static int
      151:   36:collatz (int x)
         :   37:{
      151:   38:  int steps = 0;
     5908:   39:  while (x != 1)
         :   40:    {
     5757:   41:      x = x & 1 ? 3 * x + 1 : x / 2;
     5757:   42:      steps++;
         :   43:    }
      151:   44:  return steps;
         :   45:}
         :   46:
         :   47:static int
      151:   48:touch (int x)
         :   49:{
      151:   50:  flag = x;
      151:   51:  return flag + 1;
         :   52:}
         :   53:
         :   54:static void
      137:   55:maybe_exit (int x)
         :   56:{
      137:   57:  if (x == 150)
         :   58:    {
        1:   59:      printf ("exit at %d\n", x);
        1:   60:      fflush (stdout);
        1:   61:      exit (0);
         :   62:    }
      136:   63:}
         :   64:
         :   65:static int
      137:   66:deep (int x)
         :   67:{
      137:   68:  maybe_exit (x);
      136:   69:  return leaf (x);
         :   70:}
         :   71:
         :   72:static void
      151:   73:maybe_jump (int x)
         :   74:{
      151:   75:  if (x % 11 == 3)
       14:   76:    longjmp (jb, 1);
      137:   77:}
         :   78:
         :   79:static int
      151:   80:apply (int (*f) (int), int x)
         :   81:{
      151:   82:  return f (x);
         :   83:}
         :   84:
         :   85:static int
        4:   86:child (int k)
         :   87:{
        4:   88:  pid_t p = vfork ();
        8:   89:  if (p == 0)
        4:   90:    _exit (k & 1);
         :   91:  int st;
        4:   92:  waitpid (p, &st, 0);
        4:   93:  return WEXITSTATUS (st);
         :   94:}
         :   95:
         :   96:int
        1:   97:main (void)
         :   98:{
        1:   99:  long s = 0;
      151:  100:  for (int i = 0; i < 200; i++)
         :  101:    {
      165:  102:      if (setjmp (jb) == 0)
         :  103:        {
      151:  104:          s += leaf (i) + even (i % 13) + touch (i) + apply (leaf, i);
      151:  105:          s += collatz (i + 1);
      151:  106:          maybe_jump (i);
      137:  107:          if (i % 50 == 0)
        4:  108:            s += child (i);
      137:  109:          s += deep (i);
         :  110:        }
         :  111:      else
       14:  112:        s--;
      150:  113:      if (i % 25 == 0)
        6:  114:        printf ("%d %ld\n", i, s);
         :  115:    }
    #####:  116:  return 1;
         :  117:}
