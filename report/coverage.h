/* coverage.h - the coverage of a line counts model (linecount.h) as `dsprof
   summary` and the lcov export count it (cmd-lines.c): lines, blocks,
   functions and branches executed out of instrumented, per source and in
   total.  `dsprof html` shows the same figures.  */

#ifndef DSPROF_COVERAGE_H
#define DSPROF_COVERAGE_H

#include <stddef.h>
#include <stdint.h>

#include "linecount.h"

struct cov
{
  uint64_t hit, total;
};

struct cov_row
{
  struct cov lines, blocks, funcs, br_exec, br_taken;
};

/* TO += R, figure by figure.  */
void cov_add (struct cov_row *to, const struct cov_row *r);

/* Source S's row: its lines, its functions and their blocks, its branches.  */
struct cov_row cov_source (const struct lc_source *s);

/* C as "HIT/TOTAL PCT%" into BUF ("-" when nothing is instrumented), the
   percentage as lcov rounds it.  Return BUF.  */
const char *cov_text (char *buf, size_t size, struct cov c);

/* M's sources by path, in a new array to free.  */
struct lc_source **sorted_sources (const struct lc_model *m);

#endif /* DSPROF_COVERAGE_H */
