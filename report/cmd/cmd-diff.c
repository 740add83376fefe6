/* cmd-diff.c - `dsprof diff` (docs/contract.md §5.9): the diff model
   (diff.h) rendered as text, CSV or JSON, and the changed line counts as
   FILE:LINE: lines.  */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "cmd.h"
#include "diff.h"

enum { EXIT_GREW = 3 };

/* ---- figures as text ------------------------------------------------------------ */

/* A time or count of a row that may be missing: "-" then.  */

static void
put_figure (FILE *out, int width, const struct rpt_row *r, uint64_t v,
            const struct text_unit *u)
{
  char buf[32];
  if (!r)
    fprintf (out, " %*s", width, "-");
  else if (u)
    fprintf (out, " %*s", width, text_time (buf, sizeof buf, v, u));
  else
    fprintf (out, " %*" PRIu64, width, v);
}

/* The change from B to N, signed, in unit U (a count when NULL).  */

static void
put_change (FILE *out, int width, uint64_t b, uint64_t n,
            const struct text_unit *u)
{
  char buf[40], num[32];
  uint64_t d = n >= b ? n - b : b - n;
  if (u)
    text_time (num, sizeof num, d, u);
  else
    snprintf (num, sizeof num, "%" PRIu64, d);
  snprintf (buf, sizeof buf, "%s%s", d == 0 ? "" : n > b ? "+" : "-", num);
  fprintf (out, " %*s", width, buf);
}

/* The change in percent of row pair R's figures B and N: "new", "gone", or
   +P.  */

static void
put_pct (FILE *out, const struct diff_row *r, uint64_t b, uint64_t n)
{
  double pct;
  if (!r->base)
    fprintf (out, " %8s", "new");
  else if (!r->new)
    fprintf (out, " %8s", "gone");
  else if (diff_pct (b, n, &pct))
    fprintf (out, " %+8.1f", pct);
  else
    fprintf (out, " %8s", n ? "+inf" : "0.0");
}

/* ---- text ------------------------------------------------------------------------ */

struct printer
{
  const struct query *q;
  const struct diff_model *m;
  const struct text_unit *unit;
  struct notes *notes;
  FILE *out;
};

static void
text_row (struct printer *p, const struct diff_row *r)
{
  static const enum diff_measure order[] = { DIFF_TOTAL, DIFF_SELF, DIFF_COUNT };
  for (int k = 0; k < 3; k++)
    {
      const struct text_unit *u = order[k] == DIFF_COUNT ? NULL : p->unit;
      int w = u ? 10 : 8;
      uint64_t b = order[k] == DIFF_TOTAL ? (r->base ? r->base->total_ns : 0)
                   : order[k] == DIFF_SELF ? (r->base ? r->base->self_ns : 0)
                   : (r->base ? r->base->count : 0);
      uint64_t n = order[k] == DIFF_TOTAL ? (r->new ? r->new->total_ns : 0)
                   : order[k] == DIFF_SELF ? (r->new ? r->new->self_ns : 0)
                   : (r->new ? r->new->count : 0);
      put_figure (p->out, w, r->base, b, u);
      put_figure (p->out, w, r->new, n, u);
      put_change (p->out, w, b, n, u);
      put_pct (p->out, r, b, n);
    }
  for (int k = 0; k < p->m->base.nsums; k++)
    {
      char sum[64];
      fprintf (p->out, " %12s",
               r->base ? agg_sum_text (&r->base->sums[k], sum, sizeof sum) : "-");
      fprintf (p->out, " %12s",
               r->new ? agg_sum_text (&r->new->sums[k], sum, sizeof sum) : "-");
    }
  char buf[32];
  fputs ("  ", p->out);
  text_plain (p->out, notes_shown (p->notes, r->value, buf));
  putc ('\n', p->out);
}

static void
text_table (const struct diff_table *t, const char **path, void *arg)
{
  struct printer *p = arg;
  table_title (p->out, p->notes, p->q->dims[t->level], t->level, path);
  fprintf (p->out, ", by change of %s:\n\n", diff_measures[p->m->by]);
  fprintf (p->out, " %-42s %-42s %-35s", "Total:", "Self:", "Count:");
  for (int k = 0; k < p->m->base.nsums; k++)
    {
      const char *d = p->m->base.sums[k];
      fputs (" Sum(", p->out);
      text_plain (p->out, d);
      fprintf (p->out, "):%*s", strlen (d) < 19 ? 19 - (int) strlen (d) : 0, "");
    }
  fputc ('\n', p->out);
  for (int k = 0; k < 3; k++)
    {
      int w = k < 2 ? 10 : 8;
      fprintf (p->out, " %*s %*s %*s %8s", w, "Base", w, "New", w, "Change",
               "Change%");
    }
  for (int k = 0; k < p->m->base.nsums; k++)
    fprintf (p->out, " %12s %12s", "Base", "New");
  fputs ("  Value\n", p->out);
  uint32_t k = diff_shown (t, p->q->top);
  for (uint32_t j = 0; j < k; j++)
    text_row (p, &t->rows[j]);
}

/* A header line: LABEL, the base and new figures (times in unit U, counts
   when NULL) and the change.  */

static void
header_line (struct printer *p, const char *label, uint64_t b, uint64_t n,
             const struct text_unit *u)
{
  struct rpt_row one;
  struct diff_row both = { "", &one, &one, NULL };
  fprintf (p->out, "%-16s", label);
  put_figure (p->out, 12, &one, b, u);
  put_figure (p->out, 12, &one, n, u);
  put_change (p->out, 12, b, n, u);
  put_pct (p->out, &both, b, n);
  fputc ('\n', p->out);
}

static void
print_text (struct printer *p)
{
  const struct diff_model *m = p->m;
  fprintf (p->out, "%-16s %12s %12s %12s %8s\n", "", "Base", "New", "Change",
           "Change%");
  header_line (p, "Total time:", m->base.total_ns, m->new.total_ns, p->unit);
  header_line (p, "Profiled time:", m->base.profiled_ns, m->new.profiled_ns,
               p->unit);
  header_line (p, "Profile records:", m->base.records, m->new.records, NULL);
  fprintf (p->out, "(times in %s)\n", p->unit->name);
  if (m->base.records == 0 && m->new.records == 0)
    {
      fprintf (p->out, "\nNo profile records on either side%s.\n",
               p->q->nfilters ? " pass the --where filters" : "");
      return;
    }
  const char **path = XCNEWVEC (const char *, m->base.ndims + 1);
  for (int level = 0; level < m->base.ndims; level++)
    diff_each_table (m, level, p->q->top, path, text_table, p);
  free (path);
  notes_print (p->notes, p->out);
}

/* ---- CSV ------------------------------------------------------------------------- */

static const char *
status (const struct diff_row *r)
{
  return !r->base ? "new" : !r->new ? "gone" : "both";
}

/* ",B,N,CHANGE,PCT" of figures B and N of R; a missing side and a
   percentage of nothing are empty.  */

static void
csv_figures (FILE *out, const struct diff_row *r, uint64_t b, uint64_t n)
{
  double pct;
  if (r->base)
    fprintf (out, ",%" PRIu64, b);
  else
    putc (',', out);
  if (r->new)
    fprintf (out, ",%" PRIu64, n);
  else
    putc (',', out);
  if (n >= b)
    fprintf (out, ",%" PRIu64, n - b);
  else
    fprintf (out, ",-%" PRIu64, b - n);
  if (r->base && diff_pct (b, n, &pct))
    fprintf (out, ",%.2f", pct);
  else
    putc (',', out);
}

static void
csv_sum (FILE *out, const struct rpt_row *r, int k)
{
  char sum[64];
  putc (',', out);
  if (r)
    text_csv (out, agg_sum_text (&r->sums[k], sum, sizeof sum));
}

static void
csv_table (const struct diff_table *t, const char **path, void *arg)
{
  struct printer *p = arg;
  uint32_t k = diff_shown (t, p->q->top);
  for (uint32_t i = 0; i < k; i++)
    {
      const struct diff_row *r = &t->rows[i];
      fprintf (p->out, "%d", t->level + 1);
      for (int d = 0; d < p->m->base.ndims; d++)
        {
          putc (',', p->out);
          if (d <= t->level)
            text_csv (p->out, d < t->level ? path[d] : r->value);
        }
      fprintf (p->out, ",%s", status (r));
      const struct rpt_row *b = r->base, *n = r->new;
      csv_figures (p->out, r, b ? b->total_ns : 0, n ? n->total_ns : 0);
      csv_figures (p->out, r, b ? b->self_ns : 0, n ? n->self_ns : 0);
      csv_figures (p->out, r, b ? b->count : 0, n ? n->count : 0);
      for (int s = 0; s < p->m->base.nsums; s++)
        {
          csv_sum (p->out, b, s);
          csv_sum (p->out, n, s);
        }
      putc ('\n', p->out);
    }
}

static void
print_csv (struct printer *p)
{
  fputs ("level", p->out);
  for (int d = 0; d < p->m->base.ndims; d++)
    {
      putc (',', p->out);
      text_csv (p->out, p->m->base.dims[d]);
    }
  fputs (",status", p->out);
  static const char *const figs[] = { "total_ns", "self_ns", "count" };
  for (int k = 0; k < 3; k++)
    fprintf (p->out, ",base_%s,new_%s,change_%s,change_%s_pct", figs[k], figs[k],
             figs[k], figs[k]);
  for (int k = 0; k < p->m->base.nsums; k++)
    for (int side = 0; side < 2; side++)
      {
        char *h = concat (side ? "new_sum(" : "base_sum(", p->m->base.sums[k], ")",
                          NULL);
        putc (',', p->out);
        text_csv (p->out, h);
        free (h);
      }
  putc ('\n', p->out);
  const char **path = XCNEWVEC (const char *, p->m->base.ndims + 1);
  for (int level = 0; level < p->m->base.ndims; level++)
    diff_each_table (p->m, level, p->q->top, path, csv_table, p);
  free (path);
}

/* ---- JSON ------------------------------------------------------------------------ */

static void
json_side (FILE *out, const struct rpt_row *r, int nsums)
{
  if (!r)
    {
      fputs ("null", out);
      return;
    }
  fprintf (out, "{\"total_ns\":%" PRIu64 ",\"self_ns\":%" PRIu64 ",\"desc_ns\":%"
           PRIu64 ",\"count\":%" PRIu64, r->total_ns, r->self_ns, r->desc_ns,
           r->count);
  json_sums (out, r->sums, nsums);
  putc ('}', out);
}

/* "NAME":CHANGE,"NAME_pct":PCT|null.  */

static void
json_change (FILE *out, const char *name, const struct diff_row *r, uint64_t b,
             uint64_t n)
{
  double pct;
  if (n >= b)
    fprintf (out, "\"%s\":%" PRIu64, name, n - b);
  else
    fprintf (out, "\"%s\":-%" PRIu64, name, b - n);
  if (r->base && diff_pct (b, n, &pct))
    fprintf (out, ",\"%s_pct\":%.4f", name, pct);
  else
    fprintf (out, ",\"%s_pct\":null", name);
}

static void
json_rows (struct printer *p, const struct diff_table *t)
{
  fputs ("[", p->out);
  uint32_t k = diff_shown (t, p->q->top);
  int nsums = p->m->base.nsums;
  for (uint32_t i = 0; i < k; i++)
    {
      const struct diff_row *r = &t->rows[i];
      const struct rpt_row *b = r->base, *n = r->new;
      fprintf (p->out, "%s{\"dim\":", i ? "," : "");
      text_json (p->out, p->m->base.dims[t->level]);
      fputs (",\"value\":", p->out);
      text_json (p->out, r->value);
      fprintf (p->out, ",\"status\":\"%s\",\"base\":", status (r));
      json_side (p->out, b, nsums);
      fputs (",\"new\":", p->out);
      json_side (p->out, n, nsums);
      fputs (",\"change\":{", p->out);
      json_change (p->out, "total_ns", r, b ? b->total_ns : 0, n ? n->total_ns : 0);
      putc (',', p->out);
      json_change (p->out, "self_ns", r, b ? b->self_ns : 0, n ? n->self_ns : 0);
      putc (',', p->out);
      json_change (p->out, "count", r, b ? b->count : 0, n ? n->count : 0);
      putc ('}', p->out);
      if (r->sub && r->sub->nrows)
        {
          fputs (",\"rows\":", p->out);
          json_rows (p, r->sub);
        }
      fputs ("}", p->out);
    }
  fputs ("]", p->out);
}

static void
json_model (FILE *out, const char *name, const struct rpt_model *m,
            const struct pf_set *set)
{
  fprintf (out, "\"%s\":{\"profiles\":[", name);
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      if (i)
        putc (',', out);
      text_json (out, set->procs[i].path);
    }
  fprintf (out, "],\"total_ns\":%" PRIu64 ",\"profiled_ns\":%" PRIu64
           ",\"records\":%" PRIu64 "}", m->total_ns, m->profiled_ns, m->records);
}

static void
print_json (struct printer *p, const struct pf_set *base, const struct pf_set *new)
{
  const struct diff_model *m = p->m;
  fputs ("{", p->out);
  json_model (p->out, "base", &m->base, base);
  putc (',', p->out);
  json_model (p->out, "new", &m->new, new);
  fprintf (p->out, ",\"by\":\"%s\",\"dims\":[", diff_measures[m->by]);
  for (int d = 0; d < m->base.ndims; d++)
    {
      if (d)
        putc (',', p->out);
      text_json (p->out, m->base.dims[d]);
    }
  for (int k = 0; k < m->base.nsums; k++)
    {
      fputs (k ? "," : "],\"sums\":[", p->out);
      text_json (p->out, m->base.sums[k]);
    }
  fputs ("],\"rows\":", p->out);
  json_rows (p, m->top);
  fputs ("}\n", p->out);
}

/* ---- line counts -------------------------------------------------------------- */

/* FILE:LINE: BASE -> NEW (CHANGE[, PCT%]) for each changed line, at most TOP
   (0: all): compilation-mode lines an editor jumps through.  */

static void
print_lines (const struct diff_lines *l, long top, FILE *out)
{
  size_t k = top > 0 && (size_t) top < l->n ? (size_t) top : l->n;
  for (size_t i = 0; i < k; i++)
    {
      const struct diff_line *d = &l->lines[i];
      double pct;
      text_plain (out, d->given);
      fprintf (out, ":%u: %" PRIu64 " -> %" PRIu64 " (%c%" PRIu64,
               d->line, d->base, d->new, d->new > d->base ? '+' : '-',
               d->new > d->base ? d->new - d->base : d->base - d->new);
      if (diff_pct (d->base, d->new, &pct))
        fprintf (out, ", %+.1f%%", pct);
      fputs (")\n", out);
    }
}

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
  struct query *q;
  char **operands;
  int noperands;
  char **base, **new;            /* --base, --new */
  int nbase, nnew;
  bool lines;
  bool fail;
  double fail_above;
  enum diff_measure by;
};

enum { OPT_BASE = 0x100, OPT_NEW, OPT_LINES, OPT_FAIL, OPT_CHANGE };

static int
diff_option (int c, char *arg, void *p)
{
  struct diff_args *a = p;
  switch (c)
    {
    case OPT_BASE:
      a->base[a->nbase++] = arg;
      return 0;
    case OPT_NEW:
      a->new[a->nnew++] = arg;
      return 0;
    case OPT_LINES:
      a->lines = true;
      return 0;
    case OPT_FAIL:
      {
        char *end;
        errno = 0;
        a->fail_above = strtod (arg, &end);
        if (errno || end == arg || *end || !isfinite (a->fail_above)
            || a->fail_above < 0)
          return usage_error ("diff", "--fail-above wants a percentage (a number "
                              ">= 0), not '%s'", arg);
        a->fail = true;
      }
      return 0;
    default:
      for (int k = 0; k < 3; k++)
        if (!strcmp (arg, diff_measures[k]))
          {
            a->by = (enum diff_measure) k;
            return 0;
          }
      return usage_error ("diff", "--change must be total, self or count, not '%s'",
                          arg);
    }
}

static int
diff_operand (char *arg, bool dashdash, void *p)
{
  (void) dashdash;
  struct diff_args *a = p;
  a->operands[a->noperands++] = arg;
  return 0;
}

/* Give the sides their operands when --base or --new did not name them, and
   the rest of the operands to the query as dimensions.  Return 0 or
   EXIT_USAGE after a message.  */

static int
assign_operands (struct diff_args *a)
{
  int i = 0;
  if (!a->nbase && i < a->noperands)
    a->base[a->nbase++] = a->operands[i++];
  if (!a->nnew && i < a->noperands)
    a->new[a->nnew++] = a->operands[i++];
  if (!a->nbase || !a->nnew)
    return usage_error ("diff", "wants two sides to compare: BASE and NEW (a "
                        "profile, a directory of profiles, or --base/--new "
                        "groups)");
  if (a->lines && strcmp (a->q->format, "text"))
    return usage_error ("diff", "--lines prints FILE:LINE: lines; --format %s is "
                        "for the dimension diff", a->q->format);
  for (; i < a->noperands; i++)
    {
      if (a->lines)
        return usage_error ("diff", "--lines takes no dimensions, not '%s'",
                            a->operands[i]);
      if (check_dim ("diff", a->operands[i]))
        return EXIT_USAGE;
      a->q->dims[a->q->ndims++] = a->operands[i];
    }
  return 0;
}

/* The dimension diff of A over BASE and NEW to standard output.  */

static int
run_dims (struct diff_args *a, struct pf_set *base, struct pf_set *new)
{
  struct diff_model m;
  int rc = diff_build (base, new, a->q, a->by, &m);
  if (rc)
    return rc;
  struct printer p;
  memset (&p, 0, sizeof p);
  p.q = a->q;
  p.m = &m;
  uint64_t largest = m.base.total_ns > m.new.total_ns ? m.base.total_ns
                     : m.new.total_ns;
  p.unit = text_unit_pick (a->q->unit, largest);
  p.out = stdout;
  p.notes = notes_new ();
  if (!strcmp (a->q->format, "csv"))
    print_csv (&p);
  else if (!strcmp (a->q->format, "json"))
    print_json (&p, base, new);
  else
    print_text (&p);
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
  print_lines (&l, a->q->top, stdout);
  rc = close_output ("diff", NULL, stdout);
  if (!rc && a->fail && grown_lines (&l, a->fail_above))
    rc = EXIT_GREW;
  diff_lines_free (&l);
  return rc;
}

static int
run_diff (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "base", required_argument, NULL, OPT_BASE },
    { "new", required_argument, NULL, OPT_NEW },
    { "lines", no_argument, NULL, OPT_LINES },
    { "fail-above", required_argument, NULL, OPT_FAIL },
    { "change", required_argument, NULL, OPT_CHANGE },
    { NULL, 0, NULL, 0 }
  };
  struct query q;
  query_init (&q, argc);
  q.dims = XCNEWVEC (const char *, argc + 1);
  struct diff_args a;
  memset (&a, 0, sizeof a);
  a.q = &q;
  a.operands = XCNEWVEC (char *, argc + 1);
  a.base = XCNEWVEC (char *, argc + 1);
  a.new = XCNEWVEC (char *, argc + 1);
  struct query_cmd x = { "diff", longopts, "", diff_option, diff_operand, &a };
  bool help = false;
  int rc = query_parse (&x, argc, argv, &q, &help);
  if (!rc && help)
    rc = print_help (&cmd_diff);
  else if (!rc && !(rc = assign_operands (&a)))
    {
      if (q.ndims == 0)
        q.dims[q.ndims++] = "name";
      if (q.derive)
        rc = derive_load (q.derive);
      struct pf_set base, new;
      if (!rc && !(rc = diff_load_side (a.nbase, a.base, &base)))
        {
          if (!(rc = diff_load_side (a.nnew, a.new, &new)))
            {
              rc = a.lines ? run_lines (&a, &base, &new) : run_dims (&a, &base, &new);
              pf_free (&new);
            }
          pf_free (&base);
        }
    }
  query_free_filters (&q);
  free (q.dims);
  free (a.operands);
  free (a.base);
  free (a.new);
  return rc;
}

const struct command cmd_diff = {
  "diff", "what a change did: two profiles (or groups) side by side", run_diff,
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
  "then of Count, growth first, then value.\n\n"
  "  --change total|self|count  the figure rows are sorted by and --fail-above\n"
  "                       checks (default total)\n"
  "  --lines              line counts instead: FILE:LINE: BASE -> NEW (CHANGE,\n"
  "                       PCT%) for every line whose count changed (annotate's\n"
  "                       count of the line), largest change first\n"
  "  --fail-above PCT     exit status 3 when a bucket's figure (every bucket,\n"
  "                       shown or not), or with --lines a line's count, grew\n"
  "                       by more than PCT percent, each named on stderr; a\n"
  "                       bucket new in NEW (or a figure from 0) grew if its\n"
  "                       figure is above 0\n"
  "  --where, --unit, --top, --format text|csv|json, --raw, --derive, --sum\n"
  "                       as in `dsprof report`, for both sides\n\n"
  "Exit status: 0, 1 usage error, 2 unreadable input, 3 --fail-above exceeded.\n"
};
