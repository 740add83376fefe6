/* diff-view.h - `dsprof diff` (docs/contract.md §5.9) written from its model:
   text, CSV or JSON (formats.h picks one), and the changed lines.  */

#ifndef DSPROF_DIFF_VIEW_H
#define DSPROF_DIFF_VIEW_H

#include <stdio.h>

#include "diff.h"
#include "query.h"
#include "text.h"

struct notes;

/* What a renderer of the diff is handed: the query, the model, the unit of
   its times, the footnotes of its text tables, where to write, the two
   sides' profiles (named in JSON).  */
struct diff_printer
{
  const struct query *q;
  const struct diff_model *m;
  const struct text_unit *unit;
  struct notes *notes;
  FILE *out;
  const struct pf_set *base, *new;
};

void diff_print_text (struct diff_printer *p);
void diff_print_csv (struct diff_printer *p);
void diff_print_json (struct diff_printer *p);

/* FILE:LINE: BASE -> NEW (CHANGE[, PCT%]) for each changed line of L, at most
   TOP (0: all).  */
void diff_print_lines (const struct diff_lines *l, long top, FILE *out);

#endif /* DSPROF_DIFF_VIEW_H */
