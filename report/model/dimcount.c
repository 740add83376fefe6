/* dimcount.c - the records' dimensions counted (dimcount.h), and the
   --where filters of the commands over records.  */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "dimcount.h"
#include "strkey.h"

_Static_assert (offsetof (struct dim_count, name) == 0, "keyed by its first member (strkey.h)");

/* Look for Q's --where dimensions in C.  */

void
rec_carry_filters (struct agg_carry *c, const struct query *q)
{
  for (int i = 0; i < q->nfilters; i++)
    agg_carry_want (c, q->filters[i].dim);
}

bool
rec_passes (const struct query *q, const struct ev_record *r)
{
  char buf[EV_VALUE_SIZE];
  for (int i = 0; i < q->nfilters; i++)
    {
      const char *t = agg_dim_text (r, q->filters[i].dim, buf, sizeof buf);
      if ((strcmp (t ? t : "", q->filters[i].value) == 0) == q->filters[i].negate)
        return false;
    }
  return true;
}


static void
dim_count_free (void *p)
{
  free (((struct dim_count *) p)->name);
  free (p);
}

/* The names of the dimensions a record carries are mostly the same few
   pointers (its site's, the derived ones'): a small cache by address saves
   hashing each name of each record.  */
#define DIMS_CACHE 64

struct dims_ctx
{
  const struct query *q;
  htab_t counts;
  uint64_t records;
  struct agg_carry carry;
  struct
  {
    const char *name;
    struct dim_count *d;
  } cache[DIMS_CACHE];
};

static void
count_dim (struct dims_ctx *c, const char *name)
{
  size_t h = ((uintptr_t) name >> 3) % DIMS_CACHE;
  if (c->cache[h].name == name && !strcmp (c->cache[h].d->name, name))
    {
      c->cache[h].d->n++;
      return;
    }
  struct dim_count key = { (char *) name, 0 };
  void **slot = htab_find_slot (c->counts, &key, INSERT);
  if (!*slot)
    {
      struct dim_count *d = XNEW (struct dim_count);
      d->name = xstrdup (name);
      d->n = 0;
      *slot = d;
    }
  c->cache[h].name = name;
  c->cache[h].d = *slot;
  c->cache[h].d->n++;
}

static int
dims_record (struct ev_record *r, void *arg)
{
  struct dims_ctx *c = arg;
  agg_carry_record (&c->carry, r);
  if (!rec_passes (c->q, r))
    return 0;
  c->records++;
  for (uint32_t i = 0; i < r->ndims; i++)
    count_dim (c, r->dims[i].name);
  for (size_t i = 0; i < agg_nderived; i++)
    if (!agg_derived[i].prefix && !ev_record_dim (r, agg_derived[i].name)
        && agg_dim_present (r, agg_derived[i].name))
      count_dim (c, agg_derived[i].name);
  return 0;
}

static int
collect_counts (void **slot, void *arg)
{
  struct dim_count ***p = arg;
  *(*p)++ = *slot;
  return 1;
}

static int
cmp_dim_count (const void *a, const void *b)
{
  const struct dim_count *x = *(const struct dim_count *const *) a;
  const struct dim_count *y = *(const struct dim_count *const *) b;
  if (x->n != y->n)
    return x->n > y->n ? -1 : 1;
  return strcmp (x->name, y->name);
}

int
dims_count (struct pf_set *set, const struct query *q, struct dim_counts *d)
{
  struct dims_ctx c;
  memset (&c, 0, sizeof c);
  memset (d, 0, sizeof *d);
  c.q = q;
  c.counts = htab_create_alloc (32, strkey_hash, strkey_eq, dim_count_free,
                                xcalloc, free);
  rec_carry_filters (&c.carry, q);
  int rc = pf_walk_streams (set, NULL, dims_record, NULL, &c, EV_KEEP_CHILDREN);
  if (!rc)
    {
      agg_carry_note (&c.carry);
      d->n = htab_elements (c.counts);
      d->v = XNEWVEC (struct dim_count *, d->n + 1);
      struct dim_count **p = d->v;
      htab_traverse (c.counts, collect_counts, &p);
      qsort (d->v, d->n, sizeof *d->v, cmp_dim_count);
    }
  free (c.carry.names);
  d->table = c.counts;
  return rc;
}

void
dims_free (struct dim_counts *d)
{
  free (d->v);
  if (d->table)
    htab_delete (d->table);
  memset (d, 0, sizeof *d);
}
