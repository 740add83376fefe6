/* oplines.c - the op records by their label's line (oplines.h): the record
   count of each opcode name on each file's line.  */

#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "oplines.h"

struct op_site_count
{
  const struct ev_site *site;
  uint64_t count;
};

static int
count_op_record (struct ev_record *r, void *arg)
{
  if (!ev_record_op_p (r))
    return 0;
  htab_t h = (htab_t) arg;
  struct op_site_count key = { r->site, 0 };
  void **slot = htab_find_slot (h, &key, INSERT);
  if (!*slot)
    {
      struct op_site_count *c = XNEW (struct op_site_count);
      *c = key;
      *slot = c;
    }
  ((struct op_site_count *) *slot)->count++;
  return 0;
}

static hashval_t
hash_op_site (const void *p)
{
  return htab_hash_pointer (((const struct op_site_count *) p)->site);
}

static int
eq_op_site (const void *a, const void *b)
{
  return ((const struct op_site_count *) a)->site
         == ((const struct op_site_count *) b)->site;
}

static int
add_op_line (void **slot, void *arg)
{
  const struct op_site_count *c = (const struct op_site_count *) *slot;
  struct op_lines *ops = (struct op_lines *) arg;
  struct op_line l = { c->site->file ? c->site->file : "", c->site->line,
                       c->site->name ? c->site->name : "", c->count };
  ops->v[ops->n++] = l;
  return 1;
}

static int
cmp_op_line (const void *a, const void *b)
{
  const struct op_line *x = (const struct op_line *) a;
  const struct op_line *y = (const struct op_line *) b;
  int c = strcmp (x->file, y->file);
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return strcmp (x->name, y->name);
}

int
op_lines_build (struct pf_set *set, struct op_lines *ops)
{
  htab_t h = htab_create (64, hash_op_site, eq_op_site, free);
  int rc = pf_walk_streams (set, NULL, count_op_record, NULL, h, 0);
  ops->n = 0;
  ops->v = XNEWVEC (struct op_line, htab_elements (h) + 1);
  htab_traverse (h, add_op_line, ops);
  htab_delete (h);
  if (ops->n > 1)
    qsort (ops->v, ops->n, sizeof *ops->v, cmp_op_line);
  size_t k = 0;
  for (size_t i = 0; i < ops->n; i++)
    if (k && !cmp_op_line (&ops->v[k - 1], &ops->v[i]))
      ops->v[k - 1].count += ops->v[i].count;
    else
      ops->v[k++] = ops->v[i];
  ops->n = k;
  return rc;
}

bool
op_sites_p (const struct pf_set *set)
{
  for (uint32_t i = 0; i < set->nprocs; i++)
    for (uint32_t k = 0; k < set->procs[i].sites.size; k++)
      if (set->procs[i].sites.by_id[k] && set->procs[i].sites.by_id[k]->function)
        return true;
  return false;
}
