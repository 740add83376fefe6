/* model.h - what the views of the dsprof command render, built once from the
   profiles and rendered many ways:

     rpt_model   the dimension report of docs/contract.md §5.3: rendered by
                 `dsprof report`'s text, CSV and JSON and by `dsprof html`'s
                 tables;
     cg_model    the call graph of §5.7 (callgraph.h, included here): rendered
                 by `dsprof callgraph` as gprof prints it and by `dsprof html`
                 as a table.

   The dimension report is the tree of buckets a query gives over a profile.

   A table holds the buckets of one dimension under one row of the table above
   it (the first table: under no row), every one of them, sorted as the report
   prints them: by Total, then Count, then value.  Cutting at --top is the
   views' business: a view shows the first `top` rows of each table and the
   tables under those rows only (rpt_each_table).

   Invariants: rows[i].sub is NULL exactly when the table's level is the last
   dimension's; a sub-table's level is its row's table's plus one; desc_ns =
   total_ns - self_ns (0 when a corrupt profile makes that negative).  */

#ifndef DSPROF_MODEL_H
#define DSPROF_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "aggregate.h"
#include "exit.h"
#include "profile.h"
#include "query.h"
#include "callgraph.h"

struct rpt_table;

struct rpt_row
{
  const char *value;             /* as shown (agg_bucket's value) */
  uint64_t total_ns, self_ns, desc_ns, count;
  uint64_t clamped;              /* records whose deduction was clamped */
  uint64_t self_samples;         /* timed by samples: the samples of Self */
  const struct agg_sum *sums;    /* one per --sum dimension (the bucket's) */
  struct rpt_table *sub;         /* by the next dimension; NULL at the last */
};

struct rpt_table
{
  int level;                     /* the dimension: dims[level] */
  uint32_t nrows;
  struct rpt_row *rows;
};

struct rpt_model
{
  int ndims;
  const char *const *dims;       /* the query's */
  int nsums;
  const char *const *sums;       /* the query's --sum dimensions */
  uint64_t total_ns;             /* the run time of the processes (>= profiled) */
  uint64_t profiled_ns;          /* the time of top-level records */
  uint64_t records;              /* records that pass the filters */
  struct agg_share share;        /* the recorder's cost in the run */
  uint32_t off_intervals;        /* in which events were switched off */
  uint64_t off_ns;               /* their time (docs/contract.md §5.11) */
  struct pf_cpu cpu;             /* the processes' CPU time and waits */
  bool by_samples;               /* records timed by their CPU-time samples */
  struct ev_stream_samples samples;  /* all of them, of every stream */
  uint64_t samples_cpu_ns;       /* the CPU time of the processes they cover,
                                    if every one recorded it; else 0 */
  struct rpt_table *top;         /* by dims[0] */
  struct agg *agg;               /* holds the values */
};

/* The report of Q over SET into *M (Q's top and format are not used).  Return
   0, or EXIT_DATA after a message; *M is then empty.  */
int rpt_build (struct pf_set *set, const struct query *q, struct rpt_model *m);

/* The model of the records AGG bucketed so far by Q, over a run of
   TOTAL_RUN ns, into *M (the tables; no intervals off).  *M holds AGG: the
   caller that keeps AGG takes it back (M->agg = NULL) before rpt_free.  */
void rpt_of_agg (struct agg *agg, const struct query *q, uint64_t total_run,
                 struct rpt_model *m);

void rpt_free (struct rpt_model *m);

/* Whether SET's records are timed by their CPU-time samples, unless RAW
   (agg_costs_of), into *BY_SAMPLES; the samples of all its streams
   (decoded already) into *ALL; the CPU time of its processes into *CPU_NS
   if every one recorded it (a normal exit), else 0.  With WARN, say on
   stderr when some of its processes are timed by samples and others not.  */
void rpt_samples (const struct pf_set *set, bool raw, bool warn,
                  bool *by_samples, struct ev_stream_samples *all,
                  uint64_t *cpu_ns);

/* The number of rows of a table of NROWS rows a view shows with TOP (0:
   all): rpt_shown's and diff_shown's.  */
uint32_t rpt_rows_shown (uint32_t nrows, long top);

/* The number of rows of T a view shows with TOP (0: all).  */
uint32_t rpt_shown (const struct rpt_table *t, long top);

/* Call FN for each table of dimension LEVEL that a view shows with TOP, in the
   order the report prints them, with PATH[0 .. LEVEL) the values of the rows
   above it.  PATH holds M->ndims entries.  */
void rpt_each_table (const struct rpt_model *m, int level, long top,
                     const char **path,
                     void (*fn) (const struct rpt_table *t, const char **path,
                                 void *arg),
                     void *arg);

/* Define NAME (T), which frees table T of type struct TABLE (rpt_table,
   diff_table), its rows and the tables under them (T may be NULL).  */
#define RPT_TABLE_FREE(NAME, TABLE)                                            \
  static void                                                                  \
  NAME (struct TABLE *t)                                                       \
  {                                                                            \
    if (!t)                                                                    \
      return;                                                                  \
    for (uint32_t i = 0; i < t->nrows; i++)                                    \
      NAME (t->rows[i].sub);                                                   \
    free (t->rows);                                                            \
    free (t);                                                                  \
  }

/* Define NAME (T, LEVEL, TOP, PATH, FN, ARG), the walk of rpt_each_table
   under table T, for tables of type struct TABLE (rpt_table, diff_table:
   LEVEL, NROWS and ROWS, each row with its VALUE and SUB table) whose rows
   shown are SHOWN (T, TOP): one walk for the report's tables and the diff's.  */
#define RPT_TABLE_WALK(NAME, TABLE, SHOWN)                                     \
  static void                                                                  \
  NAME (const struct TABLE *t, int level, long top, const char **path,         \
        void (*fn) (const struct TABLE *, const char **, void *), void *arg)   \
  {                                                                            \
    if (t->level == level)                                                     \
      {                                                                        \
        fn (t, path, arg);                                                     \
        return;                                                                \
      }                                                                        \
    uint32_t k = SHOWN (t, top);                                               \
    for (uint32_t i = 0; i < k; i++)                                           \
      if (t->rows[i].sub)                                                      \
        {                                                                      \
          path[t->level] = t->rows[i].value;                                   \
          NAME (t->rows[i].sub, level, top, path, fn, arg);                    \
        }                                                                      \
  }

#endif /* DSPROF_MODEL_H */
