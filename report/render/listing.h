/* listing.h - the text listings over event records (listing.c).  */

#ifndef DSPROF_LISTING_H
#define DSPROF_LISTING_H

#include <stdio.h>

#include "aggregate.h"
#include "exit.h"
#include "files.h"
#include "profile.h"
#include "query.h"
#include "text.h"
#include "dimcount.h"

/* `dsprof records`: a line per record of SET that passes Q's filters, to
   OUT; say if no record carries a --where dimension.  Return 0 or
   EXIT_DATA.  */
int records_print (struct pf_set *set, const struct query *q, FILE *out);

/* `dsprof trace`: a line per event of SET that passes Q's filters, then the
   switches `dsprof ctl` logged, to OUT.  Return 0 or EXIT_DATA.  */
int trace_print (struct pf_set *set, const struct query *q, FILE *out);

/* `dsprof dims`: `DIM COUNT` for each of D.  */
void dims_print (const struct dim_counts *d, FILE *out);

#endif /* DSPROF_LISTING_H */
