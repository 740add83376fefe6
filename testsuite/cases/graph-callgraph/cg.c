/* cg.c - a call graph with direct recursion and a cycle of two functions
   (docs/contract.md §5.7).  Every function is an event of type "call":

     main:     top (), then fact (2)
     top:      fact (3), even (4), leaf (8000), leaf (8000)
     fact (n): fact (n - 1) while n > 0; leaf (2000) at n = 0
     even (n): leaf (500) at n = 0, else odd (n - 1)
     odd (n):  even (n - 1)
     leaf (us) spins US microseconds.

   Records by name: top 1, fact 4 + 3 = 7 (2 called from other functions or
   the top level, 5 by itself), even 3 (even 4, 2, 0) and odd 2 (odd 3, 1):
   a cycle entered once from top, with 2 + 2 calls inside it; leaf 5 (2 from
   top, 2 from fact, 1 from even).  18 records, 2 at top level.  */

#include <stdio.h>
#include <time.h>

#include <dsprof.h>

static void
spin (long us)
{
  struct timespec t0, t;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  do
    clock_gettime (CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

DSPROF_EVENT_TYPE ("call") void
leaf (long us)
{
  spin (us);
}

DSPROF_EVENT_TYPE ("call") int
fact (int n)
{
  if (n == 0)
    {
      leaf (2000);
      return 1;
    }
  return n * fact (n - 1);
}

DSPROF_EVENT_TYPE ("call") int odd (int n);

DSPROF_EVENT_TYPE ("call") int
even (int n)
{
  if (n == 0)
    {
      leaf (500);
      return 1;
    }
  return odd (n - 1);
}

DSPROF_EVENT_TYPE ("call") int
odd (int n)
{
  return n == 0 ? 0 : even (n - 1);
}

static volatile int sink;

DSPROF_EVENT_TYPE ("call") void
top (void)
{
  sink += fact (3);
  sink += even (4);
  leaf (8000);
  leaf (8000);
}

int
main (void)
{
  top ();
  printf ("%d\n", fact (2));
  return 0;
}
