/* page.h - the models `dsprof html` renders (render/html-page.c), built
   before the page is written, in the order its views show them, and up to
   the first that cannot be built (the page then stops at the first view
   that lacks its model):

     tree      the record tree of the icicle graph (recordtree.h)
     lines     the line counts (linecount.h): the hottest lines, coverage and
               source views; not with --diff
     ops       the op records by name, as `dsprof report name --where
               event=op` reports them (model.h); with records, not with --diff
     changed   with --diff, the changed lines (diff.h)
     report    the dimension report of the query (model.h), with --diff the
               diff model (diff.h)
     cg        the call graph by the query's first dimension (callgraph.h)

   A profile without records (block counts only) has no report nor call
   graph view: neither is built.  */

#ifndef DSPROF_PAGE_H
#define DSPROF_PAGE_H

#include <stdint.h>

#include "aggregate.h"
#include "exit.h"
#include "files.h"
#include "profile.h"
#include "query.h"
#include "text.h"
#include "callgraph.h"
#include "diff.h"
#include "linecount.h"
#include "model.h"
#include "recordtree.h"

/* The models, as bits of page_models.built.  */
enum
{
  PM_TREE = 1, PM_LINES = 2, PM_OPS = 4, PM_CHANGED = 8, PM_REPORT = 16,
  PM_CG = 32
};

struct page_models
{
  struct rtree tree;
  struct lc_model lines;
  struct rpt_model ops;
  struct diff_lines changed;
  struct rpt_model report;       /* without --diff */
  struct diff_model diff;        /* with --diff, instead of REPORT */
  struct cg_model cg;
  unsigned built;                /* the PM_ bits of those built */
};

/* The models of SET (with --diff compared with BASE, else BASE NULL) for query
   Q, the record tree one node per record up to MAX_RECORDS records, into *M.
   Return 0, or EXIT_DATA at the first that cannot be built; free M with
   page_free either way.  */
int page_build (struct pf_set *set, struct pf_set *base, const struct query *q,
                uint64_t max_records, struct page_models *m);

void page_free (struct page_models *m);

#endif /* DSPROF_PAGE_H */
