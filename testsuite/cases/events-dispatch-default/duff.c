/* duff.c - Duff's device: a switch without a default whose case labels lie
   inside a loop, the dispatch of duff; after it, duff calls the event
   function after.  Copies COUNT ints for each COUNT from 1 to 16.  */
#include <stdio.h>

__attribute__ ((dsprof_event, noinline)) int
after (int x)
{
  return x + 1;
}

int
duff (int *to, const int *from, int count)
{
  int n = (count + 7) / 8;
  switch (count % 8)
    {
    case 0: do { *to++ = *from++;
    case 7:      *to++ = *from++;
    case 6:      *to++ = *from++;
    case 5:      *to++ = *from++;
    case 4:      *to++ = *from++;
    case 3:      *to++ = *from++;
    case 2:      *to++ = *from++;
    case 1:      *to++ = *from++;
                 } while (--n > 0);
    }
  return after (to[-1]);
}

int
main (void)
{
  int from[16], to[16], sum = 0;
  for (int i = 0; i < 16; i++)
    from[i] = i * 3;
  for (int count = 1; count <= 16; count++)
    sum += duff (to, from, count);
  printf ("%d\n", sum);
  return 0;
}
