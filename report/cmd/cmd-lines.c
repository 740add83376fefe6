/* cmd-lines.c - the line counts model (linecount.h) rendered: `dsprof lines`
   (docs/contract.md §5.1), `dsprof annotate` (§5.2), `dsprof export --format
   lcov` and `--format cobertura` (§5.8) and `dsprof summary`, the last three
   with coverage.h's figures.  */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libiberty.h"
#include "hashtab.h"
#include "cmd.h"
#include "diff.h"
#include "coverage.h"
#include "linecount.h"

/* ---- op records by label line --------------------------------------------------- */

/* The op records of a profile set by their label's line (docs/vm.md): the
   record count of each opcode name on each file's line, beside the block
   counts, which are gcov's and stay so.  */
struct op_line
{
  const char *file;              /* the file as given to the compiler */
  uint32_t line;
  const char *name;
  uint64_t count;
};

struct op_lines
{
  struct op_line *v;             /* by file, line, name */
  size_t n;
};

struct op_site_count
{
  const struct ev_site *site;
  uint64_t count;
};

static int
count_op_record (struct ev_record *r, void *arg)
{
  if (!ev_record_op_p (r))
    return 0;
  htab_t h = (htab_t) arg;
  struct op_site_count key = { r->site, 0 };
  void **slot = htab_find_slot (h, &key, INSERT);
  if (!*slot)
    {
      struct op_site_count *c = XNEW (struct op_site_count);
      *c = key;
      *slot = c;
    }
  ((struct op_site_count *) *slot)->count++;
  return 0;
}

static hashval_t
hash_op_site (const void *p)
{
  return htab_hash_pointer (((const struct op_site_count *) p)->site);
}

static int
eq_op_site (const void *a, const void *b)
{
  return ((const struct op_site_count *) a)->site
         == ((const struct op_site_count *) b)->site;
}

static int
add_op_line (void **slot, void *arg)
{
  const struct op_site_count *c = (const struct op_site_count *) *slot;
  struct op_lines *ops = (struct op_lines *) arg;
  struct op_line l = { c->site->file ? c->site->file : "", c->site->line,
                       c->site->name ? c->site->name : "", c->count };
  ops->v[ops->n++] = l;
  return 1;
}

static int
cmp_op_line (const void *a, const void *b)
{
  const struct op_line *x = (const struct op_line *) a;
  const struct op_line *y = (const struct op_line *) b;
  int c = strcmp (x->file, y->file);
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* Count SET's op records into OPS (to be freed), one entry per file, line
   and name, the sites of several units and processes summed.  */

static int
collect_op_lines (struct pf_set *set, struct op_lines *ops)
{
  htab_t h = htab_create (64, hash_op_site, eq_op_site, free);
  int rc = pf_walk_streams (set, NULL, count_op_record, NULL, h, 0);
  ops->n = 0;
  ops->v = XNEWVEC (struct op_line, htab_elements (h) + 1);
  htab_traverse (h, add_op_line, ops);
  htab_delete (h);
  if (ops->n > 1)
    qsort (ops->v, ops->n, sizeof *ops->v, cmp_op_line);
  size_t k = 0;
  for (size_t i = 0; i < ops->n; i++)
    if (k && !cmp_op_line (&ops->v[k - 1], &ops->v[i]))
      ops->v[k - 1].count += ops->v[i].count;
    else
      ops->v[k++] = ops->v[i];
  ops->n = k;
  return rc;
}

/* Whether SET has op sites (a unit built with dispatch=FUNC).  */

static bool
has_op_sites (const struct pf_set *set)
{
  for (uint32_t i = 0; i < set->nprocs; i++)
    for (uint32_t k = 0; k < set->procs[i].sites.size; k++)
      if (set->procs[i].sites.by_id[k] && set->procs[i].sites.by_id[k]->function)
        return true;
  return false;
}

/* The note annotate writes after line N of source S: "  [op NAME: COUNT
   records]" for each opcode of OPS (may be NULL) whose label is on it.  */

static void
print_op_note (const struct op_lines *ops, const struct lc_source *s, uint32_t n,
               FILE *out)
{
  for (size_t i = 0; ops && i < ops->n; i++)
    if (ops->v[i].line == n
        && (!strcmp (ops->v[i].file, s->given) || !strcmp (ops->v[i].file, s->path)))
      fprintf (out, "  [op %s: %llu record%s]", ops->v[i].name,
               (unsigned long long) ops->v[i].count, ops->v[i].count == 1 ? "" : "s");
}

/* ---- dsprof lines -------------------------------------------------------------- */

/* The blocks of M in the order `dsprof lines` prints them: by file as given,
   line, then block (the order of the model).  */

static int
cmp_block (const void *a, const void *b)
{
  const struct lc_block *x = *(const struct lc_block *const *) a;
  const struct lc_block *y = *(const struct lc_block *const *) b;
  int c = strcmp (x->given, y->given);
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return x < y ? -1 : x > y;
}

static void
print_lines (const struct lc_model *m, FILE *out)
{
  const struct lc_block **v = XNEWVEC (const struct lc_block *, m->nblocks + 1);
  for (size_t i = 0; i < m->nblocks; i++)
    v[i] = &m->blocks[i];
  if (m->nblocks > 1)
    qsort (v, m->nblocks, sizeof *v, cmp_block);
  for (size_t i = 0; i < m->nblocks; i++)
    fprintf (out, "%s:%u: %llu\n", text_shown (v[i]->given), v[i]->line,
             (unsigned long long) v[i]->count);
  free (v);
}

/* `dsprof lines --ops': FILE:LINE: COUNT NAME for each opcode's label.  */

static void
print_op_lines (const struct op_lines *ops, FILE *out)
{
  for (size_t i = 0; i < ops->n; i++)
    fprintf (out, "%s:%u: %llu %s\n", text_shown (ops->v[i].file), ops->v[i].line,
             (unsigned long long) ops->v[i].count, ops->v[i].name);
}

static int
run_lines (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "output", required_argument, NULL, 'o' },
    { "append", no_argument, NULL, 'a' },
    { "ops", no_argument, NULL, 'p' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  const char *output = NULL;
  bool append = false, ops = false;
  int c;
  opterr = 0;
  while ((c = getopt_long (argc, argv, ":o:h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'o': output = optarg; break;
      case 'a': append = true; break;
      case 'p': ops = true; break;
      case 'h': return print_help (&cmd_lines);
      default: return option_error ("lines", c, argv);
      }
  struct pf_set set;
  int rc = load_profiles (argc - optind, argv + optind, &set);
  if (rc)
    return rc;
  struct op_lines v = { NULL, 0 };
  struct lc_model m;
  rc = ops ? collect_op_lines (&set, &v) : lc_build (&set, &m);
  if (!rc)
    {
      struct output out;
      if (!(rc = output_open (&out, "lines", output, append ? OUTPUT_APPEND : 0)))
        {
          if (ops)
            print_op_lines (&v, out.f);
          else
            print_lines (&m, out.f);
          rc = output_close (&out);
        }
    }
  if (!ops)
    lc_free (&m);
  free (v.v);
  pf_free (&set);
  return rc;
}

const struct command cmd_lines = {
  "lines", "block counts as FILE:LINE: COUNT lines", run_lines,
  "usage: dsprof lines [-o FILE] [--append] [--ops] [PROFILE...]\n\n"
  "Print one line per basic-block counter, FILE:LINE: COUNT, ordered by file,\n"
  "line and block (the zprof format: `sort -t: -k3 -nr` lists the hottest\n"
  "blocks; editors jump to each line).  FILE is the path given to the compiler.\n"
  "Counts of several profiles are summed.  The counts are gcov's: a case label\n"
  "GCC puts in one block with other code has none of its own.\n\n"
  "  -o, --output FILE   write to FILE instead of standard output\n"
  "      --append        add to FILE instead of replacing it\n"
  "      --ops           instead, the op records of a dispatch function\n"
  "                      (dispatch=FUNC) by their label's line, FILE:LINE: COUNT\n"
  "                      NAME, one line per opcode, ordered by file, line, name\n"
};

/* ---- dsprof annotate ----------------------------------------------------------- */

/* Whether PATH, a source of unit U as found, is in the program's own tree: its
   directory, links resolved, is U's compilation directory (include/
   dsprof-format.h, section 3) or below it.  Only there does annotate write
   <source>.bb by default: not next to a system header, nor outside the tree
   through a '..'.  */

static bool
in_tree (const struct pf_unit *u, const char *path)
{
  if (!u->compdir[0])
    return false;
  const char *slash = strrchr (path, '/');
  char *dir = !slash ? xstrdup (".")
              : slash == path ? xstrdup ("/")
              : xstrndup (path, (size_t) (slash - path));
  char *real_dir = lrealpath (dir), *real_top = lrealpath (u->compdir);
  size_t n = strlen (real_top);
  bool yes = !strcmp (real_top, "/")
             || (!strncmp (real_dir, real_top, n)
                 && (real_dir[n] == '/' || real_dir[n] == '\0'));
  free (dir);
  free (real_dir);
  free (real_top);
  return yes;
}

/* The path under DIR for a source compiled as GIVEN: absolute paths lose their
   leading '/', and '..' components become '__' so nothing lands outside DIR.  */

static char *
path_under (const char *dir, const char *given)
{
  char *rel = xstrdup (given);
  char *p = rel;
  while (*p == '/')
    p++;
  for (char *c = p; *c; )
    {
      if (c[0] == '.' && c[1] == '.' && (c[2] == '/' || c[2] == '\0')
          && (c == p || c[-1] == '/'))
        c[0] = c[1] = '_';
      c = strchr (c, '/');
      if (!c)
        break;
      c++;
    }
  char *out = concat (dir, "/", p, ".bb", NULL);
  free (rel);
  return out;
}

/* Make the directories of PATH; those past its first FROM bytes (the ones
   annotate -o makes under its DIR) must be directories, not links to one.  */

static int
make_parents (const char *path, size_t from)
{
  char *d = xstrdup (path);
  bool bad = false;
  struct stat st;
  for (char *p = d + 1; *p && !bad; p++)
    if (*p == '/')
      {
        *p = '\0';
        if ((bad = mkdir (d, 0777) < 0 && errno != EEXIST))
          fprintf (stderr, "dsprof annotate: %s: %s\n", text_shown (d), strerror (errno));
        else if ((bad = (size_t) (p - d) > from && lstat (d, &st) == 0
                        && !S_ISDIR (st.st_mode)))
          fprintf (stderr, "dsprof annotate: '%s': is %s, not a directory\n", text_shown (d),
                   file_kind (st.st_mode));
        *p = '/';
      }
  free (d);
  return bad ? -1 : 0;
}

/* The count column of line N of S (from S->lines[*K] on, which moves past
   lines before N) into COL: the count, ##### if it never ran, empty if no
   block holds the line.  */

static void
count_column (const struct lc_source *s, uint32_t *k, uint32_t n, char col[24])
{
  col[0] = '\0';
  while (s && *k < s->nlines && s->lines[*k].line < n)
    ++*k;
  if (!s || *k >= s->nlines || s->lines[*k].line != n)
    return;
  if (s->lines[*k].count)
    snprintf (col, 24, "%" PRIu64, s->lines[*k].count);
  else
    strcpy (col, "#####");
}

/* With --diff, the change from the base's column B to the new N: the signed
   difference when it is not 0, else nothing.  */

static void
change_column (const char *b, const char *n, char col[24])
{
  uint64_t x = strtoull (b, NULL, 10), y = strtoull (n, NULL, 10);
  col[0] = '\0';
  if (x != y)
    snprintf (col, 24, "%c%" PRIu64, y > x ? '+' : '-', y > x ? y - x : x - y);
}

/* With --branches, the branches of line N of S under it, gcov -b -c's way;
   *K is the first of S's branches not shown yet.  */

static void
print_branches (const struct lc_source *s, uint32_t n, uint32_t *k, FILE *out)
{
  while (*k < s->nbranches && s->branches[*k].line < n)
    ++*k;
  for (; *k < s->nbranches && s->branches[*k].line == n; ++*k)
    {
      const struct lc_branch *b = &s->branches[*k];
      if (b->block)
        fprintf (out, "branch %2u taken %" PRIu64 "%s\n", b->number, b->count,
                 b->fallthrough ? " (fallthrough)" : "");
      else
        fprintf (out, "branch %2u never executed\n", b->number);
    }
}

/* Write the listing of S to OUT_PATH, whose directories past its first FROM
   bytes annotate makes (make_parents); with BASE (--diff), the base's count
   and the change before each line's count; with its branches if BRANCHES.
   Return 0, 1 if the source was not found (warned), or EXIT_DATA.  */

static int
write_listing (const struct lc_source *s, const struct lc_model *base,
               const struct op_lines *ops, const char *out_path, size_t from,
               bool branches)
{
  size_t size;
  const char *problem;
  char *text = read_regular (s->path, &size, &problem);
  if (!text)
    {
      fprintf (stderr, "dsprof annotate: warning: %s: %s; skipped\n", text_shown (s->path),
               problem);
      return 1;
    }
  uint32_t nlines = 0;
  for (size_t i = 0; i < size; i++)
    nlines += text[i] == '\n';
  if (size && text[size - 1] != '\n')
    nlines++;

  /* One column width for the whole listing: 9, or the widest count's.  */
  int width = 9;
  uint32_t beyond = 0;
  for (uint32_t k = 0; k < s->nlines; k++)
    if (s->lines[k].line > nlines)
      beyond = s->lines[k].line;
    else if (s->lines[k].line && s->lines[k].count)
      {
        int w = snprintf (NULL, 0, "%llu",
                          (unsigned long long) s->lines[k].count);
        width = w > width ? w : width;
      }
  const struct lc_source *b = base ? diff_find_source (base, s->path) : NULL;
  for (uint32_t k = 0; b && k < b->nlines; k++)
    {
      int w = snprintf (NULL, 0, "+%" PRIu64, b->lines[k].count);
      width = w > width ? w : width;
    }
  if (beyond)
    fprintf (stderr, "dsprof annotate: warning: %s has %u lines but the profile "
             "counts line %u: the source changed since it was compiled?\n",
             text_shown (s->path), nlines, beyond);

  struct output out;
  int rc = make_parents (out_path, from) < 0 ? EXIT_DATA
           : output_open (&out, "annotate", out_path, 0);
  if (!rc)
    {
      const char *p = text, *end = text + size;
      uint32_t k = 0, kb = 0;    /* the first line at n or after */
      uint32_t kbr = 0;          /* s->branches[kbr]: the first not shown */
      for (uint32_t n = 1; n <= nlines; n++)
        {
          const char *nl = memchr (p, '\n', (size_t) (end - p));
          size_t len = nl ? (size_t) (nl - p) : (size_t) (end - p);
          char col[24], bcol[24], change[24];
          count_column (s, &k, n, col);
          if (base)
            {
              count_column (b, &kb, n, bcol);
              change_column (bcol, col, change);
              fprintf (out.f, "%*s %*s %*s", width, bcol, width, col, width, change);
            }
          else
            fprintf (out.f, "%*s", width, col);
          fprintf (out.f, ":%5u:%.*s", n, (int) len, p);
          print_op_note (ops, s, n, out.f);
          fputc ('\n', out.f);
          if (branches)
            print_branches (s, n, &kbr, out.f);
          p = nl ? nl + 1 : end;
        }
      rc = output_close (&out);
    }
  free (text);
  return rc;
}

static bool
source_selected (const struct lc_source *s, int nsel, char **sel)
{
  if (nsel == 0)
    return true;
  char *real = lrealpath (s->path);
  bool yes = false;
  for (int i = 0; i < nsel && !yes; i++)
    {
      char *r = lrealpath (sel[i]);
      yes = !strcmp (sel[i], s->given) || !strcmp (sel[i], s->path)
            || !strcmp (r, real);
      free (r);
    }
  free (real);
  return yes;
}

/* Whether source S is in the program's own tree: in_tree for one of the
   units holding it.  */

static bool
source_own (const struct lc_source *s)
{
  for (uint32_t i = 0; i < s->nunits; i++)
    if (in_tree (s->units[i], s->path))
      return true;
  return false;
}

/* Write the listings of M's sources selected by SEL[0 .. NSEL) under DIR
   (NULL: beside them), every one even after one that failed, with their
   branches if BRANCHES; beside the source only in the program's own tree,
   unless --source named it.  Return 0 or EXIT_DATA.  */

static int
write_listings (const struct lc_model *m, const struct lc_model *base,
                const struct op_lines *ops, const char *dir, int nsel, char **sel,
                bool branches)
{
  int matched = 0, outside = 0, failed = 0, written = 0, skipped = 0;
  const char *first_outside = NULL;
  for (size_t i = 0; i < m->nsources; i++)
    {
      const struct lc_source *s = m->sources[i];
      /* Only the files blocks are on: not one a function is only named in.  */
      if (!s->nunits || !source_selected (s, nsel, sel))
        continue;
      matched++;
      if (!dir && !nsel && !source_own (s))
        {
          if (!outside++)
            first_outside = s->path;
          continue;
        }
      char *out_path = dir ? path_under (dir, s->given)
                           : concat (s->path, ".bb", NULL);
      int rc = write_listing (s, base, ops, out_path,
                              dir ? strlen (dir) : strlen (out_path), branches);
      if (rc == EXIT_DATA)
        failed = EXIT_DATA;
      written += rc == 0;
      skipped += rc != 0;
      free (out_path);
    }
  if (outside)
    fprintf (stderr, "dsprof annotate: note: %d source%s outside the "
             "compilation directory not annotated (%s%s); -o DIR writes every "
             "listing under DIR, --source FILE writes FILE's beside it\n",
             outside, outside == 1 ? "" : "s", text_shown (first_outside),
             outside > 1 ? ", ..." : "");
  if (nsel && !matched)
    fprintf (stderr, "dsprof annotate: warning: no instrumented source matches "
             "--source\n");
  /* After a warning or a note, what was done all the same.  */
  if (skipped || outside)
    fprintf (stderr, "dsprof annotate: wrote %d listing%s %s%s\n", written,
             written == 1 ? "" : "s", dir ? "under " : "",
             dir ? dir : "beside their sources, as SOURCE.bb");
  return failed;
}

static int
run_annotate (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "output", required_argument, NULL, 'o' },
    { "source", required_argument, NULL, 's' },
    { "diff", required_argument, NULL, 'D' },
    { "branches", no_argument, NULL, 'b' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  const char *dir = NULL;
  char *base = NULL;
  bool branches = false;
  char **sel = XNEWVEC (char *, argc + 1);
  int nsel = 0, c;
  opterr = 0;
  while ((c = getopt_long (argc, argv, ":o:h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'o': dir = optarg; break;
      case 's': sel[nsel++] = optarg; break;
      case 'D': base = optarg; break;
      case 'b': branches = true; break;
      case 'h': free (sel); return print_help (&cmd_annotate);
      default:
        free (sel);
        return option_error ("annotate", c, argv);
      }
  struct pf_set set, bset;
  struct lc_model bm;
  memset (&bm, 0, sizeof bm);
  memset (&bset, 0, sizeof bset);
  int rc = base ? diff_load_side (1, &base, &bset) : 0;
  if (!rc && base)
    rc = lc_build (&bset, &bm);
  if (!rc && !(rc = load_profiles (argc - optind, argv + optind, &set)))
    {
      struct lc_model m;
      struct op_lines ops = { NULL, 0 };
      bool with_ops = has_op_sites (&set);
      if (!(rc = lc_build (&set, &m)) && !(with_ops && (rc = collect_op_lines (&set, &ops))))
        rc = write_listings (&m, base ? &bm : NULL, with_ops ? &ops : NULL, dir, nsel,
                             sel, branches);
      lc_free (&m);
      free (ops.v);
      pf_free (&set);
    }
  lc_free (&bm);
  pf_free (&bset);
  free (sel);
  return rc;
}

const struct command cmd_annotate = {
  "annotate", "annotated source listings (<source>.bb)", run_annotate,
  "usage: dsprof annotate [-o DIR] [--source FILE]... [--branches] [--diff BASE]\n"
  "       [PROFILE...]\n\n"
  "Write <source>.bb for every instrumented source file: each source line after\n"
  "a count column, printf(\"%9s:%5u:%s\") (wider for the whole file if a count has\n"
  "more than 9 digits) - the largest count of the blocks that\n"
  "hold a statement on the line, ##### if they never ran, blank if no block\n"
  "holds the line.  A function's definition line shows its entry count; a\n"
  "break, continue or goto line how often the jump was taken.  Sources are\n"
  "found through the compilation directory; a missing one is skipped with a\n"
  "warning.  Without -o, listings are written beside the sources in the\n"
  "compilation directory and below it only (not beside system headers: a note\n"
  "counts those), and only over a regular file, never through a link.\n\n"
  "  -o, --output DIR    write DIR/<file as compiled>.bb instead of next to the\n"
  "                      source, for every source\n"
  "      --source FILE   only this source (repeatable); written beside it\n"
  "                      wherever it is\n"
  "      --diff BASE     three columns: BASE's count of the line (a profile or\n"
  "                      a directory of profiles, as `dsprof diff` takes it),\n"
  "                      the profiles' count, and the change (+N, -N; blank\n"
  "                      when none)\n"
  "      --branches      under each line that ends a block with a conditional\n"
  "                      jump or a switch, one line per way out, numbered from\n"
  "                      0 on the line in gcov's order, as gcov -b -c lists\n"
  "                      them: \"branch  0 taken N\" (\" (fallthrough)\" for the\n"
  "                      way to the next block in the code), or \"branch  1\n"
  "                      never executed\" when the block never ran\n"
};

/* ---- dsprof summary ------------------------------------------------------------ */

/* The figures are coverage.h's, lcov's.  */

/* One row of the summary: a function (NAME and LINE), a source (NAME NULL) or
   the totals (FILE NULL).  */

struct sum_row
{
  const char *file, *name;
  uint32_t line;
  uint64_t calls;
  struct cov_row cov;
};

/* The rows of M: by source path, each source's functions by line then name
   and the source itself, then the totals.  Return how many; free *ROWS.  */

static size_t
summary_rows (const struct lc_model *m, struct sum_row **rows)
{
  struct lc_source **v = cov_sorted_sources (m);
  size_t n = 0, max = 1;
  for (size_t i = 0; i < m->nsources; i++)
    max += v[i]->nfuncs + 1;
  struct sum_row *r = XCNEWVEC (struct sum_row, max);
  struct cov_row total = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 },
                           { 0, 0 } };
  for (size_t i = 0; i < m->nsources; i++)
    {
      const struct lc_source *s = v[i];
      for (uint32_t k = 0; k < s->nfuncs; k++)
        r[n++] = (struct sum_row) { s->path, s->funcs[k].name, s->funcs[k].line,
                                    s->funcs[k].count, cov_func (&s->funcs[k]) };
      r[n] = (struct sum_row) { s->path, NULL, 0, 0, cov_source (s) };
      cov_add (&total, &r[n++].cov);
    }
  r[n++] = (struct sum_row) { NULL, NULL, 0, 0, total };
  free (v);
  *rows = r;
  return n;
}

/* The name of row R in the text table: FILE:LINE NAME, FILE, or "total".  */

static char *
row_where (const struct sum_row *r)
{
  if (!r->file)
    return xstrdup ("total");
  if (!r->name)
    return xstrdup (r->file);
  char line[16];
  snprintf (line, sizeof line, "%u", r->line);
  return concat (r->file, ":", line, " ", r->name, NULL);
}

static void
summary_text (const struct sum_row *r, size_t n, FILE *out)
{
  char buf[64];
  static const char *const head[5] = { "LINES", "BLOCKS", "FUNCTIONS",
                                       "BR-EXEC", "BR-TAKEN" };
  int w[5];
  for (int k = 0; k < 5; k++)
    w[k] = (int) strlen (head[k]);
  for (size_t i = 0; i < n; i++)
    {
      const struct cov *c[5] = { &r[i].cov.lines, &r[i].cov.blocks,
                                 &r[i].cov.funcs, &r[i].cov.br_exec,
                                 &r[i].cov.br_taken };
      for (int k = 0; k < 5; k++)
        {
          int len = (int) strlen (cov_text (buf, sizeof buf, *c[k]));
          w[k] = len > w[k] ? len : w[k];
        }
    }
  for (int k = 0; k < 5; k++)
    fprintf (out, "%*s  ", w[k], head[k]);
  fputs ("WHERE\n", out);
  for (size_t i = 0; i < n; i++)
    {
      const struct cov *c[5] = { &r[i].cov.lines, &r[i].cov.blocks,
                                 &r[i].cov.funcs, &r[i].cov.br_exec,
                                 &r[i].cov.br_taken };
      for (int k = 0; k < 5; k++)
        fprintf (out, "%*s  ", w[k], cov_text (buf, sizeof buf, *c[k]));
      char *where = row_where (&r[i]);
      fprintf (out, "%s\n", text_shown (where));
      free (where);
    }
}

static const char *
row_kind (const struct sum_row *r)
{
  return !r->file ? "total" : !r->name ? "file" : "function";
}

static void
summary_csv (const struct sum_row *r, size_t n, FILE *out)
{
  fputs ("kind,file,function,line,calls,lines_hit,lines,blocks_hit,blocks,"
         "functions_hit,functions,branches_executed,branches_taken,branches\n",
         out);
  for (size_t i = 0; i < n; i++)
    {
      const struct cov_row *c = &r[i].cov;
      fprintf (out, "%s,", row_kind (&r[i]));
      text_csv (out, r[i].file ? r[i].file : "");
      fputc (',', out);
      text_csv (out, r[i].name ? r[i].name : "");
      if (r[i].name)
        fprintf (out, ",%u,%" PRIu64, r[i].line, r[i].calls);
      else
        fputs (",,", out);
      fprintf (out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
               c->lines.hit, c->lines.total, c->blocks.hit, c->blocks.total,
               c->funcs.hit, c->funcs.total, c->br_exec.hit, c->br_taken.hit,
               c->br_taken.total);
    }
}

static void
summary_json (const struct sum_row *r, size_t n, FILE *out)
{
  fputs ("[", out);
  for (size_t i = 0; i < n; i++)
    {
      const struct cov_row *c = &r[i].cov;
      fprintf (out, "%s\n  {\"kind\": \"%s\"", i ? "," : "", row_kind (&r[i]));
      if (r[i].file)
        {
          fputs (", \"file\": ", out);
          text_json (out, r[i].file);
        }
      if (r[i].name)
        {
          fputs (", \"function\": ", out);
          text_json (out, r[i].name);
          fprintf (out, ", \"line\": %u, \"calls\": %" PRIu64, r[i].line,
                   r[i].calls);
        }
      fprintf (out, ", \"lines_hit\": %" PRIu64 ", \"lines\": %" PRIu64
               ", \"blocks_hit\": %" PRIu64 ", \"blocks\": %" PRIu64
               ", \"functions_hit\": %" PRIu64 ", \"functions\": %" PRIu64
               ", \"branches_executed\": %" PRIu64 ", \"branches_taken\": %"
               PRIu64 ", \"branches\": %" PRIu64 "}",
               c->lines.hit, c->lines.total, c->blocks.hit, c->blocks.total,
               c->funcs.hit, c->funcs.total, c->br_exec.hit, c->br_taken.hit,
               c->br_taken.total);
    }
  fputs ("\n]\n", out);
}

static int
run_summary (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "format", required_argument, NULL, 'f' },
    { "output", required_argument, NULL, 'o' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  const char *format = "text", *output = NULL;
  int c;
  opterr = 0;
  while ((c = getopt_long (argc, argv, ":f:o:h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'f': format = optarg; break;
      case 'o': output = optarg; break;
      case 'h': return print_help (&cmd_summary);
      default: return option_error ("summary", c, argv);
      }
  if (strcmp (format, "text") && strcmp (format, "csv")
      && strcmp (format, "json"))
    return usage_error ("summary", "--format must be text, csv or json, not "
                        "'%s'", format);
  struct pf_set set;
  int rc = load_profiles (argc - optind, argv + optind, &set);
  if (rc)
    return rc;
  struct lc_model m;
  if (!(rc = lc_build (&set, &m)))
    {
      struct sum_row *rows;
      size_t n = summary_rows (&m, &rows);
      struct output out;
      if (!(rc = output_open (&out, "summary", output, 0)))
        {
          if (!strcmp (format, "csv"))
            summary_csv (rows, n, out.f);
          else if (!strcmp (format, "json"))
            summary_json (rows, n, out.f);
          else
            summary_text (rows, n, out.f);
          rc = output_close (&out);
        }
      free (rows);
    }
  lc_free (&m);
  pf_free (&set);
  return rc;
}

const struct command cmd_summary = {
  "summary", "coverage summary: lines, blocks, functions, branches executed",
  run_summary,
  "usage: dsprof summary [--format text|csv|json] [-o FILE] [PROFILE...]\n\n"
  "Print, per source file and per function, how many of its instrumented lines,\n"
  "blocks, functions and branches ran, as `gcov -f` and `lcov --summary` do,\n"
  "then the totals: the figures of `dsprof export --format lcov` (a line is\n"
  "instrumented if a block holds a statement on it, and ran if the largest\n"
  "count of those blocks is not 0; a function ran if its entry count is not 0;\n"
  "a block ran if its count is not 0; a header's function counts the blocks of\n"
  "each unit's copy).  Branches are gcov's (annotate --branches): BR-EXEC those\n"
  "whose block ran (gcov's \"Branches executed\"), BR-TAKEN those taken at least\n"
  "once (gcov's \"Taken at least once\", lcov's branch figure).  Rows are\n"
  "ordered by file (as annotate finds it), each file's functions by line, then\n"
  "the file's own row; the last row is the totals.\n\n"
  "  -f, --format F      text (a table, \"HIT/TOTAL PCT%\" cells), csv (RFC 4180:\n"
  "                      kind,file,function,line,calls,lines_hit,lines,\n"
  "                      blocks_hit,blocks,functions_hit,functions,\n"
  "                      branches_executed,branches_taken,branches) or json\n"
  "                      (an array of objects with those keys)\n"
  "  -o, --output FILE   write to FILE instead of standard output\n"
};
