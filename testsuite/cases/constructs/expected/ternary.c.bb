         :    1:/* ?: with fixed inputs.  GCC gives the test of a ?: (and the statement
         :    2:   around it) the location of its ':', so here the ':' and each arm have a
         :    3:   line of their own.  */
         :    4:#include <stdio.h>
         :    5:
        4:    6:static int twice (int x)
         :    7:{
        4:    8:  return 2 * x;
         :    9:}
         :   10:
        6:   11:static int negate (int x)
         :   12:{
        6:   13:  return -x;
         :   14:}
         :   15:
       10:   16:static int pick (int x)
         :   17:{
       10:   18:  int r = x > 2
        4:   19:          ? twice (x)
       10:   20:          :
        6:   21:          negate (x);
       10:   22:  return r;
         :   23:}
         :   24:
        1:   25:int main (void)
         :   26:{
        1:   27:  int i, sum = 0;
       11:   28:  for (i = -3; i <= 6; i++)
       10:   29:    sum += pick (i);
        1:   30:  printf ("%d\n", sum);
        1:   31:  return 0;
         :   32:}
