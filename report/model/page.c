/* page.c - the models of `dsprof html`'s page (page.h).  */

#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "page.h"

/* The report of Q's profiles SET along the NDIMS DIMS over the op records
   into *M: `dsprof report DIMS --where event=op`.  */

static int
op_report (struct pf_set *set, const struct query *pq, int ndims,
           const char **dims, struct rpt_model *m)
{
  struct agg_filter op = { "event", "op", false };
  struct query q = *pq;
  q.ndims = ndims;
  q.dims = dims;
  q.nfilters = 1;
  q.filters = &op;
  q.nsums = 0;
  q.quiet = true;
  return rpt_build (set, &q, m);
}

/* The rows of dimension LEVEL of a page_seqs' report being flattened.  */

struct seq_rows
{
  int level;
  uint32_t n;
  struct page_seq *rows;         /* NULL: count them into N */
  uint64_t count;                /* their records */
};

/* Collect the rows of T (under PATH) that have a value: a pair's (LEVEL 1)
   also an opcode before.  */

static void
seq_collect (const struct rpt_table *t, const char **path, void *arg)
{
  struct seq_rows *c = arg;
  if (c->level == 1 && !path[0][0])
    return;
  for (uint32_t i = 0; i < t->nrows; i++)
    if (t->rows[i].value[0])
      {
        if (c->rows)
          c->rows[c->n] = (struct page_seq) { c->level == 1 ? path[0] : NULL,
                                              t->rows[i].value, t->rows[i].count };
        c->n++;
        c->count += t->rows[i].count;
      }
}

/* Rows by Count, most first, then by PREV and VALUE.  */

static int
cmp_seq (const void *a, const void *b)
{
  const struct page_seq *x = a, *y = b;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  int c = x->prev && y->prev ? strcmp (x->prev, y->prev) : 0;
  return c ? c : strcmp (x->value, y->value);
}

/* The opcode pairs and sequences of Q's profiles SET into S (page.h's
   page_seqs).  */

static int
seqs_build (struct pf_set *set, const struct query *q, struct page_seqs *s)
{
  static const char *dims[] = { "prev:name", "name", "seq3:name", "seq4:name",
                                NULL };
  int rc = op_report (set, q, 4, dims, &s->report);
  if (rc)
    return rc;
  const char *path[5];
  for (int k = 0; k < 3; k++)
    {
      struct seq_rows c = { k + 1, 0, NULL, 0 };
      rpt_each_table (&s->report, k + 1, 0, path, seq_collect, &c);
      c.rows = XNEWVEC (struct page_seq, c.n + 1);
      c.n = 0;
      c.count = 0;
      rpt_each_table (&s->report, k + 1, 0, path, seq_collect, &c);
      qsort (c.rows, c.n, sizeof *c.rows, cmp_seq);
      s->rows[k] = c.rows;
      s->nrows[k] = c.n;
      s->none[k] = s->report.records - c.count;
    }
  return 0;
}

/* The models after the record tree and the line counts: those of the views
   of records, in their order.  */

static int
page_build_views (struct pf_set *set, struct pf_set *base, const struct query *q,
                  struct page_models *m)
{
  static const char *name[] = { "name", NULL };
  int rc = 0;
  if (!base && (rc = op_report (set, q, 1, name, &m->ops)))
    return rc;
  m->built |= base ? 0 : PM_OPS;
  if (!base && m->ops.records && (rc = seqs_build (set, q, &m->seqs)))
    return rc;
  m->built |= base ? 0 : PM_SEQS;
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
  for (int k = 0; k < 3; k++)
    free (m->seqs.rows[k]);
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
