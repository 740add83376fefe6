/* html-icicle.c - the icicle graph of `dsprof html`'s page (html.h): the
   record tree of recordtree.h in SVG, one box per record or per name path,
   with --diff coloured by each path's change from the base's.  */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "html.h"

/* The graph has two forms.  With at most --records records, one box per record:
   each thread's top-level records side by side (the time between them is not
   shown), each record's descendants below it at their offsets in its time.
   With more, one box per name path (the names of a record and its ancestors),
   its width the summed time of the path's records, children ordered by name -
   a flame graph, bounded by the paths that occur.  Times are as recorded.  */

enum { SVG_WIDTH = 1200, ROW = 18, MAX_ROWS = 256, MAX_BOXES = 20000 };

/* The drawing of a record tree: its boxes so far, and whether some were
   left out.  */
struct flame
{
  const struct rtree *t;
  uint32_t boxes;                /* drawn */
  bool clipped_depth, clipped_boxes;
};

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
  uint32_t b = f->t->base_of[m->id];
  char buf[64];
  if (b == RT_NO_BASE)
    {
      strcpy (cls, "rec new");
      strcpy (fill, "hsl(0,85%,50%)");
      snprintf (attrs, 160, " data-new-ns=\"%" PRIu64 "\" data-new-count=\"%"
                PRIu64 "\"", m->total_ns, m->count);
      fputs ("\nchange: new (not in the base)", t);
      return;
    }
  const struct st_node *n = st_node (f->t->base, b);
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
  const struct stacks *s = f->t->paths;
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
  if (f->t->base)
    change_look (t, f, m, cls, fill, attrs);
  fclose (t);
  struct figs fg = { m->total_ns, m->total_ns > kids ? m->total_ns - kids : 0,
                     m->count };
  box (out, f, cls, x, depth, (double) m->total_ns * scale, m->name, fg, tip,
       m->incomplete == m->count, f->t->base ? fill : NULL, f->t->base ? attrs : NULL);
  free (tip);
  draw_kids (out, f, m, x, depth + 1, scale);
}

/* The paths below node M at X, DEPTH: its children side by side by name.  */

static void
draw_kids (FILE *out, struct flame *f, const struct st_node *m, double x,
           uint32_t depth, double scale)
{
  const struct st_node **kids = sorted_kids (f->t->paths, m);
  for (uint32_t i = 0; i < m->nkids; i++)
    {
      double w = (double) kids[i]->total_ns * scale;
      if (w >= 0.1)
        draw_path (out, f, kids[i], x, depth, scale);
      x += w;
    }
  free (kids);
}

/* With --diff: a note of the base's paths that F has not (gone), the first
   few named.  */

static void
gone_note (FILE *out, const struct flame *f)
{
  uint32_t nb = st_nnodes (f->t->base), gone = 0;
  bool *seen = XCNEWVEC (bool, nb);
  for (uint32_t id = 0; id < st_nnodes (f->t->paths); id++)
    if (f->t->base_of[id] != RT_NO_BASE)
      seen[f->t->base_of[id]] = true;
  for (uint32_t b = 1; b < nb; b++)
    if (!seen[b] && seen[st_node (f->t->base, b)->parent])
      {
        /* A gone path whose parent stayed: its subtree is gone with it.  */
        const struct st_node *g = st_node (f->t->base, b);
        if (!gone++)
          fputs ("<p class=\"note\" id=\"gone\">Paths of the base not in the new "
                 "profiles (gone, not drawn):", out);
        fputs (" <span class=\"gone val\">", out);
        uint32_t depth = 0;
        for (const struct st_node *a = g; a->id; a = st_node (f->t->base, a->parent))
          depth++;
        const char **names = XNEWVEC (const char *, depth + 1);
        for (const struct st_node *a = g; a->id; a = st_node (f->t->base, a->parent))
          names[--depth] = a->name;
        for (const struct st_node *a = g; a->id; a = st_node (f->t->base, a->parent))
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
  for (uint32_t i = 0; i < f->t->nlanes; i++)
    {
      nonempty += f->t->lanes[i].ntops > 0;
      width += lane_width (&f->t->lanes[i]);
      for (uint32_t k = 0; k < f->t->lanes[i].ntops; k++)
        {
          uint32_t d = rnode_depth (f->t->lanes[i].tops[k]);
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
  for (uint32_t i = 0; i < f->t->nlanes; i++)
    {
      const struct lane *l = &f->t->lanes[i];
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
  draw_kids (out, f, st_node (f->t->paths, 0), 0, 0, scale);
}

/* Write the icicle graph of T (rtree_build with MAX_RECORDS).  */

void
html_flame (FILE *out, const struct rtree *t, uint64_t max_records)
{
  struct flame fl = { t, 0, false, false };
  struct flame *f = &fl;
  fputs ("<section id=\"flame\">\n<h2>Record tree</h2>\n", out);
  if (f->t->records == 0)
    {
      fputs ("<p class=\"note\">No profile records.</p>\n</section>\n", out);
      return;
    }
  uint32_t depth;
  double scale;
  bool lanes = false;
  if (f->t->exact)
    {
      lanes = lanes_extent (f, &depth, &scale);
      fprintf (out, "<p>One box per record (%" PRIu64 "): %s top-level records side "
               "by side, each record's descendants below it at their times; width "
               "is time as recorded.  Hover over a box for its dimensions.</p>\n",
               f->t->records, lanes ? "each thread's" : "the");
    }
  else
    {
      const struct st_node *root = st_node (f->t->paths, 0);
      scale = (double) SVG_WIDTH / (double) (root->total_ns ? root->total_ns : 1);
      depth = path_depth (f->t->paths, root, scale, MAX_ROWS + 2) - 1;
      if (f->t->base)
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
                 "a box for its records and times.</p>\n", f->t->records, max_records);
    }
  if (depth > MAX_ROWS)
    depth = MAX_ROWS;
  fprintf (out, "<div class=\"detail\" id=\"detail\">Hover over a box to see it here.</div>\n"
           "<svg class=\"flame\" width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" "
           "data-row=\"%d\">\n", SVG_WIDTH, depth * ROW, SVG_WIDTH, depth * ROW, ROW);
  if (f->t->exact)
    draw_lanes (out, f, lanes, scale);
  else
    draw_paths (out, f, scale);
  fputs ("</svg>\n", out);
  if (f->t->base)
    gone_note (out, f);
  if (f->clipped_depth)
    fprintf (out, "<p class=\"note\">Records deeper than %d levels are not drawn."
             "</p>\n", MAX_ROWS);
  if (f->clipped_boxes)
    fprintf (out, "<p class=\"note\">Only the first %d boxes are drawn.</p>\n",
             MAX_BOXES);
  fputs ("</section>\n", out);
}
