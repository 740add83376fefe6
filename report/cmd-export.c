/* cmd-export.c - profiles for other tools, and profiles from many: `dsprof export`
   and `dsprof merge` (docs/contract.md §5.8).

   export --format chrome   Chrome trace-event JSON: a B event at every Start, an
                            E event at every Finish (or repair), per process and
                            thread; args are the record's dimensions.
   export --format folded   folded stacks ("a;b;c SELF_NS"), the stack by name.
   export --format lcov     an lcov tracefile of the line counts, as annotate
                            counts lines.
   export --format csv      one row per record.
   merge -o OUT IN...       one profile file holding every input: units once
                            with summed counters, every process's event streams
                            with their threads renumbered.  */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libiberty.h"
#include "hashtab.h"
#include "cmd.h"

/* The name of a record or Start event: its `name` dimension, else its type.  */

static const char *
name_in (const struct ev_dim *dims, uint32_t n, const char *type, size_t *len)
{
  for (uint32_t i = 0; i < n; i++)
    if (!strcmp (dims[i].name, "name"))
      {
        if (dims[i].v.type == DSPROF_DIM_STR && dims[i].v.s)
          {
            *len = dims[i].v.len;
            return dims[i].v.s;
          }
        break;
      }
  *len = strlen (type);
  return type;
}

/* ---- chrome ---------------------------------------------------------------------- */

/* An open event's dimensions added since Start (dsprof_dim_*): as JSON members
   (each after a comma), and their names, each once (the first value wins, as
   in the record).  */
struct chrome_open
{
  char *added;
  size_t added_len;
  char **names;
  uint32_t nnames;
};

struct chrome
{
  FILE *out;
  int64_t pid;
  uint64_t offset_ns;            /* of this process's start after the first's */
  struct chrome_open *open;      /* per open event */
  uint32_t depth, size;
};

static void
put_ts (FILE *out, uint64_t ns)
{
  fprintf (out, "%" PRIu64 ".%03u", ns / 1000, (unsigned) (ns % 1000));
}

/* Append "name":"value" for dimension D to the memory stream F.  */

static void
put_arg (FILE *f, const struct ev_dim *d, bool comma)
{
  char buf[4096];
  if (comma)
    putc (',', f);
  text_json (f, d->name);
  putc (':', f);
  text_json (f, ev_format_value (&d->v, buf, sizeof buf));
}

/* Whether dimension NAME was added to the open event O.  */

static bool
added_before (const struct chrome_open *o, const char *name)
{
  for (uint32_t i = 0; i < o->nnames; i++)
    if (!strcmp (o->names[i], name))
      return true;
  return false;
}

static void
chrome_open_free (struct chrome_open *o)
{
  for (uint32_t i = 0; i < o->nnames; i++)
    free (o->names[i]);
  free (o->names);
  free (o->added);
}

static int
chrome_event (const struct ev_event *e, void *arg)
{
  struct chrome *c = arg;
  FILE *out = c->out;
  if (e->kind == EV_DIM)
    {
      if (!c->depth)
        return 0;
      struct chrome_open *o = &c->open[c->depth - 1];
      char *text = NULL;
      size_t size = 0;
      FILE *f = open_memstream (&text, &size);
      if (!f)
        return EXIT_DATA;
      if (o->added)
        fwrite (o->added, 1, o->added_len, f);
      for (uint32_t i = 0; i < e->ndims; i++)
        /* E's own "complete" member says how the event ended.  */
        if (!added_before (o, e->dims[i].name)
            && strcmp (e->dims[i].name, "complete") != 0)
          {
            put_arg (f, &e->dims[i], true);
            o->names = XRESIZEVEC (char *, o->names, o->nnames + 1);
            o->names[o->nnames++] = xstrdup (e->dims[i].name);
          }
      fclose (f);
      free (o->added);
      o->added = text;
      o->added_len = size;
      return 0;
    }
  if (e->kind == EV_START)
    {
      if (c->depth == c->size)
        {
          c->size = c->size ? 2 * c->size : 64;
          c->open = XRESIZEVEC (struct chrome_open, c->open, c->size);
        }
      memset (&c->open[c->depth++], 0, sizeof *c->open);
      size_t len;
      const char *name = name_in (e->dims, e->ndims, e->type, &len);
      fputs (",\n{\"ph\":\"B\",\"name\":", out);
      text_json_n (out, name, len);
      fputs (",\"cat\":", out);
      text_json (out, e->type);
      fputs (",\"ts\":", out);
      put_ts (out, c->offset_ns + e->ns);
      fprintf (out, ",\"pid\":%" PRId64 ",\"tid\":%u,\"args\":{", c->pid, e->thread);
      for (uint32_t i = 0; i < e->ndims; i++)
        put_arg (out, &e->dims[i], i > 0);
      fputs ("}}", out);
      return 0;
    }
  /* Finish or repair: the result, the added dims, complete.  */
  fputs (",\n{\"ph\":\"E\",\"ts\":", out);
  put_ts (out, c->offset_ns + e->ns);
  fprintf (out, ",\"pid\":%" PRId64 ",\"tid\":%u,\"args\":{", c->pid, e->thread);
  struct chrome_open *o = c->depth ? &c->open[--c->depth] : NULL;
  bool comma = false;
  for (uint32_t i = 0; i < e->ndims; i++)
    if (!o || !added_before (o, e->dims[i].name))
      {
        put_arg (out, &e->dims[i], comma);
        comma = true;
      }
  if (o && o->added_len)
    {
      /* Stored with a leading comma.  */
      fwrite (o->added + !comma, 1, o->added_len - !comma, out);
      comma = true;
    }
  if (o)
    chrome_open_free (o);
  fprintf (out, "%s\"complete\":\"%s\"}}", comma ? "," : "",
           e->kind == EV_FINISH ? "true" : "false");
  return 0;
}

static int
export_chrome (struct pf_set *set, FILE *out)
{
  uint64_t first = UINT64_MAX;
  for (uint32_t i = 0; i < set->nprocs; i++)
    if (set->procs[i].header.start_ns < first)
      first = set->procs[i].header.start_ns;
  struct chrome c;
  memset (&c, 0, sizeof c);
  c.out = out;
  fputs ("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"dsprof\"},"
         "\"traceEvents\":[", out);
  int rc = 0;
  for (uint32_t i = 0; i < set->nprocs && !rc; i++)
    {
      const struct pf_process *p = &set->procs[i];
      /* Processes by pid, unless two profiles have the same one.  */
      c.pid = p->header.pid;
      for (uint32_t k = 0; k < i; k++)
        if (set->procs[k].header.pid == p->header.pid)
          c.pid = 1000000000 + (int64_t) i;
      c.offset_ns = p->header.start_ns - first;
      /* Every event after this first one of each process starts with a comma.  */
      fprintf (out, "%s\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRId64
               ",\"tid\":0,\"args\":{\"name\":", i ? "," : "", c.pid);
      text_json (out, p->header.exe);
      fputs ("}}", out);
      for (uint32_t k = 0; k < p->nstreams && !rc; k++)
        {
          fprintf (out, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRId64
                   ",\"tid\":%u,\"args\":{\"name\":\"thread %u\"}}", c.pid,
                   p->streams[k].thread, p->streams[k].thread);
          rc = pf_decode_stream (p, &p->streams[k], chrome_event, NULL, &c);
          while (c.depth)
            chrome_open_free (&c.open[--c.depth]);
        }
    }
  fputs ("\n]}\n", out);
  free (c.open);
  return rc;
}

/* ---- folded ---------------------------------------------------------------------- */

/* Stacks form a tree: node = (parent node, name).  */
struct fnode
{
  uint32_t parent;
  const char *name;              /* interned */
  uint64_t self_ns;
};

struct folded
{
  bool raw;
  double overhead_ns;
  htab_t names;                  /* interned names */
  struct fnode *nodes;           /* [0] is the root */
  uint32_t nnodes, size;
  uint64_t *keys;                /* (parent << 32 | name number) -> node, open */
  uint32_t *vals;
  uint32_t cap, n;
  /* The open records of the current stream.  */
  struct fopen
  {
    uint32_t node;
    uint64_t child_ns, ndesc;
  } *stack;
  uint32_t depth, ssize;
};

static hashval_t
str_hash (const void *p)
{
  return htab_hash_string (p);
}

static int
str_eq (const void *p, const void *q)
{
  return !strcmp (p, q);
}

/* Stack frames are separated by ';' and end at the last blank: a name's ';'
   and control characters are written as \xHH.  */

static const char *
frame_name (struct folded *f, const char *s, size_t len)
{
  char *t = XNEWVEC (char, 4 * len + 1), *q = t;
  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) s[i];
      if (c == ';' || c < 0x20 || c == 0x7f)
        q += sprintf (q, "\\x%02x", c);
      else
        *q++ = (char) c;
    }
  *q = '\0';
  if (!*t)
    strcpy (t, "\"\"");
  void **slot = htab_find_slot (f->names, t, INSERT);
  if (*slot)
    free (t);
  else
    *slot = t;
  return *slot;
}

static uint32_t
fnode_of (struct folded *f, uint32_t parent, const char *name)
{
  if (2 * (f->n + 1) > f->cap)
    {
      uint64_t *ok = f->keys;
      uint32_t *ov = f->vals, ocap = f->cap;
      f->cap = f->cap ? 2 * f->cap : 256;
      f->keys = XNEWVEC (uint64_t, f->cap);
      f->vals = XCNEWVEC (uint32_t, f->cap);
      for (uint32_t i = 0; i < ocap; i++)
        if (ov[i])
          {
            uint64_t h = ok[i] * 0x9e3779b97f4a7c15ull;
            uint32_t k = (uint32_t) (h >> 32) & (f->cap - 1);
            while (f->vals[k])
              k = (k + 1) & (f->cap - 1);
            f->keys[k] = ok[i];
            f->vals[k] = ov[i];
          }
      free (ok);
      free (ov);
    }
  uint64_t key = (uint64_t) parent << 32 ^ (uint64_t) (uintptr_t) name;
  uint64_t h = key * 0x9e3779b97f4a7c15ull;
  uint32_t k = (uint32_t) (h >> 32) & (f->cap - 1);
  while (f->vals[k])
    {
      struct fnode *nd = &f->nodes[f->vals[k]];
      if (f->keys[k] == key && nd->parent == parent && nd->name == name)
        return f->vals[k];
      k = (k + 1) & (f->cap - 1);
    }
  if (f->nnodes == f->size)
    {
      f->size *= 2;
      f->nodes = XRESIZEVEC (struct fnode, f->nodes, f->size);
    }
  uint32_t id = f->nnodes++;
  f->nodes[id].parent = parent;
  f->nodes[id].name = name;
  f->nodes[id].self_ns = 0;
  f->keys[k] = key;
  f->vals[k] = id;
  f->n++;
  return id;
}

static void
folded_begin (const struct pf_process *p, const struct ev_stream *s, void *arg)
{
  (void) s;
  struct folded *f = arg;
  f->overhead_ns = f->raw ? 0.0 : (double) p->header.pair_overhead_ps / 1000.0;
  f->depth = 0;
}

static int
folded_event (const struct ev_event *e, void *arg)
{
  struct folded *f = arg;
  if (e->kind != EV_START)
    return 0;
  if (f->depth == f->ssize)
    {
      f->ssize = f->ssize ? 2 * f->ssize : 64;
      f->stack = XRESIZEVEC (struct fopen, f->stack, f->ssize);
    }
  size_t len;
  const char *name = name_in (e->dims, e->ndims, e->type, &len);
  uint32_t parent = f->depth ? f->stack[f->depth - 1].node : 0;
  struct fopen *o = &f->stack[f->depth++];
  o->node = fnode_of (f, parent, frame_name (f, name, len));
  o->child_ns = o->ndesc = 0;
  return 0;
}

static int
folded_record (struct ev_record *r, void *arg)
{
  struct folded *f = arg;
  if (!f->depth)
    return 0;
  struct fopen *o = &f->stack[--f->depth];
  /* The recorder's cost, deducted as the dimension report does.  */
  uint64_t adj = agg_deduct (r->end_ns - r->start_ns, f->overhead_ns, o->ndesc,
                             o->child_ns);
  f->nodes[o->node].self_ns += adj - o->child_ns;
  if (f->depth)
    {
      f->stack[f->depth - 1].child_ns += adj;
      f->stack[f->depth - 1].ndesc += o->ndesc + 1;
    }
  return 0;
}

struct fline
{
  char *stack;
  uint64_t ns;
};

static int
cmp_fline (const void *p, const void *q)
{
  return strcmp (((const struct fline *) p)->stack, ((const struct fline *) q)->stack);
}

static int
export_folded (struct pf_set *set, bool raw, FILE *out)
{
  struct folded f;
  memset (&f, 0, sizeof f);
  f.raw = raw;
  f.names = htab_create_alloc (64, str_hash, str_eq, free, xcalloc, free);
  f.size = 256;
  f.nodes = XNEWVEC (struct fnode, f.size);
  f.nnodes = 1;
  memset (&f.nodes[0], 0, sizeof f.nodes[0]);
  ev_keep_children (false);
  int rc = pf_walk_streams (set, folded_event, folded_record, folded_begin, &f);
  ev_keep_children (true);
  if (!rc)
    {
      struct fline *lines = XNEWVEC (struct fline, f.nnodes);
      uint32_t nl = 0;
      for (uint32_t i = 1; i < f.nnodes; i++)
        {
          if (!f.nodes[i].self_ns)
            continue;
          size_t len = 0;
          for (uint32_t k = i; k; k = f.nodes[k].parent)
            len += strlen (f.nodes[k].name) + 1;
          char *s = XNEWVEC (char, len), *end = s + len - 1;
          *end = '\0';
          for (uint32_t k = i; k; k = f.nodes[k].parent)
            {
              size_t n = strlen (f.nodes[k].name);
              end -= n;
              memcpy (end, f.nodes[k].name, n);
              if (end > s)
                *--end = ';';
            }
          lines[nl].stack = s;
          lines[nl++].ns = f.nodes[i].self_ns;
        }
      if (nl)
        qsort (lines, nl, sizeof *lines, cmp_fline);
      for (uint32_t i = 0; i < nl; i++)
        {
          fprintf (out, "%s %" PRIu64 "\n", lines[i].stack, lines[i].ns);
          free (lines[i].stack);
        }
      free (lines);
    }
  free (f.nodes);
  free (f.keys);
  free (f.vals);
  free (f.stack);
  htab_delete (f.names);
  return rc;
}

/* ---- lcov ------------------------------------------------------------------------ */

struct lfunc
{
  const char *name;
  uint32_t line;
  uint64_t count;
};

struct lsource
{
  char *path;
  uint64_t *count;               /* by line */
  bool *held;
  uint32_t nlines;               /* entries of count and held */
  struct lfunc *funcs;
  uint32_t nfuncs;
};

static hashval_t
lsource_hash (const void *p)
{
  return htab_hash_string (((const struct lsource *) p)->path);
}

static int
lsource_eq (const void *p, const void *q)
{
  return !strcmp (((const struct lsource *) p)->path,
                  ((const struct lsource *) q)->path);
}

static void
lsource_free (void *p)
{
  struct lsource *s = p;
  free (s->path);
  free (s->count);
  free (s->held);
  free (s->funcs);
  free (s);
}

/* The source U's FILE is found at, as annotate finds it.  */

static struct lsource *
lsource_of (htab_t sources, const struct pf_unit *u, uint32_t file)
{
  const char *given = u->files[file];
  struct lsource key;
  key.path = given[0] == '/' || u->compdir[0] == '\0'
             ? xstrdup (given) : concat (u->compdir, "/", given, NULL);
  void **slot = htab_find_slot (sources, &key, INSERT);
  if (*slot)
    {
      free (key.path);
      return *slot;
    }
  struct lsource *s = XCNEW (struct lsource);
  s->path = key.path;
  *slot = s;
  return s;
}

static void
lsource_count (struct lsource *s, uint32_t line, uint64_t count)
{
  if (line >= s->nlines)
    {
      uint32_t n = s->nlines ? s->nlines : 64;
      while (n <= line)
        n *= 2;
      s->count = XRESIZEVEC (uint64_t, s->count, n);
      s->held = XRESIZEVEC (bool, s->held, n);
      memset (s->count + s->nlines, 0, (n - s->nlines) * sizeof *s->count);
      memset (s->held + s->nlines, 0, (n - s->nlines) * sizeof *s->held);
      s->nlines = n;
    }
  s->held[line] = true;
  if (count > s->count[line])
    s->count[line] = count;
}

static int
collect_source (void **slot, void *arg)
{
  struct lsource ***p = arg;
  *(*p)++ = *slot;
  return 1;
}

static int
cmp_lsource (const void *p, const void *q)
{
  return strcmp ((*(struct lsource *const *) p)->path,
                 (*(struct lsource *const *) q)->path);
}

static int
cmp_lfunc (const void *p, const void *q)
{
  const struct lfunc *x = p, *y = q;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return strcmp (x->name, y->name);
}

static int
export_lcov (struct pf_set *set, FILE *out)
{
  htab_t sources = htab_create_alloc (16, lsource_hash, lsource_eq, lsource_free,
                                      xcalloc, free);
  int rc = 0;
  for (uint32_t i = 0; i < set->nunits && !rc; i++)
    {
      const struct pf_unit *u = set->units[i];
      for (uint32_t k = 0; k < u->nfunctions && !rc; k++)
        {
          const struct pf_function *f = &u->functions[k];
          uint64_t *counts = XNEWVEC (uint64_t, f->nblocks ? f->nblocks : 1);
          const char *err;
          if (pf_block_counts (u, f, counts, &err) < 0)
            {
              fprintf (stderr, "dsprof: unit %s: function %s: %s\n", u->source,
                       f->name, err);
              rc = EXIT_DATA;
            }
          for (uint32_t b = 0; !rc && b < f->nblocks; b++)
            for (uint32_t j = 0; j < f->blocks[b].nlocs; j++)
              {
                const struct pf_loc *loc = &f->blocks[b].locs[j];
                if (loc->line)
                  lsource_count (lsource_of (sources, u, loc->file), loc->line,
                                 counts[b]);
              }
          if (!rc && f->nblocks)
            {
              /* Block 0 is the entry block: its count is the calls.  The same
                 function in several units (a header's) counts all its calls.  */
              struct lsource *s = lsource_of (sources, u, f->file);
              uint32_t n;
              for (n = 0; n < s->nfuncs; n++)
                if (s->funcs[n].line == f->line && !strcmp (s->funcs[n].name, f->name))
                  break;
              if (n == s->nfuncs)
                {
                  s->funcs = XRESIZEVEC (struct lfunc, s->funcs, s->nfuncs + 1);
                  s->funcs[n].name = f->name;
                  s->funcs[n].line = f->line;
                  s->funcs[n].count = 0;
                  s->nfuncs++;
                }
              s->funcs[n].count += counts[0];
            }
          free (counts);
        }
    }
  if (!rc)
    {
      size_t n = htab_elements (sources);
      struct lsource **v = XNEWVEC (struct lsource *, n + 1), **p = v;
      htab_traverse (sources, collect_source, &p);
      if (n)
        qsort (v, n, sizeof *v, cmp_lsource);
      for (size_t i = 0; i < n; i++)
        {
          struct lsource *s = v[i];
          fprintf (out, "TN:\nSF:%s\n", s->path);
          if (s->nfuncs)
            qsort (s->funcs, s->nfuncs, sizeof *s->funcs, cmp_lfunc);
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
          for (uint32_t line = 1; line < s->nlines; line++)
            if (s->held[line])
              {
                fprintf (out, "DA:%u,%" PRIu64 "\n", line, s->count[line]);
                lf++;
                lh += s->count[line] > 0;
              }
          fprintf (out, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
        }
      free (v);
    }
  htab_delete (sources);
  return rc;
}

/* ---- csv ------------------------------------------------------------------------- */

struct csv
{
  FILE *out;
  htab_t seen;                   /* dimension names */
  char **cols;
  uint32_t ncols;
  uint64_t numbered;             /* records numbered before this stream */
  uint64_t *number;              /* by start order in the stream: number */
  uint64_t nstarted, size;
  uint64_t *stack;               /* start orders of the open records */
  uint32_t depth, ssize;
  int64_t pid;
};

static int
csv_dims (struct ev_record *r, void *arg)
{
  struct csv *c = arg;
  for (uint32_t i = 0; i < r->ndims; i++)
    {
      void **slot = htab_find_slot (c->seen, r->dims[i].name, INSERT);
      if (*slot)
        continue;
      *slot = xstrdup (r->dims[i].name);
      c->cols = XRESIZEVEC (char *, c->cols, c->ncols + 1);
      c->cols[c->ncols++] = *slot;
    }
  return 0;
}

/* The columns in order: event, name, file, line, then the others as first seen,
   then result and complete; thread is a column of its own.  */

static int
col_rank (const char *name)
{
  static const char *const first[] = { "event", "name", "file", "line" };
  for (int i = 0; i < 4; i++)
    if (!strcmp (name, first[i]))
      return i - 10;
  if (!strcmp (name, "result"))
    return 1;
  if (!strcmp (name, "complete"))
    return 2;
  return 0;
}

static void
sort_cols (struct csv *c)
{
  /* Stable: insertion sort by rank.  */
  for (uint32_t i = 1; i < c->ncols; i++)
    {
      char *x = c->cols[i];
      uint32_t k = i;
      while (k > 0 && col_rank (c->cols[k - 1]) > col_rank (x))
        {
          c->cols[k] = c->cols[k - 1];
          k--;
        }
      c->cols[k] = x;
    }
}

static void
csv_push (struct csv *c)
{
  if (c->depth == c->ssize)
    {
      c->ssize = c->ssize ? 2 * c->ssize : 64;
      c->stack = XRESIZEVEC (uint64_t, c->stack, c->ssize);
    }
  c->stack[c->depth++] = c->nstarted++;
}

static int
csv_start (const struct ev_event *e, void *arg)
{
  if (e->kind == EV_START)
    csv_push (arg);
  return 0;
}

/* First pass over a stream: the number of each record by start order.  */

static int
csv_number (struct ev_record *r, void *arg)
{
  (void) r;
  struct csv *c = arg;
  if (!c->depth)
    return 0;
  uint64_t k = c->stack[--c->depth];
  if (k >= c->size)
    {
      c->size = c->size ? 2 * c->size : 1024;
      while (c->size <= k)
        c->size *= 2;
      c->number = XRESIZEVEC (uint64_t, c->number, c->size);
    }
  c->number[k] = ++c->numbered;
  return 0;
}

static int
csv_row (struct ev_record *r, void *arg)
{
  struct csv *c = arg;
  if (!c->depth)
    return 0;
  uint64_t k = c->stack[--c->depth];
  FILE *out = c->out;
  fprintf (out, "%" PRIu64 ",%" PRId64 ",%u,%" PRIu64 ",%" PRIu64 ",%u,", c->number[k],
           c->pid, r->thread, r->start_ns, r->end_ns - r->start_ns, r->depth);
  if (c->depth)
    fprintf (out, "%" PRIu64, c->number[c->stack[c->depth - 1]]);
  char buf[4096];
  for (uint32_t i = 0; i < c->ncols; i++)
    {
      putc (',', out);
      const struct ev_value *v = ev_record_dim (r, c->cols[i]);
      if (v)
        text_csv (out, ev_format_value (v, buf, sizeof buf));
    }
  putc ('\n', out);
  return 0;
}

static int
export_csv (struct pf_set *set, FILE *out)
{
  struct csv c;
  memset (&c, 0, sizeof c);
  c.out = out;
  c.seen = htab_create_alloc (32, str_hash, str_eq, free, xcalloc, free);
  ev_keep_children (false);
  int rc = pf_walk_streams (set, NULL, csv_dims, NULL, &c);
  if (!rc)
    {
      sort_cols (&c);
      fputs ("record,pid,thread,start_ns,duration_ns,depth,parent_record", out);
      for (uint32_t i = 0; i < c.ncols; i++)
        if (strcmp (c.cols[i], "thread"))
          {
            putc (',', out);
            text_csv (out, c.cols[i]);
          }
      putc ('\n', out);
      /* The thread dimension is the thread column.  */
      uint32_t n = 0;
      for (uint32_t i = 0; i < c.ncols; i++)
        if (strcmp (c.cols[i], "thread"))
          c.cols[n++] = c.cols[i];
      c.ncols = n;
    }
  for (uint32_t i = 0; i < set->nprocs && !rc; i++)
    {
      const struct pf_process *p = &set->procs[i];
      c.pid = p->header.pid;
      for (uint32_t k = 0; k < p->nstreams && !rc; k++)
        {
          c.nstarted = 0;
          c.depth = 0;
          rc = pf_decode_stream (p, &p->streams[k], csv_start, csv_number, &c);
          c.nstarted = 0;
          c.depth = 0;
          if (!rc)
            rc = pf_decode_stream (p, &p->streams[k], csv_start, csv_row, &c);
        }
    }
  ev_keep_children (true);
  free (c.cols);
  free (c.number);
  free (c.stack);
  htab_delete (c.seen);
  return rc;
}

/* ---- dsprof export --------------------------------------------------------------- */

static int
run_export (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "format", required_argument, NULL, 'f' },
    { "output", required_argument, NULL, 'o' },
    { "raw", no_argument, NULL, 'r' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  const char *format = NULL, *output = NULL;
  bool raw = false;
  int ch;
  opterr = 0;
  optind = 1;
  while ((ch = getopt_long (argc, argv, ":f:o:h", longopts, NULL)) != -1)
    switch (ch)
      {
      case 'f': format = optarg; break;
      case 'o': output = optarg; break;
      case 'r': raw = true; break;
      case 'h': return print_help (&cmd_export);
      default: return option_error ("export", ch, argv);
      }
  if (!format)
    return usage_error ("export", "--format chrome, folded, lcov or csv is needed");
  if (strcmp (format, "chrome") && strcmp (format, "folded")
      && strcmp (format, "lcov") && strcmp (format, "csv"))
    return usage_error ("export", "--format wants chrome, folded, lcov or csv, "
                        "not '%s'", format);
  struct pf_set set;
  int rc = load_profiles (argc - optind, argv + optind, &set);
  if (rc)
    return rc;
  struct output out;
  if (!(rc = output_open (&out, "export", output, 0)))
    {
      if (!strcmp (format, "chrome"))
        rc = export_chrome (&set, out.f);
      else if (!strcmp (format, "folded"))
        rc = export_folded (&set, raw, out.f);
      else if (!strcmp (format, "lcov"))
        rc = export_lcov (&set, out.f);
      else
        rc = export_csv (&set, out.f);
      rc = output_finish (&out, rc);
    }
  pf_free (&set);
  return rc;
}

const struct command cmd_export = {
  "export", "the profile for other tools (chrome, folded, lcov, csv)", run_export,
  "usage: dsprof export --format chrome|folded|lcov|csv [--raw] [-o FILE]\n"
  "                     [PROFILE...]\n\n"
  "  chrome   Chrome trace-event JSON (Perfetto UI, chrome://tracing): a B event\n"
  "           at each Start and an E event at each Finish, per process (pid) and\n"
  "           thread (tid), balanced (an event closed by repair ends with\n"
  "           complete false); args are the dimensions: Start's on B, the\n"
  "           result, added ones and complete on E.  ts in microseconds since\n"
  "           the earliest process started.\n"
  "  folded   folded stacks for flame-graph tools: `a;b;c SELF_NS`, one line\n"
  "           per distinct stack of names with its self time, the recorder's\n"
  "           cost deducted as in `dsprof report` unless --raw (the lines then\n"
  "           add up to the report's Self column; with --raw to the profiled\n"
  "           time).  `;` and control characters in a name are written \\xHH.\n"
  "  lcov     an lcov tracefile of the line counts for genhtml: per source file\n"
  "           (found as annotate finds it) FN/FNDA for each function's entry\n"
  "           count, DA for each line with the largest count of the blocks on it.\n"
  "  csv      one row per record (RFC 4180): record (its number in `dsprof\n"
  "           records`), pid, thread, start_ns (since its process started),\n"
  "           duration_ns (as recorded), depth, parent_record (empty at top\n"
  "           level), then one column per dimension any record carries.\n\n"
  "  -f, --format F       one of the above (required)\n"
  "      --raw            folded: times without deducting the recorder's cost\n"
  "  -o, --output FILE    write to FILE instead of standard output\n"
};

/* ---- dsprof merge ---------------------------------------------------------------- */

/* A growable byte buffer.  */
struct bytes
{
  unsigned char *p;
  size_t n, size;
};

static void
bytes_put (struct bytes *b, const void *data, size_t n)
{
  if (b->n + n > b->size)
    {
      b->size = b->size ? b->size : 4096;
      while (b->n + n > b->size)
        b->size *= 2;
      b->p = XRESIZEVEC (unsigned char, b->p, b->size);
    }
  memcpy (b->p + b->n, data, n);
  b->n += n;
}

static void
bytes_uleb (struct bytes *b, uint64_t v)
{
  unsigned char buf[10];
  bytes_put (b, buf, dsprof_put_uleb (buf, v));
}

/* Step over one value of TYPE (as events.c reads it); false if malformed.  */

static bool
skip_value (struct dsprof_cursor *c, int type)
{
  switch (type)
    {
    case DSPROF_DIM_INT:
    case DSPROF_DIM_UINT:
    case DSPROF_DIM_BOOL:
    case DSPROF_DIM_ENUM:
      dsprof_read_uleb (c);
      break;
    case DSPROF_DIM_DOUBLE:
      if (c->end - c->p < 8)
        return false;
      c->p += 8;
      break;
    case DSPROF_DIM_PTR:
      if (dsprof_read_uleb (c) == 0)
        {
          dsprof_read_uleb (c);
          break;
        }
      __attribute__ ((fallthrough));
    case DSPROF_DIM_STR:
      {
        uint64_t n = dsprof_read_uleb (c);
        if (n == 0)
          break;
        n = (n - 1) >> 1;
        if (c->err || n > DSPROF_STR_MAX || n > (uint64_t) (c->end - c->p))
          return false;
        c->p += n;
        break;
      }
    default:
      return false;
    }
  return !c->err;
}

/* What the merge knows of one input process.  */
struct merge_proc
{
  uint32_t *site_map;            /* old global site id -> new (0: none) */
  uint32_t nsite_map;
  uint32_t thread_base;          /* added to its thread numbers */
  uint64_t last_ns, pairs;
};

struct merge_scan
{
  struct merge_proc *mp;
};

static int
merge_scan_event (const struct ev_event *e, void *arg)
{
  struct merge_proc *mp = ((struct merge_scan *) arg)->mp;
  if (e->ns > mp->last_ns)
    mp->last_ns = e->ns;
  mp->pairs += e->kind == EV_START;
  return 0;
}

/* Re-encode the events chunk CH of a stream of process P: site ids through
   MP's map, times as nanoseconds since the process started by the stream's one
   clock mapping TIME, as every reader maps them (the merged file's clock counts
   nanoseconds, so merge changes no time).  SITES is the stream's stack of open events'
   sites (NULL: manual), kept from chunk to chunk.  The chunk's base time goes
   to *BASE_NS.  Return NULL or the problem.  */

struct site_stack
{
  const struct ev_site **v;
  uint32_t n, size;
};

static const char *
reencode_chunk (const struct pf_process *p, const struct merge_proc *mp,
                const struct ev_stream_clock *time,
                const struct dsprof_events_chunk *ch, struct site_stack *st,
                struct bytes *out, uint64_t *base_ns)
{
  const unsigned char *start = (const unsigned char *) (ch + 1);
  struct dsprof_cursor c = { start, start + ch->used, 0 };
  uint64_t tick = ch->base_ticks;
  bool timed = false;
  uint64_t prev = 0;
  out->n = 0;
  *base_ns = 0;
  while (c.p < c.end)
    {
      const unsigned char *op_at = c.p;
      int op = *c.p++;
      if (op == DSPROF_OP_NAME)
        {
          dsprof_read_uleb (&c);
          const char *s;
          dsprof_read_str (&c, &s);
          if (c.err)
            return "corrupt event stream";
          bytes_put (out, op_at, (size_t) (c.p - op_at));
          continue;
        }
      tick += dsprof_read_uleb (&c);
      if (c.err)
        return "corrupt event stream";
      /* The time exactly as the reader computes it: one mapping for the
         whole stream.  */
      uint64_t ns = ev_tick_ns (time, tick);
      if (!timed)
        {
          timed = true;
          prev = *base_ns = ns;
        }
      unsigned char opb = (unsigned char) op;
      bytes_put (out, &opb, 1);
      bytes_uleb (out, ns > prev ? ns - prev : 0);
      if (ns > prev)
        prev = ns;
      const unsigned char *from = c.p;
      switch (op)
        {
        case DSPROF_OP_ENTER:
          {
            uint64_t id = dsprof_read_uleb (&c);
            const struct ev_site *site = id < p->sites.size ? p->sites.by_id[id] : NULL;
            if (c.err || !site || id >= mp->nsite_map || !mp->site_map[id])
              return "corrupt event stream (unknown site)";
            bytes_uleb (out, mp->site_map[id]);
            from = c.p;
            for (uint32_t i = 0; i < site->ndims; i++)
              if (!skip_value (&c, site->dims[i].type))
                return "corrupt event stream";
            if (st->n == st->size)
              {
                st->size = st->size ? 2 * st->size : 64;
                st->v = XRESIZEVEC (const struct ev_site *, st->v, st->size);
              }
            st->v[st->n++] = site;
            break;
          }
        case DSPROF_OP_START:
          dsprof_read_uleb (&c);
          if (st->n == st->size)
            {
              st->size = st->size ? 2 * st->size : 64;
              st->v = XRESIZEVEC (const struct ev_site *, st->v, st->size);
            }
          st->v[st->n++] = NULL;
          break;
        case DSPROF_OP_EXIT:
          {
            if (!st->n || !st->v[st->n - 1])
              return "corrupt event stream";
            const struct ev_site *site = st->v[--st->n];
            if (site->result.type != DSPROF_DIM_NONE
                && !skip_value (&c, site->result.type))
              return "corrupt event stream";
            break;
          }
        case DSPROF_OP_FINISH:
        case DSPROF_OP_ABANDON:
          if (!st->n)
            return "corrupt event stream";
          st->n--;
          break;
        case DSPROF_OP_DIM:
          {
            dsprof_read_uleb (&c);
            int type = (int) dsprof_read_uleb (&c);
            if (c.err || !skip_value (&c, type))
              return "corrupt event stream";
            break;
          }
        default:
          return "corrupt event stream";
        }
      if (c.err)
        return "corrupt event stream";
      bytes_put (out, from, (size_t) (c.p - from));
    }
  return NULL;
}

static const unsigned char zero_page[DSPROF_PAGE];

/* Write N bytes of DATA then zeros up to a page boundary.  */

static void
put_padded (FILE *f, const void *data, size_t n, uint64_t *off)
{
  if (n)
    fwrite (data, 1, n, f);
  *off += n;
  size_t pad = (DSPROF_PAGE - *off % DSPROF_PAGE) % DSPROF_PAGE;
  fwrite (zero_page, 1, pad, f);
  *off += pad;
}

/* Write the merged profile of SET to F.  Return NULL or the problem.  */

static const char *
write_merged (struct pf_set *set, struct merge_proc *mp, FILE *f)
{
  struct dsprof_file_header h;
  memset (&h, 0, sizeof h);
  uint64_t off = 0;
  put_padded (f, zero_page, DSPROF_PAGE, &off);   /* the header, at the end */

  /* Units, each once with the summed counters; site ids numbered anew.  */
  uint32_t *new_base = XCNEWVEC (uint32_t, set->nunits + 1);
  uint32_t next_site = 1;
  for (uint32_t i = 0; i < set->nunits; i++)
    {
      const struct pf_unit *u = set->units[i];
      struct dsprof_unit_chunk uc;
      memset (&uc, 0, sizeof uc);
      uint64_t meta_end = off + sizeof uc + u->meta_size;
      uint64_t counters = (meta_end + DSPROF_PAGE - 1) / DSPROF_PAGE * DSPROF_PAGE;
      uint64_t end = counters + (uint64_t) u->ncounters * 8;
      end = (end + DSPROF_PAGE - 1) / DSPROF_PAGE * DSPROF_PAGE;
      uc.chunk.kind = DSPROF_CHUNK_UNIT;
      uc.chunk.check = dsprof_meta_hash (u->meta, u->meta_size);
      uc.chunk.size = end - off;
      uc.ncounters = u->ncounters;
      uc.meta_size = u->meta_size;
      uc.counters_offset = u->ncounters ? counters : 0;
      if (u->nsites)
        {
          uc.site_base = new_base[i] = next_site;
          uc.nsites = u->nsites;
          next_site += u->nsites;
        }
      fwrite (&uc, 1, sizeof uc, f);
      off += sizeof uc;
      put_padded (f, u->meta, u->meta_size, &off);
      put_padded (f, u->counts, (size_t) u->ncounters * 8, &off);
    }

  /* Each process's map from its site ids to the new ones, through its units
     as the reader found them (unit chunks and units chunks' records).  */
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      const struct pf_process *p = &set->procs[i];
      mp[i].nsite_map = p->sites.size;
      mp[i].site_map = XCNEWVEC (uint32_t, p->sites.size + 1);
      for (uint32_t j = 0; j < p->nunits; j++)
        {
          const struct pf_unit_sites *us = &p->unit_sites[j];
          for (uint32_t s = 0; s < us->nsites; s++)
            if ((uint64_t) us->site_base + s < p->sites.size)
              mp[i].site_map[us->site_base + s] = new_base[us->unit] + s;
        }
    }
  free (new_base);

  /* Event chunks, one for each of every input, threads renumbered.  */
  struct bytes b = { NULL, 0, 0 };
  struct site_stack st = { NULL, 0, 0 };
  const char *err = NULL;
  uint64_t run_ns = 0, pairs = 0;
  double overhead = 0;
  for (uint32_t i = 0; i < set->nprocs && !err; i++)
    {
      const struct pf_process *p = &set->procs[i];
      for (uint32_t k = 0; k < p->nstreams && !err; k++)
        {
          const struct ev_stream *s = &p->streams[k];
          struct ev_stream_clock time;
          ev_stream_clock (s, &p->clock, &time);
          st.n = 0;
          for (uint32_t j = 0; j < s->nchunks && !err; j++)
            {
              uint64_t base;
              err = reencode_chunk (p, &mp[i], &time, s->chunks[j], &st, &b, &base);
              if (err)
                {
                  static char buf[512];
                  snprintf (buf, sizeof buf, "%s: thread %u: %s", p->path,
                            s->thread, err);
                  err = buf;
                  break;
                }
              struct dsprof_events_chunk ec;
              memset (&ec, 0, sizeof ec);
              uint64_t size = (sizeof ec + b.n + DSPROF_PAGE - 1) / DSPROF_PAGE
                              * DSPROF_PAGE;
              ec.chunk.kind = DSPROF_CHUNK_EVENTS;
              ec.chunk.size = size;
              ec.thread = s->thread + mp[i].thread_base;
              ec.seq = j;
              ec.used = b.n;
              ec.base_ticks = ec.base_ns = base;
              fwrite (&ec, 1, sizeof ec, f);
              off += sizeof ec;
              put_padded (f, b.p, b.n, &off);
            }
        }
      run_ns += pf_run_ns (p, mp[i].last_ns);
      pairs += mp[i].pairs;
      overhead += (double) p->header.pair_overhead_ps * (double) mp[i].pairs;
      h.dropped_events += p->header.dropped_events;
      h.stray_dims += p->header.stray_dims;
      h.repaired_events += p->header.repaired_events;
      h.flags |= p->header.flags & DSPROF_FLAG_TRUNCATED;
    }
  free (b.p);
  free (st.v);
  if (err)
    return err;

  /* The header: the first input's identity; the run time is the inputs' summed
     (as `dsprof report IN...` adds them); the overhead their mean per pair.  */
  const struct dsprof_file_header *h0 = &set->procs[0].header;
  memcpy (h.magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE);
  h.version = DSPROF_FORMAT_VERSION;
  h.header_size = DSPROF_PAGE;
  h.end = off;
  h.pid = h0->pid;
  h.ppid = h0->ppid;
  h.start_ns = h0->start_ns;
  for (uint32_t i = 1; i < set->nprocs; i++)
    if (set->procs[i].header.start_ns < h.start_ns)
      h.start_ns = set->procs[i].header.start_ns;
  h.start_mono_ns = 0;
  h.stop_mono_ns = run_ns;
  h.clock = DSPROF_CLOCK_NS;
  h.start_ticks = 0;
  h.stop_ticks = run_ns;
  h.tick_hz = 1000000000u;
  h.pair_overhead_ps = pairs ? (uint64_t) llround (overhead / (double) pairs)
                             : h0->pair_overhead_ps;
  bool same_exe = true;
  for (uint32_t i = 1; i < set->nprocs; i++)
    same_exe &= !strcmp (set->procs[i].header.exe, h0->exe);
  if (same_exe)
    memcpy (h.exe, h0->exe, sizeof h.exe);
  else
    snprintf (h.exe, sizeof h.exe, "(%u programs merged; first %.200s)", set->nprocs,
              h0->exe);
  if (fseek (f, 0, SEEK_SET) < 0)
    return strerror (errno);
  fwrite (&h, 1, sizeof h, f);
  return NULL;
}

static int
run_merge (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "output", required_argument, NULL, 'o' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  const char *output = NULL;
  int ch;
  opterr = 0;
  optind = 1;
  while ((ch = getopt_long (argc, argv, ":o:h", longopts, NULL)) != -1)
    switch (ch)
      {
      case 'o': output = optarg; break;
      case 'h': return print_help (&cmd_merge);
      default: return option_error ("merge", ch, argv);
      }
  if (!output || !*output)
    return usage_error ("merge", "-o OUT is needed");
  if (optind >= argc)
    return usage_error ("merge", "no input profiles");
  struct pf_set set;
  int rc = load_profiles (argc - optind, argv + optind, &set);
  if (rc)
    return rc;

  /* Check every stream (a corrupt one is an error, as in every command) and
     learn each process's last event and its number of event pairs.  */
  struct merge_proc *mp = XCNEWVEC (struct merge_proc, set.nprocs);
  uint32_t threads = 0;
  for (uint32_t i = 0; i < set.nprocs && !rc; i++)
    {
      const struct pf_process *p = &set.procs[i];
      struct merge_scan scan = { &mp[i] };
      mp[i].thread_base = threads;
      for (uint32_t k = 0; k < p->nstreams && !rc; k++)
        {
          rc = pf_decode_stream (p, &p->streams[k], merge_scan_event, NULL, &scan);
          if (p->streams[k].thread > UINT32_MAX - threads)
            {
              fprintf (stderr, "dsprof merge: too many threads\n");
              rc = EXIT_DATA;
            }
        }
      if (p->nstreams)
        threads += p->streams[p->nstreams - 1].thread;
    }

  /* Into a new file beside OUT, renamed over it at the end (files.h): OUT may
     be one of the inputs, which are mapped.  */
  struct output out;
  if (!rc && !(rc = output_open (&out, "merge", output, OUTPUT_PROFILE)))
    {
      const char *err = write_merged (&set, mp, out.f);
      if (err)
        fprintf (stderr, "dsprof merge: '%s': %s\n", output, err);
      rc = output_finish (&out, err ? EXIT_DATA : 0);
    }
  for (uint32_t i = 0; i < set.nprocs; i++)
    free (mp[i].site_map);
  free (mp);
  pf_free (&set);
  return rc;
}

const struct command cmd_merge = {
  "merge", "one profile from many", run_merge,
  "usage: dsprof merge -o OUT IN...\n\n"
  "Write one profile OUT holding the profiles IN (e.g. every run of a test\n"
  "suite): each compilation unit once with its counters summed, so `dsprof\n"
  "lines OUT` equals `dsprof lines IN...`; and the event streams of every\n"
  "input, each process's threads renumbered after the previous input's (the\n"
  "threads of the second input follow the highest thread number of the\n"
  "first, and so on), times kept as nanoseconds since their own process\n"
  "started.  The run time of OUT is the inputs' summed, as `dsprof report\n"
  "IN...` counts it; the recorder's cost per event pair is the inputs' mean\n"
  "weighted by their number of pairs (so reports of OUT deduct about, not\n"
  "exactly, what reports of IN... deduct; --raw figures are the same).  pid,\n"
  "parent pid and program are the first input's.  OUT may be one of the\n"
  "inputs: it is replaced only once the merged profile is written.\n\n"
  "  -o, --output OUT     the merged profile (required)\n"
};
