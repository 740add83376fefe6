/* coverage.c - coverage figures of the line counts model (coverage.h).  */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "coverage.h"

void
cov_add (struct cov_row *to, const struct cov_row *r)
{
  struct cov *t[5] = { &to->lines, &to->blocks, &to->funcs, &to->br_exec,
                       &to->br_taken };
  const struct cov *f[5] = { &r->lines, &r->blocks, &r->funcs, &r->br_exec,
                             &r->br_taken };
  for (int k = 0; k < 5; k++)
    {
      t[k]->hit += f[k]->hit;
      t[k]->total += f[k]->total;
    }
}

struct cov
cov_lines (const struct lc_line *v, uint32_t n)
{
  struct cov c = { 0, 0 };
  for (uint32_t k = 0; k < n; k++)
    if (v[k].line)
      {
        c.total++;
        c.hit += v[k].count > 0;
      }
  return c;
}

/* The branches of V (N of them) into R.  */

static void
cov_branches (struct cov_row *r, const struct lc_branch *v, uint32_t n)
{
  r->br_exec = r->br_taken = (struct cov) { 0, n };
  for (uint32_t k = 0; k < n; k++)
    {
      r->br_exec.hit += v[k].block > 0;
      r->br_taken.hit += v[k].count > 0;
    }
}

struct cov_row
cov_func (const struct lc_func *f)
{
  struct cov_row r = { cov_lines (f->lines, f->nlines),
                       { f->blocks_hit, f->nblocks },
                       { f->count > 0, 1 }, { 0, 0 }, { 0, 0 } };
  cov_branches (&r, f->branches, f->nbranches);
  return r;
}

struct cov_row
cov_source (const struct lc_source *s)
{
  struct cov_row r = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
  for (uint32_t k = 0; k < s->nfuncs; k++)
    {
      struct cov_row f = cov_func (&s->funcs[k]);
      cov_add (&r, &f);
    }
  /* Not the sum of its functions' lines and branches: lines of S other
     functions' blocks hold (a header's function inlined) count too, each
     line and branch once.  */
  r.lines = cov_lines (s->lines, s->nlines);
  cov_branches (&r, s->branches, s->nbranches);
  return r;
}

static int
cmp_source_path (const void *a, const void *b)
{
  return strcmp ((*(const struct lc_source *const *) a)->path,
                 (*(const struct lc_source *const *) b)->path);
}

struct lc_source **
cov_sorted_sources (const struct lc_model *m)
{
  struct lc_source **v = XNEWVEC (struct lc_source *, m->nsources + 1);
  if (m->nsources)
    memcpy (v, m->sources, m->nsources * sizeof *v);
  if (m->nsources > 1)
    qsort (v, m->nsources, sizeof *v, cmp_source_path);
  return v;
}

/* C as "HIT/TOTAL PCT%" into BUF ("-" when nothing is instrumented), the
   percentage with one decimal as lcov rounds it: 100.0% only when all ran,
   0.0% only when none did.  Return BUF.  */

const char *
cov_text (char *buf, size_t size, struct cov c)
{
  if (!c.total)
    return strcpy (buf, "-");
  double pct = 100.0 * (double) c.hit / (double) c.total;
  if (c.hit < c.total && pct > 99.9)
    pct = 99.9;
  else if (c.hit && pct < 0.1)
    pct = 0.1;
  snprintf (buf, size, "%" PRIu64 "/%" PRIu64 " %.1f%%", c.hit, c.total, pct);
  return buf;
}
