/* html.h - `dsprof html`'s page (docs/contract.md §5.8): html_page writes it
   from page.h's models (html-page.c, which tells the page); what its files
   share: the views of html-tables.c (the dimension tables, the opcodes, the
   call graph), html-icicle.c (the record tree) and html-source.c (the
   hottest or changed lines, the coverage summary, the source view).  */

#ifndef DSPROF_HTML_H
#define DSPROF_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "coverage.h"
#include "page.h"

/* The page of SET (with --diff compared with BASE, else BASE NULL) for query
   Q, its NLINES hottest lines, the record tree one box per record up to
   MAX_RECORDS: M's views, up to the first whose models M lacks.  */
void html_page (FILE *out, struct pf_set *set, struct pf_set *base,
                const struct query *q, long nlines, uint64_t max_records,
                const struct page_models *m);

/* PART as a percentage of WHOLE (0 when WHOLE is).  */
static inline double
pct (uint64_t part, uint64_t whole)
{
  return whole ? 100.0 * (double) part / (double) whole : 0.0;
}

/* html-tables.c: the report M of Q as tables; with --diff the diff model's;
   the op records by name OPS; their pairs and sequences S, out of OPS op
   records; the call graph M.  */
void html_tables (FILE *out, const struct rpt_model *m, const struct query *q);
void html_diff_tables (FILE *out, const struct diff_model *m,
                       const struct query *q);
void html_opcodes (FILE *out, const struct rpt_model *ops, const struct query *q);
void html_pairs (FILE *out, const struct page_seqs *s, uint64_t ops,
                 const struct query *q);
void html_callgraph (FILE *out, const struct cg_model *m);

/* html-icicle.c: the icicle graph of T (built with MAX_RECORDS).  */
void html_flame (FILE *out, const struct rtree *t, uint64_t max_records);

/* html-source.c: the NLINES hottest lines of M; with --diff the changed
   lines L; the coverage summary of M and the source view.  */
void html_lines (FILE *out, const struct lc_model *m, long nlines);
void html_changed_lines (FILE *out, const struct diff_lines *l, long nlines);
void html_coverage (FILE *out, const struct lc_model *m);
void html_sources (FILE *out, const struct lc_model *m);

/* The coverage of M's sources in total; *RAN those that ran.  */
struct cov_row coverage_total (const struct lc_model *m, size_t *ran);

#endif /* DSPROF_HTML_H */
