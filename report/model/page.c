/* page.c - the models of `dsprof html`'s page (page.h).  */

#include <string.h>

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
