/* export-common.c - what the exports share (export.h): the dimensions an
   open event added since its Start, for the chrome and perfetto exports;
   the exports' time 0 and their pids.  */

#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "export.h"

/* Whether dimension NAME was added to the open event O.  */

bool
added_before (const struct added *o, const char *name)
{
  for (uint32_t i = 0; i < o->nnames; i++)
    if (!strcmp (o->names[i], name))
      return true;
  return false;
}

void
added_name (struct added *o, const char *name)
{
  o->names = XRESIZEVEC (char *, o->names, o->nnames + 1);
  o->names[o->nnames++] = xstrdup (name);
}

void
added_free (struct added *o)
{
  for (uint32_t i = 0; i < o->nnames; i++)
    free (o->names[i]);
  free (o->names);
  free (o->bytes);
}


struct added *
added_push (struct added_stack *st)
{
  if (st->depth == st->size)
    {
      st->size = st->size ? 2 * st->size : 64;
      st->open = XRESIZEVEC (struct added, st->open, st->size);
    }
  struct added *o = &st->open[st->depth++];
  memset (o, 0, sizeof *o);
  return o;
}

/* Free the open events left (a stream's end).  */

void
added_clear (struct added_stack *st)
{
  while (st->depth)
    added_free (&st->open[--st->depth]);
}

/* The start of the earliest process of SET (CLOCK_REALTIME ns): the exports'
   time 0.  */

uint64_t
first_start (const struct pf_set *set)
{
  uint64_t first = UINT64_MAX;
  for (uint32_t i = 0; i < set->nprocs; i++)
    if (set->procs[i].header.start_ns < first)
      first = set->procs[i].header.start_ns;
  return first;
}

/* The pid process I of SET is shown with: its own, unless an earlier profile
   has the same one.  */

int64_t
process_pid (const struct pf_set *set, uint32_t i)
{
  for (uint32_t k = 0; k < i; k++)
    if (set->procs[k].header.pid == set->procs[i].header.pid)
      return 1000000000 + (int64_t) i;
  return set->procs[i].header.pid;
}
