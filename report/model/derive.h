/* derive.h - user-derived dimensions (docs/contract.md §5.4): a --derive
   library's dsprof_derive (dsprof-derive.h) computes dimensions of records.  */

#ifndef DSPROF_REPORT_DERIVE_H
#define DSPROF_REPORT_DERIVE_H

/* Load the --derive library PATH (a bare name is ./PATH) and hand its
   dsprof_derive to the aggregation (agg_set_derive).  Return 0, or EXIT_USAGE
   after a message.  */
int derive_load (const char *path);

#endif /* DSPROF_REPORT_DERIVE_H */
