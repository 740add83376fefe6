/* names.c - records named by the one rule of docs/contract.md §4.4: an
   annotated function by its name, a manual event by its event type, which
   is its `name` from Start on - a `name` added later, a string or not, does
   not replace it (Start's value wins).

     Op             manual, "add" added as its name
       leaf         annotated
       Op           manual, 7 added as its name
         leaf       annotated
     ""             manual, of the empty type
       leaf         annotated

   leaf does some work, so that its time shows in every view.  */

#include <dsprof.h>

DSPROF_EVENT void
leaf (int n)
{
  volatile unsigned sum = 0;
  for (int i = 0; i < 200000 * n; i++)
    sum += (unsigned) i;
}

int
main (void)
{
  dsprof_id add = dsprof_start ("Op");
  dsprof_dim_str ("name", "add");
  leaf (1);
  dsprof_id seven = dsprof_start ("Op");
  dsprof_dim_int ("name", 7);
  leaf (2);
  dsprof_finish (seven);
  dsprof_finish (add);
  dsprof_id empty = dsprof_start ("");
  leaf (1);
  dsprof_finish (empty);
  return 0;
}
