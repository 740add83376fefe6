/* lcov.c - `dsprof export --format lcov` (docs/contract.md §5.8): an lcov
   tracefile of the line counts model (linecount.h), as annotate counts
   lines, with coverage.h's figures.  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "coverage.h"
#include "export.h"
#include "text.h"

/* The lcov record of source S: its functions, then its lines (DA: the largest
   count of the blocks on the line), then its branches (BRDA:LINE,0,NUMBER,
   TAKEN as geninfo writes gcov's, TAKEN `-` on a line that never ran).  */

static void
lcov_source (const struct lc_source *s, FILE *out)
{
  struct cov_row r = cov_source (s);
  fprintf (out, "TN:\nSF:%s\n", s->path);
  for (uint32_t k = 0; k < s->nfuncs; k++)
    fprintf (out, "FN:%u,%s\n", s->funcs[k].line, s->funcs[k].name);
  for (uint32_t k = 0; k < s->nfuncs; k++)
    fprintf (out, "FNDA:%" PRIu64 ",%s\n", s->funcs[k].count,
             s->funcs[k].name);
  fprintf (out, "FNF:%" PRIu64 "\nFNH:%" PRIu64 "\n", r.funcs.total,
           r.funcs.hit);
  for (uint32_t k = 0; k < s->nlines; k++)
    if (s->lines[k].line)
      fprintf (out, "DA:%u,%" PRIu64 "\n", s->lines[k].line,
               s->lines[k].count);
  uint32_t k = 0;
  for (uint32_t j = 0; j < s->nbranches; j++)
    {
      const struct lc_branch *b = &s->branches[j];
      while (k < s->nlines && s->lines[k].line < b->line)
        k++;
      if (k < s->nlines && s->lines[k].line == b->line && !s->lines[k].count)
        fprintf (out, "BRDA:%u,0,%u,-\n", b->line, b->number);
      else
        fprintf (out, "BRDA:%u,0,%u,%" PRIu64 "\n", b->line, b->number,
                 b->count);
    }
  if (s->nbranches)
    fprintf (out, "BRF:%" PRIu64 "\nBRH:%" PRIu64 "\n", r.br_taken.total,
             r.br_taken.hit);
  fprintf (out, "LF:%" PRIu64 "\nLH:%" PRIu64 "\nend_of_record\n",
           r.lines.total, r.lines.hit);
}

int
export_lcov (const struct export_input *in, FILE *out)
{
  struct lc_source **v = cov_sorted_sources (in->lines);
  for (size_t i = 0; i < in->lines->nsources; i++)
    lcov_source (v[i], out);
  free (v);
  return 0;
}
