/* formats.h - the output formats of the commands (docs/contract.md §5): one
   table, each format's name, the commands that accept it and its renderers.
   It drives --format: its parsing and check, the help's list, and which
   renderer writes.  (export's formats are export's own table.)  */

#ifndef DSPROF_FORMATS_H
#define DSPROF_FORMATS_H

#include <stdbool.h>
#include <stdio.h>

#include "diff-view.h"
#include "report-view.h"

struct lc_model;

struct out_format
{
  const char *name;
  const char *commands;          /* those that accept it, by name, ' ' apart */
  void (*report) (struct rpt_printer *p);   /* report, shell */
  void (*diff) (struct diff_printer *p);    /* diff */
  void (*summary) (const struct lc_model *m, FILE *out);   /* summary */
};

/* The format NAME if command CMD accepts it, else NULL.  */
const struct out_format *format_find (const char *cmd, const char *name);

/* The names of the formats of command CMD: "text|csv|json" (static).  */
const char *format_names (const char *cmd);

/* --format's setter (opt.h): ARG, a format of CMD, into the const char * at
   FIELD; 0, or EXIT_USAGE after the message.  */
int format_set (const char *cmd, char *arg, void *field);

#endif /* DSPROF_FORMATS_H */
