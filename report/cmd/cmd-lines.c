/* cmd-lines.c - the line counts model (linecount.h) rendered: `dsprof lines`
   (docs/contract.md §5.1), `dsprof annotate` (§5.2) and `dsprof summary`,
   their options and the choice of renderer (lines.h); the lcov and
   Cobertura exports are export.h's.  */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "cmd.h"
#include "diff.h"
#include "formats.h"
#include "lines.h"
#include "opt.h"

struct lines_opts
{
  const char *output;
  bool append, ops;
};

static const struct opt lines_opts[] = {
  { .name = "output", .letter = 'o', .arg = "FILE", .kind = OPT_STRING,
    .off = offsetof (struct lines_opts, output),
    .help = "write to FILE instead of standard output" },
  { .name = "append", .kind = OPT_FLAG, .off = offsetof (struct lines_opts, append),
    .help = "add to FILE instead of replacing it" },
  { .name = "ops", .kind = OPT_FLAG, .off = offsetof (struct lines_opts, ops),
    .help = "instead, the op records of a dispatch function\n"
            "(dispatch=FUNC) by their label's line, FILE:LINE: COUNT\n"
            "NAME, one line per opcode, ordered by file, line, name" },
  { 0 }
};

/* lines with its options (struct lines_opts) over the profiles
   ARGV[0 .. ARGC).  */

static int
lines_main (void *opts, int argc, char **argv)
{
  const struct lines_opts *o = opts;
  const char *output = o->output;
  bool append = o->append, ops = o->ops;
  struct pf_set set;
  int rc = load_profiles (argc, argv, &set);
  if (rc)
    return rc;
  struct op_lines v = { NULL, 0 };
  struct lc_model m;
  rc = ops ? op_lines_build (&set, &v) : lc_build (&set, &m);
  if (!rc)
    {
      struct output out;
      if (!(rc = output_open (&out, "lines", output, append ? OUTPUT_APPEND : 0)))
        {
          if (ops)
            op_lines_print (&v, out.f);
          else
            lc_print_lines (&m, out.f);
          rc = output_close (&out);
        }
    }
  if (!ops)
    lc_free (&m);
  free (v.v);
  pf_free (&set);
  return rc;
}

static int
run_lines (int argc, char **argv)
{
  struct lines_opts o = { 0 };
  return opt_run (&cmd_lines.cli, argc, argv, &o, lines_main);
}

const struct command cmd_lines = {
  .summary = "block counts as FILE:LINE: COUNT lines",
  .run = run_lines,
  .cli = {
    .name = "lines", .opts = lines_opts,
    .usage =
  "usage: dsprof lines [-o FILE] [--append] [--ops] [PROFILE...]\n\n"
  "Print one line per basic-block counter, FILE:LINE: COUNT, ordered by file,\n"
  "line and block (the zprof format: `sort -t: -k3 -nr` lists the hottest\n"
  "blocks; editors jump to each line).  FILE is the path given to the compiler.\n"
  "Counts of several profiles are summed.  The counts are gcov's: a case label\n"
  "GCC puts in one block with other code has none of its own.\n\n"
  }
};

struct annotate_opts
{
  const char *dir, *base;
  bool branches;
  struct opt_list sel;
};

static const struct opt annotate_opts[] = {
  { .name = "output", .letter = 'o', .arg = "DIR", .kind = OPT_STRING,
    .off = offsetof (struct annotate_opts, dir),
    .help = "write DIR/<file as compiled>.bb instead of next to the\n"
            "source, for every source" },
  { .name = "source", .arg = "FILE", .kind = OPT_LIST,
    .off = offsetof (struct annotate_opts, sel),
    .help = "only this source (repeatable); written beside it\n"
            "wherever it is" },
  { .name = "diff", .arg = "BASE", .kind = OPT_STRING,
    .off = offsetof (struct annotate_opts, base),
    .help = "three columns: BASE's count of the line (a profile or\n"
            "a directory of profiles, as `dsprof diff` takes it),\n"
            "the profiles' count, and the change (+N, -N; blank\n"
            "when none)" },
  { .name = "branches", .kind = OPT_FLAG,
    .off = offsetof (struct annotate_opts, branches),
    .help = "under each line that ends a block with a conditional\n"
            "jump or a switch, one line per way out, numbered from\n"
            "0 on the line in gcov's order, as gcov -b -c lists\n"
            "them: \"branch  0 taken N\" (\" (fallthrough)\" for the\n"
            "way to the next block in the code), or \"branch  1\n"
            "never executed\" when the block never ran" },
  { 0 }
};

/* annotate with its options (struct annotate_opts) over the profiles
   ARGV[0 .. ARGC).  */

static int
annotate_main (void *opts, int argc, char **argv)
{
  const struct annotate_opts *o = opts;
  const char *dir = o->dir;
  char *base = (char *) o->base;
  bool branches = o->branches;
  int nsel = o->sel.n;
  char **sel = o->sel.v;
  struct pf_set set, bset;
  struct lc_model bm;
  memset (&bm, 0, sizeof bm);
  memset (&bset, 0, sizeof bset);
  int rc = base ? diff_load_side (1, &base, &bset) : 0;
  if (!rc && base)
    rc = lc_build (&bset, &bm);
  if (!rc && !(rc = load_profiles (argc, argv, &set)))
    {
      struct lc_model m;
      struct op_lines ops = { NULL, 0 };
      bool with_ops = op_sites_p (&set);
      if (!(rc = lc_build (&set, &m)) && !(with_ops && (rc = op_lines_build (&set, &ops))))
        rc = annotate_write (&m, base ? &bm : NULL, with_ops ? &ops : NULL, dir, nsel,
                             sel, branches);
      lc_free (&m);
      free (ops.v);
      pf_free (&set);
    }
  lc_free (&bm);
  pf_free (&bset);
  return rc;
}

static int
run_annotate (int argc, char **argv)
{
  struct annotate_opts o = { 0 };
  return opt_run (&cmd_annotate.cli, argc, argv, &o, annotate_main);
}

const struct command cmd_annotate = {
  .summary = "annotated source listings (<source>.bb)",
  .run = run_annotate,
  .cli = {
    .name = "annotate", .opts = annotate_opts,
    .usage =
  "usage: dsprof annotate [-o DIR] [--source FILE]... [--branches] [--diff BASE]\n"
  "       [PROFILE...]\n\n"
  "Write <source>.bb for every instrumented source file: each source line after\n"
  "a count column, printf(\"%9s:%5u:%s\") (wider for the whole file if a count has\n"
  "more than 9 digits) - the largest count of the blocks that\n"
  "hold a statement on the line, ##### if they never ran, blank if no block\n"
  "holds the line.  A function's definition line shows its entry count; a\n"
  "break, continue or goto line how often the jump was taken.  Sources are\n"
  "found through the compilation directory; a missing one is skipped with a\n"
  "warning.  Without -o, listings are written beside the sources in the\n"
  "compilation directory and below it only (not beside system headers: a note\n"
  "counts those), and only over a regular file, never through a link.\n\n"
  }
};

struct summary_opts
{
  const char *format, *output;
};

static const struct opt summary_opts[] = {
  { .name = "format", .letter = 'f', .arg_text = format_names, .kind = OPT_FUNC,
    .set = format_set, .off = offsetof (struct summary_opts, format),
    .help = "text (a table, \"HIT/TOTAL PCT%\" cells), csv (RFC 4180:\n"
            "kind,file,function,line,calls,lines_hit,lines,\n"
            "blocks_hit,blocks,functions_hit,functions,\n"
            "branches_executed,branches_taken,branches) or json\n"
            "(an array of objects with those keys)" },
  { .name = "output", .letter = 'o', .arg = "FILE", .kind = OPT_STRING,
    .off = offsetof (struct summary_opts, output),
    .help = "write to FILE instead of standard output" },
  { 0 }
};

/* summary with its options (struct summary_opts) over the profiles
   ARGV[0 .. ARGC).  */

static int
summary_main (void *opts, int argc, char **argv)
{
  const struct summary_opts *o = opts;
  const char *format = o->format, *output = o->output;
  struct pf_set set;
  int rc = load_profiles (argc, argv, &set);
  if (rc)
    return rc;
  struct lc_model m;
  if (!(rc = lc_build (&set, &m)))
    {
      struct output out;
      if (!(rc = output_open (&out, "summary", output, 0)))
        {
          format_find ("summary", format)->summary (&m, out.f);
          rc = output_close (&out);
        }
    }
  lc_free (&m);
  pf_free (&set);
  return rc;
}

static int
run_summary (int argc, char **argv)
{
  struct summary_opts o = { .format = "text" };
  return opt_run (&cmd_summary.cli, argc, argv, &o, summary_main);
}

const struct command cmd_summary = {
  .summary = "coverage summary: lines, blocks, functions, branches executed",
  .run = run_summary,
  .cli = {
    .name = "summary", .opts = summary_opts,
    .usage =
  "usage: dsprof summary [--format text|csv|json] [-o FILE] [PROFILE...]\n\n"
  "Print, per source file and per function, how many of its instrumented lines,\n"
  "blocks, functions and branches ran, as `gcov -f` and `lcov --summary` do,\n"
  "then the totals: the figures of `dsprof export --format lcov` (a line is\n"
  "instrumented if a block holds a statement on it, and ran if the largest\n"
  "count of those blocks is not 0; a function ran if its entry count is not 0;\n"
  "a block ran if its count is not 0; a header's function counts the blocks of\n"
  "each unit's copy).  Branches are gcov's (annotate --branches): BR-EXEC those\n"
  "whose block ran (gcov's \"Branches executed\"), BR-TAKEN those taken at least\n"
  "once (gcov's \"Taken at least once\", lcov's branch figure).  Rows are\n"
  "ordered by file (as annotate finds it), each file's functions by line, then\n"
  "the file's own row; the last row is the totals.\n\n"
  }
};
