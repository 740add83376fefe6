/* cmd-diff.c - the command `dsprof diff` (docs/contract.md §5.9): its options
   and operands, the diff model (diff.h) written by render/diff-view.c in the
   format render/formats.c names, and --fail-above.  */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "cmd.h"
#include "diff.h"

enum { EXIT_GREW = 3 };

/* Say on stderr which lines of L grew by more than LIMIT percent; return how
   many.  */

static size_t
grown_lines (const struct diff_lines *l, double limit)
{
  size_t n = 0;
  for (size_t i = 0; i < l->n; i++)
    {
      const struct diff_line *d = &l->lines[i];
      if (diff_grew (true, d->base, d->new, limit))
        {
          n++;
          fprintf (stderr, "dsprof diff: %s:%u: count %" PRIu64 " -> %" PRIu64
                   ", above %g%%\n", text_shown (d->given), d->line, d->base, d->new, limit);
        }
    }
  return n;
}

/* ---- the command ------------------------------------------------------------------ */

struct diff_args
{
  struct query q;
  char **operands;
  int noperands;
  struct opt_list base, new;     /* --base, --new */
  bool lines;
  bool fail;
  double fail_above;
  enum diff_measure by;
};

static int
set_fail_above (const char *cmd, char *arg, void *p)
{
  struct diff_args *a = p;
  char *end;
  errno = 0;
  a->fail_above = strtod (arg, &end);
  if (errno || end == arg || *end || !isfinite (a->fail_above)
      || a->fail_above < 0)
    return usage_error (cmd, "--fail-above wants a percentage (a number "
                        ">= 0), not '%s'", arg);
  a->fail = true;
  return 0;
}

static int
set_change (const char *cmd, char *arg, void *p)
{
  struct diff_args *a = p;
  for (int k = 0; k < 3; k++)
    if (!strcmp (arg, diff_measures[k]))
      {
        a->by = (enum diff_measure) k;
        return 0;
      }
  return usage_error (cmd, "--change must be total, self or count, not '%s'",
                      arg);
}

static const struct opt diff_opts[] = {
  { .name = "base", .arg = "P", .kind = OPT_LIST,
    .off = offsetof (struct diff_args, base),
    .help = "a profile (or directory) of the base side (repeatable)" },
  { .name = "new", .arg = "P", .kind = OPT_LIST,
    .off = offsetof (struct diff_args, new),
    .help = "a profile (or directory) of the new side (repeatable)" },
  { .name = "change", .arg = "total|self|count", .kind = OPT_FUNC,
    .set = set_change,
    .help = "the figure rows are sorted by and --fail-above\n"
            "checks (default total)" },
  { .name = "lines", .kind = OPT_FLAG, .off = offsetof (struct diff_args, lines),
    .help = "line counts instead: FILE:LINE: BASE -> NEW (CHANGE,\n"
            "PCT%) for every line whose count changed (annotate's\n"
            "count of the line), largest change first" },
  { .name = "fail-above", .arg = "PCT", .kind = OPT_FUNC, .set = set_fail_above,
    .help = "exit status 3 when a bucket's figure (every bucket,\n"
            "shown or not), or with --lines a line's count, grew\n"
            "by more than PCT percent, each named on stderr; a\n"
            "bucket new in NEW (or a figure from 0) grew if its\n"
            "figure is above 0" },
  QUERY_OPTS (offsetof (struct diff_args, q)),
  { 0 }
};

/* Give the sides their operands when --base or --new did not name them, and
   the rest of the operands to the query as dimensions.  Return 0 or
   EXIT_USAGE after a message.  */

static int
assign_operands (struct diff_args *a)
{
  int i = 0;
  if (!a->base.n && i < a->noperands)
    opt_list_add (&a->base, a->operands[i++]);
  if (!a->new.n && i < a->noperands)
    opt_list_add (&a->new, a->operands[i++]);
  if (!a->base.n || !a->new.n)
    return usage_error ("diff", "wants two sides to compare: BASE and NEW (a "
                        "profile, a directory of profiles, or --base/--new "
                        "groups)");
  if (a->lines && strcmp (a->q.format, "text"))
    return usage_error ("diff", "--lines prints FILE:LINE: lines; --format %s is "
                        "for the dimension diff", a->q.format);
  for (; i < a->noperands; i++)
    {
      if (a->lines)
        return usage_error ("diff", "--lines takes no dimensions, not '%s'",
                            a->operands[i]);
      if (check_dim ("diff", a->operands[i]))
        return EXIT_USAGE;
      a->q.dims[a->q.ndims++] = a->operands[i];
    }
  return 0;
}

/* The dimension diff of A over BASE and NEW to standard output.  */

static int
run_dims (struct diff_args *a, struct pf_set *base, struct pf_set *new)
{
  struct diff_model m;
  int rc = diff_build (base, new, &a->q, a->by, &m);
  if (rc)
    return rc;
  uint64_t largest = m.base.total_ns > m.new.total_ns ? m.base.total_ns
                     : m.new.total_ns;
  struct diff_printer p = {
    .q = &a->q, .m = &m, .unit = text_unit_pick (a->q.unit, largest),
    .notes = notes_new (), .out = stdout, .base = base, .new = new
  };
  format_find ("diff", a->q.format)->diff (&p);
  notes_free (p.notes);
  rc = close_output ("diff", NULL, stdout);
  if (!rc && a->fail && diff_fail_check (&m, a->fail_above))
    rc = EXIT_GREW;
  diff_free (&m);
  return rc;
}

static int
run_lines (struct diff_args *a, struct pf_set *base, struct pf_set *new)
{
  struct diff_lines l;
  int rc = diff_lines_build (base, new, &l);
  if (rc)
    return rc;
  diff_print_lines (&l, a->q.top, stdout);
  rc = close_output ("diff", NULL, stdout);
  if (!rc && a->fail && grown_lines (&l, a->fail_above))
    rc = EXIT_GREW;
  diff_lines_free (&l);
  return rc;
}

/* The diff A asks for, its operands assigned.  */

static int
diff_main (struct diff_args *a)
{
  int rc = 0;
  if (a->q.ndims == 0)
    a->q.dims[a->q.ndims++] = "name";
  if (a->q.derive)
    rc = derive_load (a->q.derive);
  struct pf_set base, new;
  if (!rc && !(rc = diff_load_side (a->base.n, a->base.v, &base)))
    {
      if (!(rc = diff_load_side (a->new.n, a->new.v, &new)))
        {
          rc = a->lines ? run_lines (a, &base, &new) : run_dims (a, &base, &new);
          pf_free (&new);
        }
      pf_free (&base);
    }
  return rc;
}

static int
run_diff (int argc, char **argv)
{
  struct diff_args a;
  memset (&a, 0, sizeof a);
  query_init (&a.q, argc);
  a.q.dims = XCNEWVEC (const char *, argc + 1);
  struct opt_operands ops;
  int rc = opt_parse (&cmd_diff.cli, argc, argv, &a, &ops);
  a.operands = ops.v;
  a.noperands = ops.n;
  if (!rc && !(rc = assign_operands (&a)))
    rc = diff_main (&a);
  query_free_filters (&a.q);
  free (a.q.dims);
  free (ops.v);
  free (a.base.v);
  free (a.new.v);
  return rc == OPT_HELP ? 0 : rc;
}

const struct command cmd_diff = {
  .summary = "what a change did: two profiles (or groups) side by side",
  .run = run_diff,
  .cli = {
    .name = "diff", .opts = diff_opts,
    .usage =
  "usage: dsprof diff [OPTIONS] BASE NEW [DIM...]\n"
  "       dsprof diff [OPTIONS] --base P [--base P...] --new P [--new P...] [DIM...]\n"
  "       dsprof diff --lines [--top N] [--fail-above PCT] BASE NEW\n\n"
  "Compare two sides, BASE and NEW: each a profile, a directory (its files\n"
  "that begin with dsprof's magic, i.e. its profiles, by name), or with\n"
  "--base/--new (repeatable) a group of them, combined as `report` combines\n"
  "profiles.  The first operand is BASE unless --base is given, the next NEW\n"
  "unless --new is given; the rest are dimensions (default: name), as in\n"
  "`dsprof report`: the two reports side by side, per bucket Total, Self and\n"
  "Count of both sides, the change and the change in percent; a bucket on one\n"
  "side only is `new` or `gone`.  Rows by the size of the change (--change),\n"
  "then of Count, growth first, then value.\n\n",
    .after =
  "\nExit status: 0, 1 usage error, 2 unreadable input, 3 --fail-above exceeded.\n"
  }
};
