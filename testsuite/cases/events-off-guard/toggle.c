/* toggle.c - the runtime's flag (dsprof-format.h, section 1) turned off
   inside an event whose Start was recorded, then on again.  */

#include <stdio.h>

#include <dsprof.h>

extern int __dsprof_events_on;

DSPROF_EVENT int
inner (int x)
{
  return x + 1;
}

DSPROF_EVENT int
outer (int x)
{
  __dsprof_events_on = 0;   /* Start recorded: its Finish is too */
  return inner (x) * 2;     /* no Start: no record, no Finish */
}

int
main (void)
{
  int r = outer (1);
  __dsprof_events_on = 1;
  r += inner (10);
  printf ("%d\n", r);
  return 0;
}
