/* diff.c - the models of `dsprof diff` (diff.h, docs/contract.md §5.9): the
   sides' profiles, the two dimension reports paired row by row, and the
   changes and growth the views and --fail-above read.  */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libiberty.h"
#include "exit.h"
#include "files.h"
#include "text.h"
#include "diff.h"
#include "linecount.h"
#include "model.h"

/* ---- the sides ---------------------------------------------------------------- */

static int
by_name (const struct dirent **a, const struct dirent **b)
{
  return strcmp ((*a)->d_name, (*b)->d_name);
}

/* Add the profiles of directory DIR to SET, by name.  Return 0, or EXIT_DATA
   after a message (none there, or one unreadable).  */

static int
add_directory (struct pf_set *set, const char *dir)
{
  struct dirent **names;
  int n = scandir (dir, &names, NULL, by_name);
  if (n < 0)
    {
      fprintf (stderr, "dsprof: %s: %s\n", dir, strerror (errno));
      return EXIT_DATA;
    }
  int rc = 0, found = 0;
  for (int i = 0; i < n; i++)
    {
      char *path = concat (dir, "/", names[i]->d_name, NULL);
      if (!rc && names[i]->d_name[0] != '.' && profile_magic (path) == 1)
        {
          found++;
          if (pf_add (set, path) < 0)
            rc = EXIT_DATA;
        }
      free (path);
      free (names[i]);
    }
  free (names);
  if (!rc && !found)
    {
      fprintf (stderr, "dsprof: '%s': a directory holding no dsprof profile\n", dir);
      rc = EXIT_DATA;
    }
  return rc;
}

int
diff_load_side (int n, char **args, struct pf_set *set)
{
  memset (set, 0, sizeof *set);
  int rc = 0;
  for (int i = 0; i < n && !rc; i++)
    {
      struct stat st;
      if (stat (args[i], &st) == 0 && S_ISDIR (st.st_mode))
        rc = add_directory (set, args[i]);
      else if (pf_add (set, args[i]) < 0)
        rc = EXIT_DATA;
    }
  if (rc)
    pf_free (set);
  return rc;
}

/* ---- changes --------------------------------------------------------------------- */

const char *const diff_measures[] = { "total", "self", "count" };

/* Figure WHICH of R (0 for none).  */

static uint64_t
figure (const struct rpt_row *r, enum diff_measure which)
{
  if (!r)
    return 0;
  return which == DIFF_TOTAL ? r->total_ns : which == DIFF_SELF ? r->self_ns
         : r->count;
}

/* NEW - BASE, as a double when it does not fit an int64_t (a corrupt
   profile's figures): for sorting and printing.  */

static double
change (uint64_t base, uint64_t new)
{
  return (double) new - (double) base;
}

bool
diff_pct (uint64_t base, uint64_t new, double *pct)
{
  if (!base)
    return false;
  *pct = 100.0 * change (base, new) / (double) base;
  return true;
}

bool
diff_grew (bool had_base, uint64_t base, uint64_t new, double limit)
{
  double pct;
  if (!had_base || !base)
    return new > 0;
  return diff_pct (base, new, &pct) && pct > limit;
}

/* ---- pairing the two reports ------------------------------------------------- */

static int
cmp_value (const void *a, const void *b)
{
  return strcmp ((*(const struct rpt_row *const *) a)->value,
                 (*(const struct rpt_row *const *) b)->value);
}

/* T's rows sorted by value (N of them into *N).  */

static const struct rpt_row **
rows_by_value (const struct rpt_table *t, uint32_t *n)
{
  *n = t ? t->nrows : 0;
  const struct rpt_row **v = XNEWVEC (const struct rpt_row *, *n + 1);
  for (uint32_t i = 0; i < *n; i++)
    v[i] = &t->rows[i];
  qsort (v, *n, sizeof *v, cmp_value);
  return v;
}

/* The measure cmp_change sorts by (qsort passes no argument): set by
   diff_build before it pairs the tables.  */
static enum diff_measure sort_by;

/* Rows by the size of their change of sort_by, then of their Count, growth
   before shrinking, then by value.  */

static int
cmp_change (const void *a, const void *b)
{
  const struct diff_row *x = a, *y = b;
  enum diff_measure m[2] = { sort_by, DIFF_COUNT };
  for (int k = 0; k < 2; k++)
    {
      double cx = change (figure (x->base, m[k]), figure (x->new, m[k]));
      double cy = change (figure (y->base, m[k]), figure (y->new, m[k]));
      if (fabs (cx) != fabs (cy))
        return fabs (cx) > fabs (cy) ? -1 : 1;
      if (cx != cy)
        return cx > cy ? -1 : 1;
    }
  return strcmp (x->value, y->value);
}

/* The table pairing base table B and new table N (either may be NULL: the
   rows above were on one side only) at LEVEL; NULL past the last level.  */

static struct diff_table *
pair_tables (const struct rpt_table *b, const struct rpt_table *n, int level,
             int ndims)
{
  if (level >= ndims)
    return NULL;
  uint32_t nb, nn;
  const struct rpt_row **vb = rows_by_value (b, &nb);
  const struct rpt_row **vn = rows_by_value (n, &nn);
  struct diff_table *t = XCNEW (struct diff_table);
  t->level = level;
  t->rows = XCNEWVEC (struct diff_row, nb + nn + 1);
  uint32_t i = 0, j = 0;
  while (i < nb || j < nn)
    {
      struct diff_row *r = &t->rows[t->nrows++];
      int c = i == nb ? 1 : j == nn ? -1 : strcmp (vb[i]->value, vn[j]->value);
      if (c <= 0)
        r->base = vb[i++];
      if (c >= 0)
        r->new = vn[j++];
      r->value = r->base ? r->base->value : r->new->value;
      r->sub = pair_tables (r->base ? r->base->sub : NULL,
                            r->new ? r->new->sub : NULL, level + 1, ndims);
    }
  free (vb);
  free (vn);
  qsort (t->rows, t->nrows, sizeof *t->rows, cmp_change);
  return t;
}

/* table_free: frees a table and those under it (model.h).  */

RPT_TABLE_FREE (table_free, diff_table)

int
diff_build (struct pf_set *base, struct pf_set *new, const struct query *q,
            enum diff_measure by, struct diff_model *m)
{
  memset (m, 0, sizeof *m);
  /* The notes of what no record carries once, for both sides.  */
  struct query quiet = *q;
  quiet.quiet = true;
  int rc = rpt_build (base, &quiet, &m->base);
  if (!rc && (rc = rpt_build (new, &quiet, &m->new)))
    rpt_free (&m->base);
  if (rc)
    return rc;
  agg_note_pair (m->base.agg, m->new.agg);
  if (m->base.by_samples != m->new.by_samples)
    fprintf (stderr, "dsprof: the %s side is timed by samples of its CPU time "
             "(DSPROF_SAMPLE), the %s by the deduction: times of two kinds "
             "(--deduced times both by the deduction)\n",
             m->base.by_samples ? "base" : "new", m->base.by_samples ? "new" : "base");
  diff_pair (m, by);
  return 0;
}

void
diff_pair (struct diff_model *m, enum diff_measure by)
{
  m->by = by;
  sort_by = by;
  m->top = pair_tables (m->base.top, m->new.top, 0, m->new.ndims);
}

void
diff_free (struct diff_model *m)
{
  table_free (m->top);
  rpt_free (&m->base);
  rpt_free (&m->new);
  memset (m, 0, sizeof *m);
}

/* each_under: the walk of diff_each_table, the same as rpt_each_table's
   (model.h).  */

RPT_TABLE_WALK (each_under, diff_table, diff_shown)

void
diff_each_table (const struct diff_model *m, int level, long top, const char **path,
                 void (*fn) (const struct diff_table *t, const char **path,
                             void *arg),
                 void *arg)
{
  if (m->top)
    each_under (m->top, level, top, path, fn, arg);
}

uint32_t
diff_shown (const struct diff_table *t, long top)
{
  return rpt_rows_shown (t->nrows, top);
}

/* ---- --fail-above ---------------------------------------------------------------- */

/* Say on stderr which rows of T (under PATH, of NDIMS dimensions) grew by more
   than LIMIT percent in M's measure; return how many.  Every row counts, shown
   or not.  */

static uint32_t
grown_rows (const struct diff_model *m, const struct diff_table *t,
            const char **path, double limit)
{
  uint32_t grown = 0;
  const char *what = m->by == DIFF_TOTAL ? "Total" : m->by == DIFF_SELF ? "Self"
                     : "Count";
  for (uint32_t i = 0; i < t->nrows; i++)
    {
      const struct diff_row *r = &t->rows[i];
      path[t->level] = r->value;
      uint64_t b = figure (r->base, m->by), n = figure (r->new, m->by);
      if (r->new && diff_grew (r->base != NULL, b, n, limit))
        {
          grown++;
          fputs ("dsprof diff: ", stderr);
          for (int d = 0; d <= t->level; d++)
            fprintf (stderr, "%s%s=%s", d ? ", " : "", text_shown (m->base.dims[d]),
                   text_shown (path[d]));
          double pct;
          if (!r->base)
            fprintf (stderr, ": new, %s %" PRIu64, what, n);
          else if (diff_pct (b, n, &pct))
            fprintf (stderr, ": %s %" PRIu64 " -> %" PRIu64 " (%+.1f%%)", what, b,
                     n, pct);
          else
            fprintf (stderr, ": %s 0 -> %" PRIu64, what, n);
          fprintf (stderr, "%s, above %g%%\n", m->by == DIFF_COUNT ? "" : " ns",
                   limit);
        }
      if (r->sub)
        grown += grown_rows (m, r->sub, path, limit);
    }
  return grown;
}

uint32_t
diff_fail_check (const struct diff_model *m, double limit)
{
  if (!m->top)
    return 0;
  const char **path = XCNEWVEC (const char *, m->base.ndims + 1);
  uint32_t n = grown_rows (m, m->top, path, limit);
  free (path);
  return n;
}

/* ---- line counts ------------------------------------------------------------------ */

const struct lc_source *
diff_find_source (const struct lc_model *m, const char *path)
{
  struct lc_source key;
  key.path = (char *) path;
  return htab_find (m->by_path, &key);
}

/* Add a line of source S whose count went from BASE to NEW to L, if it
   changed.  */

static void
add_line (struct diff_lines *l, const struct lc_source *s, uint32_t line,
          uint64_t base, uint64_t new)
{
  if (base == new)
    return;
  if (!(l->n & (l->n - 1)))
    l->lines = XRESIZEVEC (struct diff_line, l->lines, l->n ? 2 * l->n : 1);
  struct diff_line *d = &l->lines[l->n++];
  d->given = s->given;
  d->line = line;
  d->base = base;
  d->new = new;
}

/* The changed lines of source B of the base and N of the new side (either
   may be NULL), both by line.  */

static void
pair_sources (struct diff_lines *l, const struct lc_source *b,
              const struct lc_source *n)
{
  uint32_t nb = b ? b->nlines : 0, nn = n ? n->nlines : 0, i = 0, j = 0;
  while (i < nb || j < nn)
    {
      uint32_t lb = i < nb ? b->lines[i].line : UINT32_MAX;
      uint32_t ln = j < nn ? n->lines[j].line : UINT32_MAX;
      uint64_t cb = 0, cn = 0;
      if (lb <= ln)
        cb = b->lines[i++].count;
      if (ln <= lb)
        cn = n->lines[j++].count;
      add_line (l, b ? b : n, lb < ln ? lb : ln, cb, cn);
    }
}

static int
cmp_line (const void *a, const void *b)
{
  const struct diff_line *x = a, *y = b;
  double cx = change (x->base, x->new), cy = change (y->base, y->new);
  if (fabs (cx) != fabs (cy))
    return fabs (cx) > fabs (cy) ? -1 : 1;
  if (cx != cy)
    return cx > cy ? -1 : 1;
  int c = strcmp (x->given, y->given);
  if (c)
    return c;
  return x->line < y->line ? -1 : x->line > y->line;
}

int
diff_lines_build (struct pf_set *base, struct pf_set *new, struct diff_lines *l)
{
  memset (l, 0, sizeof *l);
  int rc = lc_build (base, &l->base);
  if (!rc && (rc = lc_build (new, &l->new)))
    lc_free (&l->base);
  if (!rc)
    diff_lines_pair (l);
  return rc;
}

void
diff_lines_pair (struct diff_lines *l)
{
  for (size_t i = 0; i < l->base.nsources; i++)
    {
      const struct lc_source *b = l->base.sources[i];
      pair_sources (l, b, diff_find_source (&l->new, b->path));
    }
  for (size_t i = 0; i < l->new.nsources; i++)
    {
      const struct lc_source *n = l->new.sources[i];
      if (!diff_find_source (&l->base, n->path))
        pair_sources (l, NULL, n);
    }
  if (l->n > 1)
    qsort (l->lines, l->n, sizeof *l->lines, cmp_line);
}

void
diff_lines_free (struct diff_lines *l)
{
  free (l->lines);
  lc_free (&l->base);
  lc_free (&l->new);
  memset (l, 0, sizeof *l);
}
