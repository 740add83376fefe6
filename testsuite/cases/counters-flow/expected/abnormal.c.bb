         :    1:/* abnormal: blocks entered other than by an edge code can be put on.  longjmp
         :    2:   and siglongjmp back to setjmp and sigsetjmp, __builtin_setjmp, a computed
         :    3:   goto dispatch loop, a nested function's goto out of its parent's loop, and
         :    4:   cleanups run on every way out of a scope (built with -fexceptions).  */
         :    5:#include <setjmp.h>
         :    6:#include <stdio.h>
         :    7:
         :    8:static jmp_buf env;
         :    9:static sigjmp_buf senv;
         :   10:static void *bbuf[5];
         :   11:static int thrown, cleaned;
         :   12:
         :   13:__attribute__ ((noinline)) static void
      200:   14:thrower (int i)
         :   15:{
      200:   16:  if (i % 4 == 1)
         :   17:    {
       50:   18:      thrown++;
       50:   19:      longjmp (env, i);
         :   20:    }
      150:   21:  if (i % 4 == 2)
       25:   22:    siglongjmp (senv, i);
      125:   23:}
         :   24:
         :   25:static int
      100:   26:with_setjmp (int i)
         :   27:{
      125:   28:  int r = setjmp (env);
      125:   29:  if (r == 0)
         :   30:    {
      100:   31:      thrower (i % 4 == 2 ? i + 1 : i);
       75:   32:      return 0;
         :   33:    }
       25:   34:  return r;
         :   35:}
         :   36:
         :   37:static int
      100:   38:with_sigsetjmp (int i)
         :   39:{
      125:   40:  if (sigsetjmp (senv, 1))
       25:   41:    return 1;
      125:   42:  if (setjmp (env))
       25:   43:    return 2;
      100:   44:  thrower (i);
       50:   45:  return 3;
         :   46:}
         :   47:
         :   48:__attribute__ ((noinline)) static void
      100:   49:bthrow (int i)
         :   50:{
      100:   51:  if (i % 5 == 0)
       20:   52:    __builtin_longjmp (bbuf, 1);
       80:   53:}
         :   54:
         :   55:static int
      100:   56:with_builtin_setjmp (int i)
         :   57:{
      120:   58:  if (__builtin_setjmp (bbuf))
       20:   59:    return 7;
      100:   60:  bthrow (i);
       80:   61:  return i;
         :   62:}
         :   63:
         :   64:static int
       10:   65:dispatch (const unsigned char *code)
         :   66:{
         :   67:  static void *ops[] = { &&add, &&twice, &&loop, &&halt };
       10:   68:  int acc = 0, pc = 0;
       10:   69:  goto *ops[code[pc++]];
       30:   70:add:
       30:   71:  acc++;
       30:   72:  goto *ops[code[pc++]];
       30:   73:twice:
       30:   74:  if (acc > 100)
    #####:   75:    acc -= 100;
         :   76:  else
       30:   77:    acc *= 2;
       30:   78:  goto *ops[code[pc++]];
       20:   79:loop:
       80:   80:  for (int k = 0; k < 3; k++)
       60:   81:    acc += k;
       20:   82:  goto *ops[code[pc++]];
       10:   83:halt:
       10:   84:  return acc;
         :   85:}
         :   86:
         :   87:static int
       10:   88:nested (int n)
         :   89:{
         :   90:  __label__ out;
       10:   91:  int acc = 0;
       42:   92:  void inner (int k)
         :   93:  {
       42:   94:    if (k > 5)
        3:   95:      goto out;
       39:   96:    acc += k;
       39:   97:  }
       49:   98:  for (int i = 0; i < n; i++)
       42:   99:    inner (i);
        7:  100:  return acc;
        3:  101:out:
        3:  102:  return -acc;
         :  103:}
         :  104:
         :  105:static void
       44:  106:release (int *p)
         :  107:{
       44:  108:  cleaned += *p;
       44:  109:}
         :  110:
         :  111:static int
       10:  112:scoped (int n)
         :  113:{
       10:  114:  int r = 0;
       52:  115:  for (int i = 0; i < n; i++)
         :  116:    {
       44:  117:      int x __attribute__ ((cleanup (release))) = 1;
       44:  118:      if (i % 3 == 0)
       18:  119:        continue;
       26:  120:      if (i == 7)
        2:  121:        break;
       24:  122:      r += x;
         :  123:    }
       10:  124:  return r;
         :  125:}
         :  126:
         :  127:int
        1:  128:main (void)
         :  129:{
         :  130:  static const unsigned char code[] = { 0, 1, 2, 0, 1, 0, 2, 1, 3 };
        1:  131:  long s = 0;
      101:  132:  for (int i = 0; i < 100; i++)
      100:  133:    s += with_setjmp (i) + with_sigsetjmp (i) + with_builtin_setjmp (i);
       11:  134:  for (int i = 0; i < 10; i++)
       10:  135:    s += dispatch (code) + nested (i) + scoped (i);
        1:  136:  printf ("%ld %d %d\n", s, thrown, cleaned);
        1:  137:  return 0;
         :  138:}
