/* manual.c - events made by hand with dsprof_start / dsprof_finish (docs/contract.md §4.3,
   §4.4), mixed with annotated functions.

     manual        the fixed sequence in main below (expected.txt)
     manual many N N times Step with dimensions i and tag: many event chunks
                   of manual events and added dimensions  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dsprof.h>

DSPROF_EVENT int
leaf (int n)
{
  return n;
}

/* Returns with its manual event still open.  */
DSPROF_EVENT void
opens (int n)
{
  dsprof_start ("Leaked");
  leaf (n);
}

DSPROF_EVENT void
wrap (int n)
{
  dsprof_id h = dsprof_start ("H");
  dsprof_dim_int ("k", n);
  dsprof_finish (h);
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "many") == 0)
    {
      int n = atoi (argv[2]);
      for (int i = 0; i < n; i++)
        {
          dsprof_id s = dsprof_start ("Step");
          dsprof_dim_int ("i", i);
          dsprof_dim_str ("tag", "x");
          dsprof_finish (s);
        }
      return 0;
    }

  /* 1. Nesting.  */
  dsprof_id a = dsprof_start ("A");
  dsprof_dim_str ("phase", "a");
  dsprof_id b = dsprof_start ("B");
  leaf (1);
  dsprof_finish (b);
  dsprof_id c = dsprof_start ("C");
  dsprof_finish (c);
  dsprof_finish (a);

  /* 2. A finish of an event that is not innermost: E and F are closed,
     incomplete; their own finishes come too late and change nothing.  */
  dsprof_id d = dsprof_start ("D");
  dsprof_id e = dsprof_start ("E");
  dsprof_id f = dsprof_start ("F");
  leaf (2);
  dsprof_finish (d);
  dsprof_finish (e);
  dsprof_finish (f);

  /* 3. No event.  */
  dsprof_finish (0);

  /* 4. An annotated function returns with a manual event open inside.  */
  opens (3);

  /* 5. Manual around annotated around manual.  */
  dsprof_id g = dsprof_start ("G");
  wrap (4);
  dsprof_finish (g);

  /* 6. The same type nested.  */
  dsprof_id r1 = dsprof_start ("R");
  dsprof_id r2 = dsprof_start ("R");
  dsprof_finish (r2);
  dsprof_finish (r1);
  return 0;
}
