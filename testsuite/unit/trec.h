/* trec.h - a record made by hand for the unit tests of the consumers of
   records (aggregate.c, stacks.c): its name as its only dimension, handed to
   the consumer innermost first, as ev_decode_stream does.  */

#ifndef DSPROF_TREC_H
#define DSPROF_TREC_H

#include <string.h>

#include "events.h"

struct trec
{
  struct ev_record r;
  struct ev_dim dim;
};

/* Set D to the string dimension NAME = S, LEN bytes.  */
static inline void
trec_str_dim (struct ev_dim *d, const char *name, const char *s, uint32_t len)
{
  memset (d, 0, sizeof *d);
  d->name = name;
  d->v.type = DSPROF_DIM_STR;
  d->v.s = s;
  d->v.len = len;
}

/* T, named NAME, of type "T", complete, from START to END ns, inside PARENT
   (NULL: top level).  */
static inline void
trec_init (struct trec *t, struct trec *parent, const char *name,
           uint64_t start, uint64_t end)
{
  memset (t, 0, sizeof *t);
  trec_str_dim (&t->dim, "name", name, (uint32_t) strlen (name));
  t->r.dims = &t->dim;
  t->r.ndims = 1;
  t->r.type = "T";
  t->r.complete = true;
  t->r.start_ns = start;
  t->r.end_ns = end;
  t->r.parent = parent ? &parent->r : NULL;
  t->r.depth = parent ? parent->r.depth + 1 : 0;
}

#endif /* DSPROF_TREC_H */
