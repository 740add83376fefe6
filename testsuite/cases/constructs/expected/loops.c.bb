         :    1:/* while, for, do-while, break and continue with fixed inputs.  */
         :    2:#include <stdio.h>
         :    3:
        1:    4:int main (void)
         :    5:{
        1:    6:  int i = 0, n = 0, evens = 0, odd = 0;
         :    7:
        4:    8:  while (i < 5)
        3:    9:    i += 2;
         :   10:
        5:   11:  for (i = 0; i < 4; i++)
        4:   12:    n += i;
         :   13:
         :   14:  do
         :   15:    {
        3:   16:      n--;
         :   17:    }
        3:   18:  while (n > 3);
         :   19:
        8:   20:  for (i = 0; i < 10; i++)
         :   21:    {
        8:   22:      if (i == 7)
        1:   23:        break;
        7:   24:      if (i % 2)
        3:   25:        continue;
        4:   26:      evens++;
         :   27:    }
         :   28:
        1:   29:  i = 0;
         :   30:  while (1)
         :   31:    {
        3:   32:      odd += 2 * i + 1;
        3:   33:      if (++i >= 3)
        1:   34:        break;
         :   35:    }
        1:   36:  printf ("%d %d %d %d\n", i, n, evens, odd);
        1:   37:  return 0;
         :   38:}
