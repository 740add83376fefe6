/* query.h - what a record-based view is asked: its dimensions, --where
   filters, --sum dimensions, unit, --top, format and --raw (docs/contract.md
   §5.3), and the setters of the options that give them (opt.h).  */

#ifndef DSPROF_QUERY_H
#define DSPROF_QUERY_H

#include <stdbool.h>

#include "aggregate.h"
#include "opt.h"

struct query
{
  int ndims;
  const char **dims;
  int nfilters;
  struct agg_filter *filters;
  int nsums;
  const char **sums;             /* --sum dimensions */
  const char *unit;              /* NULL: automatic */
  long top;                      /* 0: all */
  const char *format;            /* an output format's name (formats.h) */
  bool raw;
  const char *derive;            /* LIB.so or NULL */
  bool quiet;                    /* rpt_build leaves the notes of dimensions no
                                    record carries to its caller */
};

/* Q with the defaults and room for the filters and --sums of ARGC
   arguments; query_free_filters frees them.  */
void query_init (struct query *q, int argc);
void query_free_filters (struct query *q);

/* Parse "DIM=VALUE" or "DIM!=VALUE" into F; false if malformed.  */
bool parse_filter (char *arg, struct agg_filter *f);

/* Whether NAME can name a dimension: a prefix of a derived one (outer:D,
   prev:D) must name a D it takes (agg_dim_usage).  */
static inline bool
dim_name_ok (const char *name)
{
  return !agg_dim_usage (name);
}

/* Check the dimension NAME a user gave command CMD (dim_name_ok).  Return 0,
   or EXIT_USAGE after the message: "outer:D wants a dimension D, not
   'outer:'".  */
int check_dim (const char *cmd, const char *name);

/* Whether ARG of report's (or html's --dims) is a profile rather than a
   dimension: it names an existing file, holds a '/' or a ".data".  */
bool looks_like_profile (const char *arg);

/* Check ARG of option OPT of command CMD (--dim, --dims), a dimension: not
   empty, not a profile (looks_like_profile), an outer:D naming a D.  Return
   0, or EXIT_USAGE after the message.  */
int check_dim_option (const char *cmd, const char *opt, const char *arg);

/* The setters (struct opt's SET) of the query's options: ARG of command CMD
   into the struct query Q.  Return 0, or EXIT_USAGE after the message.  */
int query_set_where (const char *cmd, char *arg, void *q);
int query_set_unit (const char *cmd, char *arg, void *q);
int query_set_top (const char *cmd, char *arg, void *q);
int query_set_sum (const char *cmd, char *arg, void *q);
/* --deduced, of every command that times records (DEDUCED_OPT):
   agg_costs_deduced.  */
int query_set_deduced (const char *cmd, char *arg, void *unused);

#endif /* DSPROF_QUERY_H */
