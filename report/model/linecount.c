/* linecount.c - the block counts of a profile set by source line
   (linecount.h).  */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "exit.h"
#include "text.h"
#include "flow.h"
#include "linecount.h"
#include "strkey.h"

_Static_assert (offsetof (struct lc_source, path) == 0, "keyed by its first member (strkey.h)");

/* V, of N elements of SIZE bytes, with room for one more: arrays grow to the
   next power of two when full (N is 0 or a power of two).  */

static void *
grow (void *v, size_t n, size_t size)
{
  if (n & (n - 1))
    return v;
  return xrealloc (v, (n ? 2 * n : 1) * size);
}

char *
lc_resolve (const struct pf_unit *u, const char *given)
{
  if (given[0] == '/' || u->compdir[0] == '\0')
    return xstrdup (given);
  return concat (u->compdir, "/", given, NULL);
}

static void
source_free (void *p)
{
  struct lc_source *s = p;
  free (s->path);
  free (s->lines);
  for (uint32_t k = 0; k < s->nfuncs; k++)
    {
      free (s->funcs[k].lines);
      free (s->funcs[k].branches);
    }
  free (s->branches);
  free (s->funcs);
  free (s->units);
  free (s);
}

/* The source file FILE of unit U is found at, made on first sight.  OF_FILE
   caches it by U's file index.  */

static struct lc_source *
source_of (struct lc_model *m, const struct pf_unit *u, uint32_t file,
           struct lc_source **of_file)
{
  if (of_file[file])
    return of_file[file];
  struct lc_source key;
  key.path = lc_resolve (u, u->files[file]);
  void **slot = htab_find_slot (m->by_path, &key, INSERT);
  struct lc_source *s = *slot;
  if (s)
    free (key.path);
  else
    {
      s = XCNEW (struct lc_source);
      s->path = key.path;
      s->given = u->files[file];
      *slot = s;
      m->sources = grow (m->sources, m->nsources, sizeof *m->sources);
      m->sources[m->nsources++] = s;
    }
  return of_file[file] = s;
}

/* Line LINE of S is held by a block of unit U that ran COUNT times.  */

static void
add_line (struct lc_source *s, const struct pf_unit *u, uint32_t line,
          uint64_t count)
{
  s->lines = grow (s->lines, s->nlines, sizeof *s->lines);
  s->lines[s->nlines++] = (struct lc_line) { line, count };
  if (!s->nunits || s->units[s->nunits - 1] != u)
    {
      s->units = grow (s->units, s->nunits, sizeof *s->units);
      s->units[s->nunits++] = u;
    }
}

/* Append B to the N branches at *V.  */

static void
push_branch (struct lc_branch **v, uint32_t *n, struct lc_branch b)
{
  *v = grow (*v, *n, sizeof **v);
  (*v)[(*n)++] = b;
}

/* The branches of function F of unit U, whose edges are E, into FN (those
   in its own file) and into the sources of their lines.  */

static void
add_branches (struct lc_model *m, const struct pf_unit *u,
              const struct pf_function *f, const struct flow_edges *e,
              struct lc_func *fn, struct lc_source **of_file)
{
  struct dsprof_cursor c = { f->branches, f->branches + f->branches_size, 0 };
  uint64_t n = dsprof_read_uleb (&c);
  for (uint64_t k = 0; k < n; k++)
    {
      struct flow_branch b;
      if (flow_branch_next (&c, &b) < 0)
        return;
      struct lc_source *s = source_of (m, u, (uint32_t) b.file, of_file);
      for (uint64_t j = 0; j < b.narcs; j++)
        {
          uint64_t edge, flags;
          if (flow_branch_arc (&c, &edge, &flags) < 0 || edge >= e->n)
            return;
          struct lc_branch br = {
            .line = (uint32_t) b.line, .count = e->count[edge],
            .block = e->from[edge],
            .fallthrough = (flags & DSPROF_BRANCH_FALLTHROUGH) != 0,
            .unit = u->index, .seq = m->nseq++
          };
          push_branch (&s->branches, &s->nbranches, br);
          if (b.file == f->file)
            push_branch (&fn->branches, &fn->nbranches, br);
        }
    }
}

/* The blocks of function F of unit U, whose counts are COUNTS, into M: their
   lines into the sources, and F with its entry count, its blocks and the lines
   they hold in F's own file into F's source; and F's branches.  */

static int
add_function (struct lc_model *m, const struct pf_unit *u,
              const struct pf_function *f, const uint64_t *counts,
              struct lc_source **of_file)
{
  if (!f->nblocks)
    return 0;
  /* Block 0 is the entry block: its count is the calls.  */
  struct lc_func fn = { .name = f->name, .line = f->line, .count = counts[0],
                        .nblocks = f->nblocks };
  if (f->branches)
    {
      struct flow_edges e;
      const char *err;
      if (flow_edge_counts (f->flow, f->flow_size, f->nblocks,
                            u->counts + f->first_counter,
                            u->ncounters - f->first_counter, &e, &err) < 0)
        {
          fprintf (stderr, "dsprof: unit %s: function %s: %s\n",
                   text_shown (u->source), text_shown (f->name), err);
          return EXIT_DATA;
        }
      add_branches (m, u, f, &e, &fn, of_file);
      flow_edges_free (&e);
    }
  for (uint32_t b = 0; b < f->nblocks; b++)
    {
      const struct pf_block *bl = &f->blocks[b];
      fn.blocks_hit += counts[b] > 0;
      for (uint32_t j = 0; j < bl->nlocs; j++)
        {
          const struct pf_loc *loc = &bl->locs[j];
          if (j == 0)
            {
              m->blocks = grow (m->blocks, m->nblocks, sizeof *m->blocks);
              m->blocks[m->nblocks++]
                = (struct lc_block) { u->files[loc->file], loc->line, counts[b] };
            }
          add_line (source_of (m, u, loc->file, of_file), u, loc->line,
                    counts[b]);
          if (loc->file == f->file)
            {
              fn.lines = grow (fn.lines, fn.nlines, sizeof *fn.lines);
              fn.lines[fn.nlines++] = (struct lc_line) { loc->line, counts[b] };
            }
        }
    }
  struct lc_source *s = source_of (m, u, f->file, of_file);
  s->funcs = grow (s->funcs, s->nfuncs, sizeof *s->funcs);
  s->funcs[s->nfuncs++] = fn;
  return 0;
}

static int
cmp_line (const void *a, const void *b)
{
  const struct lc_line *x = a, *y = b;
  return x->line < y->line ? -1 : x->line > y->line;
}

static int
cmp_func (const void *a, const void *b)
{
  const struct lc_func *x = a, *y = b;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* Sort the N lines of V by line, each line once with the largest count of its
   entries; return how many remain.  */

static uint32_t
merge_lines (struct lc_line *v, uint32_t n)
{
  uint32_t k = 0;
  if (n)
    qsort (v, n, sizeof *v, cmp_line);
  for (uint32_t i = 0; i < n; i++)
    if (k && v[k - 1].line == v[i].line)
      {
        if (v[i].count > v[k - 1].count)
          v[k - 1].count = v[i].count;
      }
    else
      v[k++] = v[i];
  return k;
}

static int
cmp_branch (const void *a, const void *b)
{
  const struct lc_branch *x = a, *y = b;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->unit != y->unit)
    return x->unit < y->unit ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Number the N branches of V on each line in each unit, in the order they
   came, and sum those of the same line and number over the units (as lcov
   adds the tracefiles of several objects); return how many remain.  */

static uint32_t
merge_branches (struct lc_branch *v, uint32_t n)
{
  if (n)
    qsort (v, n, sizeof *v, cmp_branch);
  for (uint32_t i = 0; i < n; i++)
    v[i].number = i && v[i - 1].line == v[i].line && v[i - 1].unit == v[i].unit
                  ? v[i - 1].number + 1 : 0;
  /* Each line's branches: those of its first unit, then each later unit's
     added to the entry of the same number.  */
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; )
    {
      uint32_t line = v[i].line, start = k;
      for (; i < n && v[i].line == line; i++)
        {
          uint32_t j = start + v[i].number;
          if (j < k)
            {
              v[j].count += v[i].count;
              v[j].block += v[i].block;
            }
          else
            v[k++] = v[i];
        }
    }
  return k;
}

/* Sort the lines and functions of S, each line (the largest count) and each
   function (the summed count and blocks, the lines of all its copies) once.  */

static void
merge_source (struct lc_source *s)
{
  s->nlines = merge_lines (s->lines, s->nlines);

  uint32_t n = 0;
  if (s->nfuncs)
    qsort (s->funcs, s->nfuncs, sizeof *s->funcs, cmp_func);
  for (uint32_t i = 0; i < s->nfuncs; i++)
    if (n && !cmp_func (&s->funcs[n - 1], &s->funcs[i]))
      {
        struct lc_func *to = &s->funcs[n - 1], *from = &s->funcs[i];
        to->count += from->count;
        to->nblocks += from->nblocks;
        to->blocks_hit += from->blocks_hit;
        to->lines = xrealloc (to->lines, (to->nlines + from->nlines + 1)
                                         * sizeof *to->lines);
        memcpy (to->lines + to->nlines, from->lines,
                from->nlines * sizeof *from->lines);
        to->nlines += from->nlines;
        free (from->lines);
        to->branches = xrealloc (to->branches,
                                 (to->nbranches + from->nbranches + 1)
                                 * sizeof *to->branches);
        if (from->nbranches)
          memcpy (to->branches + to->nbranches, from->branches,
                  from->nbranches * sizeof *from->branches);
        to->nbranches += from->nbranches;
        free (from->branches);
      }
    else
      s->funcs[n++] = s->funcs[i];
  s->nfuncs = n;
  for (uint32_t i = 0; i < n; i++)
    {
      s->funcs[i].nlines = merge_lines (s->funcs[i].lines, s->funcs[i].nlines);
      s->funcs[i].nbranches = merge_branches (s->funcs[i].branches,
                                              s->funcs[i].nbranches);
    }
  s->nbranches = merge_branches (s->branches, s->nbranches);
}

int
lc_build (struct pf_set *set, struct lc_model *m)
{
  memset (m, 0, sizeof *m);
  pf_warn_lost_updates (set);
  m->by_path = htab_create_alloc (16, strkey_hash, strkey_eq, source_free,
                                  xcalloc, free);
  int rc = 0;
  for (uint32_t i = 0; i < set->nunits && !rc; i++)
    {
      const struct pf_unit *u = set->units[i];
      struct lc_source **of_file = XCNEWVEC (struct lc_source *, u->nfiles + 1);
      for (uint32_t k = 0; k < u->nfunctions && !rc; k++)
        {
          const struct pf_function *f = &u->functions[k];
          uint64_t *counts = XNEWVEC (uint64_t, f->nblocks ? f->nblocks : 1);
          const char *err;
          if (pf_block_counts (u, f, counts, &err) < 0)
            {
              fprintf (stderr, "dsprof: unit %s: function %s: %s\n",
                       text_shown (u->source), text_shown (f->name), err);
              rc = EXIT_DATA;
            }
          else
            rc = add_function (m, u, f, counts, of_file);
          free (counts);
        }
      free (of_file);
    }
  for (size_t i = 0; i < m->nsources; i++)
    merge_source (m->sources[i]);
  if (rc)
    lc_free (m);
  return rc;
}

void
lc_free (struct lc_model *m)
{
  if (m->by_path)
    htab_delete (m->by_path);
  free (m->sources);
  free (m->blocks);
  memset (m, 0, sizeof *m);
}
