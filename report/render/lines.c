/* lines.c - the line listings of `dsprof lines` (docs/contract.md §5.1):
   the line counts model's blocks (linecount.h) as FILE:LINE: COUNT, or the op
   records by their label's line (oplines.h).  */

#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "lines.h"
#include "text.h"

/* The blocks of M in the order `dsprof lines` prints them: by file as given,
   line, then block (the order of the model).  */

static int
cmp_block (const void *a, const void *b)
{
  const struct lc_block *x = *(const struct lc_block *const *) a;
  const struct lc_block *y = *(const struct lc_block *const *) b;
  int c = strcmp (x->given, y->given);
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return x < y ? -1 : x > y;
}

void
lc_print_lines (const struct lc_model *m, FILE *out)
{
  const struct lc_block **v = XNEWVEC (const struct lc_block *, m->nblocks + 1);
  for (size_t i = 0; i < m->nblocks; i++)
    v[i] = &m->blocks[i];
  if (m->nblocks > 1)
    qsort (v, m->nblocks, sizeof *v, cmp_block);
  for (size_t i = 0; i < m->nblocks; i++)
    fprintf (out, "%s:%u: %llu\n", text_shown (v[i]->given), v[i]->line,
             (unsigned long long) v[i]->count);
  free (v);
}

/* `dsprof lines --ops': FILE:LINE: COUNT NAME for each opcode's label.  */

void
op_lines_print (const struct op_lines *ops, FILE *out)
{
  for (size_t i = 0; i < ops->n; i++)
    fprintf (out, "%s:%u: %llu %s\n", text_shown (ops->v[i].file), ops->v[i].line,
             (unsigned long long) ops->v[i].count, ops->v[i].name);
}
