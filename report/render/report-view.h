/* report-view.h - the dimension report (docs/contract.md §5.3) written from
   its model: text tables, CSV, JSON; formats.h picks one.  */

#ifndef DSPROF_REPORT_VIEW_H
#define DSPROF_REPORT_VIEW_H

#include <stdio.h>

#include "model.h"
#include "query.h"
#include "text.h"

struct notes;

/* What a renderer of the report is handed: the query, the model, the unit of
   its times, the footnotes of its text tables, where to write.  */
struct rpt_printer
{
  const struct query *q;
  const struct rpt_model *m;
  const struct text_unit *unit;
  struct notes *notes;
  FILE *out;
};

void rpt_print_text (struct rpt_printer *p);
void rpt_print_csv (struct rpt_printer *p);
void rpt_print_json (struct rpt_printer *p);

#endif /* DSPROF_REPORT_VIEW_H */
