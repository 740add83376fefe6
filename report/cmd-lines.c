/* cmd-lines.c - block counts by source line: `dsprof lines` (docs/contract.md §5.1) and
   `dsprof annotate` (§5.2).  */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libiberty.h"
#include "hashtab.h"
#include "cmd.h"

/* One block of the profile set at its line.  */
struct block_line
{
  const char *file;              /* as given to the compiler */
  const struct pf_unit *unit;
  uint32_t line;
  uint64_t seq;                  /* unit, function and block order */
  uint64_t count;
};

struct block_list
{
  struct block_line *v;
  size_t n, size;
};

static void
push_block (struct block_list *l, struct block_line b)
{
  if (l->n == l->size)
    {
      l->size = l->size ? 2 * l->size : 256;
      l->v = XRESIZEVEC (struct block_line, l->v, l->size);
    }
  l->v[l->n++] = b;
}

/* Every (block, location) of SET into L: with ALL_LOCS the other lines a block
   holds statements on too, else only its own line.  Return 0 or EXIT_DATA.  */

static int
collect (struct pf_set *set, bool all_locs, struct block_list *l)
{
  uint64_t seq = 0;
  for (uint32_t i = 0; i < set->nunits; i++)
    {
      const struct pf_unit *u = set->units[i];
      for (uint32_t k = 0; k < u->nfunctions; k++)
        {
          const struct pf_function *f = &u->functions[k];
          uint64_t *counts = XNEWVEC (uint64_t, f->nblocks ? f->nblocks : 1);
          const char *err;
          if (pf_block_counts (u, f, counts, &err) < 0)
            {
              fprintf (stderr, "dsprof: unit %s: function %s: %s\n", u->source,
                       f->name, err);
              free (counts);
              return EXIT_DATA;
            }
          for (uint32_t b = 0; b < f->nblocks; b++, seq++)
            for (uint32_t j = 0; j < f->blocks[b].nlocs && (j == 0 || all_locs); j++)
              {
                const struct pf_loc *loc = &f->blocks[b].locs[j];
                push_block (l, (struct block_line) { u->files[loc->file], u,
                                                     loc->line, seq, counts[b] });
              }
          free (counts);
        }
    }
  return 0;
}

static int
cmp_block_line (const void *a, const void *b)
{
  const struct block_line *x = a, *y = b;
  int c = strcmp (x->file, y->file);
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- dsprof lines -------------------------------------------------------------- */

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
  struct block_list l = { NULL, 0, 0 };
  rc = collect (&set, false, &l);
  if (!rc)
    {
      if (l.n > 1)               /* none: l.v is NULL (a profile of no blocks) */
        qsort (l.v, l.n, sizeof *l.v, cmp_block_line);
      struct output out;
      if (!(rc = output_open (&out, "lines", output,
                              append ? OUTPUT_APPEND : 0)))
        {
          for (size_t i = 0; i < l.n; i++)
            fprintf (out.f, "%s:%u: %llu\n", l.v[i].file, l.v[i].line,
                     (unsigned long long) l.v[i].count);
          rc = output_close (&out);
        }
    }
  free (l.v);
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

/* A source file to list: its counted lines.  */
struct source
{
  char *given, *path;            /* as compiled; as found (compdir applied) */
  bool own;                      /* in the program's own tree (in_tree) */
  const struct pf_unit *asked;   /* the last unit in_tree was asked about */
  struct block_list lines;
};

static hashval_t
source_hash (const void *p)
{
  return htab_hash_string (((const struct source *) p)->path);
}

static int
source_eq (const void *p, const void *q)
{
  return !strcmp (((const struct source *) p)->path,
                  ((const struct source *) q)->path);
}

static void
source_free (void *p)
{
  struct source *s = p;
  free (s->given);
  free (s->path);
  free (s->lines.v);
  free (s);
}

static char *
resolve (const struct pf_unit *u, const char *file)
{
  if (file[0] == '/' || u->compdir[0] == '\0')
    return xstrdup (file);
  return concat (u->compdir, "/", file, NULL);
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
write_listing (const struct source *s, const char *out_path, size_t from)
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

  /* held[n]: a block holds line n; count[n]: the largest such block count.  */
  bool *held = XCNEWVEC (bool, nlines + 2);
  uint64_t *count = XCNEWVEC (uint64_t, nlines + 2);
  uint32_t beyond = 0;
  for (size_t i = 0; i < s->lines.n; i++)
    {
      const struct block_line *b = &s->lines.v[i];
      if (b->line == 0 || b->line > nlines)
        {
          beyond = b->line > beyond ? b->line : beyond;
          continue;
        }
      held[b->line] = true;
      if (b->count > count[b->line])
        count[b->line] = b->count;
    }
  /* One column width for the whole listing: 9, or the widest count's.  */
  int width = 9;
  for (uint32_t n = 1; n <= nlines; n++)
    if (count[n])
      {
        int w = snprintf (NULL, 0, "%llu", (unsigned long long) count[n]);
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
      for (uint32_t n = 1; n <= nlines; n++)
        {
          const char *nl = memchr (p, '\n', (size_t) (end - p));
          size_t len = nl ? (size_t) (nl - p) : (size_t) (end - p);
          char col[24] = "";
          if (held[n] && count[n])
            snprintf (col, sizeof col, "%llu", (unsigned long long) count[n]);
          else if (held[n])
            strcpy (col, "#####");
          fprintf (out.f, "%*s:%5u:%.*s\n", width, col, n, (int) len, p);
          p = nl ? nl + 1 : end;
        }
      rc = output_close (&out);
    }
  free (held);
  free (count);
  free (text);
  return rc;
}

static bool
source_selected (const struct source *s, int nsel, char **sel)
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
  if (rc)
    {
      free (sel);
      return rc;
    }
  struct block_list all = { NULL, 0, 0 };
  rc = collect (&set, true, &all);

  /* Group the lines by source file, in order of first appearance.  */
  htab_t sources = htab_create_alloc (16, source_hash, source_eq, source_free,
                                      xcalloc, free);
  struct source **order = NULL;
  size_t nsources = 0;
  for (size_t i = 0; !rc && i < all.n; i++)
    {
      struct source key;
      key.path = resolve (all.v[i].unit, all.v[i].file);
      void **slot = htab_find_slot (sources, &key, INSERT);
      struct source *s = *slot;
      if (!s)
        {
          s = XCNEW (struct source);
          s->given = xstrdup (all.v[i].file);
          s->path = key.path;
          *slot = s;
          order = XRESIZEVEC (struct source *, order, nsources + 1);
          order[nsources++] = s;
        }
      else
        free (key.path);
      /* Asked once per unit holding the source, and only when it matters: no
         -o DIR, no --source (see below).  */
      if (!dir && !nsel && !s->own && s->asked != all.v[i].unit)
        {
          s->asked = all.v[i].unit;
          s->own = in_tree (s->asked, s->path);
        }
      push_block (&s->lines, all.v[i]);
    }

  /* Every listing selected, even after one that failed; beside the source
     only in the program's own tree, unless --source named it.  */
  int matched = 0, outside = 0, failed = 0;
  const char *first_outside = NULL;
  for (size_t i = 0; !rc && i < nsources; i++)
    {
      if (!source_selected (order[i], nsel, sel))
        continue;
      matched++;
      if (!dir && !nsel && !order[i]->own)
        {
          if (!outside++)
            first_outside = order[i]->path;
          continue;
        }
      char *out_path = dir ? path_under (dir, order[i]->given)
                           : concat (order[i]->path, ".bb", NULL);
      if (write_listing (order[i], out_path, dir ? strlen (dir) : strlen (out_path))
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
  if (!rc && nsel && !matched)
    fprintf (stderr, "dsprof annotate: warning: no instrumented source matches "
             "--source\n");
  rc = rc ? rc : failed;
  free (order);
  htab_delete (sources);
  free (all.v);
  free (sel);
  pf_free (&set);
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
