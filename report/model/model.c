/* model.c - the dimension report's tree of buckets (model.h, docs/contract.md
   §5.3): the records of a profile bucketed by agg, then arranged as tables of
   sorted rows.  */

#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "model.h"

/* ---- 1. bucketing the records ----------------------------------------------------- */

struct walk
{
  struct agg *agg;
  const struct query *q;
  uint64_t last_ns;              /* of the current process */
};

static void
walk_begin (const struct pf_process *p, const struct ev_stream *s, void *arg)
{
  struct walk *w = arg;
  struct agg_costs deduct, run;
  agg_costs_of (p, s, w->q->raw, &deduct);
  agg_costs_of (p, s, false, &run);
  agg_begin_stream (w->agg, &deduct, &run);
}

static int
walk_record (struct ev_record *r, void *arg)
{
  struct walk *w = arg;
  if (r->end_ns > w->last_ns)
    w->last_ns = r->end_ns;
  return agg_record (r, w->agg);
}

/* Bucket the records of SET by Q into W->agg; the run time of SET's processes
   into *TOTAL_RUN.  */

static int
bucket_records (struct pf_set *set, struct walk *w, uint64_t *total_run)
{
  int rc = 0;
  *total_run = 0;
  for (uint32_t i = 0; i < set->nprocs && !rc; i++)
    {
      /* One process at a time, for its run time.  */
      struct pf_set one = *set;
      one.procs = &set->procs[i];
      one.nprocs = 1;
      w->last_ns = 0;
      rc = pf_walk_streams (&one, NULL, walk_record, walk_begin, w,
                            agg_needs_children (w->agg) ? EV_KEEP_CHILDREN : 0);
      *total_run += pf_run_ns (&set->procs[i], w->last_ns);
    }
  return rc;
}

static void
add_off (uint64_t from_ns, uint64_t to_ns, bool open, void *arg)
{
  (void) open;
  *(uint64_t *) arg += to_ns - from_ns;
}

void
rpt_samples (const struct pf_set *set, bool raw, bool warn, bool *by_samples,
             struct ev_stream_samples *all, uint64_t *cpu_ns)
{
  *by_samples = false;
  memset (all, 0, sizeof *all);
  *cpu_ns = 0;
  bool cpu_known = true;
  uint32_t sampled = 0;
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      const struct pf_process *p = &set->procs[i];
      *cpu_ns += p->header.cpu_ns;
      cpu_known &= p->header.cpu_ns != 0;
      struct agg_costs c;
      agg_costs_of (p, NULL, raw, &c);
      *by_samples |= c.by_samples;
      sampled += c.by_samples;
      for (uint32_t k = 0; k < p->nstreams; k++)
        {
          const struct ev_stream_samples *s = &p->streams[k].samples;
          struct ev_samples *to[3] = { &all->program, &all->outside,
                                       &all->recorder };
          const struct ev_samples *from[3] = { &s->program, &s->outside,
                                               &s->recorder };
          for (int j = 0; j < 3; j++)
            ev_samples_add (to[j], from[j]);
          all->seen |= s->seen;
        }
    }
  if (!cpu_known)
    *cpu_ns = 0;
  if (sampled && sampled < set->nprocs && warn)
    fprintf (stderr, "dsprof: %u of the %u profiles are timed by samples of "
             "their CPU time (DSPROF_SAMPLE), the others by the deduction: "
             "times of two kinds (--deduced times all by the deduction)\n",
             sampled, set->nprocs);
}

/* ---- 2. the tables ---------------------------------------------------------------- */

/* The buckets grouped by parent: the children of bucket b are
   kids[first[b] .. first[b] + count[b]).  */
struct groups
{
  const struct agg *agg;
  uint32_t *first, *count, *kids;
};

static int
cmp_row (const void *a, const void *b)
{
  const struct rpt_row *x = a, *y = b;
  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (x->value, y->value);
}

/* cmp_row for a dimension whose rows rank by Count (agg_derived's
   BY_COUNT): Count, then Total, then value.  */

static int
cmp_row_by_count (const void *a, const void *b)
{
  const struct rpt_row *x = a, *y = b;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return cmp_row (a, b);
}

static void
group_buckets (struct groups *g, const struct agg *a)
{
  uint32_t n = agg_nbuckets (a);
  g->agg = a;
  g->first = XCNEWVEC (uint32_t, n + 2);
  g->count = XCNEWVEC (uint32_t, n + 2);
  g->kids = XNEWVEC (uint32_t, n + 1);
  for (uint32_t b = 1; b <= n; b++)
    g->count[agg_bucket (a, b)->parent]++;
  uint32_t at = 0;
  for (uint32_t b = 0; b <= n; b++)
    {
      g->first[b] = at;
      at += g->count[b];
      g->count[b] = 0;
    }
  for (uint32_t b = 1; b <= n; b++)
    {
      uint32_t p = agg_bucket (a, b)->parent;
      g->kids[g->first[p] + g->count[p]++] = b;
    }
}

/* The table of bucket B's children, at dimension LEVEL of the NDIMS DIMS,
   sorted: by Count first if its dimension or one before it (BY_COUNT) ranks
   so (agg_dim_by_count), as the pairs of `prev:name name` do.  */

static struct rpt_table *
table_of (const struct groups *g, uint32_t b, int level, int ndims,
          const char *const *dims, bool by_count)
{
  by_count = by_count || agg_dim_by_count (dims[level]);
  struct rpt_table *t = XNEW (struct rpt_table);
  t->level = level;
  t->nrows = g->count[b];
  t->rows = XCNEWVEC (struct rpt_row, t->nrows + 1);
  for (uint32_t i = 0; i < t->nrows; i++)
    {
      uint32_t id = g->kids[g->first[b] + i];
      const struct agg_bucket *k = agg_bucket (g->agg, id);
      struct rpt_row *r = &t->rows[i];
      r->value = k->value;
      r->total_ns = k->total_ns;
      r->self_ns = k->self_ns;
      r->desc_ns = k->total_ns > k->self_ns ? k->total_ns - k->self_ns : 0;
      r->count = k->count;
      r->clamped = k->clamped;
      r->self_samples = k->self_samples;
      r->sums = k->sums;
      if (level + 1 < ndims)
        r->sub = table_of (g, id, level + 1, ndims, dims, by_count);
    }
  qsort (t->rows, t->nrows, sizeof *t->rows,
         by_count ? cmp_row_by_count : cmp_row);
  return t;
}

/* table_free: frees a table and those under it (model.h).  */

RPT_TABLE_FREE (table_free, rpt_table)

/* ---- 3. the model ----------------------------------------------------------------- */

int
rpt_build (struct pf_set *set, const struct query *q, struct rpt_model *m)
{
  memset (m, 0, sizeof *m);
  struct walk w = { agg_new (q->ndims, q->dims, q->nfilters, q->filters), q, 0 };
  if (q->nsums)
    agg_set_sums (w.agg, q->nsums, q->sums);
  uint64_t total_run;
  int rc = bucket_records (set, &w, &total_run);
  if (rc)
    {
      agg_free (w.agg);
      return rc;
    }
  if (!q->quiet)
    {
      agg_note_uncarried (w.agg);
      agg_note_unsummed (w.agg);
    }
  rpt_of_agg (w.agg, q, total_run, m);
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      m->off_intervals += (uint32_t) pf_each_off (&set->procs[i], add_off,
                                                  &m->off_ns);
      pf_cpu_add (&m->cpu, &set->procs[i].header);
    }
  rpt_samples (set, q->raw, !q->quiet, &m->by_samples, &m->samples,
               &m->samples_cpu_ns);
  return 0;
}

void
rpt_of_agg (struct agg *agg, const struct query *q, uint64_t total_run,
            struct rpt_model *m)
{
  memset (m, 0, sizeof *m);
  m->ndims = q->ndims;
  m->dims = q->dims;
  m->nsums = q->nsums;
  m->sums = q->sums;
  m->agg = agg;
  m->profiled_ns = agg_profiled_ns (agg);
  m->records = agg_records (agg);
  m->share = *agg_share (agg);
  m->total_ns = total_run < m->profiled_ns ? m->profiled_ns : total_run;
  struct groups g;
  group_buckets (&g, agg);
  m->top = table_of (&g, 0, 0, q->ndims, q->dims, false);
  free (g.first);
  free (g.count);
  free (g.kids);
}

void
rpt_free (struct rpt_model *m)
{
  table_free (m->top);
  if (m->agg)
    agg_free (m->agg);
  memset (m, 0, sizeof *m);
}

uint32_t
rpt_rows_shown (uint32_t nrows, long top)
{
  return top > 0 && (uint32_t) top < nrows ? (uint32_t) top : nrows;
}

uint32_t
rpt_shown (const struct rpt_table *t, long top)
{
  return rpt_rows_shown (t->nrows, top);
}

/* each_under: the walk of rpt_each_table (model.h).  */

RPT_TABLE_WALK (each_under, rpt_table, rpt_shown)

void
rpt_each_table (const struct rpt_model *m, int level, long top, const char **path,
                void (*fn) (const struct rpt_table *t, const char **path, void *arg),
                void *arg)
{
  if (m->top)
    each_under (m->top, level, top, path, fn, arg);
}
