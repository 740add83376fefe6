/* cmd-graph.c - the call graph of profile records: `dsprof callgraph` (docs/contract.md §5.7)
   and `dsprof dot` (§5.8): their options and the choice of renderer.  The
   model is callgraph.h's (built in model/callgraph.c, where its rules are
   told), the renderings graph.h's.  */

#include <getopt.h>
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
parse_graph_opts (const struct command *cmd, int argc, char **argv,
                  struct graph_opts *o, bool *help)
{
  static const struct option longopts[] = {
    { "dim", required_argument, NULL, 'd' },
    { "unit", required_argument, NULL, 'u' },
    { "output", required_argument, NULL, 'o' },
    { "raw", no_argument, NULL, 'r' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  memset (o, 0, sizeof *o);
  o->dim = "name";
  *help = false;
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long (argc, argv, ":d:u:o:h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'd':
        if (!*optarg)
          return usage_error (cmd->name, "--dim wants a dimension name");
        if (looks_like_profile (optarg))
          return usage_error (cmd->name, "--dim: '%s' is a profile, not a "
                              "dimension (an existing file, or a name with a "
                              "'/' or a \".data\")", optarg);
        if (check_dim (cmd->name, optarg))
          return EXIT_USAGE;
        o->dim = optarg;
        break;
      case 'u':
        if (!text_unit_pick (optarg, 0))
          return usage_error (cmd->name, "--unit wants ns, us, ms or s, not '%s'",
                              optarg);
        o->unit = optarg;
        break;
      case 'o': o->output = optarg; break;
      case 'r': o->raw = true; break;
      case 'h':
        *help = true;
        return print_help (cmd);
      default:
        return option_error (cmd->name, c, argv);
      }
  return 0;
}

/* Run CMD, a graph command: its options, the profiles, RENDER to the output.  */

static int
run_graph (const struct command *cmd, int argc, char **argv,
           int (*render) (struct pf_set *set, const struct graph_opts *o,
                          FILE *out))
{
  struct graph_opts o;
  bool help;
  int rc = parse_graph_opts (cmd, argc, argv, &o, &help);
  if (rc || help)
    return rc;
  struct pf_set set;
  if ((rc = load_profiles (argc - optind, argv + optind, &set)))
    return rc;
  struct output out;
  if (!(rc = output_open (&out, cmd->name, o.output, 0)))
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
  "callgraph", "gprof's call graph over the records", run_callgraph,
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
  "  -d, --dim D          group the records by D (default name)\n"
  "  -u, --unit U         times in ns, us, ms or s (default: readable)\n"
  "      --raw            times as recorded, without deducting the recorder\n"
  "  -o, --output FILE    write to FILE instead of standard output\n"
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
  "dot", "the graph of calls between values, for GraphViz", run_dot,
  "usage: dsprof dot [--dim D] [--unit ns|us|ms|s] [--raw] [-o FILE] [PROFILE...]\n\n"
  "Write a GraphViz digraph of the values of dimension D (default name): one\n"
  "node per value, labelled with its number of records and their self time\n"
  "(the redder, the more); an edge A -> B when a record of B lies directly\n"
  "inside a record of A, labelled with how many times.  Render it with e.g.\n"
  "`dsprof dot | dot -Tsvg -o graph.svg`.\n\n"
  "  -d, --dim D          the dimension whose values are the nodes\n"
  "  -u, --unit U         times in ns, us, ms or s (default: readable)\n"
  "      --raw            times as recorded, without deducting the recorder\n"
  "  -o, --output FILE    write to FILE instead of standard output\n"
};
