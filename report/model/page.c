/* page.c - the models of `dsprof html`'s page (page.h).  */

#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "page.h"

/* The op records by name into M->ops, as `dsprof report name --where
   event=op` reports them.  */

static int
ops_build (struct pf_set *set, const struct query *pq, struct page_models *m)
{
  static const char *name[] = { "name", NULL };
  struct agg_filter op = { "event", "op", false };
  struct query q = *pq;
  q.ndims = 1;
  q.dims = name;
  q.nfilters = 1;
  q.filters = &op;
  q.nsums = 0;
  q.quiet = true;
  return rpt_build (set, &q, &m->ops);
}

/* The report along DIMS (NULL-terminated) of Q's profiles over the op
   records into *M.  */

static int
seq_report (struct pf_set *set, const struct query *pq, const char **dims,
            struct rpt_model *m)
{
  struct agg_filter op = { "event", "op", false };
  struct query q = *pq;
  for (q.ndims = 0; dims[q.ndims]; q.ndims++)
    ;
  q.dims = dims;
  q.nfilters = 1;
  q.filters = &op;
  q.nsums = 0;
  q.quiet = true;
  return rpt_build (set, &q, m);
}

/* The count of the row of the empty value in M's first table (the op
   records without an opcode before them, or too few for a sequence), that
   row taken out of the table if TAKE (M of one dimension: its rows have no
   sub-table).  A filter DIM!= would work the derived value out twice a
   record.  */

static uint64_t
seq_empty (struct rpt_model *m, bool take)
{
  struct rpt_table *t = m->top;
  for (uint32_t i = 0; t && i < t->nrows; i++)
    if (!t->rows[i].value[0])
      {
        uint64_t count = t->rows[i].count;
        if (take)
          memmove (&t->rows[i], &t->rows[i + 1],
                   (--t->nrows - i) * sizeof t->rows[0]);
        return count;
      }
  return 0;
}

/* Pairs by Count, most first, then by the opcode before and after.  */

static int
cmp_pair (const void *a, const void *b)
{
  const struct page_pair *x = a, *y = b;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  int c = strcmp (x->prev, y->prev);
  return c ? c : strcmp (x->name, y->name);
}

/* The opcode pairs and sequences into S (page.h's page_seqs).  */

static int
seqs_build (struct pf_set *set, const struct query *q, struct page_seqs *s)
{
  static const char *pair[] = { "prev:name", "name", NULL };
  static const char *seq3[] = { "seq3:name", NULL }, *seq4[] = { "seq4:name", NULL };
  int rc;
  if ((rc = seq_report (set, q, pair, &s->report))
      || (rc = seq_report (set, q, seq3, &s->seq[0]))
      || (rc = seq_report (set, q, seq4, &s->seq[1])))
    return rc;
  s->none[0] = seq_empty (&s->report, false);
  for (int k = 0; k < 2; k++)
    s->none[k + 1] = seq_empty (&s->seq[k], true);
  const struct rpt_table *t = s->report.top;
  for (uint32_t i = 0; t && i < t->nrows; i++)
    s->npairs += t->rows[i].value[0] ? t->rows[i].sub->nrows : 0;
  s->pairs = XNEWVEC (struct page_pair, s->npairs + 1);
  uint32_t n = 0;
  for (uint32_t i = 0; t && i < t->nrows; i++)
    for (uint32_t j = 0; t->rows[i].value[0] && j < t->rows[i].sub->nrows; j++)
      {
        const struct rpt_row *r = &t->rows[i].sub->rows[j];
        s->pairs[n++] = (struct page_pair) { t->rows[i].value, r->value, r->count };
      }
  qsort (s->pairs, n, sizeof *s->pairs, cmp_pair);
  return 0;
}

/* The models after the record tree and the line counts: those of the views
   of records, in their order.  */

static int
page_build_views (struct pf_set *set, struct pf_set *base, const struct query *q,
                  struct page_models *m)
{
  int rc = 0;
  if (!base && (rc = ops_build (set, q, m)))
    return rc;
  m->built |= base ? 0 : PM_OPS;
  if (!base && m->ops.records && (rc = seqs_build (set, q, &m->seqs)))
    return rc;
  m->built |= base ? 0 : PM_PAIRS;
  if (base && (rc = diff_lines_build (base, set, &m->changed)))
    return rc;
  m->built |= base ? PM_CHANGED : 0;
  rc = base ? diff_build (base, set, q, DIFF_TOTAL, &m->diff)
       : rpt_build (set, q, &m->report);
  if (rc)
    return rc;
  m->built |= PM_REPORT;
  if ((rc = cg_build (set, q->dims[0] ? q->dims[0] : "name", false, false,
                      &m->cg)))
    return rc;
  m->built |= PM_CG;
  return 0;
}

int
page_build (struct pf_set *set, struct pf_set *base, const struct query *q,
            uint64_t max_records, struct page_models *m)
{
  memset (m, 0, sizeof *m);
  int rc = base ? rtree_build_diff (set, base, &m->tree)
           : rtree_build (set, max_records, &m->tree);
  if (rc)
    return rc;
  m->built |= PM_TREE;
  if (!base)
    {
      if ((rc = lc_build (set, &m->lines)))
        return rc;
      m->built |= PM_LINES;
    }
  /* Block counts only: neither the report nor the call graph is shown.  */
  if (!base && !m->tree.records)
    return 0;
  return page_build_views (set, base, q, m);
}

void
page_free (struct page_models *m)
{
  rtree_free (&m->tree);
  lc_free (&m->lines);
  rpt_free (&m->ops);
  rpt_free (&m->seqs.report);
  rpt_free (&m->seqs.seq[0]);
  rpt_free (&m->seqs.seq[1]);
  free (m->seqs.pairs);
  if (m->built & PM_CHANGED)
    diff_lines_free (&m->changed);
  if (m->built & PM_REPORT)
    {
      rpt_free (&m->report);
      diff_free (&m->diff);
    }
  if (m->built & PM_CG)
    cg_free (&m->cg);
  memset (m, 0, sizeof *m);
}
