/* cmd.h - what the dsprof commands share: option parsing, loading profiles,
   filters, output files, and the exit codes of docs/contract.md §5:
     0 success, 1 usage error, 2 unreadable or corrupt input (or unwritable
     output), always with a message naming the file and the problem.  */

#ifndef DSPROF_CMD_H
#define DSPROF_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate.h"
#include "files.h"
#include "profile.h"
#include "text.h"

enum { EXIT_USAGE = 1, EXIT_DATA = 2 };

/* One command: NAME, a one-line summary, its entry point, its --help text.  */
struct command
{
  const char *name;
  const char *summary;
  int (*run) (int argc, char **argv);
  const char *help;
};

/* Print "dsprof COMMAND: message" and a hint to --help; return EXIT_USAGE.  */
int usage_error (const char *cmd, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* The usage error for getopt_long's return C (with ':' first in its option
   string): "option '--X' needs an argument" for ':', else "unknown option".  */
int option_error (const char *cmd, int c, char **argv);

/* Whether ARG of report's (or html's --dims) is a profile rather than a
   dimension: it names an existing file, holds a '/' or a ".data".  */
bool looks_like_profile (const char *arg);

/* Print the help of COMMAND to stdout; return 0.  */
int print_help (const struct command *c);

/* Load the profiles named in ARGV[0 .. ARGC) (./dsprof.data if none) into SET.
   Return 0, or EXIT_DATA after the messages.  */
int load_profiles (int argc, char **argv, struct pf_set *set);

/* Parse "DIM=VALUE" or "DIM!=VALUE" into F; false if malformed.  */
bool parse_filter (char *arg, struct agg_filter *f);

/* Whether NAME can name a dimension: an outer:D must name a D.  */
static inline bool
dim_name_ok (const char *name)
{
  const char *outer = agg_outer_dim (name);
  return !outer || outer[0];
}

/* Check the dimension NAME a user gave COMMAND: an outer:D must name a D.
   Return 0, or EXIT_USAGE after the message.  */
int check_dim (const char *cmd, const char *name);

/* The options shared by the record-based commands.  */
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
  const char *format;            /* text, csv, json */
  bool raw;
  const char *derive;            /* LIB.so or NULL */
  bool quiet;                    /* rpt_build leaves the notes of dimensions no
                                    record carries to its caller */
};

/* Q with the defaults and room for the filters and --sums of ARGC
   arguments; query_free_filters frees them.  */
void query_init (struct query *q, int argc);
void query_free_filters (struct query *q);

struct option;

/* A command that takes report's options (--where, --unit, --top, --format,
   --raw, --derive, --sum) and options of its own: LONGOPTS (ending in a zero
   entry; their vals distinct from report's w u t f r d s p h) and SHORTOPTS,
   each handed to OPTION (return 0 or EXIT_USAGE after a message); its
   operands are handed to OPERAND in order, DASHDASH true after `--`.  */
struct query_cmd
{
  const char *name;
  const struct option *longopts;
  const char *shortopts;
  int (*option) (int c, char *optarg, void *arg);
  int (*operand) (char *operand, bool dashdash, void *arg);
  void *arg;
};

/* Parse ARGV[1 .. ARGC) of command X into Q: options anywhere before `--`.
   Return 0, or EXIT_USAGE after the message; *HELP for --help.  */
int query_parse (const struct query_cmd *x, int argc, char **argv, struct query *q,
                 bool *help);

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

/* Run the dimension report of Q over SET to OUT.  Return 0 or EXIT_DATA.  */
int run_report (struct pf_set *set, const struct query *q, FILE *out);

/* Print `DIM COUNT` for every dimension of the records of SET that pass Q's
   filters.  Return 0 or EXIT_DATA.  */
int print_dims (struct pf_set *set, const struct query *q, FILE *out);

/* Load a --derive library; return 0 or EXIT_USAGE after a message.  */
int derive_load (const char *path);

extern const struct command cmd_lines, cmd_annotate, cmd_info, cmd_records,
  cmd_trace, cmd_report, cmd_dims, cmd_shell, cmd_summary;
extern const struct command cmd_html;
extern const struct command cmd_callgraph, cmd_dot, cmd_export, cmd_merge;
extern const struct command cmd_diff, cmd_top, cmd_ctl;

#endif /* DSPROF_CMD_H */
