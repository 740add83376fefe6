/* cmd.h - what the dsprof commands share: the command table's entry, loading
   profiles, the query's options; the exit codes are exit.h's, the option
   parser opt.h's.  */

#ifndef DSPROF_CMD_H
#define DSPROF_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "aggregate.h"
#include "derive.h"
#include "exit.h"
#include "files.h"
#include "formats.h"
#include "opt.h"
#include "profile.h"
#include "query.h"
#include "tables.h"
#include "text.h"

/* One command: a one-line summary, its entry point, its name, options and
   --help (opt.h).  */
struct command
{
  const char *summary;
  int (*run) (int argc, char **argv);
  struct opt_cmd cli;
};

/* Print the help of COMMAND to stdout; return 0.  */
int print_help (const struct command *c);

/* Load the profiles named in ARGV[0 .. ARGC) (./dsprof.data if none) into SET.
   Return 0, or EXIT_DATA after the messages.  */
int load_profiles (int argc, char **argv, struct pf_set *set);

/* --where in the option table of a command whose options hold the struct
   query at offset QOFF, its help TEXT.  */
#define WHERE_OPT(qoff, text)                                                 \
  { .name = "where", .letter = 'w', .arg = "DIM=VALUE", .help = (text),       \
    .kind = OPT_FUNC, .off = (qoff), .set = query_set_where }

/* --deduced, of every command that times records (docs/contract.md
   §4.4, "Sampled times").  */
#define DEDUCED_OPT                                                           \
  { .name = "deduced",                                                        \
    .help = "in a profile with CPU-time samples (DSPROF_SAMPLE), time\n"      \
            "records by their spans less the recorder's cost instead",       \
    .kind = OPT_FUNC, .set = query_set_deduced }

/* The options of the query (query.h), report's, shell's and diff's, in the
   option table of a command whose options hold the struct query at offset
   QOFF: --where, --unit, --top, --format, --raw, --derive, --sum.  */
#define QUERY_OPTS(qoff)                                                      \
  WHERE_OPT (qoff, "only records whose DIM is VALUE; DIM!=VALUE: whose DIM\n" \
                   "is not VALUE (repeatable; all hold)"),                    \
  { .name = "unit", .letter = 'u', .arg = "ns|us|ms|s",                       \
    .help = "time unit (default: one that suits the largest figure)",         \
    .kind = OPT_FUNC, .off = (qoff), .set = query_set_unit },                 \
  { .name = "top", .letter = 't', .arg = "N",                                 \
    .help = "at most N rows per table",                                       \
    .kind = OPT_FUNC, .off = (qoff), .set = query_set_top },                  \
  { .name = "format", .letter = 'f', .arg_text = format_names,                \
    .help = "the output format (default text)",                               \
    .kind = OPT_FUNC, .off = (qoff) + offsetof (struct query, format),        \
    .set = format_set },                                                      \
  { .name = "raw",                                                            \
    .help = "times as recorded, without deducting the recorder's\n"           \
            "measured cost per event",                                        \
    .kind = OPT_FLAG, .off = (qoff) + offsetof (struct query, raw) },         \
  DEDUCED_OPT,                                                                \
  { .name = "derive", .arg = "LIB.so",                                        \
    .help = "dimensions computed by a library (dsprof-derive.h)",             \
    .kind = OPT_STRING, .off = (qoff) + offsetof (struct query, derive) },    \
  { .name = "sum", .letter = 's', .arg = "D",                                 \
    .help = "a column Sum(D): the sum of D over each row's records,\n"        \
            "of those whose D is a number (an integer, a double, a\n"         \
            "bool as 0 or 1); repeatable, one column each",                   \
    .kind = OPT_FUNC, .off = (qoff), .set = query_set_sum },                  \
  /* Taken and not used (it never was); unlisted.  */                         \
  { .name = "profile", .letter = 'p', .arg = "P", .kind = OPT_IGNORED }

/* Run the dimension report of Q over SET to OUT.  Return 0 or EXIT_DATA.  */
int run_report (struct pf_set *set, const struct query *q, FILE *out);

/* Print `DIM COUNT` for every dimension of the records of SET that pass Q's
   filters.  Return 0 or EXIT_DATA.  */
int print_dims (struct pf_set *set, const struct query *q, FILE *out);


extern const struct command cmd_lines, cmd_annotate, cmd_info, cmd_records,
  cmd_trace, cmd_report, cmd_dims, cmd_shell, cmd_summary;
extern const struct command cmd_html;
extern const struct command cmd_callgraph, cmd_dot, cmd_export, cmd_merge;
extern const struct command cmd_diff, cmd_top, cmd_ctl;

#endif /* DSPROF_CMD_H */
