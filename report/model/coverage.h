/* coverage.h - coverage figures of the line counts model (linecount.h), by
   lcov's rules, shared by `dsprof export --format lcov`, `dsprof export
   --format cobertura` and `dsprof summary`, so that their totals agree.

   Executed out of instrumented: lines are the by line entries but line 0 (lcov's
   DA), executed if their count is > 0; functions executed if their entry count
   is (FNDA); blocks each counted block of a function, executed if it ran;
   branches (BRDA) executed if their block ran (gcov -f's "Branches
   executed"), taken if their count is > 0 (its "Taken at least once", lcov's
   branch hits, Cobertura's covered branches).  */

#ifndef DSPROF_COVERAGE_H
#define DSPROF_COVERAGE_H

#include <stddef.h>

#include "linecount.h"

struct cov
{
  uint64_t hit, total;
};

struct cov_row
{
  struct cov lines, blocks, funcs, br_exec, br_taken;
};

/* Add R's figures to TO's.  */
void cov_add (struct cov_row *to, const struct cov_row *r);

/* The lines of V (N of them): line 0 is not one.  */
struct cov cov_lines (const struct lc_line *v, uint32_t n);

/* Function F's row: its lines, blocks, entry and branches.  */
struct cov_row cov_func (const struct lc_func *f);

/* Source S's row: its lines, its functions and their blocks, its branches
   (each line and branch of S once, not the sum of its functions').  */
struct cov_row cov_source (const struct lc_source *s);

/* M's sources by path, in a new array to free (a profile without blocks has
   none).  */
struct lc_source **cov_sorted_sources (const struct lc_model *m);

/* C as "HIT/TOTAL PCT%" into BUF ("-" when nothing is instrumented), the
   percentage with one decimal as lcov rounds it.  Return BUF.  */
const char *cov_text (char *buf, size_t size, struct cov c);

#endif /* DSPROF_COVERAGE_H */
