/* html-tables.c - the tables of `dsprof html`'s page (html.h): the dimension
   report (model.h's tables), with --diff the diff model's (diff.h), the
   op records by name, their pairs and sequences (page.h's page_seqs), and
   the call graph (callgraph.h's cg_model).  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "html.h"

/* ---- the dimension tables -------------------------------------------------------- */

struct tables
{
  FILE *out;
  const struct rpt_model *m;
  long top;
  const struct text_unit *unit;
  const struct diff_model *diff;  /* with --diff, instead of M */
};

/* The heading of a table of DIM under the rows PATH[0 .. LEVEL), without its
   colon: "By D for v1 and v2".  */

static void
table_heading (FILE *out, const char *dim, int level, const char **path)
{
  fprintf (out, "<h3>By ");
  text_html (out, dim);
  for (int i = 0; i < level; i++)
    {
      fputs (i == 0 ? " for <span class=\"val\">" : i + 1 == level
             ? " and <span class=\"val\">" : ", <span class=\"val\">", out);
      text_html (out, path[i]);
      fputs ("</span>", out);
    }
}

/* Table T under the rows PATH, with its first --top rows and a note of how
   many it leaves out.  */

static void
table (const struct rpt_table *t, const char **path, void *arg)
{
  struct tables *ts = arg;
  FILE *out = ts->out;
  const char *dim = ts->m->dims[t->level];
  if (t->level && !t->nrows)
    return;
  table_heading (out, dim, t->level, path);
  fputs (":</h3>\n<table class=\"dims\">\n<thead><tr><th>Total</th><th>Total%</th>"
         "<th>Self</th><th>Self%</th><th>Desc</th><th>Desc%</th><th>Count</th>"
         "<th>Count%</th>", out);
  for (int k = 0; k < ts->m->nsums; k++)
    {
      fputs ("<th>Sum(", out);
      text_html (out, ts->m->sums[k]);
      fputs (")</th>", out);
    }
  fputs ("<th class=\"value\">", out);
  text_html (out, dim);
  fputs ("</th></tr></thead>\n<tbody>\n", out);
  uint64_t profiled = ts->m->profiled_ns, records = ts->m->records;
  uint32_t shown = rpt_shown (t, ts->top);
  for (uint32_t i = 0; i < shown; i++)
    {
      const struct rpt_row *r = &t->rows[i];
      char a[40], b[40], c[40];
      fprintf (out, "<tr><td>%s</td><td>%.1f</td><td>%s</td><td>%.1f</td>"
               "<td>%s</td><td>%.1f</td><td>%" PRIu64 "</td><td>%.1f</td>",
               text_time (a, sizeof a, r->total_ns, ts->unit),
               pct (r->total_ns, profiled),
               text_time (b, sizeof b, r->self_ns, ts->unit),
               pct (r->self_ns, profiled),
               text_time (c, sizeof c, r->desc_ns, ts->unit),
               pct (r->desc_ns, profiled), r->count, pct (r->count, records));
      for (int k = 0; k < ts->m->nsums; k++)
        fprintf (out, "<td>%s</td>", agg_sum_text (&r->sums[k], a, sizeof a));
      fputs ("<td class=\"value\">", out);
      text_html (out, r->value);
      if (r->clamped)
        fprintf (out, " <span class=\"note\">(Self clamped in %" PRIu64
                 " record%s)</span>", r->clamped, r->clamped > 1 ? "s" : "");
      fputs ("</td></tr>\n", out);
    }
  fputs ("</tbody>\n</table>\n", out);
  if (shown < t->nrows)
    fprintf (out, "<p class=\"note\">%" PRIu32 " more rows not shown (--top %ld).</p>\n",
             t->nrows - shown, ts->top);
}

/* The report M of Q as tables, level by level in the order `dsprof report`
   prints them.  */

void
html_tables (FILE *out, const struct rpt_model *m, const struct query *q)
{
  struct tables t = { out, m, q->top, text_unit_for (m->total_ns), NULL };
  char a[40], b[40];
  fputs ("<section id=\"tables\">\n<h2>Dimension report</h2>\n<p class=\"summary\">",
         out);
  fprintf (out, "Total time: <b>%s %s</b>. Profiled time: <b>%s %s</b> (%.1f%%). "
           "Profile records: <b>%" PRIu64 "</b>. Times in %s; Total counts each "
           "instant of a bucket's records and their descendants once, Self is the "
           "records' own time, Desc = Total - Self%s.</p>\n",
           text_time (a, sizeof a, m->total_ns, t.unit), t.unit->name,
           text_time (b, sizeof b, m->profiled_ns, t.unit), t.unit->name,
           pct (m->profiled_ns, m->total_ns), m->records, t.unit->name,
           q->raw ? ""
           : m->by_samples ? " (by samples of the threads' CPU time: below)"
           : " (the recorder's measured cost per event is deducted)");
  char share[512];
  agg_share_line (&m->share, m->total_ns, share, sizeof share);
  fputs ("<p class=\"summary\">Instrumentation: ", out);
  text_html (out, share);
  fputs (".</p>\n", out);
  if (agg_clamp_line (&m->share, share, sizeof share))
    {
      fputs ("<p class=\"summary\">Deduction: ", out);
      text_html (out, share);
      fputs (".</p>\n", out);
    }
  if (m->by_samples)
    {
      fputs ("<p class=\"summary\">Sampled: ", out);
      text_html (out, agg_samples_line (&m->samples, m->samples_cpu_ns, share,
                                        sizeof share));
      fputs (".</p>\n", out);
    }
  if (m->records == 0)
    fputs ("<p class=\"note\">No profile records.</p>\n", out);
  else
    {
      const char **path = XCNEWVEC (const char *, q->ndims + 1);
      for (int level = 0; level < q->ndims; level++)
        rpt_each_table (m, level, q->top, path, table, &t);
      free (path);
    }
  fputs ("</section>\n", out);
}

/* With --diff: table T of the diff model under PATH, each row with both
   sides' Total, Self and Count, their changes and percentages; the row's
   class its status (both, new, gone) and its data the counts.  */

static void
change_cells (FILE *out, const struct diff_row *r, uint64_t b, uint64_t n,
              const struct text_unit *u)
{
  char x[40], y[40], d[48];
  uint64_t by = n >= b ? n - b : b - n;
  if (u)
    {
      text_time (x, sizeof x, b, u);
      text_time (y, sizeof y, n, u);
      snprintf (d, sizeof d, "%s%s", by ? n > b ? "+" : "-" : "",
                text_time (x + 20, 20, by, u));
    }
  else
    {
      snprintf (x, sizeof x, "%" PRIu64, b);
      snprintf (y, sizeof y, "%" PRIu64, n);
      snprintf (d, sizeof d, "%s%" PRIu64, by ? n > b ? "+" : "-" : "", by);
    }
  double pct;
  fprintf (out, "<td>%s</td><td>%s</td><td class=\"%s\">%s</td><td>",
           r->base ? x : "-", r->new ? y : "-",
           n > b ? "grew" : n < b ? "shrank" : "same", d);
  if (!r->base)
    fputs ("new", out);
  else if (!r->new)
    fputs ("gone", out);
  else if (diff_pct (b, n, &pct))
    fprintf (out, "%+.1f", pct);
  fputs ("</td>", out);
}

static void
diff_table (const struct diff_table *t, const char **path, void *arg)
{
  struct tables *ts = arg;
  FILE *out = ts->out;
  const struct diff_model *dm = ts->diff;
  const char *dim = dm->base.dims[t->level];
  if (t->level && !t->nrows)
    return;
  table_heading (out, dim, t->level, path);
  fputs (":</h3>\n<table class=\"dims diff\">\n<thead><tr>", out);
  static const char *const figs[] = { "Total", "Self", "Count" };
  for (int k = 0; k < 3; k++)
    fprintf (out, "<th>Base %s</th><th>New %s</th><th>Change</th><th>Change%%</th>",
             figs[k], figs[k]);
  fputs ("<th class=\"value\">", out);
  text_html (out, dim);
  fputs ("</th></tr></thead>\n<tbody>\n", out);
  uint32_t shown = diff_shown (t, ts->top);
  for (uint32_t i = 0; i < shown; i++)
    {
      const struct diff_row *r = &t->rows[i];
      const struct rpt_row *b = r->base, *n = r->new;
      fprintf (out, "<tr class=\"%s\">", !b ? "new" : !n ? "gone" : "both");
      change_cells (out, r, b ? b->total_ns : 0, n ? n->total_ns : 0, ts->unit);
      change_cells (out, r, b ? b->self_ns : 0, n ? n->self_ns : 0, ts->unit);
      change_cells (out, r, b ? b->count : 0, n ? n->count : 0, NULL);
      fputs ("<td class=\"value\">", out);
      text_html (out, r->value);
      fputs ("</td></tr>\n", out);
    }
  fputs ("</tbody>\n</table>\n", out);
  if (shown < t->nrows)
    fprintf (out, "<p class=\"note\">%" PRIu32 " more rows not shown (--top %ld).</p>\n",
             t->nrows - shown, ts->top);
}

/* With --diff: the diff model M of Q as tables, level by level.  */

void
html_diff_tables (FILE *out, const struct diff_model *m, const struct query *q)
{
  uint64_t largest = m->base.total_ns > m->new.total_ns ? m->base.total_ns
                     : m->new.total_ns;
  struct tables t = { out, NULL, q->top, text_unit_for (largest), m };
  char a[40], b[40];
  fputs ("<section id=\"tables\">\n<h2>Dimension report: base and new</h2>\n"
         "<p class=\"summary\">", out);
  fprintf (out, "Profiled time: <b>%s %s</b> in the base, ",
           text_time (a, sizeof a, m->base.profiled_ns, t.unit), t.unit->name);
  fprintf (out, "<b>%s %s</b> in the new profiles; profile records: <b>%" PRIu64
           "</b> and <b>%" PRIu64 "</b>. Times in %s. Per bucket both sides' Total, "
           "Self and Count, the change (new - base) and its percentage of the "
           "base; rows by the size of the change of Total, as <code>dsprof "
           "diff</code> gives them; <i>new</i> and <i>gone</i>: buckets of one "
           "side only.</p>\n", text_time (b, sizeof b, m->new.profiled_ns, t.unit),
           t.unit->name, m->base.records, m->new.records, t.unit->name);
  if (m->base.records == 0 && m->new.records == 0)
    fputs ("<p class=\"note\">No profile records.</p>\n", out);
  else
    {
      const char **path = XCNEWVEC (const char *, q->ndims + 1);
      for (int level = 0; level < q->ndims; level++)
        diff_each_table (m, level, q->top, path, diff_table, &t);
      free (path);
    }
  fputs ("</section>\n", out);
}

/* The per-opcode table (docs/vm.md).  */

void
html_opcodes (FILE *out, const struct rpt_model *ops, const struct query *q)
{
  struct tables t = { out, ops, q->top, text_unit_for (ops->total_ns), NULL };
  fprintf (out, "<section id=\"opcodes\">\n<h2>Opcodes</h2>\n<p>The %" PRIu64
           " op records (a bytecode VM's opcodes, docs/vm.md) by name, as "
           "<code>dsprof report name --where event=op</code> gives them; times "
           "in %s.</p>\n", ops->records, t.unit->name);
  const char *path[2] = { NULL, NULL };
  rpt_each_table (ops, 0, q->top, path, table, &t);
  fputs ("</section>\n", out);
}

/* Table K of the opcode pairs and sequences S (page.h's page_seqs: the
   pairs, the sequences of 3, of 4), the --top TOP most frequent rows, Share%
   of the OPS op records; notes of the rows --top leaves out and of the op
   records without a row.  */

static void
seq_table (FILE *out, const struct page_seqs *s, int k, uint64_t ops, long top)
{
  if (k)
    fprintf (out, "<h3 id=\"seq%d\">Sequences of %d</h3>\n", k + 2, k + 2);
  else
    fputs ("<h3 id=\"pairs2\">Pairs</h3>\n", out);
  fputs ("<table class=\"seqs\">\n<thead><tr><th>Count</th><th>Share%</th>", out);
  if (k)
    fprintf (out, "<th class=\"value\">seq%d:name</th>", k + 2);
  else
    fputs ("<th class=\"value\">prev:name</th><th class=\"value\">name</th>", out);
  fputs ("</tr></thead>\n<tbody>\n", out);
  uint32_t n = s->nrows[k];
  uint32_t shown = top > 0 && (uint32_t) top < n ? (uint32_t) top : n;
  for (uint32_t i = 0; i < shown; i++)
    {
      const struct page_seq *r = &s->rows[k][i];
      fprintf (out, "<tr><td>%" PRIu64 "</td><td>%.1f</td><td class=\"value\">",
               r->count, pct (r->count, ops));
      if (r->prev)
        {
          text_html (out, r->prev);
          fputs ("</td><td class=\"value\">", out);
        }
      text_html (out, r->value);
      fputs ("</td></tr>\n", out);
    }
  fputs ("</tbody>\n</table>\n", out);
  if (shown < n)
    fprintf (out, "<p class=\"note\">%" PRIu32 " more rows not shown (--top %ld)."
             "</p>\n", n - shown, top);
  if (!s->none[k])
    return;
  if (k)
    fprintf (out, "<p class=\"note\">Op records with fewer than %d opcodes before "
             "them in their call: %" PRIu64 ".</p>\n", k + 1, s->none[k]);
  else
    fprintf (out, "<p class=\"note\">Op records with no opcode before them (the "
             "first of their call): %" PRIu64 ".</p>\n", s->none[k]);
}

/* The opcode pairs and sequences S of the OPS op records (docs/vm.md), Q's
   --top rows of each.  */

void
html_pairs (FILE *out, const struct page_seqs *s, uint64_t ops,
            const struct query *q)
{
  fprintf (out, "<section id=\"pairs\">\n<h2>Opcode pairs</h2>\n<p>Which opcode "
           "runs after which in a call of the dispatch function, to design "
           "superinstructions from (docs/vm.md): the pairs of <code>dsprof report "
           "prev:name name --where event=op</code> as one table, and the "
           "sequences of 3 and 4 opcodes of <code>seq3:name</code> and "
           "<code>seq4:name</code>, most frequent first; Share%% of the %" PRIu64
           " op records.</p>\n", ops);
  for (int k = 0; k < 3; k++)
    seq_table (out, s, k, ops, q->top);
  fputs ("</section>\n", out);
}

/* ---- the call graph -------------------------------------------------------------- */

/* The call graph of `dsprof callgraph` (cg_build) as a table: one body per
   entry, its callers, its own line and its callees (or members) as rows, with
   the figures `dsprof callgraph` prints.  */

static void
callgraph_entry (FILE *out, const struct cg_entry *e, const struct text_unit *u)
{
  const char *role = "caller";
  fputs ("<tbody>\n", out);
  for (uint32_t j = 0; j < e->nlines; j++)
    {
      const struct cg_line *l = &e->lines[j];
      char a[32] = "", b[32] = "", p[16] = "";
      if (l->primary)
        role = "entry";
      if (l->times)
        {
          text_time (a, sizeof a, l->self_ns, u);
          text_time (b, sizeof b, l->desc_ns, u);
        }
      if (l->pct >= 0)
        snprintf (p, sizeof p, "%.1f", l->pct);
      fprintf (out, "<tr class=\"%s\"><td>", role);
      if (l->primary)
        fprintf (out, "[%u]", e->index);
      fprintf (out, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
               "<td class=\"value\">", p, a, b, l->called);
      text_html (out, l->name);
      fputs ("</td></tr>\n", out);
      if (l->primary)
        role = "callee";
    }
  fputs ("</tbody>\n", out);
}

/* The call graph M as a table.  */

void
html_callgraph (FILE *out, const struct cg_model *m)
{
  const struct text_unit *u = text_unit_for (m->profiled_ns);
  char a[32];
  fputs ("<section id=\"callgraph\">\n<h2>Call graph by ", out);
  text_html (out, m->dim);
  fprintf (out, "</h2>\n<p class=\"summary\">%" PRIu64 " records, profiled time "
           "<b>%s %s</b>. Times in %s. Per entry [n], by total time: its callers "
           "(calls from that caller/all calls, <i>&lt;spontaneous&gt;</i>: top "
           "level), its own line (%% of the profiled time, self, children, calls "
           "+ direct recursive calls), its callees.</p>\n",
           m->records, text_time (a, sizeof a, m->profiled_ns, u), u->name,
           u->name);
  fputs ("<table class=\"callgraph\">\n<thead><tr><th>index</th><th>%time</th>"
         "<th>self</th><th>children</th><th>called</th><th class=\"value\">name"
         "</th></tr></thead>\n", out);
  for (uint32_t i = 0; i < m->nentries; i++)
    callgraph_entry (out, &m->entries[i], u);
  fputs ("</table>\n</section>\n", out);
}
