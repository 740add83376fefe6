/* html-source.c - the source views of `dsprof html`'s page (html.h): the
   hottest source lines of the line counts model (linecount.h), with --diff
   the changed lines (diff.h), the coverage summary by source file
   (coverage.h) and the source view.  */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "html.h"

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

void
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

void
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

struct cov_row
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

void
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

void
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
