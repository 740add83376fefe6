/* cobertura.c - `dsprof export --format cobertura` (docs/contract.md §5.8):
   Cobertura XML of the line counts model (linecount.h), with coverage.h's
   figures, as the lcov export's and `dsprof summary`'s.  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "coverage.h"
#include "export.h"
#include "text.h"

/* Cobertura's coverage-04.dtd: the sources' common directory as the one
   <source>, a <package> per directory below it (its path with '.' for '/'),
   a <class> per source file (filename relative to the source), its <methods>
   (the functions, each with its own lines) and its <lines>: hits as lcov's
   DA, and on a line with branches branch="true" and condition-coverage
   "PCT% (TAKEN/BRANCHES)".  Every figure is coverage.h's, as lcov's and
   `dsprof summary`'s; a rate is covered / valid, 1 when nothing is valid
   (as Cobertura has it).  */

struct cob_file
{
  const struct lc_source *s;
  const char *rel;               /* the path below the common directory */
  size_t dirlen;                 /* of its directory in REL, '/' excluded */
};

/* Whether X and Y are in the same directory: 0 if so.  */

static int
cmp_cob_dir (const struct cob_file *x, const struct cob_file *y)
{
  return x->dirlen != y->dirlen || memcmp (x->rel, y->rel, x->dirlen);
}

static int
cmp_cob_file (const void *a, const void *b)
{
  const struct cob_file *x = a, *y = b;
  size_t n = x->dirlen < y->dirlen ? x->dirlen : y->dirlen;
  int c = memcmp (x->rel, y->rel, n);
  if (c || x->dirlen != y->dirlen)
    return c ? c : x->dirlen < y->dirlen ? -1 : 1;
  return strcmp (x->rel, y->rel);
}

/* The length of the directory V's N paths have in common, its '/' included
   (0 when some path is relative and none is shared).  */

static size_t
common_dir (struct lc_source *const *v, size_t n)
{
  if (!n)
    return 0;
  const char *first = v[0]->path;
  const char *slash = strrchr (first, '/');
  size_t len = slash ? (size_t) (slash - first) + 1 : 0;
  for (size_t i = 1; i < n && len; i++)
    while (len && strncmp (v[i]->path, first, len))
      {
        len--;
        while (len && first[len - 1] != '/')
          len--;
      }
  return len;
}

static void
cob_rates (FILE *out, const struct cov_row *r)
{
  fprintf (out, " line-rate=\"%.4f\" branch-rate=\"%.4f\" complexity=\"0\"",
           r->lines.total ? (double) r->lines.hit / (double) r->lines.total : 1.0,
           r->br_taken.total
           ? (double) r->br_taken.hit / (double) r->br_taken.total : 1.0);
}

/* The <line>s of V (N of them), with the branches BR (NBR) on theirs.  */

static void
cob_lines (FILE *out, const struct lc_line *v, uint32_t n,
           const struct lc_branch *br, uint32_t nbr, const char *indent)
{
  fprintf (out, "%s<lines>\n", indent);
  uint32_t j = 0;
  for (uint32_t k = 0; k < n; k++)
    {
      if (!v[k].line)
        continue;
      uint32_t taken = 0, all = 0;
      for (; j < nbr && br[j].line <= v[k].line; j++)
        if (br[j].line == v[k].line)
          {
            all++;
            taken += br[j].count > 0;
          }
      fprintf (out, "%s  <line number=\"%u\" hits=\"%" PRIu64 "\"", indent,
               v[k].line, v[k].count);
      if (all)
        fprintf (out, " branch=\"true\" condition-coverage=\"%u%% (%u/%u)\"",
                 (unsigned) (100 * (uint64_t) taken / all), taken, all);
      else
        fputs (" branch=\"false\"", out);
      fputs ("/>\n", out);
    }
  fprintf (out, "%s</lines>\n", indent);
}

static void
cob_class (FILE *out, const struct cob_file *f, const struct cov_row *r)
{
  const struct lc_source *s = f->s;
  fputs ("        <class name=\"", out);
  text_html (out, f->rel + f->dirlen + (f->dirlen > 0));
  fputs ("\" filename=\"", out);
  text_html (out, f->rel);
  fputc ('"', out);
  cob_rates (out, r);
  fputs (">\n          <methods>\n", out);
  for (uint32_t k = 0; k < s->nfuncs; k++)
    {
      const struct lc_func *fn = &s->funcs[k];
      struct cov_row fr = cov_func (fn);
      fputs ("            <method name=\"", out);
      text_html (out, fn->name);
      fputs ("\" signature=\"\"", out);
      cob_rates (out, &fr);
      fputs (">\n", out);
      cob_lines (out, fn->lines, fn->nlines, fn->branches, fn->nbranches,
                 "              ");
      fputs ("            </method>\n", out);
    }
  fputs ("          </methods>\n", out);
  cob_lines (out, s->lines, s->nlines, s->branches, s->nbranches, "          ");
  fputs ("        </class>\n", out);
}

/* The <package> of files F[0 .. N), one directory's.  */

static void
cob_package (FILE *out, const struct cob_file *f, size_t n,
             const struct cov_row *rows)
{
  struct cov_row total = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
  for (size_t i = 0; i < n; i++)
    cov_add (&total, &rows[i]);
  char *name = xstrndup (f->rel, f->dirlen);
  for (char *c = name; *c; c++)
    if (*c == '/')
      *c = '.';
  fputs ("    <package name=\"", out);
  text_html (out, name);
  free (name);
  fputc ('"', out);
  cob_rates (out, &total);
  fputs (">\n      <classes>\n", out);
  for (size_t i = 0; i < n; i++)
    cob_class (out, &f[i], &rows[i]);
  fputs ("      </classes>\n    </package>\n", out);
}

static void
cob_write (FILE *out, struct lc_source *const *v, size_t n, uint64_t when_s)
{
  size_t root = common_dir (v, n);
  struct cob_file *f = XNEWVEC (struct cob_file, n + 1);
  for (size_t i = 0; i < n; i++)
    {
      const char *rel = v[i]->path + root, *slash = strrchr (rel, '/');
      f[i] = (struct cob_file) { v[i], rel, slash ? (size_t) (slash - rel) : 0 };
    }
  qsort (f, n, sizeof *f, cmp_cob_file);
  struct cov_row *rows = XNEWVEC (struct cov_row, n + 1);
  struct cov_row total = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
  for (size_t i = 0; i < n; i++)
    {
      rows[i] = cov_source (f[i].s);
      cov_add (&total, &rows[i]);
    }
  fputs ("<?xml version=\"1.0\" ?>\n<!DOCTYPE coverage SYSTEM "
         "\"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n", out);
  fprintf (out, "<coverage lines-valid=\"%" PRIu64 "\" lines-covered=\"%" PRIu64
           "\" branches-valid=\"%" PRIu64 "\" branches-covered=\"%" PRIu64 "\"",
           total.lines.total, total.lines.hit, total.br_taken.total,
           total.br_taken.hit);
  cob_rates (out, &total);
  fprintf (out, " version=\"dsprof\" timestamp=\"%" PRIu64 "\">\n", when_s);
  fputs ("  <sources>\n    <source>", out);
  if (!root)
    fputc ('.', out);
  else
    {
      char *dir = xstrndup (v[0]->path, root > 1 ? root - 1 : root);
      text_html (out, dir);
      free (dir);
    }
  fputs ("</source>\n  </sources>\n  <packages>\n", out);
  for (size_t i = 0, j; i < n; i = j)
    {
      for (j = i + 1; j < n && !cmp_cob_dir (&f[i], &f[j]); j++)
        ;
      cob_package (out, &f[i], j - i, &rows[i]);
    }
  fputs ("  </packages>\n</coverage>\n", out);
  free (rows);
  free (f);
}

/* Cobertura's timestamp is when the earliest process started.  */

int
export_cobertura (const struct export_input *in, FILE *out)
{
  const struct pf_set *set = in->set;
  uint64_t when_s = set->nprocs ? first_start (set) / 1000000000 : 0;
  struct lc_source **v = cov_sorted_sources (in->lines);
  cob_write (out, v, in->lines->nsources, when_s);
  free (v);
  return 0;
}
