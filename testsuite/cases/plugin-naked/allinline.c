/* plugin-naked: always_inline and ordinary functions under functions=all.  */
#include <stdio.h>

static inline __attribute__ ((always_inline)) int
twice (int x)
{
  return 2 * x;                                     /* TWICE */
}

static __attribute__ ((noinline)) int
thrice (int x)
{
  return 3 * x;
}

int
main (void)
{
  int sum = 0;
  for (int i = 0; i < 4; i++)
    sum += twice (i) + thrice (i);
  printf ("%d\n", sum);
  return 0;
}
