/* dimcount.h - what `dsprof dims` (docs/contract.md §5.3) lists: every
   dimension the records that pass a query's --where filters carry,
   recorded or derived, with the number of records that carry it, most
   common first (render/listing.c prints it); and the --where test of a
   record that `records` and `dims` apply.  */

#ifndef DSPROF_DIMCOUNT_H
#define DSPROF_DIMCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hashtab.h"
#include "aggregate.h"
#include "exit.h"
#include "files.h"
#include "profile.h"
#include "query.h"
#include "text.h"

struct dim_count
{
  char *name;
  uint64_t n;
};

struct dim_counts
{
  struct dim_count **v;          /* by count, most first, then by name */
  size_t n;
  htab_t table;                  /* holds them */
};

/* The dimensions of SET's records that pass Q's filters into *D (free it
   with dims_free either way); say if no record carries a --where dimension
   (agg_carry_note).  Return 0 or EXIT_DATA.  */
int dims_count (struct pf_set *set, const struct query *q, struct dim_counts *d);
void dims_free (struct dim_counts *d);

/* Look for Q's --where dimensions in C.  */
void rec_carry_filters (struct agg_carry *c, const struct query *q);

/* Whether record R passes Q's --where filters.  */
bool rec_passes (const struct query *q, const struct ev_record *r);

#endif /* DSPROF_DIMCOUNT_H */
