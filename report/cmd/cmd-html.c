/* cmd-html.c - `dsprof html` (docs/contract.md §5.8): the profile as one self-contained HTML
   page, CSS, script and SVG inline, nothing fetched:

     - a summary of what the profile holds, linking to the views,
     - the dimension report of a query (model.h's tables),
     - an icicle graph of the record tree in SVG: one box per record, or, past
       --records boxes, one per name path (a;b;c) with the records' summed time;
       hovering a box shows its dimensions and times,
     - the call graph (model.h's cg_model, as a table),
     - the hottest source lines: the largest block counts by line, as
       `dsprof annotate` counts them (linecount.h's lc_model), with the source
       text when it is found, each linked to its line in the source view,
     - the coverage summary by source file (coverage.h, as `dsprof summary`
       counts it) and the source view: each file's text with its line and
       branch counts.

   The views are in the order the page shows them (record_views); those that
   would be empty are left out (counter_views: no records).  The page reads
   without its script, which works on the page as written (page_script).

   With --diff BASE the page compares (diff.h): the tables of the diff model,
   the icicle graph of the name paths coloured by their change from the
   base's same paths, and the changed lines instead of the hottest.

   Every text taken from a profile or a source file is escaped for HTML.  */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "cmd.h"
#include "coverage.h"
#include "diff.h"
#include "linecount.h"
#include "model.h"
#include "stacks.h"


static double
pct (uint64_t part, uint64_t whole)
{
  return whole ? 100.0 * (double) part / (double) whole : 0.0;
}

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

static void
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
           q->raw ? "" : " (the recorder's measured cost per event is deducted)");
  char share[256];
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

static void
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

/* ---- the icicle graph ------------------------------------------------------------ */

/* The graph has two forms.  With at most --records records, one box per record:
   each thread's top-level records side by side (the time between them is not
   shown), each record's descendants below it at their offsets in its time.
   With more, one box per name path (the names of a record and its ancestors),
   its width the summed time of the path's records, children ordered by name -
   a flame graph, bounded by the paths that occur.  Times are as recorded.  */

enum { SVG_WIDTH = 1200, ROW = 18, MAX_ROWS = 256, MAX_BOXES = 20000 };

/* A record, in the per-record form.  */
struct rnode
{
  uint64_t start, end;
  char *name, *tip;
  bool complete, done;
  struct rnode **kids;
  uint32_t nkids, cap;
};

/* The top-level records of one thread of one process.  */
struct lane
{
  int64_t pid;
  uint32_t thread;
  struct rnode **tops;
  uint32_t ntops, cap;
};

struct flame
{
  struct stacks *paths;          /* the name paths (stacks.h) */
  struct stacks *base;           /* with --diff: the base's name paths */
  uint32_t *base_of;             /* with --diff: each path's node in base, or
                                    NO_BASE */
  uint64_t records;
  /* records */
  struct lane *lanes;
  uint32_t nlanes;
  bool exact;                     /* the records drawn, not the name paths */
  uint32_t boxes;                /* drawn */
  bool clipped_depth, clipped_boxes;
};

#define PUSH(arr, n, cap, x)                                                    \
  do                                                                           \
    {                                                                          \
      if ((n) == (cap))                                                        \
        {                                                                      \
          (cap) = (cap) ? 2 * (cap) : 4;                                       \
          (arr) = XRESIZEVEC (__typeof__ (*(arr)), (arr), (cap));              \
        }                                                                      \
      (arr)[(n)++] = (x);                                                      \
    }                                                                          \
  while (0)

static struct rnode *
rnode_of (struct ev_record *r)
{
  if (!r->user)
    r->user = XCNEW (struct rnode);
  return r->user;
}

static void
lane_begin (const struct pf_process *p, const struct ev_stream *s, void *arg)
{
  struct flame *f = arg;
  f->lanes = XRESIZEVEC (struct lane, f->lanes, f->nlanes + 1);
  struct lane *l = &f->lanes[f->nlanes++];
  memset (l, 0, sizeof *l);
  l->pid = p->header.pid;
  l->thread = s->thread;
}

/* The tooltip of R: its dimensions as `dsprof records` shows them, its times.  */

static char *
record_tip (const struct ev_record *r)
{
  char *text = NULL;
  size_t size = 0;
  FILE *m = open_memstream (&text, &size);
  if (!m)
    return xstrdup (ev_record_name (r, NULL));
  char buf[EV_VALUE_SIZE];
  /* Start's dimensions, the result, those added, complete.  */
  uint32_t nstart = r->site ? 5 + r->site->ndims : 3;
  nstart = nstart < r->ndims ? nstart : r->ndims;
  for (int pass = 0; pass < 4; pass++)
    for (uint32_t i = pass ? nstart : 0; i < (pass ? r->ndims : nstart); i++)
      {
        bool result = !strcmp (r->dims[i].name, "result");
        bool complete = !strcmp (r->dims[i].name, "complete");
        if (pass && (pass == 1) != result)
          continue;
        if (pass && (pass == 3) != complete)
          continue;
        fprintf (m, "%s=", r->dims[i].name);
        text_value (m, ev_format_value (&r->dims[i].v, buf, sizeof buf));
        putc ('\n', m);
      }
  uint64_t own = r->end_ns - r->start_ns;
  fprintf (m, "time: %s", text_duration (buf, sizeof buf, own));
  fprintf (m, " (from %" PRIu64 " ns to %" PRIu64 " ns)", r->start_ns, r->end_ns);
  fclose (m);
  return text;
}

static int
exact_record (struct ev_record *r, void *arg)
{
  struct flame *f = arg;
  struct rnode *n = rnode_of (r);
  n->start = r->start_ns;
  n->end = r->end_ns;
  n->name = xstrdup (ev_record_name (r, NULL));
  n->tip = record_tip (r);
  n->complete = r->complete;
  n->done = true;
  if (r->parent)
    {
      struct rnode *p = rnode_of (r->parent);
      PUSH (p->kids, p->nkids, p->cap, n);
    }
  else
    {
      struct lane *l = &f->lanes[f->nlanes - 1];
      PUSH (l->tops, l->ntops, l->cap, n);
    }
  return 0;
}

static void
rnode_free (struct rnode *n)
{
  for (uint32_t i = 0; i < n->nkids; i++)
    rnode_free (n->kids[i]);
  free (n->kids);
  free (n->name);
  free (n->tip);
  free (n);
}

/* A colour for NAME: warm hues, the same for the same name.  */

static void
put_fill (FILE *out, const char *name)
{
  hashval_t h = htab_hash_string (name);
  fprintf (out, "hsl(%u,%u%%,%u%%)", 10 + h % 45, 65 + (h >> 8) % 25,
           55 + (h >> 16) % 15);
}

/* A box's figures for the page's script: its time (ns), self time (ns) and
   records.  */
struct figs
{
  uint64_t total, self, count;
};

/* One box: its tooltip TIP, CLASS, at X, DEPTH, WIDTH, labelled NAME, its
   figures FG; filled with FILL, or NAME's colour when NULL; ATTRS (or NULL)
   more attributes of the rect.  */

static void
box (FILE *out, struct flame *f, const char *cls, double x, uint32_t depth,
     double w, const char *name, struct figs fg, const char *tip, bool dashed,
     const char *fill, const char *attrs)
{
  f->boxes++;
  fputs ("<g class=\"box\" data-name=\"", out);
  text_html (out, name);
  fprintf (out, "\" data-total=\"%" PRIu64 "\" data-self=\"%" PRIu64 "\" "
           "data-count=\"%" PRIu64 "\"><title>", fg.total, fg.self, fg.count);
  text_html (out, tip);
  fprintf (out, "</title><rect class=\"%s%s\" x=\"%.2f\" y=\"%u\" width=\"%.2f\" "
           "height=\"%d\"%s fill=\"", cls, dashed ? " incomplete" : "", x,
           depth * ROW, w < 0.5 ? 0.5 : w, ROW - 1, attrs ? attrs : "");
  if (fill)
    fputs (fill, out);
  else if (!strcmp (cls, "lane"))
    fputs ("#d8d8e0", out);
  else
    put_fill (out, name);
  fputs ("\"/>", out);
  /* A label when it fits: about 7 px per character at 12px; a longer name is cut
     before a character.  */
  size_t fit = w > 24 ? (size_t) ((w - 6) / 7) : 0;
  if (fit >= 2)
    {
      size_t len = strlen (name);
      fprintf (out, "<text x=\"%.2f\" y=\"%u\">", x + 3, depth * ROW + ROW - 5);
      if (len <= fit)
        text_html (out, name);
      else
        {
          text_html_n (out, name, text_utf8_cut (name, len, fit - 2));
          fputs ("..", out);
        }
      fputs ("</text>", out);
    }
  fputs ("</g>\n", out);
}

/* R and its descendants at X (px), DEPTH, SCALE px per ns.  */

static void
draw_record (FILE *out, struct flame *f, const struct rnode *r, double x,
             uint32_t depth, double scale)
{
  if (depth >= MAX_ROWS)
    {
      f->clipped_depth = true;
      return;
    }
  uint64_t kids = 0;
  for (uint32_t i = 0; i < r->nkids; i++)
    kids += r->kids[i]->end - r->kids[i]->start;
  struct figs fg = { r->end - r->start, 0, 1 };
  fg.self = fg.total > kids ? fg.total - kids : 0;
  box (out, f, "rec", x, depth, (double) (r->end - r->start) * scale, r->name,
       fg, r->tip, !r->complete, NULL, NULL);
  for (uint32_t i = 0; i < r->nkids; i++)
    draw_record (out, f, r->kids[i],
                 x + (double) (r->kids[i]->start - r->start) * scale, depth + 1,
                 scale);
}

static uint32_t
rnode_depth (const struct rnode *r)
{
  uint32_t d = 0;
  for (uint32_t i = 0; i < r->nkids; i++)
    {
      uint32_t k = rnode_depth (r->kids[i]);
      d = k > d ? k : d;
    }
  return d + 1;
}

/* The rows the paths under node M of S take, at most LIMIT.  */

static uint32_t
path_depth (const struct stacks *s, const struct st_node *m, double scale,
            uint32_t limit)
{
  uint32_t d = 0;
  for (uint32_t c = m->first; c && limit > 1 && d + 1 < limit;
       c = st_node (s, c)->next)
    if ((double) st_node (s, c)->total_ns * scale >= 0.1)
      {
        uint32_t k = path_depth (s, st_node (s, c), scale, limit - 1);
        d = k > d ? k : d;
      }
  return d + 1;
}

static int
cmp_path (const void *a, const void *b)
{
  return strcmp ((*(const struct st_node *const *) a)->name,
                 (*(const struct st_node *const *) b)->name);
}

/* The children of node M of S, sorted by name (free the array).  */

static const struct st_node **
sorted_kids (const struct stacks *s, const struct st_node *m)
{
  const struct st_node **kids = XNEWVEC (const struct st_node *, m->nkids + 1);
  uint32_t n = 0;
  for (uint32_t c = m->first; c; c = st_node (s, c)->next)
    kids[n++] = st_node (s, c);
  if (n > 1)
    qsort (kids, n, sizeof *kids, cmp_path);
  return kids;
}

enum { NO_BASE = UINT32_MAX };

/* With --diff, how the box of path M of F shows its change: the base's
   time and records and the change added to the tooltip T; its class CLS,
   FILL and data attributes ATTRS.  Red for a path that got slower (its
   time as recorded grew), the deeper the more it grew (full at twice the
   base), blue for one that got faster (full at nothing left), grey for no
   change; a path new in this profile full red.  */

static void
change_look (FILE *t, const struct flame *f, const struct st_node *m, char cls[16],
             char fill[48], char attrs[160])
{
  uint32_t b = f->base_of[m->id];
  char buf[64];
  if (b == NO_BASE)
    {
      strcpy (cls, "rec new");
      strcpy (fill, "hsl(0,85%,50%)");
      snprintf (attrs, 160, " data-new-ns=\"%" PRIu64 "\" data-new-count=\"%"
                PRIu64 "\"", m->total_ns, m->count);
      fputs ("\nchange: new (not in the base)", t);
      return;
    }
  const struct st_node *n = st_node (f->base, b);
  double pct;
  bool some = diff_pct (n->total_ns, m->total_ns, &pct);
  double r = some ? fabs (pct) / 100.0 : m->total_ns ? 1.0 : 0.0;
  r = r > 1 ? 1 : r;
  bool grew = m->total_ns > n->total_ns, same = m->total_ns == n->total_ns;
  strcpy (cls, same ? "rec same" : grew ? "rec grew" : "rec shrank");
  if (same)
    strcpy (fill, "hsl(0,0%,85%)");
  else
    snprintf (fill, 48, "hsl(%d,80%%,%d%%)", grew ? 0 : 220, 90 - (int) (40 * r));
  snprintf (attrs, 160, " data-base-ns=\"%" PRIu64 "\" data-new-ns=\"%" PRIu64
            "\" data-base-count=\"%" PRIu64 "\" data-new-count=\"%" PRIu64 "\"",
            n->total_ns, m->total_ns, n->count, m->count);
  fprintf (t, "\nbase: %s, %" PRIu64 " records",
           text_duration (buf, sizeof buf, n->total_ns), n->count);
  fprintf (t, "\nchange: %s%s", grew ? "+" : same ? "" : "-",
           text_duration (buf, sizeof buf, grew ? m->total_ns - n->total_ns
                                                : n->total_ns - m->total_ns));
  if (some)
    fprintf (t, " (%+.1f%%)", pct);
}

static void draw_kids (FILE *out, struct flame *f, const struct st_node *m,
                       double x, uint32_t depth, double scale);

static void
draw_path (FILE *out, struct flame *f, const struct st_node *m, double x,
           uint32_t depth, double scale)
{
  if (depth >= MAX_ROWS)
    {
      f->clipped_depth = true;
      return;
    }
  if (f->boxes >= MAX_BOXES)
    {
      f->clipped_boxes = true;
      return;
    }
  /* The path's text, outermost first, and its times.  */
  const struct stacks *s = f->paths;
  char *tip = NULL;
  size_t size = 0;
  FILE *t = open_memstream (&tip, &size);
  if (!t)
    return;
  uint32_t n = 0;
  for (const struct st_node *a = m; a->id; a = st_node (s, a->parent))
    n++;
  const char **names = XNEWVEC (const char *, n + 1);
  uint32_t k = n;
  for (const struct st_node *a = m; a->id; a = st_node (s, a->parent))
    names[--k] = a->name;
  fputs ("path: ", t);
  for (uint32_t i = 0; i < n; i++)
    fprintf (t, "%s%s", i ? ";" : "", names[i]);
  free (names);
  uint64_t kids = 0;
  for (uint32_t c = m->first; c; c = st_node (s, c)->next)
    kids += st_node (s, c)->total_ns;
  const struct st_node *root = st_node (s, 0);
  char buf[64];
  fprintf (t, "\nrecords: %" PRIu64, m->count);
  if (m->incomplete)
    fprintf (t, " (%" PRIu64 " incomplete)", m->incomplete);
  fprintf (t, "\ntime: %s (%.1f%% of the profiled time)",
           text_duration (buf, sizeof buf, m->total_ns),
           pct (m->total_ns, root->total_ns));
  fprintf (t, "\nself: %s",
           text_duration (buf, sizeof buf,
                          m->total_ns > kids ? m->total_ns - kids : 0));
  char cls[16] = "rec", fill[48], attrs[160];
  if (f->base)
    change_look (t, f, m, cls, fill, attrs);
  fclose (t);
  struct figs fg = { m->total_ns, m->total_ns > kids ? m->total_ns - kids : 0,
                     m->count };
  box (out, f, cls, x, depth, (double) m->total_ns * scale, m->name, fg, tip,
       m->incomplete == m->count, f->base ? fill : NULL, f->base ? attrs : NULL);
  free (tip);
  draw_kids (out, f, m, x, depth + 1, scale);
}

/* The paths below node M at X, DEPTH: its children side by side by name.  */

static void
draw_kids (FILE *out, struct flame *f, const struct st_node *m, double x,
           uint32_t depth, double scale)
{
  const struct st_node **kids = sorted_kids (f->paths, m);
  for (uint32_t i = 0; i < m->nkids; i++)
    {
      double w = (double) kids[i]->total_ns * scale;
      if (w >= 0.1)
        draw_path (out, f, kids[i], x, depth, scale);
      x += w;
    }
  free (kids);
}

/* The record tree of SET into *F: one node per record (F->exact) when there are
   at most MAX_RECORDS, else one per name path.  Return 0 or EXIT_DATA; free F
   with flame_free either way.  */

static int
flame_build (struct pf_set *set, uint64_t max_records, struct flame *f)
{
  memset (f, 0, sizeof *f);
  int rc;
  f->paths = st_build (set, true, &rc);
  f->records = f->paths ? st_node (f->paths, 0)->count : 0;
  f->exact = !rc && f->records <= max_records;
  if (f->exact)
    rc = pf_walk_streams (set, NULL, exact_record, lane_begin, f, 0);
  return rc;
}

static void
flame_free (struct flame *f)
{
  for (uint32_t i = 0; i < f->nlanes; i++)
    {
      for (uint32_t k = 0; k < f->lanes[i].ntops; k++)
        rnode_free (f->lanes[i].tops[k]);
      free (f->lanes[i].tops);
    }
  free (f->lanes);
  st_free (f->paths);
  if (f->base)
    st_free (f->base);
  free (f->base_of);
}

/* With --diff: F's name paths and BASE's, each path of F matched with the
   base's path of the same names (F->base_of), drawn by name path whatever
   their number.  Return 0 or EXIT_DATA; free F with flame_free either way.  */

static int
flame_build_diff (struct pf_set *set, struct pf_set *base, struct flame *f)
{
  memset (f, 0, sizeof *f);
  int rc;
  f->paths = st_build (set, true, &rc);
  if (!rc)
    f->base = st_build (base, true, &rc);
  if (rc)
    return rc;
  f->records = st_node (f->paths, 0)->count;
  uint32_t n = st_nnodes (f->paths);
  f->base_of = XNEWVEC (uint32_t, n);
  f->base_of[0] = 0;
  /* Each node after its parent: the parent's match is known.  */
  for (uint32_t id = 1; id < n; id++)
    {
      const struct st_node *m = st_node (f->paths, id);
      uint32_t pb = f->base_of[m->parent], found = NO_BASE;
      for (uint32_t c = pb == NO_BASE ? 0 : st_node (f->base, pb)->first;
           c && found == NO_BASE; c = st_node (f->base, c)->next)
        if (!strcmp (st_node (f->base, c)->name, m->name))
          found = c;
      f->base_of[id] = found;
    }
  return 0;
}

/* With --diff: a note of the base's paths that F has not (gone), the first
   few named.  */

static void
gone_note (FILE *out, const struct flame *f)
{
  uint32_t nb = st_nnodes (f->base), gone = 0;
  bool *seen = XCNEWVEC (bool, nb);
  for (uint32_t id = 0; id < st_nnodes (f->paths); id++)
    if (f->base_of[id] != NO_BASE)
      seen[f->base_of[id]] = true;
  for (uint32_t b = 1; b < nb; b++)
    if (!seen[b] && seen[st_node (f->base, b)->parent])
      {
        /* A gone path whose parent stayed: its subtree is gone with it.  */
        const struct st_node *g = st_node (f->base, b);
        if (!gone++)
          fputs ("<p class=\"note\" id=\"gone\">Paths of the base not in the new "
                 "profiles (gone, not drawn):", out);
        fputs (" <span class=\"gone val\">", out);
        uint32_t depth = 0;
        for (const struct st_node *a = g; a->id; a = st_node (f->base, a->parent))
          depth++;
        const char **names = XNEWVEC (const char *, depth + 1);
        for (const struct st_node *a = g; a->id; a = st_node (f->base, a->parent))
          names[--depth] = a->name;
        for (const struct st_node *a = g; a->id; a = st_node (f->base, a->parent))
          depth++;
        for (uint32_t i = 0; i < depth; i++)
          {
            if (i)
              fputc (';', out);
            text_html (out, names[i]);
          }
        free (names);
        fputs ("</span>", out);
      }
  if (gone)
    fputs ("</p>\n", out);
  free (seen);
}

/* The time of the top-level records of lane L.  */

static uint64_t
lane_width (const struct lane *l)
{
  uint64_t w = 0;
  for (uint32_t k = 0; k < l->ntops; k++)
    w += l->tops[k]->end - l->tops[k]->start;
  return w;
}

/* The depth and scale of the exact graph of F; whether it shows lanes (the
   threads side by side, a row of their own on top).  */

static bool
lanes_extent (const struct flame *f, uint32_t *depth, double *scale)
{
  uint64_t width = 0;
  uint32_t nonempty = 0;
  *depth = 0;
  for (uint32_t i = 0; i < f->nlanes; i++)
    {
      nonempty += f->lanes[i].ntops > 0;
      width += lane_width (&f->lanes[i]);
      for (uint32_t k = 0; k < f->lanes[i].ntops; k++)
        {
          uint32_t d = rnode_depth (f->lanes[i].tops[k]);
          *depth = d > *depth ? d : *depth;
        }
    }
  bool lanes = nonempty > 1;
  *depth += lanes;
  *scale = (double) SVG_WIDTH / (double) (width ? width : 1);
  return lanes;
}

/* The exact graph: each lane's top-level records side by side.  */

static void
draw_lanes (FILE *out, struct flame *f, bool lanes, double scale)
{
  double x = 0;
  for (uint32_t i = 0; i < f->nlanes; i++)
    {
      const struct lane *l = &f->lanes[i];
      if (!l->ntops)
        continue;
      uint64_t lw = lane_width (l);
      if (lanes)
        {
          char name[64], tip[160], buf[64];
          snprintf (name, sizeof name, "pid %" PRId64 " thread %u", l->pid,
                    l->thread);
          snprintf (tip, sizeof tip, "process %" PRId64 ", thread %u\n"
                    "%u top-level records, %s", l->pid, l->thread, l->ntops,
                    text_duration (buf, sizeof buf, lw));
          struct figs fg = { lw, 0, l->ntops };
          box (out, f, "lane", x, 0, (double) lw * scale, name, fg, tip, false,
               NULL, NULL);
        }
      double at = x;
      for (uint32_t k = 0; k < l->ntops; k++)
        {
          draw_record (out, f, l->tops[k], at, lanes, scale);
          at += (double) (l->tops[k]->end - l->tops[k]->start) * scale;
        }
      x += (double) lw * scale;
    }
}

/* The graph by name path: the top-level names by name.  */

static void
draw_paths (FILE *out, struct flame *f, double scale)
{
  draw_kids (out, f, st_node (f->paths, 0), 0, 0, scale);
}

/* Write the icicle graph of F (flame_build with MAX_RECORDS).  */

static void
html_flame (FILE *out, struct flame *f, uint64_t max_records)
{
  fputs ("<section id=\"flame\">\n<h2>Record tree</h2>\n", out);
  if (f->records == 0)
    {
      fputs ("<p class=\"note\">No profile records.</p>\n</section>\n", out);
      return;
    }
  uint32_t depth;
  double scale;
  bool lanes = false;
  if (f->exact)
    {
      lanes = lanes_extent (f, &depth, &scale);
      fprintf (out, "<p>One box per record (%" PRIu64 "): %s top-level records side "
               "by side, each record's descendants below it at their times; width "
               "is time as recorded.  Hover over a box for its dimensions.</p>\n",
               f->records, lanes ? "each thread's" : "the");
    }
  else
    {
      const struct st_node *root = st_node (f->paths, 0);
      scale = (double) SVG_WIDTH / (double) (root->total_ns ? root->total_ns : 1);
      depth = path_depth (f->paths, root, scale, MAX_ROWS + 2) - 1;
      if (f->base)
        fputs ("<p>The new profiles' record tree, one box per name path (a record "
               "and its ancestors' names), its width the summed time of the "
               "path's records, as recorded; its colour the change from the "
               "base's same path: <span class=\"grew\">red</span> slower (the "
               "deeper, the more: full at twice the time), <span class=\"shrank\">"
               "blue</span> faster, grey the same, full red a path new here.  "
               "Hover over a box for both sides' times.</p>\n", out);
      else
        fprintf (out, "<p>%" PRIu64 " records, more than %" PRIu64 ", so one box "
                 "per name path (a record and its ancestors' names), its width "
                 "the summed time of the path's records, as recorded.  Hover over "
                 "a box for its records and times.</p>\n", f->records, max_records);
    }
  if (depth > MAX_ROWS)
    depth = MAX_ROWS;
  fprintf (out, "<div class=\"detail\" id=\"detail\">Hover over a box to see it here.</div>\n"
           "<svg class=\"flame\" width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" "
           "data-row=\"%d\">\n", SVG_WIDTH, depth * ROW, SVG_WIDTH, depth * ROW, ROW);
  if (f->exact)
    draw_lanes (out, f, lanes, scale);
  else
    draw_paths (out, f, scale);
  fputs ("</svg>\n", out);
  if (f->base)
    gone_note (out, f);
  if (f->clipped_depth)
    fprintf (out, "<p class=\"note\">Records deeper than %d levels are not drawn."
             "</p>\n", MAX_ROWS);
  if (f->clipped_boxes)
    fprintf (out, "<p class=\"note\">Only the first %d boxes are drawn.</p>\n",
             MAX_BOXES);
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

static void
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

/* ---- the hottest source lines ---------------------------------------------------- */

/* A line of the line counts model (linecount.h) and its text.  */
struct hot
{
  const struct lc_source *src;
  const struct lc_line *line;
  char *text;                    /* NULL: not found */
};

static int
cmp_hot (const void *a, const void *b)
{
  const struct hot *x = a, *y = b;
  if (x->line->count != y->line->count)
    return x->line->count > y->line->count ? -1 : 1;
  int c = strcmp (x->src->given, y->src->given);
  if (c)
    return c;
  return x->line->line < y->line->line ? -1 : x->line->line > y->line->line;
}

/* The lines of M that ran, hottest first, at most MAX into *V; return how
   many.  */

static size_t
hot_lines (const struct lc_model *m, long max, struct hot **v)
{
  size_t n = 0;
  for (size_t i = 0; i < m->nsources; i++)
    for (uint32_t k = 0; k < m->sources[i]->nlines; k++)
      n += m->sources[i]->lines[k].count > 0;
  struct hot *h = XCNEWVEC (struct hot, n + 1);
  n = 0;
  for (size_t i = 0; i < m->nsources; i++)
    for (uint32_t k = 0; k < m->sources[i]->nlines; k++)
      if (m->sources[i]->lines[k].count)
        h[n++] = (struct hot) { m->sources[i], &m->sources[i]->lines[k], NULL };
  if (n > 1)
    qsort (h, n, sizeof *h, cmp_hot);
  *v = h;
  return n < (size_t) max ? n : (size_t) max;
}

/* The place of S in M's sources: the I of the ids src-I and src-I-LINE.  */

static size_t
source_index (const struct lc_model *m, const struct lc_source *s)
{
  size_t i = 0;
  while (i < m->nsources && m->sources[i] != s)
    i++;
  return i;
}

/* Line LINE of TEXT (SIZE bytes) as a pointer and length; NULL if TEXT has no
   such line.  */

static const char *
nth_line (const char *text, size_t size, uint32_t line, size_t *len)
{
  const char *p = text, *end = text + size;
  for (uint32_t n = 1; n < line && p < end; n++)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));
      p = nl ? nl + 1 : end;
    }
  if (line == 0 || p >= end)
    return NULL;
  const char *nl = memchr (p, '\n', (size_t) (end - p));
  *len = nl ? (size_t) (nl - p) : (size_t) (end - p);
  return p;
}

static int
cmp_hot_path (const void *a, const void *b)
{
  const struct hot *x = *(const struct hot *const *) a;
  const struct hot *y = *(const struct hot *const *) b;
  int c = strcmp (x->src->path, y->src->path);
  if (c)
    return c;
  return x < y ? -1 : x > y;     /* by rank: their place in the ranking */
}

/* The text of the N lines V, each file read once; a warning for those not
   found.  */

static void
read_hot_text (struct hot *v, size_t n)
{
  struct hot **byfile = XNEWVEC (struct hot *, n + 1);
  for (size_t i = 0; i < n; i++)
    byfile[i] = &v[i];
  qsort (byfile, n, sizeof *byfile, cmp_hot_path);
  const char *last_problem = NULL, *open_problem = NULL;
  char *text = NULL;
  size_t size = 0;
  for (size_t i = 0; i < n; i++)
    {
      struct hot *h = byfile[i];
      bool new_file = i == 0 || byfile[i - 1]->src != h->src;
      if (new_file)
        {
          free (text);
          text = read_regular (h->src->path, &size, &open_problem);
        }
      size_t len;
      const char *problem = open_problem, *s = NULL;
      if (text)
        {
          s = nth_line (text, size, h->line->line, &len);
          problem = "no such line (the source changed since it was compiled?)";
        }
      if (s)
        h->text = xstrndup (s, len);
      else if (new_file || problem != last_problem)
        fprintf (stderr, "dsprof html: warning: %s:%u: %s; shown without "
                 "text\n", h->src->path, h->line->line, problem);
      last_problem = s ? NULL : problem;
    }
  free (text);
  free (byfile);
}

static void
hot_table (FILE *out, const struct lc_model *m, const struct hot *v, size_t n)
{
  fputs ("<table class=\"lines sortable\">\n<thead><tr><th>Count</th><th>Line</th>"
         "<th class=\"src\">Source</th></tr></thead>\n<tbody>\n", out);
  for (size_t i = 0; i < n; i++)
    {
      fprintf (out, "<tr><td>%" PRIu64 "</td><td class=\"loc\"><a href=\"#src-%zu-%u\">",
               v[i].line->count, source_index (m, v[i].src), v[i].line->line);
      text_html (out, v[i].src->given);
      fprintf (out, ":%u</a></td><td class=\"src\">", v[i].line->line);
      if (v[i].text)
        {
          fputs ("<code>", out);
          text_html (out, v[i].text);
          fputs ("</code>", out);
        }
      else
        fputs ("<i>(source not found)</i>", out);
      fputs ("</td></tr>\n", out);
    }
  fputs ("</tbody>\n</table>\n", out);
}

/* The NLINES lines of M with the largest counts.  */

static void
html_lines (FILE *out, const struct lc_model *m, long nlines)
{
  struct hot *v;
  size_t shown = hot_lines (m, nlines, &v);
  fputs ("<section id=\"lines\">\n<h2>Hottest source lines</h2>\n", out);
  if (!shown)
    fputs ("<p class=\"note\">No source line ran.</p>\n", out);
  else
    {
      fprintf (out, "<p>The %zu lines with the largest counts: each line's count "
               "is the largest count of the blocks that hold a statement on it, "
               "as <code>dsprof annotate</code> shows it.</p>\n", shown);
      read_hot_text (v, shown);
      hot_table (out, m, v, shown);
    }
  fputs ("</section>\n", out);
  for (size_t i = 0; i < shown; i++)
    free (v[i].text);
  free (v);
}

/* With --diff: the NLINES lines of L whose counts changed most.  */

static void
html_changed_lines (FILE *out, const struct diff_lines *l, long nlines)
{
  size_t shown = l->n < (size_t) nlines ? l->n : (size_t) nlines;
  fputs ("<section id=\"lines\">\n<h2>Changed source lines</h2>\n", out);
  if (!shown)
    fputs ("<p class=\"note\">No line's count changed.</p>\n", out);
  else
    {
      fprintf (out, "<p>The %zu lines whose counts changed most (of %zu), as "
               "<code>dsprof diff --lines</code> gives them: each line's count "
               "as <code>dsprof annotate</code> shows it, in the base and the "
               "new profiles.</p>\n<table class=\"lines diff\">\n<thead><tr>"
               "<th>Base</th><th>New</th><th>Change</th><th>Change%%</th>"
               "<th class=\"src\">Line</th></tr></thead>\n<tbody>\n", shown, l->n);
      for (size_t i = 0; i < shown; i++)
        {
          const struct diff_line *d = &l->lines[i];
          double pct;
          bool grew = d->new > d->base;
          fprintf (out, "<tr><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td class=\"%s\">"
                   "%c%" PRIu64 "</td><td>", d->base, d->new, grew ? "grew" : "shrank",
                   grew ? '+' : '-', grew ? d->new - d->base : d->base - d->new);
          if (diff_pct (d->base, d->new, &pct))
            fprintf (out, "%+.1f", pct);
          fputs ("</td><td class=\"loc\">", out);
          text_html (out, d->given);
          fprintf (out, ":%u</td></tr>\n", d->line);
        }
      fputs ("</tbody>\n</table>\n", out);
    }
  fputs ("</section>\n", out);
}

/* ---- the coverage summary and the source view ------------------------------------ */

/* One cell of coverage C: "HIT/TOTAL PCT%" as `dsprof summary` writes it,
   its percentage (or -1 when nothing is instrumented) the key it sorts by.  */

static void
cov_cell (FILE *out, struct cov c)
{
  char buf[64];
  fprintf (out, "<td data-key=\"%.3f\" class=\"%s\">%s</td>",
           c.total ? 100.0 * (double) c.hit / (double) c.total : -1.0,
           c.total && c.hit < c.total ? (c.hit ? "part" : "none") : "all",
           cov_text (buf, sizeof buf, c));
}

static void
cov_cells (FILE *out, const struct cov_row *r)
{
  cov_cell (out, r->lines);
  cov_cell (out, r->funcs);
  cov_cell (out, r->br_exec);
  cov_cell (out, r->br_taken);
}

/* The coverage of all M's sources, and into *RAN how many have a line that
   ran.  */

static struct cov_row
coverage_total (const struct lc_model *m, size_t *ran)
{
  struct cov_row total;
  memset (&total, 0, sizeof total);
  *ran = 0;
  for (size_t i = 0; i < m->nsources; i++)
    {
      struct cov_row r = cov_source (m->sources[i]);
      cov_add (&total, &r);
      *ran += r.lines.hit > 0;
    }
  return total;
}

/* The coverage of M's sources, each a row that links to its source view,
   and their total.  */

static void
html_coverage (FILE *out, const struct lc_model *m)
{
  struct lc_source **v = cov_sorted_sources (m);
  size_t ran;
  struct cov_row total = coverage_total (m, &ran);
  fputs ("<section id=\"coverage\">\n<h2>Coverage</h2>\n<p>Executed out of "
         "instrumented, as <code>dsprof summary</code> and the lcov export count "
         "them: a line ran if a block holding a statement on it did, a function "
         "if its entry block did; branches executed if their block ran, taken if "
         "they were.</p>\n<table class=\"coverage sortable\">\n<thead><tr>"
         "<th class=\"src\">File</th><th>Lines</th><th>Functions</th>"
         "<th>Branches executed</th><th>Branches taken</th></tr></thead>\n"
         "<tbody>\n", out);
  for (size_t i = 0; i < m->nsources; i++)
    {
      struct cov_row r = cov_source (v[i]);
      fprintf (out, "<tr><td class=\"loc\"><a href=\"#src-%zu\">",
               source_index (m, v[i]));
      text_html (out, v[i]->path);
      fputs ("</a></td>", out);
      cov_cells (out, &r);
      fputs ("</tr>\n", out);
    }
  fprintf (out, "</tbody>\n<tfoot><tr class=\"total\"><td class=\"loc\">Total: "
           "%zu file%s (%zu ran)</td>", m->nsources, m->nsources == 1 ? "" : "s",
           ran);
  cov_cells (out, &total);
  fputs ("</tr></tfoot>\n</table>\n</section>\n", out);
  free (v);
}

/* The branches of S on LINE from *K on (S's are by line), as genhtml shows
   them: each one's count, `-` when its block never ran; *K past them.  */

static void
branch_cell (FILE *out, const struct lc_source *s, uint32_t line, uint32_t *k)
{
  fputs ("<td class=\"br\">", out);
  for (; *k < s->nbranches && s->branches[*k].line == line; ++*k)
    {
      const struct lc_branch *b = &s->branches[*k];
      if (!b->block)
        fputs ("<span class=\"none\">-</span> ", out);
      else
        fprintf (out, "<span class=\"%s\">%" PRIu64 "</span> ",
                 b->count ? "all" : "none", b->count);
    }
  fputs ("</td>", out);
}

/* One line of source I (S): its number, count (when a block holds it; class
   run or never), branches and TEXT (LEN bytes, or none when NULL).  */

static void
source_row (FILE *out, size_t i, const struct lc_source *s, uint32_t line,
            const struct lc_line *l, uint32_t *kb, const char *text, size_t len)
{
  if (l)
    fprintf (out, "<tr id=\"src-%zu-%u\" class=\"%s\"><td>%u</td><td>%" PRIu64
             "</td>", i, line, l->count ? "run" : "never", line, l->count);
  else
    fprintf (out, "<tr><td>%u</td><td></td>", line);
  while (*kb < s->nbranches && s->branches[*kb].line < line)
    ++*kb;
  branch_cell (out, s, line, kb);
  fputs ("<td class=\"src\"><code>", out);
  if (text)
    text_html_n (out, text, len);
  fputs ("</code></td></tr>\n", out);
}

/* Source S, the I-th of M, as a table of its lines: its text as found
   (every line), or only its counted lines when it is not found; OPEN or
   closed.  */

static void
source_file (FILE *out, size_t i, const struct lc_source *s, bool open)
{
  struct cov_row r = cov_source (s);
  char buf[64];
  fprintf (out, "<details class=\"file\" id=\"src-%zu\"%s><summary><code>", i,
           open ? " open" : "");
  text_html (out, s->path);
  fprintf (out, "</code>: lines %s</summary>\n",
           cov_text (buf, sizeof buf, r.lines));
  size_t size = 0;
  const char *problem = NULL;
  char *text = read_regular (s->path, &size, &problem);
  if (!text)
    {
      fputs ("<p class=\"note\">Source not found: ", out);
      text_html (out, problem);
      fputs ("; only its counted lines are shown.</p>\n", out);
    }
  fputs ("<table class=\"source\">\n<thead><tr><th>Line</th><th>Count</th>"
         "<th class=\"br\">Branches</th><th class=\"src\">Source</th></tr>"
         "</thead>\n<tbody>\n", out);
  uint32_t k = 0, kb = 0;
  const char *p = text, *end = text + size;
  for (uint32_t line = 1; text ? p < end : k < s->nlines; line++)
    {
      while (k < s->nlines && s->lines[k].line < line)
        k++;
      const struct lc_line *l = k < s->nlines && s->lines[k].line == line
                                ? &s->lines[k] : NULL;
      size_t len = 0;
      if (text)
        {
          const char *nl = memchr (p, '\n', (size_t) (end - p));
          len = nl ? (size_t) (nl - p) : (size_t) (end - p);
        }
      if (text || l)
        source_row (out, i, s, line, l, &kb, text ? p : NULL, len);
      if (text)
        p += len + 1;
    }
  fputs ("</tbody>\n</table>\n</details>\n", out);
  free (text);
}

/* Every source of M, by path; all open when they are a few.  */

enum { OPEN_SOURCES = 4 };

static void
html_sources (FILE *out, const struct lc_model *m)
{
  struct lc_source **v = cov_sorted_sources (m);
  fputs ("<section id=\"source\">\n<h2>Source</h2>\n<p>Each source file with "
         "its line counts as <code>dsprof annotate</code> shows them; lines a "
         "block holds that never ran are <span class=\"never\">marked</span>.  "
         "<label><input type=\"checkbox\" id=\"branches\"> Show branch counts"
         "</label> (each way out of a line's conditional jumps: how often it "
         "was taken, <code>-</code> when its block never ran).</p>\n", out);
  for (size_t i = 0; i < m->nsources; i++)
    source_file (out, source_index (m, v[i]), v[i], m->nsources <= OPEN_SOURCES);
  fputs ("</section>\n", out);
  free (v);
}

/* ---- the page -------------------------------------------------------------------- */

static const char page_style[] =
  "body{font:14px/1.4 sans-serif;margin:1.5em;color:#222;background:#fff}\n"
  "h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;"
  "margin-top:1.8em}h3{font-size:1.05em;margin:1.2em 0 .4em}\n"
  "table{border-collapse:collapse;font-size:13px}\n"
  "th,td{padding:2px 8px;border-bottom:1px solid #e4e4e4;text-align:right;"
  "vertical-align:top}\n"
  "th{background:#f0f0f4}td.value,th.value,td.src,th.src,td.loc{text-align:left}\n"
  "td.value{font-family:monospace;white-space:pre-wrap;word-break:break-all;"
  "max-width:50em}\n"
  "td.src code{white-space:pre}\n"
  "tbody tr:hover{background:#fff6d8}\n"
  ".val{font-family:monospace}.note{color:#666;font-style:italic}\n"
  ".summary{background:#f6f6f9;padding:.5em}\n"
  "svg.flame{display:block;border:1px solid #ccc;max-width:100%;height:auto}\n"
  "svg.flame rect{stroke:#fff;stroke-width:.5}\n"
  "svg.flame rect.incomplete{stroke:#900;stroke-dasharray:3 2}\n"
  "svg.flame text{font:12px monospace;fill:#000;pointer-events:none}\n"
  "svg.flame g.box:hover rect{stroke:#000;stroke-width:1}\n"

  ".detail{font-family:monospace;white-space:pre-wrap;min-height:3.2em;"
  "background:#f6f6f9;padding:.3em .5em;margin-bottom:.4em}\n"
  "table.callgraph tbody{border-bottom:1px solid #ccc}\n"
  "table.callgraph tr.entry td{font-weight:bold;background:#f6f6f9}\n"
  "table.callgraph tr.caller td.value,table.callgraph tr.callee td.value"
  "{padding-left:2em}\n"
  "section>h2{cursor:pointer}section>h2::before{content:\"\\25BE  \";color:#888}\n"
  "section.folded>h2::before{content:\"\\25B8  \"}section.folded>:not(h2){display:none}\n"
  "#overview p.views a{margin:0 .2em}\n"
  "table.sortable th{cursor:pointer}th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
  "th[aria-sort=ascending]::after{content:\" \\25B2\"}\n"
  ".flamebar{display:flex;gap:.8em;align-items:center;margin:.4em 0}\n"
  ".flamebar input{width:24em;padding:2px 4px}\n"
  ".icicle{position:relative;width:100%;border:1px solid #ccc;overflow:hidden;font:12px/17px monospace}\n"
  ".fb{position:absolute;height:17px;box-sizing:border-box;border-right:1px solid #fff;padding:0 3px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;cursor:pointer}\n"
  ".fb:hover{outline:1px solid #000;z-index:1}.fb.incomplete{outline:1px dashed #900}.fb.above{opacity:.6}\n"
  ".fb.hit{box-shadow:inset 0 0 0 2px #c0c;font-weight:bold}\n"
  ".tip{position:fixed;display:none;z-index:10;max-width:48em;background:#fffff4;border:1px solid #999;padding:4px 6px;font:12px monospace;white-space:pre-wrap;pointer-events:none;box-shadow:2px 2px 6px rgba(0,0,0,.2)}\n"
  "table.coverage td.all{background:#dcf2dc}table.coverage td.part{background:#fff1c2}table.coverage td.none{background:#ffd6cc}\n"
  "table.coverage tfoot td{font-weight:bold;border-top:2px solid #ccc}\n"
  "details.file{margin:.3em 0}details.file>summary{cursor:pointer;padding:2px 0}\n"
  "table.source td{border:0;padding:0 6px}table.source td.src{text-align:left}\n"
  "tr.run td:nth-child(2){background:#dfe9ff}tr.never td,span.never{background:#ffd6cc}\n"
  ".br{display:none}#source.branches .br{display:table-cell;text-align:left}\n"
  "td.br span.none{color:#c00;font-weight:bold}tr:target td{background:#ffef9e}\n";

/* With --diff, besides.  */
static const char diff_style[] =
  ".grew{color:#b00}.shrank{color:#14c}tr.new td.value{font-weight:bold}\n"
  "tr.gone td{color:#888}\n";

/* The page's script, over the page as written (which reads without it):
   headings fold their sections, links open what holds their target, column
   headings sort their tables, the branch counts shown on demand, and the
   icicle graph's boxes drawn again over the full width: a click zooms into
   a box (Escape or Reset back), the search highlights the frames whose name
   matches and says their share of the time, hovering shows a box's tooltip
   and its Total, Self and Count.  */
static const char page_script[] =
  "(function(){'use strict';\n"
  "function all(s,r){return Array.prototype.slice.call((r||document).querySelectorAll(s));}\n"
  "function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e;}\n"
  "function dur(ns){var u=[['s',1e9],['ms',1e6],['us',1e3]];for(var i=0;i<u.length;i++)if(ns>=u[i][1]){var v=ns/u[i][1];return v.toFixed(v>=100?0:v>=10?1:2)+' '+u[i][0];}return Math.round(ns)+' ns';}\n"
  "/* Sections: a click on a heading folds and unfolds its section; a long call graph starts folded. */\n"
  "all('section > h2').forEach(function(h){h.tabIndex=0;h.title='Click to fold or unfold';\n"
  "h.addEventListener('click',function(){h.parentNode.classList.toggle('folded');});\n"
  "h.addEventListener('keydown',function(e){if(e.key==='Enter')h.parentNode.classList.toggle('folded');});});\n"
  "var cg=document.getElementById('callgraph');\n"
  "if(cg&&cg.querySelectorAll('tr').length>60)cg.classList.add('folded');\n"
  "/* Links into the page open the folded section and closed file that hold their target. */\n"
  "function reveal(id){var t=id&&document.getElementById(id);if(!t)return;\n"
  "for(var n=t;n;n=n.parentNode){if(n.tagName==='DETAILS')n.open=true;if(n.tagName==='SECTION')n.classList.remove('folded');}\n"
  "t.scrollIntoView({block:'center'});}\n"
  "document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a[href^=\"#\"]');\n"
  "if(a){e.preventDefault();history.replaceState(null,'',a.getAttribute('href'));reveal(a.getAttribute('href').slice(1));}});\n"
  "if(location.hash)reveal(decodeURIComponent(location.hash.slice(1)));\n"
  "var br=document.getElementById('branches');\n"
  "if(br)br.addEventListener('change',function(){document.getElementById('source').classList.toggle('branches',br.checked);});\n"
  "/* Tables: a click on a column heading sorts the rows by it, largest first, again smallest first. */\n"
  "var NUM=/^[-+]?(\\d+\\.?\\d*|\\.\\d+)(e[-+]?\\d+)?%?$/i;\n"
  "function key(td){if(!td)return -Infinity;var k=td.getAttribute('data-key');if(k!==null)return +k;\n"
  "var t=td.textContent.trim();return NUM.test(t)?parseFloat(t):t===''?-Infinity:t.toLowerCase();}\n"
  "function cmp(x,y){if(typeof x!==typeof y)return typeof x==='number'?-1:1;return x<y?-1:x>y?1:0;}\n"
  "function sortBy(t,col,th){var down=th.getAttribute('aria-sort')!=='descending';\n"
  "all('th',t.tHead).forEach(function(h){h.removeAttribute('aria-sort');});\n"
  "th.setAttribute('aria-sort',down?'descending':'ascending');\n"
  "var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);\n"
  "var keys=rows.map(function(r,i){return [key(r.cells[col]),i,r];});\n"
  "keys.sort(function(p,q){var c=cmp(p[0],q[0]);return (down?-c:c)||p[1]-q[1];});\n"
  "keys.forEach(function(p){b.appendChild(p[2]);});}\n"
  "all('table').forEach(function(t){if(!t.tHead||t.tHead.rows.length!==1||t.tBodies.length!==1||\n"
  "t.classList.contains('callgraph')||t.classList.contains('source'))return;\n"
  "t.classList.add('sortable');\n"
  "all('th',t.tHead).forEach(function(th,i){th.title='Sort by this column';\n"
  "th.addEventListener('click',function(){sortBy(t,i,th);});});});\n"
  "/* The icicle graph: the SVG's boxes drawn again over the full width, zoomed by a click, searched. */\n"
  "var svg=document.querySelector('svg.flame');if(!svg)return;\n"
  "var ROW=+svg.getAttribute('data-row'),W=svg.viewBox.baseVal.width,depth=0,root=0;\n"
  "var boxes=all('g.box',svg).map(function(g){var r=g.querySelector('rect');\n"
  "var b={x:+r.getAttribute('x'),w:+r.getAttribute('width'),d:Math.round(+r.getAttribute('y')/ROW),\n"
  "fill:r.getAttribute('fill'),cls:r.getAttribute('class'),name:g.getAttribute('data-name'),\n"
  "tip:g.querySelector('title').textContent,total:+g.getAttribute('data-total'),\n"
  "self:+g.getAttribute('data-self'),count:+g.getAttribute('data-count')};\n"
  "depth=Math.max(depth,b.d+1);if(b.d===0)root+=b.total;return b;});\n"
  "var bar=el('div','flamebar'),find=el('input'),reset=el('button',null,'Reset zoom'),said=el('span','match');\n"
  "find.type='search';find.placeholder='Search frames (regular expression)';find.id='find';reset.id='reset';said.id='match';\n"
  "bar.appendChild(find);bar.appendChild(reset);bar.appendChild(said);\n"
  "var ic=el('div','icicle'),tip=el('div','tip'),detail=document.getElementById('detail');ic.id='icicle';\n"
  "ic.style.height=depth*ROW+'px';svg.parentNode.insertBefore(bar,svg);svg.parentNode.insertBefore(ic,svg);\n"
  "document.body.appendChild(tip);svg.style.display='none';if(detail)detail.style.display='none';\n"
  "var zoom=null,re=null;\n"
  "function draw(){var zx=zoom?zoom.x:0,zw=zoom?zoom.w:W,px=ic.clientWidth||1,f=document.createDocumentFragment();\n"
  "boxes.forEach(function(b){var l=Math.max(b.x,zx),r=Math.min(b.x+b.w,zx+zw);\n"
  "if(r-l<=1e-9&&!(zoom&&b===zoom))return;var wpx=(r-l)/zw*px;if(wpx<0.5)return;\n"
  "var e=el('div','fb '+b.cls+(re&&re.test(b.name)?' hit':'')+(zoom&&b.d<zoom.d?' above':''));\n"
  "e.style.left=(l-zx)/zw*100+'%';e.style.width=(r-l)/zw*100+'%';e.style.top=b.d*ROW+'px';\n"
  "e.style.background=b.fill;if(wpx>=20)e.textContent=b.name;e.box=b;f.appendChild(e);});\n"
  "ic.textContent='';ic.appendChild(f);ic.classList.toggle('zoomed',!!zoom);}\n"
  "function text(b){return b.tip+'\\nTotal: '+dur(b.total)+(root?' ('+(100*b.total/root).toFixed(1)+'% of all)':'')+\n"
  "'\\nSelf: '+dur(b.self)+'\\nCount: '+b.count;}\n"
  "ic.addEventListener('mousemove',function(e){var b=e.target.box;if(!b){tip.style.display='none';return;}\n"
  "tip.textContent=text(b);tip.style.display='block';\n"
  "var x=e.clientX+14,y=e.clientY+14;if(x+tip.offsetWidth>innerWidth)x=Math.max(0,e.clientX-tip.offsetWidth-14);\n"
  "if(y+tip.offsetHeight>innerHeight)y=Math.max(0,e.clientY-tip.offsetHeight-14);tip.style.left=x+'px';tip.style.top=y+'px';});\n"
  "ic.addEventListener('mouseleave',function(){tip.style.display='none';});\n"
  "ic.addEventListener('click',function(e){var b=e.target.box;if(b){zoom=b.d===0&&b.w>=W-1e-6?null:b;draw();}});\n"
  "reset.addEventListener('click',function(){zoom=null;draw();});\n"
  "document.addEventListener('keydown',function(e){if(e.key==='Escape'&&zoom){zoom=null;draw();}});\n"
  "function search(){var s=find.value;re=null;said.textContent='';\n"
  "if(s){try{re=new RegExp(s,'i');}catch(x){re=new RegExp(s.replace(/[\\\\^$.*+?()[\\]{}|]/g,'\\\\$&'),'i');}\n"
  "var iv=boxes.filter(function(b){return b.cls.indexOf('lane')<0&&re.test(b.name);}).map(function(b){return [b.x,b.x+b.w];});\n"
  "iv.sort(function(p,q){return p[0]-q[0];});var sum=0,end=-1;\n"
  "iv.forEach(function(p){if(p[1]>end){sum+=p[1]-Math.max(p[0],end);end=p[1];}});\n"
  "said.textContent=iv.length+' frame'+(iv.length===1?'':'s')+' match, '+(100*sum/W).toFixed(1)+'% of the time'+\n"
  "(root?' ('+dur(root*sum/W)+')':'');}\n"
  "draw();}\n"
  "find.addEventListener('input',search);addEventListener('resize',draw);draw();\n"
  "})();\n";

/* The page: its sides, query and the models its views share.  */

struct page
{
  FILE *out;
  struct pf_set *set, *base;     /* BASE NULL unless --diff */
  const struct query *q;
  long nlines;
  uint64_t max_records;
  struct flame flame;
  struct lc_model lines;         /* not with --diff */
  struct rpt_model ops;          /* the op records by name; not with --diff */
};

/* The views of the page in the order it shows them: the record views when
   there are records, the coverage and source views before the hottest lines
   when there are none (block counts only).  A view whose figures are empty is
   left out (view_shown).  */

struct view
{
  const char *id, *title;
};

static const struct view record_views[] = {
  { "flame", "Record tree" }, { "opcodes", "Opcodes" },
  { "lines", "Hottest source lines" }, { "tables", "Dimension report" },
  { "callgraph", "Call graph" }, { "coverage", "Coverage" },
  { "source", "Source" }, { NULL, NULL } };
static const struct view counter_views[] = {
  { "coverage", "Coverage" }, { "source", "Source" },
  { "lines", "Hottest source lines" }, { NULL, NULL } };
static const struct view diff_views[] = {
  { "flame", "Record tree" }, { "lines", "Changed source lines" },
  { "tables", "Dimension report" }, { "callgraph", "Call graph" },
  { NULL, NULL } };

static bool
view_shown (const struct page *pg, const struct view *v)
{
  return strcmp (v->id, "opcodes") || pg->ops.records;
}

/* The summary at the top: what the profile holds (its records, its
   coverage without --diff) and a link to each of VIEWS.  */

static void
html_overview (const struct page *pg, const struct view *views)
{
  FILE *out = pg->out;
  fputs ("<section id=\"overview\">\n<h2>Summary</h2>\n<p>", out);
  if (pg->flame.records)
    fprintf (out, "Profile records: <b>%" PRIu64 "</b>%s.", pg->flame.records,
             pg->ops.records ? ", op records among them" : "");
  else
    fputs ("No profile records: the profile holds block counts only.", out);
  if (!pg->base)
    {
      const struct lc_model *lm = &pg->lines;
      size_t ran;
      struct cov_row total = coverage_total (lm, &ran);
      char l[64], fn[64], br[64];
      fprintf (out, "  Block counts of %zu source file%s (%zu ran): lines <b>%s</b>, "
               "functions <b>%s</b>, branches taken <b>%s</b>.", lm->nsources,
               lm->nsources == 1 ? "" : "s", ran,
               cov_text (l, sizeof l, total.lines),
               cov_text (fn, sizeof fn, total.funcs),
               cov_text (br, sizeof br, total.br_taken));
    }
  fputs ("</p>\n<p class=\"views\">", out);
  bool first = true;
  for (const struct view *v = views; v->id; v++)
    if (view_shown (pg, v))
      {
        fprintf (out, "%s<a href=\"#%s\">%s</a>", first ? "" : " | ", v->id,
                 v->title);
        first = false;
      }
  fputs ("</p>\n</section>\n", out);
}

/* The dimension report (with --diff the diff model's) of Q.  Return 0, or
   EXIT_DATA when it cannot be built.  */

static int
html_report (FILE *out, struct pf_set *set, struct pf_set *base,
             const struct query *q)
{
  int rc;
  if (base)
    {
      struct diff_model diff;
      if ((rc = diff_build (base, set, q, DIFF_TOTAL, &diff)))
        return rc;
      html_diff_tables (out, &diff, q);
      diff_free (&diff);
      return 0;
    }
  struct rpt_model report;
  if ((rc = rpt_build (set, q, &report)))
    return rc;
  html_tables (out, &report, q);
  rpt_free (&report);
  return 0;
}

/* The call graph by Q's first dimension.  */

static int
html_cg (FILE *out, struct pf_set *set, const struct query *q)
{
  struct cg_model cg;
  int rc = cg_build (set, q->dims[0] ? q->dims[0] : "name", false, false, &cg);
  if (rc)
    return rc;
  html_callgraph (out, &cg);
  cg_free (&cg);
  return 0;
}

/* The op records by name into PG->ops, as `dsprof report name --where
   event=op` reports them.  */

static int
ops_build (struct page *pg)
{
  static const char *name[] = { "name", NULL };
  struct agg_filter op = { "event", "op", false };
  struct query q = *pg->q;
  q.ndims = 1;
  q.dims = name;
  q.nfilters = 1;
  q.filters = &op;
  q.nsums = 0;
  q.quiet = true;
  return rpt_build (pg->set, &q, &pg->ops);
}

/* The per-opcode table (docs/vm.md).  */

static void
html_opcodes (const struct page *pg)
{
  FILE *out = pg->out;
  struct tables t = { out, &pg->ops, pg->q->top, text_unit_for (pg->ops.total_ns),
                      NULL };
  fprintf (out, "<section id=\"opcodes\">\n<h2>Opcodes</h2>\n<p>The %" PRIu64
           " op records (a bytecode VM's opcodes, docs/vm.md) by name, as "
           "<code>dsprof report name --where event=op</code> gives them; times "
           "in %s.</p>\n", pg->ops.records, t.unit->name);
  const char *path[2] = { NULL, NULL };
  rpt_each_table (&pg->ops, 0, pg->q->top, path, table, &t);
  fputs ("</section>\n", out);
}

/* The view ID of the page.  */

static int
html_view (struct page *pg, const char *id)
{
  int rc = 0;
  FILE *out = pg->out;
  if (!strcmp (id, "flame"))
    html_flame (out, &pg->flame, pg->max_records);
  else if (!strcmp (id, "opcodes"))
    html_opcodes (pg);
  else if (!strcmp (id, "tables"))
    rc = html_report (out, pg->set, pg->base, pg->q);
  else if (!strcmp (id, "callgraph"))
    rc = html_cg (out, pg->set, pg->q);
  else if (!strcmp (id, "coverage"))
    html_coverage (out, &pg->lines);
  else if (!strcmp (id, "source"))
    html_sources (out, &pg->lines);
  else if (!strcmp (id, "lines") && !pg->base)
    html_lines (out, &pg->lines, pg->nlines);
  else if (!strcmp (id, "lines"))
    {
      struct diff_lines changed;
      if ((rc = diff_lines_build (pg->base, pg->set, &changed)))
        return rc;
      html_changed_lines (out, &changed, pg->nlines);
      diff_lines_free (&changed);
    }
  return rc;
}

/* The sections of the page: the summary, then the views.  Return 0, or
   EXIT_DATA at the first model that cannot be built.  */

static int
html_sections (FILE *out, struct pf_set *set, struct pf_set *base,
               const struct query *q, long nlines, uint64_t max_records)
{
  struct page pg;
  memset (&pg, 0, sizeof pg);
  pg.out = out;
  pg.set = set;
  pg.base = base;
  pg.q = q;
  pg.nlines = nlines;
  pg.max_records = max_records;
  int rc = base ? flame_build_diff (set, base, &pg.flame)
           : flame_build (set, max_records, &pg.flame);
  if (!rc && !base)
    rc = lc_build (set, &pg.lines);
  if (!rc && !base && pg.flame.records)
    rc = ops_build (&pg);
  const struct view *views = base ? diff_views
                             : pg.flame.records ? record_views : counter_views;
  if (!rc)
    html_overview (&pg, views);
  for (const struct view *v = views; !rc && v->id; v++)
    if (view_shown (&pg, v))
      rc = html_view (&pg, v->id);
  flame_free (&pg.flame);
  lc_free (&pg.lines);
  rpt_free (&pg.ops);
  return rc;
}

/* The profiles of SET as a list, with the class CLS.  */

static void
profile_list (FILE *out, const struct pf_set *set, const char *cls)
{
  fprintf (out, "<ul class=\"%s\">\n", cls);
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      const struct pf_process *p = &set->procs[i];
      fputs ("<li>", out);
      text_html (out, p->path);
      fputs (": program <code>", out);
      text_html (out, p->header.exe);
      fprintf (out, "</code>, pid %" PRId64 ", %u thread%s, %" PRIu64
               " dropped and %" PRIu64 " repaired events</li>\n", p->header.pid,
               p->nstreams, p->nstreams == 1 ? "" : "s", p->header.dropped_events,
               p->header.repaired_events);
    }
  fputs ("</ul>\n", out);
}

static int
html_page (FILE *out, struct pf_set *set, struct pf_set *base,
           const struct query *q, long nlines, uint64_t max_records)
{
  fputs ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<title>dsprof: ", out);
  text_html (out, set->nprocs ? set->procs[0].header.exe : "profile");
  fprintf (out, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n<h1>dsprof: ",
           page_style, base ? diff_style : "");
  text_html (out, set->nprocs ? set->procs[0].header.exe : "profile");
  fputs ("</h1>\n", out);
  if (base)
    {
      fputs ("<p>Compared with the base:</p>\n", out);
      profile_list (out, base, "profiles base");
      fputs ("<p>The new profiles:</p>\n", out);
    }
  profile_list (out, set, "profiles");
  int rc = html_sections (out, set, base, q, nlines, max_records);
  fprintf (out, "<script>\n%s</script>\n</body>\n</html>\n", page_script);
  return rc;
}

static bool
parse_count (const char *arg, long *n)
{
  char *end;
  errno = 0;
  *n = strtol (arg, &end, 10);
  return !errno && !*end && *n >= 0 && end != arg;
}

struct html_opts
{
  const char *output, *dims;
  long top, nlines, max_records;
  bool raw;
  struct opt_list sums, bases;
};

static int
set_top (const char *cmd, char *arg, void *field)
{
  if (!parse_count (arg, field))
    return usage_error (cmd, "--top wants a number, not '%s'", arg);
  return 0;
}

static int
set_lines (const char *cmd, char *arg, void *field)
{
  if (!parse_count (arg, field))
    return usage_error (cmd, "--lines wants a number, not '%s'", arg);
  return 0;
}

static int
set_records (const char *cmd, char *arg, void *field)
{
  if (!parse_count (arg, field))
    return usage_error (cmd, "--records wants a number, not '%s'", arg);
  return 0;
}

static int
set_sum (const char *cmd, char *arg, void *field)
{
  if (!*arg)
    return usage_error (cmd, "--sum wants a dimension name");
  if (check_dim (cmd, arg))
    return EXIT_USAGE;
  opt_list_add (field, arg);
  return 0;
}

static const struct opt html_opts[] = {
  { .name = "output", .letter = 'o', .arg = "FILE", .kind = OPT_STRING,
    .off = offsetof (struct html_opts, output),
    .help = "write to FILE instead of standard output" },
  { .name = "dims", .arg = "D1,D2...", .kind = OPT_STRING,
    .off = offsetof (struct html_opts, dims),
    .help = "the dimensions of the report tables" },
  { .name = "top", .arg = "N", .kind = OPT_FUNC, .set = set_top,
    .off = offsetof (struct html_opts, top),
    .help = "at most N rows per table (default 100, 0: all)" },
  { .name = "lines", .arg = "N", .kind = OPT_FUNC, .set = set_lines,
    .off = offsetof (struct html_opts, nlines),
    .help = "the N hottest source lines (default 25)" },
  { .name = "records", .arg = "N", .kind = OPT_FUNC, .set = set_records,
    .off = offsetof (struct html_opts, max_records),
    .help = "one box per record up to N records (default 4000),\n"
            "else one per name path" },
  { .name = "raw", .kind = OPT_FLAG, .off = offsetof (struct html_opts, raw),
    .help = "report times as recorded, without deducting the\n"
            "recorder's measured cost per event" },
  { .name = "sum", .arg = "D", .kind = OPT_FUNC, .set = set_sum,
    .off = offsetof (struct html_opts, sums),
    .help = "a column Sum(D) in the tables, as `dsprof report --sum`\n"
            "(repeatable)" },
  { .name = "diff", .arg = "BASE", .kind = OPT_LIST,
    .off = offsetof (struct html_opts, bases),
    .help = "compare with BASE (a profile or a directory of them;\n"
            "repeatable, a group), as `dsprof diff BASE PROFILE...`:\n"
            "the tables with both sides and the change, the icicle\n"
            "graph by name path coloured by the change (red slower,\n"
            "blue faster), the changed source lines instead of the\n"
            "hottest" },
  { 0 }
};

/* run_html with the options O, the profiles ARGV[0 .. ARGC).  */

static int
html_main (const struct html_opts *o, int argc, char **argv)
{
  const char *dims = o->dims;
  char **bases = o->bases.v;
  int nbases = o->bases.n;
  struct query q;
  memset (&q, 0, sizeof q);
  q.raw = o->raw;
  q.top = o->top;
  q.nsums = o->sums.n;
  q.sums = (const char **) o->sums.v;
  char *dimcopy = xstrdup (dims ? dims : "name");
  q.dims = XCNEWVEC (const char *, strlen (dimcopy) + 2);
  for (char *s = dimcopy, *comma;; s = comma + 1)
    {
      comma = strchr (s, ',');
      if (comma)
        *comma = '\0';
      if (!*s)
        {
          free (q.dims);
          free (dimcopy);
          return usage_error ("html", "--dims wants D1,D2,... without empty names, "
                              "not '%s'", dims);
        }
      if (check_dim_option ("html", "--dims", s))
        {
          free (q.dims);
          free (dimcopy);
          return EXIT_USAGE;
        }
      q.dims[q.ndims++] = s;
      if (!comma)
        break;
    }

  struct pf_set set, base;
  memset (&base, 0, sizeof base);
  int rc = nbases ? diff_load_side (nbases, bases, &base) : 0;
  if (!rc && !(rc = load_profiles (argc, argv, &set)))
    {
      struct output out;
      if (!(rc = output_open (&out, "html", o->output, 0)))
        rc = output_finish (&out, html_page (out.f, &set, nbases ? &base : NULL,
                                             &q, o->nlines, (uint64_t) o->max_records));
      pf_free (&set);
    }
  pf_free (&base);
  free (q.dims);
  free (dimcopy);
  return rc;
}

static int
run_html (int argc, char **argv)
{
  struct html_opts o = { .top = 100, .nlines = 25, .max_records = 4000 };
  struct opt_operands ops;
  int rc = opt_parse (&cmd_html.cli, argc, argv, &o, &ops);
  if (!rc)
    rc = html_main (&o, ops.n, ops.v);
  free (o.sums.v);
  free (o.bases.v);
  free (ops.v);
  return rc == OPT_HELP ? 0 : rc;
}

const struct command cmd_html = {
  .summary = "the profile as one self-contained HTML page",
  .run = run_html,
  .cli = {
    .name = "html", .opts = html_opts,
    .usage =
  "usage: dsprof html [-o FILE] [--dims D1,D2...] [OPTIONS] [PROFILE...]\n\n"
  "Write one HTML page (styles, script and SVG inline; nothing is fetched):\n"
  "a summary linking to each view, an icicle graph of the record tree (one box\n"
  "per record, or per name path when there are more than --records records;\n"
  "click a box to zoom, search the names, hover for a box's dimensions and\n"
  "times), the hottest source lines with their text, the dimension report\n"
  "along D1,D2... (default: name) as sortable tables, the call graph, the\n"
  "coverage summary and the source view with line and branch counts.  Views\n"
  "that would be empty are left out (a counters-only profile: coverage first).\n\n"
  }
};
