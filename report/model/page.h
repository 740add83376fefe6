/* page.h - the models `dsprof html` renders (render/html-page.c), built
   before the page is written, in the order its views show them, and up to
   the first that cannot be built (the page then stops at the first view
   that lacks its model):

     tree      the record tree of the icicle graph (recordtree.h)
     lines     the line counts (linecount.h): the hottest lines, coverage and
               source views; not with --diff
     ops       the op records by name, as `dsprof report name --where
               event=op` reports them (model.h); with records, not with --diff
     seqs      with op records, the pairs of opcodes one after the other in a
               call of the dispatch function, `dsprof report prev:name name
               --where event=op` (docs/vm.md), and the sequences of 3 and 4
               of `seq3:name` and `seq4:name` (page_seqs)
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
  PM_CG = 32, PM_SEQS = 64
};

/* A row of the opcode pairs or of a table of sequences: VALUE (a pair's
   opcode after, a sequence's seqN:name value) after PREV (a pair's opcode
   before; NULL in a sequence), COUNT times.  */
struct page_seq
{
  const char *prev, *value;      /* REPORT's values */
  uint64_t count;
};

/* The opcode pairs and sequences: REPORT is `dsprof report prev:name name
   seq3:name seq4:name --where event=op` (one pass over the records: a seqN
   value determines the values above it), its rows of dimension K + 1
   flattened into ROWS[K] (NROWS[K] of them): the pairs of prev:name and
   name, then the sequences of 3 and 4, each most frequent first (then by
   PREV and VALUE), without the rows of the empty value.  NONE[K]: the op
   records that have no row in ROWS[K], those that begin their call (no
   prev:name) or lie too near its beginning for a sequence.  */
struct page_seqs
{
  struct rpt_model report;
  struct page_seq *rows[3];
  uint32_t nrows[3];
  uint64_t none[3];
};

struct page_models
{
  struct rtree tree;
  struct lc_model lines;
  struct rpt_model ops;
  struct page_seqs seqs;         /* PM_SEQS: built when OPS has records */
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
