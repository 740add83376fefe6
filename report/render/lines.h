/* lines.h - the renderings of the line counts model (linecount.h) but html's
   and the exports' (export.h): `dsprof lines` (lines.c), `dsprof annotate`'s
   listings (annotate.c), `dsprof summary` (summary.c).  */

#ifndef DSPROF_LINES_H
#define DSPROF_LINES_H

#include <stdbool.h>
#include <stdio.h>

#include "linecount.h"
#include "oplines.h"

/* The blocks of M, FILE:LINE: COUNT, ordered by file as given, line, then
   block.  */
void lc_print_lines (const struct lc_model *m, FILE *out);

/* `dsprof lines --ops': FILE:LINE: COUNT NAME for each opcode's label.  */
void op_lines_print (const struct op_lines *ops, FILE *out);

/* Write the listings of M's sources selected by SEL[0 .. NSEL) under DIR
   (NULL: beside them), BASE's counts beside them (NULL: none), the op
   records OPS on their lines (NULL: none), their branches if BRANCHES.
   Return 0 or EXIT_DATA.  */
int annotate_write (const struct lc_model *m, const struct lc_model *base,
                    const struct op_lines *ops, const char *dir, int nsel,
                    char **sel, bool branches);

/* The summary of M as a table, as CSV, as JSON.  */
void summary_text (const struct lc_model *m, FILE *out);
void summary_csv (const struct lc_model *m, FILE *out);
void summary_json (const struct lc_model *m, FILE *out);

#endif /* DSPROF_LINES_H */
