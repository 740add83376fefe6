         :    1:/* early return and recursion.  */
         :    2:#include <stdio.h>
         :    3:
         :    4:static int hits;
         :    5:
        5:    6:static void note (int x)
         :    7:{
        5:    8:  if (x < 0)
        2:    9:    return;
        3:   10:  hits += x;
         :   11:}
         :   12:
        2:   13:static int first_multiple (int k, int limit)
         :   14:{
         :   15:  int i;
        9:   16:  for (i = 1; i <= limit; i++)
        8:   17:    if (i % k == 0)
        1:   18:      return i;
        1:   19:  return 0;
         :   20:}
         :   21:
        5:   22:static int fact (int n)
         :   23:{
        5:   24:  if (n <= 1)
        1:   25:    return 1;
        4:   26:  return n * fact (n - 1);
         :   27:}
         :   28:
       25:   29:static int fib (int n)
         :   30:{
       25:   31:  return n < 2 ? n : fib (n - 1) + fib (n - 2);
         :   32:}
         :   33:
        1:   34:int main (void)
         :   35:{
         :   36:  int i;
        6:   37:  for (i = -2; i < 3; i++)
        5:   38:    note (i);
        1:   39:  printf ("%d %d %d\n", hits, first_multiple (3, 10), first_multiple (7, 5));
        1:   40:  printf ("%d %d\n", fact (5), fib (6));
        1:   41:  return 0;
         :   42:}
