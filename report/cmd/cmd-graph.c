/* cmd-graph.c - the call graph of profile records: `dsprof callgraph` (docs/contract.md §5.7)
   and `dsprof dot` (§5.8): their options and the choice of renderer.  The
   model is callgraph.h's (built in model/callgraph.c, where its rules are
   told), the renderings graph.h's.  */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "callgraph.h"
#include "graph.h"

/* Options of callgraph and dot.  */

struct graph_opts
{
  const char *dim, *unit, *output;
  bool raw;
};

static int
set_dim (const char *cmd, char *arg, void *field)
{
  if (check_dim_option (cmd, "--dim", arg))
    return EXIT_USAGE;
  *(const char **) field = arg;
  return 0;
}

static int
set_unit (const char *cmd, char *arg, void *field)
{
  if (!text_unit_pick (arg, 0))
    return usage_error (cmd, "--unit wants ns, us, ms or s, not '%s'", arg);
  *(const char **) field = arg;
  return 0;
}

/* The options of callgraph and dot after --dim.  */
#define GRAPH_OPTS                                                            \
  { .name = "unit", .letter = 'u', .arg = "U", .kind = OPT_FUNC,              \
    .set = set_unit, .off = offsetof (struct graph_opts, unit),              \
    .help = "times in ns, us, ms or s (default: readable)" },                 \
  { .name = "raw", .kind = OPT_FLAG, .off = offsetof (struct graph_opts, raw), \
    .help = "times as recorded, without deducting the recorder" },            \
  DEDUCED_OPT,                                                                \
  { .name = "output", .letter = 'o', .arg = "FILE", .kind = OPT_STRING,       \
    .off = offsetof (struct graph_opts, output),                              \
    .help = "write to FILE instead of standard output" },                     \
  { 0 }

static const struct opt callgraph_opts[] = {
  { .name = "dim", .letter = 'd', .arg = "D", .kind = OPT_FUNC, .set = set_dim,
    .off = offsetof (struct graph_opts, dim),
    .help = "group the records by D (default name)" },
  GRAPH_OPTS
};

/* dot's: callgraph's but for --dim's help.  */
static const struct opt dot_opts[] = {
  { .name = "dim", .letter = 'd', .arg = "D", .kind = OPT_FUNC, .set = set_dim,
    .off = offsetof (struct graph_opts, dim),
    .help = "the dimension whose values are the nodes" },
  GRAPH_OPTS
};

/* Run CMD, a graph command: its options, the profiles, RENDER to the output.  */

static int
run_graph (const struct command *cmd, int argc, char **argv,
           int (*render) (struct pf_set *set, const struct graph_opts *o,
                          FILE *out))
{
  struct graph_opts o = { .dim = "name" };
  struct opt_operands ops;
  int rc = opt_parse (&cmd->cli, argc, argv, &o, &ops);
  struct pf_set set;
  if (!rc)
    rc = load_profiles (ops.n, ops.v, &set);
  free (ops.v);
  if (rc)
    return rc == OPT_HELP ? 0 : rc;
  struct output out;
  if (!(rc = output_open (&out, cmd->cli.name, o.output, 0)))
    rc = output_finish (&out, render (&set, &o, out.f));
  pf_free (&set);
  return rc;
}

static int
render_callgraph (struct pf_set *set, const struct graph_opts *o, FILE *out)
{
  struct cg_model m;
  int rc = cg_build (set, o->dim, o->raw, true, &m);
  if (rc)
    return rc;
  cg_print (&m, o->unit, out);
  cg_free (&m);
  return 0;
}

static int
run_callgraph (int argc, char **argv)
{
  return run_graph (&cmd_callgraph, argc, argv, render_callgraph);
}

const struct command cmd_callgraph = {
  .summary = "gprof's call graph over the records",
  .run = run_callgraph,
  .cli = {
    .name = "callgraph", .opts = callgraph_opts,
    .usage =
  "usage: dsprof callgraph [--dim D] [--unit ns|us|ms|s] [--raw] [-o FILE]\n"
  "                        [PROFILE...]\n\n"
  "The call-graph profile of gprof over profile records grouped by dimension D\n"
  "(default name): a record directly inside another is a call from the outer\n"
  "record's value to the inner one's.  One entry per value, sorted by total\n"
  "time, numbered [n]:\n"
  "  - the callers above it: self and children, the part of the entry's time\n"
  "    spent in the calls from that caller, then calls/calls from all callers\n"
  "    (<spontaneous>: top-level records);\n"
  "  - its own line: [n], % of the profiled time, self (its records' own time),\n"
  "    children (the time of what they called), calls from other values, and\n"
  "    +N direct recursive calls;\n"
  "  - its callees below: the time spent in them on its behalf, its calls/all\n"
  "    their calls.\n"
  "Values that call each other in a cycle (A calls B, B calls A) are one node,\n"
  "an entry <cycle N as a whole> listing its members; inside a cycle, lines\n"
  "show counts only.  Times are exact (taken from the record tree, not\n"
  "estimated from counts), with the recorder's cost deducted unless --raw.\n\n"
  }
};

/* ---- dsprof dot ------------------------------------------------------------------ */

static int
dot (struct pf_set *set, const struct graph_opts *o, FILE *out)
{
  struct cg_graph g;
  int rc = cg_graph_build (set, o->dim, o->raw, &g);
  if (rc)
    return rc;
  cg_print_dot (&g, o->unit, out);
  cg_graph_free (&g);
  return 0;
}

static int
run_dot (int argc, char **argv)
{
  return run_graph (&cmd_dot, argc, argv, dot);
}

const struct command cmd_dot = {
  .summary = "the graph of calls between values, for GraphViz",
  .run = run_dot,
  .cli = {
    .name = "dot", .opts = dot_opts,
    .usage =
  "usage: dsprof dot [--dim D] [--unit ns|us|ms|s] [--raw] [-o FILE] [PROFILE...]\n\n"
  "Write a GraphViz digraph of the values of dimension D (default name): one\n"
  "node per value, labelled with its number of records and their self time\n"
  "(the redder, the more); an edge A -> B when a record of B lies directly\n"
  "inside a record of A, labelled with how many times.  Render it with e.g.\n"
  "`dsprof dot | dot -Tsvg -o graph.svg`.\n\n"
  }
};
