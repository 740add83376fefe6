/* annotate.c - the annotated source listings of `dsprof annotate`
   (docs/contract.md §5.2): each source file of the line counts model
   (linecount.h) with its lines' counts, with --diff the base's and the
   change, with --branches its branches' counts, and the op records on
   their label's line (oplines.h).  */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libiberty.h"
#include "aggregate.h"
#include "exit.h"
#include "files.h"
#include "profile.h"
#include "query.h"
#include "text.h"
#include "diff.h"
#include "lines.h"

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

int
annotate_write (const struct lc_model *m, const struct lc_model *base,
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
