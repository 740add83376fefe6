         :    1:/* labels and goto; switch with case, default and fall-through.  */
         :    2:#include <stdio.h>
         :    3:
        2:    4:static int sum_to (int n)
         :    5:{
        2:    6:  int i = 1, s = 0;
       24:    7:again:
       24:    8:  s += i;
       24:    9:  i++;
       24:   10:  if (i <= n)
       22:   11:    goto again;
        2:   12:  if (s > 100)
        1:   13:    goto big;
        1:   14:  return s;
        1:   15:big:
        1:   16:  return -1;
         :   17:}
         :   18:
        6:   19:static int weight (int c)
         :   20:{
        6:   21:  int w = 0;
        6:   22:  switch (c)
         :   23:    {
        1:   24:    case 0:
        1:   25:      w += 1;
        1:   26:      break;
        1:   27:    case 1:
        1:   28:      w += 10;
         :   29:      /* fall through */
        3:   30:    case 2:
         :   31:    case 3:
        3:   32:      w += 100;
        3:   33:      break;
        2:   34:    default:
        2:   35:      w = -1;
         :   36:    }
        6:   37:  return w;
         :   38:}
         :   39:
        1:   40:int main (void)
         :   41:{
        1:   42:  int c, total = 0;
        7:   43:  for (c = 0; c < 6; c++)
        6:   44:    total += weight (c);
        1:   45:  printf ("%d %d %d\n", sum_to (4), sum_to (20), total);
        1:   46:  return 0;
         :   47:}
