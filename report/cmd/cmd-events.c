/* cmd-events.c - the commands over event records: `dsprof records` and
   `dsprof trace` (docs/contract.md §5.6), `dsprof dims` (§5.3): their
   options and the choice of renderer (listing.h; dims counts dimcount.h's
   model).  */

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "cmd.h"
#include "dimcount.h"
#include "listing.h"

/* Options of records, trace and dims: --where, --help.  */

static int
parse_where_opts (const struct command *cmd, int argc, char **argv,
                  struct query *q, bool *help)
{
  static const struct option longopts[] = {
    { "where", required_argument, NULL, 'w' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  memset (q, 0, sizeof *q);
  q->filters = XCNEWVEC (struct agg_filter, argc + 1);
  *help = false;
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long (argc, argv, ":w:h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'w':
        if (!parse_filter (optarg, &q->filters[q->nfilters++]))
          return usage_error (cmd->name, "--where wants DIM=VALUE or DIM!=VALUE, "
                              "not '%s'", optarg);
        if (check_dim (cmd->name, q->filters[q->nfilters - 1].dim))
          return EXIT_USAGE;
        break;
      case 'h':
        *help = true;
        return print_help (cmd);
      default:
        return option_error (cmd->name, c, argv);
      }
  return 0;
}

static void
free_filters (struct query *q)
{
  for (int i = 0; i < q->nfilters; i++)
    free ((char *) q->filters[i].dim);
  free (q->filters);
}

/* ---- dsprof records ------------------------------------------------------------ */

static int
run_records (int argc, char **argv)
{
  struct query q;
  bool help;
  int rc = parse_where_opts (&cmd_records, argc, argv, &q, &help);
  struct pf_set set;
  if (!rc && !help && !(rc = load_profiles (argc - optind, argv + optind, &set)))
    {
      rc = records_print (&set, &q, stdout);
      pf_free (&set);
      if (!rc)
        rc = close_output ("records", NULL, stdout);
    }
  free_filters (&q);
  return rc;
}

const struct command cmd_records = {
  "records", "profile records, one per line", run_records,
  "usage: dsprof records [--where DIM=VALUE|DIM!=VALUE]... [PROFILE...]\n\n"
  "Print one line per profile record (a Start/Finish pair), innermost first:\n"
  "  #N DURATIONns dim=value ... [-> #a #b ...]\n"
  "N numbers every record in completion order (filtered output has gaps);\n"
  "the dimensions are Start's (event, name, file, line, thread, parameters),\n"
  "result, those added during the event, and complete; `-> #a #b` names the\n"
  "direct descendants.  A value that is empty or holds blanks, quotes, `=`,\n"
  "`\\` or control characters is quoted with C escapes.\n\n"
  "  --where DIM=VALUE    only records whose DIM is VALUE (repeatable; all hold)\n"
  "  --where DIM!=VALUE   only records whose DIM is not VALUE\n"
};

/* ---- dsprof trace -------------------------------------------------------------- */

static int
run_trace (int argc, char **argv)
{
  struct query q;
  bool help;
  int rc = parse_where_opts (&cmd_trace, argc, argv, &q, &help);
  struct pf_set set;
  if (!rc && !help && !(rc = load_profiles (argc - optind, argv + optind, &set)))
    {
      rc = trace_print (&set, &q, stdout);
      pf_free (&set);
      if (!rc)
        rc = close_output ("trace", NULL, stdout);
    }
  free_filters (&q);
  return rc;
}

const struct command cmd_trace = {
  "trace", "the event stream, one Start or Finish per line", run_trace,
  "usage: dsprof trace [--where DIM=VALUE|DIM!=VALUE]... [PROFILE...]\n\n"
  "Print every event of every thread, in each thread's order:\n"
  "  TIMEns tTHREAD Start dim=value ...\n"
  "  TIMEns tTHREAD Finish event=T name=N [result=R] [added dims] complete=true\n"
  "`Abandon` instead of `Finish` marks an event closed by repair (longjmp,\n"
  "thread or process end, mismatched finish).  TIME is nanoseconds since the\n"
  "process started.  --where tests the event's dimensions so far (Start's, and\n"
  "at Finish the added ones too).\n\n"
  "  --where DIM=VALUE    only events whose DIM is VALUE (repeatable)\n"
  "  --where DIM!=VALUE   only events whose DIM is not VALUE\n"
};

/* ---- dsprof dims --------------------------------------------------------------- */

/* The dims model of SET and Q (dimcount.h), printed.  */

int
print_dims (struct pf_set *set, const struct query *q, FILE *out)
{
  struct dim_counts d;
  int rc = dims_count (set, q, &d);
  if (!rc)
    dims_print (&d, out);
  dims_free (&d);
  return rc;
}

static int
run_dims (int argc, char **argv)
{
  struct query q;
  bool help;
  int rc = parse_where_opts (&cmd_dims, argc, argv, &q, &help);
  struct pf_set set;
  if (!rc && !help && !(rc = load_profiles (argc - optind, argv + optind, &set)))
    {
      rc = print_dims (&set, &q, stdout);
      if (!rc)
        rc = close_output ("dims", NULL, stdout);
      pf_free (&set);
    }
  free_filters (&q);
  return rc;
}

const struct command cmd_dims = {
  "dims", "the dimensions present, with record counts", run_dims,
  "usage: dsprof dims [--where DIM=VALUE|DIM!=VALUE]... [PROFILE...]\n\n"
  "List every dimension the records carry, recorded or derived (depth, parent,\n"
  "location, depends-on, children, site), as `DIM COUNT` (the number of\n"
  "records with a value for it), most common first.\n\n"
  "  --where DIM=VALUE    count only the records whose DIM is VALUE\n"
  "  --where DIM!=VALUE   ... whose DIM is not VALUE\n"
};
