/* sel: three functions and main, for include=/exclude=; alpha runs twice, beta
   three times, gamma_two four times.  */
#include <stdio.h>

static int
alpha (int x)
{
  return x + 1; /* ALPHA */
}

static int
beta (int x)
{
  return x * 2; /* BETA */
}

static int
gamma_two (int x)
{
  return x - 3; /* GAMMA */
}

int
main (void)
{
  int i, s = 0;
  for (i = 0; i < 4; i++)
    {
      if (i < 2)
        s += alpha (i);
      if (i < 3)
        s += beta (i);
      s += gamma_two (i); /* MAIN */
    }
  printf ("%d\n", s);
  return 0;
}
