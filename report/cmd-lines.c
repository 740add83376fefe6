/* cmd-lines.c - the line counts model (linecount.h) rendered: `dsprof lines`
   (docs/contract.md §5.1), `dsprof annotate` (§5.2) and `dsprof export --format
   lcov`.  */

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
#include "linecount.h"

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
    fprintf (out, "%s:%u: %llu\n", v[i]->given, v[i]->line,
             (unsigned long long) v[i]->count);
  free (v);
}

static int
run_lines (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "output", required_argument, NULL, 'o' },
    { "append", no_argument, NULL, 'a' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  const char *output = NULL;
  bool append = false;
  int c;
  opterr = 0;
  while ((c = getopt_long (argc, argv, ":o:h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'o': output = optarg; break;
      case 'a': append = true; break;
      case 'h': return print_help (&cmd_lines);
      default: return option_error ("lines", c, argv);
      }
  struct pf_set set;
  int rc = load_profiles (argc - optind, argv + optind, &set);
  if (rc)
    return rc;
  struct lc_model m;
  rc = lc_build (&set, &m);
  if (!rc)
    {
      struct output out;
      if (!(rc = output_open (&out, "lines", output,
                              append ? OUTPUT_APPEND : 0)))
        {
          print_lines (&m, out.f);
          rc = output_close (&out);
        }
    }
  lc_free (&m);
  pf_free (&set);
  return rc;
}

const struct command cmd_lines = {
  "lines", "block counts as FILE:LINE: COUNT lines", run_lines,
  "usage: dsprof lines [-o FILE] [--append] [PROFILE...]\n\n"
  "Print one line per basic-block counter, FILE:LINE: COUNT, ordered by file,\n"
  "line and block (the zprof format: `sort -t: -k3 -nr` lists the hottest\n"
  "blocks; editors jump to each line).  FILE is the path given to the compiler.\n"
  "Counts of several profiles are summed.\n\n"
  "  -o, --output FILE   write to FILE instead of standard output\n"
  "      --append        add to FILE instead of replacing it\n"
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
          fprintf (stderr, "dsprof annotate: %s: %s\n", d, strerror (errno));
        else if ((bad = (size_t) (p - d) > from && lstat (d, &st) == 0
                        && !S_ISDIR (st.st_mode)))
          fprintf (stderr, "dsprof annotate: '%s': is %s, not a directory\n", d,
                   file_kind (st.st_mode));
        *p = '/';
      }
  free (d);
  return bad ? -1 : 0;
}

/* Write the listing of S to OUT_PATH, whose directories past its first FROM
   bytes annotate makes (make_parents).  Return 0, 1 if the source was not found
   (warned), or EXIT_DATA.  */

static int
write_listing (const struct lc_source *s, const char *out_path, size_t from)
{
  size_t size;
  const char *problem;
  char *text = read_regular (s->path, &size, &problem);
  if (!text)
    {
      fprintf (stderr, "dsprof annotate: warning: %s: %s; skipped\n", s->path,
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
  if (beyond)
    fprintf (stderr, "dsprof annotate: warning: %s has %u lines but the profile "
             "counts line %u: the source changed since it was compiled?\n",
             s->path, nlines, beyond);

  struct output out;
  int rc = make_parents (out_path, from) < 0 ? EXIT_DATA
           : output_open (&out, "annotate", out_path, 0);
  if (!rc)
    {
      const char *p = text, *end = text + size;
      uint32_t k = 0;            /* s->lines[k]: the first at line n or after */
      for (uint32_t n = 1; n <= nlines; n++)
        {
          const char *nl = memchr (p, '\n', (size_t) (end - p));
          size_t len = nl ? (size_t) (nl - p) : (size_t) (end - p);
          char col[24] = "";
          while (k < s->nlines && s->lines[k].line < n)
            k++;
          if (k < s->nlines && s->lines[k].line == n && s->lines[k].count)
            snprintf (col, sizeof col, "%llu",
                      (unsigned long long) s->lines[k].count);
          else if (k < s->nlines && s->lines[k].line == n)
            strcpy (col, "#####");
          fprintf (out.f, "%*s:%5u:%.*s\n", width, col, n, (int) len, p);
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
   (NULL: beside them), every one even after one that failed; beside the source
   only in the program's own tree, unless --source named it.  Return 0 or
   EXIT_DATA.  */

static int
write_listings (const struct lc_model *m, const char *dir, int nsel, char **sel)
{
  int matched = 0, outside = 0, failed = 0;
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
      if (write_listing (s, out_path, dir ? strlen (dir) : strlen (out_path))
          == EXIT_DATA)
        failed = EXIT_DATA;
      free (out_path);
    }
  if (outside)
    fprintf (stderr, "dsprof annotate: note: %d source%s outside the "
             "compilation directory not annotated (%s%s); -o DIR writes every "
             "listing under DIR, --source FILE writes FILE's beside it\n",
             outside, outside == 1 ? "" : "s", first_outside,
             outside > 1 ? ", ..." : "");
  if (nsel && !matched)
    fprintf (stderr, "dsprof annotate: warning: no instrumented source matches "
             "--source\n");
  return failed;
}

static int
run_annotate (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "output", required_argument, NULL, 'o' },
    { "source", required_argument, NULL, 's' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  const char *dir = NULL;
  char **sel = XNEWVEC (char *, argc + 1);
  int nsel = 0, c;
  opterr = 0;
  while ((c = getopt_long (argc, argv, ":o:h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'o': dir = optarg; break;
      case 's': sel[nsel++] = optarg; break;
      case 'h': free (sel); return print_help (&cmd_annotate);
      default:
        free (sel);
        return option_error ("annotate", c, argv);
      }
  struct pf_set set;
  int rc = load_profiles (argc - optind, argv + optind, &set);
  if (!rc)
    {
      struct lc_model m;
      if (!(rc = lc_build (&set, &m)))
        rc = write_listings (&m, dir, nsel, sel);
      lc_free (&m);
      pf_free (&set);
    }
  free (sel);
  return rc;
}

const struct command cmd_annotate = {
  "annotate", "annotated source listings (<source>.bb)", run_annotate,
  "usage: dsprof annotate [-o DIR] [--source FILE]... [PROFILE...]\n\n"
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
};

/* ---- dsprof export --format lcov ---------------------------------------------- */

static int
cmp_source_path (const void *a, const void *b)
{
  return strcmp ((*(const struct lc_source *const *) a)->path,
                 (*(const struct lc_source *const *) b)->path);
}

/* The lcov record of source S: its functions, then its lines (DA: the largest
   count of the blocks on the line).  */

static void
lcov_source (const struct lc_source *s, FILE *out)
{
  fprintf (out, "TN:\nSF:%s\n", s->path);
  uint32_t hit = 0;
  for (uint32_t k = 0; k < s->nfuncs; k++)
    fprintf (out, "FN:%u,%s\n", s->funcs[k].line, s->funcs[k].name);
  for (uint32_t k = 0; k < s->nfuncs; k++)
    {
      fprintf (out, "FNDA:%" PRIu64 ",%s\n", s->funcs[k].count,
               s->funcs[k].name);
      hit += s->funcs[k].count > 0;
    }
  fprintf (out, "FNF:%u\nFNH:%u\n", s->nfuncs, hit);
  uint32_t lf = 0, lh = 0;
  for (uint32_t k = 0; k < s->nlines; k++)
    if (s->lines[k].line)
      {
        fprintf (out, "DA:%u,%" PRIu64 "\n", s->lines[k].line,
                 s->lines[k].count);
        lf++;
        lh += s->lines[k].count > 0;
      }
  fprintf (out, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
}

int
export_lcov (struct pf_set *set, FILE *out)
{
  struct lc_model m;
  int rc = lc_build (set, &m);
  if (rc)
    return rc;
  struct lc_source **v = XNEWVEC (struct lc_source *, m.nsources + 1);
  memcpy (v, m.sources, m.nsources * sizeof *v);
  if (m.nsources > 1)
    qsort (v, m.nsources, sizeof *v, cmp_source_path);
  for (size_t i = 0; i < m.nsources; i++)
    lcov_source (v[i], out);
  free (v);
  lc_free (&m);
  return 0;
}
