/* tables.h - what the text tables of `dsprof report` and `dsprof diff` share
   (docs/contract.md §5.3): footnotes for long values, table titles, and the
   --sum figures of JSON rows.  */

#ifndef DSPROF_TABLES_H
#define DSPROF_TABLES_H

#include <stdio.h>

#include "aggregate.h"

/* Values too long (over 25 characters) or multi-line for a table, shown as
   numbered footnotes "[n]" (docs/contract.md §5.3).  */
struct notes;
struct notes *notes_new (void);

/* VALUE as a table shows it: itself, or "[n]" in BUF (16 bytes at least).  */
const char *notes_shown (struct notes *ns, const char *value, char *buf);

/* The footnotes, "[n] value" each after a blank line; nothing if none.  */
void notes_print (const struct notes *ns, FILE *out);
void notes_free (struct notes *ns);

/* A table's title without its colon: "\nBy DIM" or "\nBy DIM for v1, v2 and
   v3", PATH[0 .. LEVEL) the values of the rows above it (as NS shows them).  */
void table_title (FILE *out, struct notes *ns, const char *dim, int level,
                  const char **path);

/* The NSUMS --sum figures SUMS of a row as JSON: `,"sums":[N...]` (null for
   one that is not a finite number); nothing when NSUMS is 0.  */
void json_sums (FILE *out, const struct agg_sum *sums, int nsums);

#endif /* DSPROF_TABLES_H */
