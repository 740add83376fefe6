         :    1:/* if/else, && and || with fixed inputs; code that never runs.  */
         :    2:#include <stdio.h>
         :    3:
       10:    4:static int classify (int x)
         :    5:{
         :    6:  int r;
       10:    7:  if (x < 0)
        3:    8:    r = -1;
        7:    9:  else if (x == 0)
        1:   10:    r = 0;
         :   11:  else
        6:   12:    r = 1;
       10:   13:  return r;
         :   14:}
         :   15:
    #####:   16:int never_called (int x)
         :   17:{
    #####:   18:  return x * 3;
         :   19:}
         :   20:
        1:   21:int main (void)
         :   22:{
        1:   23:  int i, sum = 0, both = 0, either = 0;
       11:   24:  for (i = -3; i <= 6; i++)
         :   25:    {
       10:   26:      sum += classify (i);
       10:   27:      if (i % 2 == 0
        5:   28:          && i % 3 == 0)
        2:   29:        both++;
       10:   30:      if (i < -2
        9:   31:          || i > 4)
        3:   32:        either++;
         :   33:    }
        1:   34:  if (sum > 100)
    #####:   35:    puts ("never");
        1:   36:  printf ("%d %d %d\n", sum, both, either);
        1:   37:  return 0;
         :   38:}
