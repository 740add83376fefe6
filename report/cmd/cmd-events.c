/* cmd-events.c - the commands over event records: `dsprof records` and
   `dsprof trace` (docs/contract.md §5.6), `dsprof dims` (§5.3): their
   options and the choice of renderer (listing.h; dims counts dimcount.h's
   model).  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "cmd.h"
#include "dimcount.h"
#include "listing.h"

/* Options of records, trace and dims: --where, --help.  */

static const struct opt where_opts[] = {
  WHERE_OPT (0, "only records whose DIM is VALUE; DIM!=VALUE: whose DIM\n"
                "is not VALUE (repeatable; all hold)"),
  { 0 }
};

static const struct opt trace_opts[] = {
  WHERE_OPT (0, "only events whose DIM is VALUE; DIM!=VALUE: whose DIM\n"
                "is not VALUE (repeatable)"),
  { 0 }
};

static const struct opt dims_opts[] = {
  WHERE_OPT (0, "count only the records whose DIM is VALUE; DIM!=VALUE:\n"
                "whose DIM is not VALUE"),
  { 0 }
};

/* Parse the options of CMD into Q, its operands (the profiles) into *OPS.
   Return 0 (*HELP after --help) or EXIT_USAGE.  */

static int
parse_where_opts (const struct command *cmd, int argc, char **argv,
                  struct query *q, bool *help, struct opt_operands *ops)
{
  memset (q, 0, sizeof *q);
  q->filters = XCNEWVEC (struct agg_filter, argc + 1);
  int rc = opt_parse (&cmd->cli, argc, argv, q, ops);
  *help = rc == OPT_HELP;
  return *help ? 0 : rc;
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
  struct opt_operands ops;
  int rc = parse_where_opts (&cmd_records, argc, argv, &q, &help, &ops);
  struct pf_set set;
  if (!rc && !help && !(rc = load_profiles (ops.n, ops.v, &set)))
    {
      rc = records_print (&set, &q, stdout);
      pf_free (&set);
      if (!rc)
        rc = close_output ("records", NULL, stdout);
    }
  free_filters (&q);
  free (ops.v);
  return rc;
}

const struct command cmd_records = {
  .summary = "profile records, one per line",
  .run = run_records,
  .cli = {
    .name = "records", .opts = where_opts,
    .usage =
  "usage: dsprof records [--where DIM=VALUE|DIM!=VALUE]... [PROFILE...]\n\n"
  "Print one line per profile record (a Start/Finish pair), innermost first:\n"
  "  #N DURATIONns dim=value ... [-> #a #b ...]\n"
  "N numbers every record in completion order (filtered output has gaps);\n"
  "the dimensions are Start's (event, name, file, line, thread, parameters),\n"
  "result, those added during the event, and complete; `-> #a #b` names the\n"
  "direct descendants.  A value that is empty or holds blanks, quotes, `=`,\n"
  "`\\` or control characters is quoted with C escapes.\n\n"
  }
};

/* ---- dsprof trace -------------------------------------------------------------- */

static int
run_trace (int argc, char **argv)
{
  struct query q;
  bool help;
  struct opt_operands ops;
  int rc = parse_where_opts (&cmd_trace, argc, argv, &q, &help, &ops);
  struct pf_set set;
  if (!rc && !help && !(rc = load_profiles (ops.n, ops.v, &set)))
    {
      rc = trace_print (&set, &q, stdout);
      pf_free (&set);
      if (!rc)
        rc = close_output ("trace", NULL, stdout);
    }
  free_filters (&q);
  free (ops.v);
  return rc;
}

const struct command cmd_trace = {
  .summary = "the event stream, one Start or Finish per line",
  .run = run_trace,
  .cli = {
    .name = "trace", .opts = trace_opts,
    .usage =
  "usage: dsprof trace [--where DIM=VALUE|DIM!=VALUE]... [PROFILE...]\n\n"
  "Print every event of every thread, in each thread's order:\n"
  "  TIMEns tTHREAD Start dim=value ...\n"
  "  TIMEns tTHREAD Finish event=T name=N [result=R] [added dims] complete=true\n"
  "`Abandon` instead of `Finish` marks an event closed by repair (longjmp,\n"
  "thread or process end, mismatched finish).  TIME is nanoseconds since the\n"
  "process started.  --where tests the event's dimensions so far (Start's, and\n"
  "at Finish the added ones too).\n\n"
  }
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
  struct opt_operands ops;
  int rc = parse_where_opts (&cmd_dims, argc, argv, &q, &help, &ops);
  struct pf_set set;
  if (!rc && !help && !(rc = load_profiles (ops.n, ops.v, &set)))
    {
      rc = print_dims (&set, &q, stdout);
      if (!rc)
        rc = close_output ("dims", NULL, stdout);
      pf_free (&set);
    }
  free_filters (&q);
  free (ops.v);
  return rc;
}

const struct command cmd_dims = {
  .summary = "the dimensions present, with record counts",
  .run = run_dims,
  .cli = {
    .name = "dims", .opts = dims_opts,
    .usage =
  "usage: dsprof dims [--where DIM=VALUE|DIM!=VALUE]... [PROFILE...]\n\n"
  "List every dimension the records carry, recorded or derived (those of the\n"
  "list below that are no prefix), as `DIM COUNT` (the number of records with\n"
  "a value for it), most common first.\n\n",
    .after_fn = agg_derived_help
  }
};
