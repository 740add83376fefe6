/* cmd-export.c - profiles for other tools: `dsprof export` (docs/contract.md
   §5.8).

   export --format chrome   Chrome trace-event JSON: a B event at every Start, an
                            E event at every Finish (or repair), per process and
                            thread; args are the record's dimensions.
   export --format folded   folded stacks ("a;b;c SELF_NS"), the stack by name.
   export --format lcov     an lcov tracefile of the line counts, as annotate
                            counts lines.
   export --format csv      one row per record.  */

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

struct chrome
{
  FILE *out;
  int64_t pid;
  uint64_t offset_ns;            /* of this process's start after the first's */
  char **added;                  /* per open event: JSON members added since
                                    Start (dsprof_dim_*), or NULL */
  size_t *added_len;
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

static int
chrome_event (const struct ev_event *e, void *arg)
{
  struct chrome *c = arg;
  FILE *out = c->out;
  if (e->kind == EV_DIM)
    {
      if (!c->depth)
        return 0;
      uint32_t k = c->depth - 1;
      char *text = NULL;
      size_t size = 0;
      FILE *f = open_memstream (&text, &size);
      if (!f)
        return EXIT_DATA;
      if (c->added[k])
        fwrite (c->added[k], 1, c->added_len[k], f);
      for (uint32_t i = 0; i < e->ndims; i++)
        put_arg (f, &e->dims[i], true);
      fclose (f);
      free (c->added[k]);
      c->added[k] = text;
      c->added_len[k] = size;
      return 0;
    }
  if (e->kind == EV_START)
    {
      if (c->depth == c->size)
        {
          c->size = c->size ? 2 * c->size : 64;
          c->added = XRESIZEVEC (char *, c->added, c->size);
          c->added_len = XRESIZEVEC (size_t, c->added_len, c->size);
        }
      c->added[c->depth] = NULL;
      c->added_len[c->depth++] = 0;
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
  bool comma = false;
  for (uint32_t i = 0; i < e->ndims; i++, comma = true)
    put_arg (out, &e->dims[i], comma);
  if (c->depth)
    {
      uint32_t k = --c->depth;
      if (c->added[k])
        {
          /* Stored with a leading comma.  */
          fwrite (c->added[k] + !comma, 1, c->added_len[k] - !comma, out);
          comma = true;
          free (c->added[k]);
        }
    }
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
          rc = pf_decode_stream (p, &p->streams[k], chrome_event, NULL, &c,
                                 EV_KEEP_CHILDREN);
          while (c.depth)
            free (c.added[--c.depth]);
        }
    }
  fputs ("\n]}\n", out);
  free (c.added);
  free (c.added_len);
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
  int rc = pf_walk_streams (set, folded_event, folded_record, folded_begin, &f, 0);
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
  int rc = pf_walk_streams (set, NULL, csv_dims, NULL, &c, 0);
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
          rc = pf_decode_stream (p, &p->streams[k], csv_start, csv_number, &c, 0);
          c.nstarted = 0;
          c.depth = 0;
          if (!rc)
            rc = pf_decode_stream (p, &p->streams[k], csv_start, csv_row, &c, 0);
        }
    }
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
