/* diff-view.c - `dsprof diff` (docs/contract.md §5.9) written from its model
   (diff.h): the two reports side by side as text, CSV or JSON, and the
   changed line counts as FILE:LINE: lines.  */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "diff-view.h"
#include "tables.h"

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

static void
text_row (struct diff_printer *p, const struct diff_row *r)
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
  struct diff_printer *p = arg;
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
header_line (struct diff_printer *p, const char *label, uint64_t b, uint64_t n,
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

void
diff_print_text (struct diff_printer *p)
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
  struct diff_printer *p = arg;
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

void
diff_print_csv (struct diff_printer *p)
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
json_rows (struct diff_printer *p, const struct diff_table *t)
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

void
diff_print_json (struct diff_printer *p)
{
  const struct pf_set *base = p->base, *new = p->new;
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

void
diff_print_lines (const struct diff_lines *l, long top, FILE *out)
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
