/* cmd-export.c - profiles for other tools: `dsprof export` (docs/contract.md
   §5.8).

   export --format chrome   Chrome trace-event JSON: a B event at every Start, an
                            E event at every Finish (or repair), per process and
                            thread; args are the record's dimensions.
   export --format folded   folded stacks ("a;b;c SELF_NS"), the stack by name
                            (its innermost ST_MAX_FRAMES frames).
   export --format lcov     an lcov tracefile of the line counts, as annotate
                            counts lines.
   export --format csv      one row per record.
   export --format pprof    pprof's profile.proto, gzip-compressed: samples of
                            the tree of name paths (stacks.h).
   export --format perfetto Perfetto's protobuf trace: slices per process and
                            thread, streamed.
   pb.h writes the protobuf encoding of both.  */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libiberty.h"
#include "hashtab.h"
#include "cmd.h"
#include "pb.h"
#include "progress.h"
#include "stacks.h"

/* ---- what the event exports share ------------------------------------------------ */

/* An open event's dimensions added since Start (dsprof_dim_*), as the format
   writes them (chrome: JSON members, each after a comma; perfetto: debug
   annotations), and their names, each once (the first value wins, as in the
   record).  */
struct added
{
  char *bytes;
  size_t len;
  char **names;
  uint32_t nnames;
};

/* Whether dimension NAME was added to the open event O.  */

static bool
added_before (const struct added *o, const char *name)
{
  for (uint32_t i = 0; i < o->nnames; i++)
    if (!strcmp (o->names[i], name))
      return true;
  return false;
}

static void
added_name (struct added *o, const char *name)
{
  o->names = XRESIZEVEC (char *, o->names, o->nnames + 1);
  o->names[o->nnames++] = xstrdup (name);
}

static void
added_free (struct added *o)
{
  for (uint32_t i = 0; i < o->nnames; i++)
    free (o->names[i]);
  free (o->names);
  free (o->bytes);
}

/* A stack of the open events' struct added; push returns the new top, zeroed.  */
struct added_stack
{
  struct added *open;
  uint32_t depth, size;
};

static struct added *
added_push (struct added_stack *st)
{
  if (st->depth == st->size)
    {
      st->size = st->size ? 2 * st->size : 64;
      st->open = XRESIZEVEC (struct added, st->open, st->size);
    }
  struct added *o = &st->open[st->depth++];
  memset (o, 0, sizeof *o);
  return o;
}

/* Free the open events left (a stream's end).  */

static void
added_clear (struct added_stack *st)
{
  while (st->depth)
    added_free (&st->open[--st->depth]);
}

/* The start of the earliest process of SET (CLOCK_REALTIME ns): the exports'
   time 0.  */

static uint64_t
first_start (const struct pf_set *set)
{
  uint64_t first = UINT64_MAX;
  for (uint32_t i = 0; i < set->nprocs; i++)
    if (set->procs[i].header.start_ns < first)
      first = set->procs[i].header.start_ns;
  return first;
}

/* The pid process I of SET is shown with: its own, unless an earlier profile
   has the same one.  */

static int64_t
process_pid (const struct pf_set *set, uint32_t i)
{
  for (uint32_t k = 0; k < i; k++)
    if (set->procs[k].header.pid == set->procs[i].header.pid)
      return 1000000000 + (int64_t) i;
  return set->procs[i].header.pid;
}

/* ---- chrome ---------------------------------------------------------------------- */

struct chrome
{
  FILE *out;
  int64_t pid;
  uint64_t offset_ns;            /* of this process's start after the first's */
  struct added_stack open;       /* per open event: the dims added */
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
  char buf[EV_VALUE_SIZE];
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
      if (!c->open.depth)
        return 0;
      struct added *o = &c->open.open[c->open.depth - 1];
      char *text = NULL;
      size_t size = 0;
      FILE *f = open_memstream (&text, &size);
      if (!f)
        return EXIT_DATA;
      if (o->bytes)
        fwrite (o->bytes, 1, o->len, f);
      for (uint32_t i = 0; i < e->ndims; i++)
        /* E's own "complete" member says how the event ended.  */
        if (!added_before (o, e->dims[i].name)
            && strcmp (e->dims[i].name, "complete") != 0)
          {
            put_arg (f, &e->dims[i], true);
            added_name (o, e->dims[i].name);
          }
      fclose (f);
      free (o->bytes);
      o->bytes = text;
      o->len = size;
      return 0;
    }
  if (e->kind == EV_START)
    {
      added_push (&c->open);
      size_t len;
      const char *name = ev_name_of_dims (e->dims, e->ndims, e->type, &len);
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
  struct added *o = c->open.depth ? &c->open.open[--c->open.depth] : NULL;
  bool comma = false;
  for (uint32_t i = 0; i < e->ndims; i++)
    if (!o || !added_before (o, e->dims[i].name))
      {
        put_arg (out, &e->dims[i], comma);
        comma = true;
      }
  if (o && o->len)
    {
      /* Stored with a leading comma.  */
      fwrite (o->bytes + !comma, 1, o->len - !comma, out);
      comma = true;
    }
  if (o)
    added_free (o);
  fprintf (out, "%s\"complete\":\"%s\"}}", comma ? "," : "",
           e->kind == EV_FINISH ? "true" : "false");
  return 0;
}

static int
export_chrome (struct pf_set *set, FILE *out)
{
  uint64_t first = first_start (set);
  struct chrome c;
  memset (&c, 0, sizeof c);
  c.out = out;
  fputs ("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"dsprof\"},"
         "\"traceEvents\":[", out);
  int rc = 0;
  for (uint32_t i = 0; i < set->nprocs && !rc; i++)
    {
      const struct pf_process *p = &set->procs[i];
      c.pid = process_pid (set, i);
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
          added_clear (&c.open);
        }
    }
  fputs ("\n]}\n", out);
  free (c.open.open);
  return rc;
}

/* ---- folded ---------------------------------------------------------------------- */

/* The stacks are stacks.h's tree of name paths; each line is a node with self
   time, its path's names written as frames.  */

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

/* A name as a frame, interned in FRAMES: frames are separated by ';' and end
   at the last blank, so a name's ';' and control characters are written as
   \xHH; an empty name as "".  */

static const char *
frame_name (htab_t frames, const char *s, size_t len)
{
  char *t = XNEWVEC (char, 4 * len + 3), *q = t;
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
  void **slot = htab_find_slot (frames, t, INSERT);
  if (*slot)
    free (t);
  else
    *slot = t;
  return *slot;
}

/* Folded lines come sorted by stack, as strcmp sorts the whole stack strings
   (a line deeper than ST_MAX_FRAMES, cut, at the place of its whole stack), written
   from a walk of the tree that keeps one stack string (the path to the node
   walked) and no string per line: memory linear in the tree, time in the
   output.  Below a node at path P, a child C contributes its own line "P;C"
   and the lines of its descendants, "P;C;...", which sort as one run at the
   place of "P;C;" (no name holds a ';'), not always next to "P;C": a sibling
   "C0" sorts between the two.  So each child is two items among its
   siblings: its line, keyed by its name, and its descendants, by its name
   and ';'.  */

struct fitem
{
  const char *name;
  uint32_t node;
  bool below;                    /* the node's descendants, not its line */
};

static int
cmp_fitem (const void *p, const void *q)
{
  const struct fitem *a = p, *b = q;
  const unsigned char *x = (const unsigned char *) a->name;
  const unsigned char *y = (const unsigned char *) b->name;
  while (*x && *x == *y)
    x++, y++;
  /* The descendants' key goes on with a ';' past the name.  */
  int cx = *x ? *x : a->below ? ';' : 0;
  int cy = *y ? *y : b->below ? ';' : 0;
  if (cx != cy || (!*x && !*y))
    return cx - cy;
  /* One name ended where the other has a ';': a name holds none, so the
     other name ended there too, or is longer.  */
  return *x ? 1 : -1;
}

/* One level of the walk: the sorted items below a node, the next to write.  */
struct flevel
{
  struct fitem *items;
  uint32_t nitems, next;
  size_t path_len;               /* of the path to the node, its ';' included */
};

/* Write the lines of tree S to OUT.  */

static int
write_folded (const struct stacks *s, FILE *out)
{
  uint32_t nnodes = st_nnodes (s);
  /* Each node's name as a frame, interned.  */
  htab_t frames = htab_create_alloc (64, str_hash, str_eq, free, xcalloc, free);
  const char **frame = XNEWVEC (const char *, nnodes);
  frame[0] = "";
  for (uint32_t i = 1; i < nnodes; i++)
    frame[i] = frame_name (frames, st_node (s, i)->name, st_node (s, i)->len);
  /* Whether a node's subtree has a line: its self time or a descendant's.  */
  bool *lines = XCNEWVEC (bool, nnodes);
  for (uint32_t i = nnodes - 1; i > 0; i--)
    if (st_node (s, i)->self_ns || lines[i])
      lines[i] = lines[st_node (s, i)->parent] = true;

  size_t path_size = 256, levels_size = 64;
  char *path = XNEWVEC (char, path_size);
  struct flevel *levels = XNEWVEC (struct flevel, levels_size);
  uint32_t depth = 0;
  uint32_t node = 0;
  size_t path_len = 0;
  for (;;)
    {
      /* Enter NODE: its children's items, sorted.  */
      if (depth == levels_size)
        {
          levels_size *= 2;
          levels = XRESIZEVEC (struct flevel, levels, levels_size);
        }
      struct flevel *l = &levels[depth++];
      const struct st_node *nd = st_node (s, node);
      l->items = XNEWVEC (struct fitem, 2 * (size_t) nd->nkids + 1);
      l->nitems = l->next = 0;
      l->path_len = path_len;
      for (uint32_t c = nd->first; c; c = st_node (s, c)->next)
        {
          const struct st_node *cn = st_node (s, c);
          if (cn->self_ns)
            l->items[l->nitems++] = (struct fitem) { frame[c], c, false };
          if (cn->first && lines[c])
            l->items[l->nitems++] = (struct fitem) { frame[c], c, true };
        }
      if (l->nitems > 1)
        qsort (l->items, l->nitems, sizeof *l->items, cmp_fitem);
      /* Write items until one goes down a level, or none is left.  */
      for (;;)
        {
          l = &levels[depth - 1];
          if (l->next < l->nitems)
            {
              struct fitem *it = &l->items[l->next++];
              size_t n = strlen (it->name);
              if (l->path_len + n + 2 > path_size)
                {
                  while (l->path_len + n + 2 > path_size)
                    path_size *= 2;
                  path = XRESIZEVEC (char, path, path_size);
                }
              memcpy (path + l->path_len, it->name, n);
              if (!it->below)
                {
                  /* DEPTH frames; past ST_MAX_FRAMES the outer ones cut.  */
                  size_t from = 0;
                  if (depth > ST_MAX_FRAMES)
                    {
                      char cut[48];
                      from = levels[depth - ST_MAX_FRAMES].path_len;
                      fprintf (out, "%s;", st_cut_frame (cut, sizeof cut,
                                                         depth - ST_MAX_FRAMES));
                    }
                  fwrite (path + from, 1, l->path_len + n - from, out);
                  fprintf (out, " %" PRIu64 "\n", st_node (s, it->node)->self_ns);
                  continue;
                }
              path[l->path_len + n] = ';';
              path_len = l->path_len + n + 1;
              node = it->node;
              break;
            }
          free (l->items);
          if (--depth == 0)
            break;
        }
      if (depth == 0)
        break;
    }
  free (levels);
  free (path);
  free (lines);
  free (frame);
  htab_delete (frames);
  return 0;
}

static int
export_folded (struct pf_set *set, bool raw, FILE *out)
{
  int rc;
  struct stacks *s = st_build (set, raw, &rc);
  if (s)
    write_folded (s, out);
  st_free (s);
  return rc;
}

/* ---- pprof ----------------------------------------------------------------------- */

/* pprof's profile.proto (perftools.profiles.Profile), gzip-compressed, rendered
   from stacks.h's tree keyed by name or --dim, with its variants: a sample per
   variant, whose stack is its node's path (leaf first), whose values are its
   records, self and total time, and whose labels are its dimensions.  A path
   element is a location with one line of a function: its name, and the file
   and line of the event site of the node's first record.

   A sample's stack holds its innermost ST_MAX_FRAMES frames at most; a deeper
   one ends (outermost) in a frame "[truncated N frames]" for the N left out,
   as profilers that record stacks cap them.  A recursion D deep is then a
   file linear in D, not D^2 / 2 location ids.  */

enum
{
  PP_SAMPLE_TYPE = 1, PP_SAMPLE = 2, PP_MAPPING = 3, PP_LOCATION = 4, PP_FUNCTION = 5,
  PP_STRING_TABLE = 6, PP_TIME_NANOS = 9, PP_DEFAULT_SAMPLE_TYPE = 14
};

/* A string of the string table, by its bytes; ID its index.  */
struct pp_str
{
  const char *s;                 /* stays valid while the export runs */
  size_t len;
  uint64_t id;
};

/* A function: a name (interned in the tree) and a site.  */
struct pp_fn
{
  const char *name;
  const struct ev_site *site;
  uint64_t id;
};

struct pprof
{
  struct pb b;
  struct pb_gzip gz;
  htab_t strings, fns;
  struct pp_str **table;         /* by id */
  uint64_t nstrings, nfns, table_size;
  uint64_t *truncated;           /* by frames left out: its function, or 0 */
  char **names;                  /* the truncated frames' names, to free */
  uint32_t nnames;
};

static hashval_t
pp_str_hash (const void *p)
{
  const struct pp_str *a = p;
  return iterative_hash (a->s, a->len, 0);
}

static int
pp_str_eq (const void *p, const void *q)
{
  const struct pp_str *a = p, *b = q;
  return a->len == b->len && !memcmp (a->s, b->s, a->len);
}

static hashval_t
pp_fn_hash (const void *p)
{
  const struct pp_fn *a = p;
  return htab_hash_pointer (a->name) ^ htab_hash_pointer (a->site);
}

static int
pp_fn_eq (const void *p, const void *q)
{
  const struct pp_fn *a = p, *b = q;
  return a->name == b->name && a->site == b->site;
}

/* The index of the LEN bytes at S in the string table, added if new.  */

static uint64_t
pp_string (struct pprof *pp, const char *s, size_t len)
{
  struct pp_str k = { s, len, 0 };
  void **slot = htab_find_slot (pp->strings, &k, INSERT);
  if (*slot)
    return ((struct pp_str *) *slot)->id;
  struct pp_str *n = XNEW (struct pp_str);
  *n = (struct pp_str) { s, len, pp->nstrings };
  *slot = n;
  if (pp->nstrings == pp->table_size)
    {
      pp->table_size = pp->table_size ? 2 * pp->table_size : 256;
      pp->table = XRESIZEVEC (struct pp_str *, pp->table, pp->table_size);
    }
  pp->table[pp->nstrings++] = n;
  return n->id;
}

static uint64_t
pp_cstring (struct pprof *pp, const char *s)
{
  return pp_string (pp, s, strlen (s));
}

/* Write and empty the message built so far.  */

static void
pp_flush (struct pprof *pp)
{
  pb_gzip_write (&pp->gz, pp->b.buf, pp->b.len);
  pb_reset (&pp->b);
}

static void
pp_value_type (struct pprof *pp, uint32_t field, const char *type, const char *unit)
{
  size_t m = pb_open (&pp->b, field);
  pb_int (&pp->b, 1, (int64_t) pp_cstring (pp, type));
  pb_int (&pp->b, 2, (int64_t) pp_cstring (pp, unit));
  pb_close (&pp->b, m);
}

/* Function ID named by string NAME, at SITE (or none), and its location
   (one each, same id).  */

static void
pp_function (struct pprof *pp, uint64_t id, uint64_t name, const struct ev_site *site)
{
  int64_t line = site ? site->line : 0;
  size_t m = pb_open (&pp->b, PP_FUNCTION);
  pb_uint (&pp->b, 1, id);
  pb_int (&pp->b, 2, (int64_t) name);
  pb_int (&pp->b, 3, (int64_t) name);
  if (site)
    pb_int (&pp->b, 4, (int64_t) pp_cstring (pp, site->file));
  pb_int (&pp->b, 5, line);
  pb_close (&pp->b, m);
  m = pb_open (&pp->b, PP_LOCATION);
  pb_uint (&pp->b, 1, id);
  pb_uint (&pp->b, 2, 1);
  size_t l = pb_open (&pp->b, 4);
  pb_uint (&pp->b, 1, id);
  pb_int (&pp->b, 2, line);
  pb_close (&pp->b, l);
  pb_close (&pp->b, m);
}

/* The function (and location) of node N, written the first time.  */

static uint64_t
pp_location (struct pprof *pp, const struct st_node *n)
{
  struct pp_fn k = { n->name, n->site, 0 };
  void **slot = htab_find_slot (pp->fns, &k, INSERT);
  if (*slot)
    return ((struct pp_fn *) *slot)->id;
  struct pp_fn *f = XNEW (struct pp_fn);
  *f = (struct pp_fn) { n->name, n->site, ++pp->nfns };
  *slot = f;
  pp_function (pp, f->id, pp_string (pp, n->name, n->len), n->site);
  return f->id;
}

/* The function (and location) of a stack's frame "[truncated N frames]".  */

static uint64_t
pp_truncated (struct pprof *pp, uint32_t n)
{
  if (pp->truncated[n])
    return pp->truncated[n];
  char cut[48];
  char *name = xstrdup (st_cut_frame (cut, sizeof cut, n));
  pp->names = XRESIZEVEC (char *, pp->names, pp->nnames + 1);
  pp->names[pp->nnames++] = name;
  pp->truncated[n] = ++pp->nfns;
  pp_function (pp, pp->nfns, pp_cstring (pp, name), NULL);
  return pp->nfns;
}

/* The labels of variant V: one per dimension, a number as num.  */

static void
pp_labels (struct pprof *pp, const struct st_variant *v)
{
  const char *p = v->dims, *end = v->dims + v->dims_len;
  while (p < end)
    {
      bool num = *p++ == 'n';
      const char *name = p;
      p += strlen (p) + 1;
      const char *value = p;
      p += strlen (p) + 1;
      size_t m = pb_open (&pp->b, 3);
      pb_int (&pp->b, 1, (int64_t) pp_cstring (pp, name));
      if (num)
        pb_int (&pp->b, 3, strtoll (value, NULL, 10));
      else
        pb_int (&pp->b, 2, (int64_t) pp_cstring (pp, value));
      pb_close (&pp->b, m);
    }
}

/* Each node's location, written before the samples that name it; then a
   sample per variant, its stack cut to ST_MAX_FRAMES.  */

static void
pp_samples (struct pprof *pp, const struct stacks *s)
{
  uint32_t nnodes = st_nnodes (s);
  uint64_t *loc = XNEWVEC (uint64_t, nnodes);
  uint32_t *depth = XCNEWVEC (uint32_t, nnodes);
  pp->truncated = XCNEWVEC (uint64_t, nnodes);
  struct pb ids = { NULL, 0, 0 };
  for (uint32_t i = 1; i < nnodes; i++)
    {
      const struct st_node *n = st_node (s, i);
      loc[i] = pp_location (pp, n);
      depth[i] = depth[n->parent] + 1;     /* a parent comes before its nodes */
      pb_reset (&ids);
      uint32_t a = i;
      for (uint32_t k = 0; a && k < ST_MAX_FRAMES; a = st_node (s, a)->parent, k++)
        pb_varint (&ids, loc[a]);
      if (a)
        pb_varint (&ids, pp_truncated (pp, depth[i] - ST_MAX_FRAMES));
      for (uint32_t v = n->variants; v; v = st_variant (s, v)->next)
        {
          const struct st_variant *vr = st_variant (s, v);
          size_t m = pb_open (&pp->b, PP_SAMPLE);
          pb_bytes (&pp->b, 1, ids.buf, ids.len);
          size_t vals = pb_open (&pp->b, 2);
          pb_varint (&pp->b, vr->count);
          pb_varint (&pp->b, vr->self_ns);
          pb_varint (&pp->b, vr->total_ns);
          pb_close (&pp->b, vals);
          pp_labels (pp, vr);
          pb_close (&pp->b, m);
          if (pp->b.len > 65536)
            pp_flush (pp);
        }
    }
  pb_free (&ids);
  free (depth);
  free (loc);
}

/* The pprof export's options: --dim, and the labels (--label, --no-labels:
   NLABELS < 0 all dimensions).  */
struct pprof_opts
{
  const char *dim;
  int nlabels;
  const char **labels;
};

static int
export_pprof (struct pf_set *set, bool raw, const struct pprof_opts *o, FILE *out)
{
  struct stacks *s = st_new (raw);
  if (o->dim)
    st_set_key (s, o->dim);
  st_keep_variants (s, o->nlabels, o->labels);
  int rc = st_walk (set, s);
  if (!rc)
    st_note_uncarried (s);
  struct pprof pp;
  memset (&pp, 0, sizeof pp);
  if (!rc && !pb_gzip_open (&pp.gz, out))
    {
      fprintf (stderr, "dsprof export: cannot start a gzip stream\n");
      rc = EXIT_DATA;
    }
  if (rc)
    {
      st_free (s);
      return rc;
    }
  pp.strings = htab_create_alloc (256, pp_str_hash, pp_str_eq, free, xcalloc, free);
  pp.fns = htab_create_alloc (256, pp_fn_hash, pp_fn_eq, free, xcalloc, free);
  pp_cstring (&pp, "");          /* string_table[0] */
  pp_value_type (&pp, PP_SAMPLE_TYPE, "records", "count");
  pp_value_type (&pp, PP_SAMPLE_TYPE, "self", "nanoseconds");
  pp_value_type (&pp, PP_SAMPLE_TYPE, "total", "nanoseconds");
  pb_int (&pp.b, PP_DEFAULT_SAMPLE_TYPE, (int64_t) pp_cstring (&pp, "self"));
  if (set->nprocs)
    pb_int (&pp.b, PP_TIME_NANOS, (int64_t) first_start (set));
  /* One mapping, the first program's, that says the locations are
     symbolized already (pprof then looks for no binary).  */
  size_t m = pb_open (&pp.b, PP_MAPPING);
  pb_uint (&pp.b, 1, 1);
  if (set->nprocs)
    pb_int (&pp.b, 5, (int64_t) pp_cstring (&pp, set->procs[0].header.exe));
  for (uint32_t field = 7; field <= 9; field++)
    pb_uint (&pp.b, field, 1);     /* has_functions, _filenames, _line_numbers */
  pb_close (&pp.b, m);

  pp_samples (&pp, s);
  for (uint64_t i = 0; i < pp.nstrings; i++)
    {
      pb_text (&pp.b, PP_STRING_TABLE, pp.table[i]->s, pp.table[i]->len);
      if (pp.b.len > 65536)
        pp_flush (&pp);
    }
  pp_flush (&pp);
  if (!pb_gzip_close (&pp.gz))
    {
      fprintf (stderr, "dsprof export: cannot compress the profile\n");
      rc = EXIT_DATA;
    }
  pb_free (&pp.b);
  free (pp.table);
  htab_delete (pp.strings);
  htab_delete (pp.fns);
  free (pp.truncated);
  for (uint32_t i = 0; i < pp.nnames; i++)
    free (pp.names[i]);
  free (pp.names);
  st_free (s);
  return rc;
}

/* ---- perfetto -------------------------------------------------------------------- */

/* Perfetto's native trace (perfetto.protos.Trace: a TracePacket per message),
   written as the walker delivers the events, in memory bounded by the depth
   and the interning tables: a TrackDescriptor per process and per thread,
   then per thread a packet sequence of TrackEvents, a slice begin at every
   Start and a slice end at every Finish or repair.  A record's dimensions are
   its slice's: event is the category, name the slice's name, thread its
   track, a site's file and line its source location (all interned per
   sequence), the others debug annotations (Start's on the begin; the result,
   those added and complete on the end), typed: integers, booleans and
   doubles as such, pointers as pointers, the rest as text.  */

enum
{
  TR_PACKET = 1,
  TP_TIMESTAMP = 8, TP_SEQUENCE_ID = 10, TP_TRACK_EVENT = 11, TP_INTERNED = 12,
  TP_FLAGS = 13, TP_DEFAULTS = 59, TP_TRACK_DESCRIPTOR = 60,
  SEQ_CLEARED = 1, SEQ_NEEDS_STATE = 2,
  TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT = 5,
  TE_CATEGORY = 3, TE_ANNOTATION = 4, TE_TYPE = 9, TE_NAME = 10, TE_TRACK = 11,
  TE_SOURCE_LOCATION = 34,
  TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2,
  /* InternedData's tables, in the order of the kinds below.  */
  ID_CATEGORY = 1, ID_NAME = 2, ID_ANNOTATION_NAME = 3, ID_SOURCE_LOCATION = 4
};

/* Interned strings of one kind (the InternedData field) per sequence.  */
enum { PF_CATEGORY, PF_NAME, PF_ANNOTATION_NAME, PF_LOCATION, PF_KINDS };
static const uint32_t pf_kind_field[PF_KINDS] = { ID_CATEGORY, ID_NAME,
                                                 ID_ANNOTATION_NAME,
                                                 ID_SOURCE_LOCATION };

/* Entries a sequence interns before it starts afresh (SEQ_CLEARED): the
   bound on the tables' memory, whatever the names.  */
#define PF_INTERN_MAX 4096

struct pf_interned
{
  uint32_t kind;
  uint32_t len;
  uint64_t iid;
  char s[];                      /* LEN bytes */
};

struct perfetto
{
  FILE *out;
  struct pb packet, event, interned, ann;
  struct pb head;                /* a packet's tag and length */
  htab_t table;                  /* struct pf_interned, this sequence's */
  struct pf_interned *key;       /* pf_intern's lookup key */
  size_t key_size;
  uint64_t next_iid[PF_KINDS];   /* never reused, also across resets */
  uint32_t sequence;             /* this thread's trusted_packet_sequence_id */
  uint64_t track;                /* its track's uuid */
  bool cleared;                  /* the next packet starts the sequence afresh */
  uint64_t offset_ns;
  struct added_stack open;
};

static hashval_t
pf_interned_hash (const void *p)
{
  const struct pf_interned *a = p;
  return iterative_hash (a->s, a->len, a->kind);
}

static int
pf_interned_eq (const void *p, const void *q)
{
  const struct pf_interned *a = p, *b = q;
  return a->kind == b->kind && a->len == b->len && !memcmp (a->s, b->s, a->len);
}

/* The iid of the LEN bytes at S of KIND in this sequence, added to the
   packet's InternedData if new.  For a source location S is the file, a NUL
   and the line in decimal.  */

static uint64_t
pf_intern (struct perfetto *pf, uint32_t kind, const char *s, size_t len)
{
  /* The key is built in PF->key, copied only when new.  */
  if (sizeof *pf->key + len > pf->key_size)
    {
      pf->key_size = 2 * (sizeof *pf->key + len);
      free (pf->key);
      pf->key = xmalloc (pf->key_size);
    }
  pf->key->kind = kind;
  pf->key->len = (uint32_t) len;
  memcpy (pf->key->s, s, len);
  void **slot = htab_find_slot (pf->table, pf->key, INSERT);
  if (*slot)
    return ((struct pf_interned *) *slot)->iid;
  struct pf_interned *k = xmalloc (sizeof *k + len);
  memcpy (k, pf->key, sizeof *k + len);
  k->iid = ++pf->next_iid[kind];
  *slot = k;
  size_t m = pb_open (&pf->interned, pf_kind_field[kind]);
  pb_uint (&pf->interned, 1, k->iid);
  if (kind == PF_LOCATION)
    {
      /* SourceLocation: file_name 2, line_number 4.  */
      size_t flen = strlen (s);
      pb_text (&pf->interned, 2, s, flen);
      pb_uint (&pf->interned, 4, strtoull (s + flen + 1, NULL, 10));
    }
  else
    pb_text (&pf->interned, 2, s, len);
  pb_close (&pf->interned, m);
  return k->iid;
}

/* Write the packet built in PF->packet as a Trace's packet.  */

static void
pf_write (struct perfetto *pf)
{
  struct pb *h = &pf->head;
  pb_reset (h);
  pb_varint (h, TR_PACKET << 3 | PB_LEN);
  pb_varint (h, pf->packet.len);
  fwrite (h->buf, 1, h->len, pf->out);
  fwrite (pf->packet.buf, 1, pf->packet.len, pf->out);
  pb_reset (&pf->packet);
}

/* The debug annotation of dimension D into PF->ann: its name interned, or
   with INLINE written out (for an annotation kept until the slice ends, when
   the interned names may have started afresh).  */

static void
pf_annotation (struct perfetto *pf, const struct ev_dim *d, bool inline_name)
{
  size_t m = pb_open (&pf->ann, TE_ANNOTATION);
  if (inline_name)
    pb_text (&pf->ann, 10, d->name, strlen (d->name));
  else
    pb_uint (&pf->ann, 1,
             pf_intern (pf, PF_ANNOTATION_NAME, d->name, strlen (d->name)));
  const struct ev_value *v = &d->v;
  char buf[EV_VALUE_SIZE];
  switch (v->type)
    {
    case DSPROF_DIM_INT: pb_int (&pf->ann, 4, v->i); break;
    case DSPROF_DIM_UINT: pb_uint (&pf->ann, 3, v->u); break;
    case DSPROF_DIM_BOOL: pb_uint (&pf->ann, 2, v->u != 0); break;
    case DSPROF_DIM_DOUBLE: pb_double (&pf->ann, 5, v->d); break;
    default:
      if (v->type == DSPROF_DIM_PTR && !v->text)
        pb_uint (&pf->ann, 7, v->u);
      else
        {
          /* Text: strings, enumerators, a formatter's text.  */
          const char *t = ev_format_value (v, buf, sizeof buf);
          pb_text (&pf->ann, 6, t, strlen (t));
        }
    }
  pb_close (&pf->ann, m);
}

/* The packet's sequence and FLAGS, with SEQ_CLEARED and the sequence's
   defaults (the thread's track) when it starts afresh.  */

static void
pf_sequence (struct perfetto *pf, uint32_t flags)
{
  pb_uint (&pf->packet, TP_SEQUENCE_ID, pf->sequence);
  if (pf->cleared)
    {
      pb_uint (&pf->packet, TP_FLAGS, flags | SEQ_CLEARED);
      size_t d = pb_open (&pf->packet, TP_DEFAULTS);
      size_t t = pb_open (&pf->packet, 11);
      pb_uint (&pf->packet, TE_TRACK, pf->track);
      pb_close (&pf->packet, t);
      pb_close (&pf->packet, d);
      pf->cleared = false;
    }
  else if (flags)
    pb_uint (&pf->packet, TP_FLAGS, flags);
}

/* Write the TrackEvent in PF->event (and the annotations in PF->ann) as a
   packet at NS, with what it interned.  */

static void
pf_event_packet (struct perfetto *pf, uint64_t ns)
{
  pb_uint (&pf->packet, TP_TIMESTAMP, pf->offset_ns + ns);
  pf_sequence (pf, SEQ_NEEDS_STATE);
  size_t m = pb_open (&pf->packet, TP_TRACK_EVENT);
  pb_raw (&pf->packet, pf->event.buf, pf->event.len);
  pb_raw (&pf->packet, pf->ann.buf, pf->ann.len);
  pb_close (&pf->packet, m);
  if (pf->interned.len)
    pb_bytes (&pf->packet, TP_INTERNED, pf->interned.buf, pf->interned.len);
  pb_reset (&pf->event);
  pb_reset (&pf->ann);
  pb_reset (&pf->interned);
  pf_write (pf);
}

/* The dimensions a Start carries as its slice's name, category, track and
   source location rather than as annotations: a site's event, name, file,
   line and thread, a manual event's event, name and thread (events.c puts
   them first).  */

static uint32_t
pf_intrinsic (const struct ev_event *e)
{
  return e->raw.op == DSPROF_OP_ENTER ? 5 : 3;
}

static int
perfetto_event (const struct ev_event *e, void *arg)
{
  struct perfetto *pf = arg;
  /* Start the interning afresh when the tables are full, between packets
     (a packet's entries are the packet's).  */
  if (htab_elements (pf->table) >= PF_INTERN_MAX)
    {
      htab_empty (pf->table);
      pf->cleared = true;
    }
  if (e->kind == EV_DIM)
    {
      if (!pf->open.depth)
        return 0;
      struct added *o = &pf->open.open[pf->open.depth - 1];
      struct pb b = { (unsigned char *) o->bytes, o->len, o->len };
      for (uint32_t i = 0; i < e->ndims; i++)
        /* The end's own complete says how the event ended.  */
        if (!added_before (o, e->dims[i].name)
            && strcmp (e->dims[i].name, "complete") != 0)
          {
            pf_annotation (pf, &e->dims[i], true);
            pb_raw (&b, pf->ann.buf, pf->ann.len);
            pb_reset (&pf->ann);
            added_name (o, e->dims[i].name);
          }
      o->bytes = (char *) b.buf;
      o->len = b.len;
      return 0;
    }
  if (e->kind == EV_START)
    {
      added_push (&pf->open);
      size_t len;
      const char *name = ev_name_of_dims (e->dims, e->ndims, e->type, &len);
      pb_uint (&pf->event, TE_TYPE, TYPE_SLICE_BEGIN);
      pb_uint (&pf->event, TE_NAME, pf_intern (pf, PF_NAME, name, len));
      pb_uint (&pf->event, TE_CATEGORY,
               pf_intern (pf, PF_CATEGORY, e->type, strlen (e->type)));
      uint32_t skip = pf_intrinsic (e);
      if (skip == 5 && e->ndims >= 5)
        {
          char loc[DSPROF_STR_MAX + 32];
          const struct ev_value *file = &e->dims[2].v, *line = &e->dims[3].v;
          int n = snprintf (loc, sizeof loc, "%.*s%c%" PRIu64,
                            file->s ? (int) file->len : 0, file->s ? file->s : "",
                            '\0', line->u);
          pb_uint (&pf->event, TE_SOURCE_LOCATION,
                   pf_intern (pf, PF_LOCATION, loc, (size_t) n));
        }
      for (uint32_t i = skip; i < e->ndims; i++)
        pf_annotation (pf, &e->dims[i], false);
      pf_event_packet (pf, e->ns);
      return 0;
    }
  /* Finish or repair: the result, the added dims, complete.  */
  struct added *o = pf->open.depth ? &pf->open.open[--pf->open.depth] : NULL;
  pb_uint (&pf->event, TE_TYPE, TYPE_SLICE_END);
  for (uint32_t i = 0; i < e->ndims; i++)
    if (!o || !added_before (o, e->dims[i].name))
      pf_annotation (pf, &e->dims[i], false);
  if (o && o->len)
    pb_raw (&pf->ann, o->bytes, o->len);
  struct ev_dim complete = { "complete", { .type = DSPROF_DIM_BOOL,
                                           .u = e->kind == EV_FINISH } };
  pf_annotation (pf, &complete, false);
  if (o)
    added_free (o);
  pf_event_packet (pf, e->ns);
  return 0;
}

/* A TrackDescriptor packet: track UUID under PARENT (0: none), for process
   PID (TID < 0) or its thread TID, named NAME.  A thread's starts its packet
   sequence; a process's is a sequence of its own.  */

static void
pf_track (struct perfetto *pf, uint64_t uuid, uint64_t parent, int64_t pid,
          int64_t tid, const char *name)
{
  size_t m = pb_open (&pf->packet, TP_TRACK_DESCRIPTOR);
  pb_uint (&pf->packet, TD_UUID, uuid);
  if (parent)
    pb_uint (&pf->packet, TD_PARENT, parent);
  size_t d = pb_open (&pf->packet, tid < 0 ? TD_PROCESS : TD_THREAD);
  pb_int (&pf->packet, 1, pid);
  if (tid >= 0)
    pb_int (&pf->packet, 2, tid);
  /* process_name 6, thread_name 5.  */
  pb_text (&pf->packet, tid < 0 ? 6 : 5, name, strlen (name));
  pb_close (&pf->packet, d);
  pb_close (&pf->packet, m);
  pf_sequence (pf, 0);
  pf_write (pf);
}

static int
export_perfetto (struct pf_set *set, FILE *out)
{
  struct perfetto pf;
  memset (&pf, 0, sizeof pf);
  pf.out = out;
  pf.table = htab_create_alloc (256, pf_interned_hash, pf_interned_eq, free,
                                xcalloc, free);
  uint64_t first = first_start (set);
  /* A thread's tid: its process's pid for the first, past any pid (Linux's
     pid_max is at most 2^22) for the others, unique in the trace, which
     names threads by tid.  */
  int64_t next_tid = 1 << 22;
  int rc = 0;
  for (uint32_t i = 0; i < set->nprocs && !rc; i++)
    {
      const struct pf_process *p = &set->procs[i];
      int64_t pid = process_pid (set, i);
      uint64_t process = (uint64_t) (i + 1) << 32;
      pf.offset_ns = p->header.start_ns - first;
      pf.sequence++;
      pf.cleared = false;
      pf_track (&pf, process, 0, pid, -1, p->header.exe);
      for (uint32_t k = 0; k < p->nstreams && !rc; k++)
        {
          char name[32];
          snprintf (name, sizeof name, "thread %u", p->streams[k].thread);
          pf.track = process | (k + 1);
          pf.sequence++;
          htab_empty (pf.table);
          pf.cleared = true;
          pf_track (&pf, pf.track, process, pid, k ? next_tid++ : pid, name);
          rc = pf_decode_stream (p, &p->streams[k], perfetto_event, NULL, &pf, 0);
          added_clear (&pf.open);
        }
    }
  free (pf.open.open);
  htab_delete (pf.table);
  pb_free (&pf.packet);
  pb_free (&pf.event);
  pb_free (&pf.interned);
  pb_free (&pf.ann);
  pb_free (&pf.head);
  free (pf.key);
  return rc;
}

/* ---- csv ------------------------------------------------------------------------- */

/* Rows come in the order records end, each numbered by that order (as `dsprof
   records` numbers them) and naming its parent's number - which is not known
   when the row is written: the parent ends later.  It follows from what is
   known at the parent's Start, K (the Starts before it, every stream's) and
   its depth in its stream (the records open then, all of them after the K
   already ended), and from D, the records below it:

     number = K - depth + D + 1

   so a first pass, which also gathers the columns, notes the D of every record
   with records below it, by K, in a temporary file (sparse: a leaf is 0), and
   the pass writing the rows reads them back in Start order.  Nothing is kept
   in memory per record.  */

#define CSV_WINDOW 65536        /* D values written to the file at once */

struct csv
{
  FILE *out;
  htab_t seen;                   /* dimension names */
  char **cols;
  uint32_t ncols;
  uint64_t started;              /* Starts so far, every stream */
  uint64_t *stack;               /* first pass: the K of each open record;
                                    second: its number */
  uint32_t depth, ssize;
  int64_t pid;
  FILE *descs;                   /* the D of every record, by K */
  uint64_t *window;              /* D of K in [lo, lo + CSV_WINDOW) */
  uint64_t lo;
  bool dirty, failed;
};

static void
csv_push (struct csv *c, uint64_t v)
{
  if (c->depth == c->ssize)
    {
      c->ssize = c->ssize ? 2 * c->ssize : 64;
      c->stack = XRESIZEVEC (uint64_t, c->stack, c->ssize);
    }
  c->stack[c->depth++] = v;
}

/* Write N D values from V at K to the file.  */

static void
csv_put_descs (struct csv *c, uint64_t k, const uint64_t *v, size_t n)
{
  if (fseeko (c->descs, (off_t) (k * sizeof *v), SEEK_SET)
      || fwrite (v, sizeof *v, n, c->descs) != n)
    c->failed = true;
}

static void
csv_flush_window (struct csv *c)
{
  if (c->dirty)
    csv_put_descs (c, c->lo, c->window, CSV_WINDOW);
  memset (c->window, 0, CSV_WINDOW * sizeof *c->window);
  c->dirty = false;
}

static int
csv_number_start (const struct ev_event *e, void *arg)
{
  struct csv *c = arg;
  if (e->kind == EV_START)
    csv_push (c, c->started++);
  return 0;
}

/* First pass: the columns, and the D of each record by its K.  Records end
   nearly in Start order, so their D go to a window of the file moving on with
   the Starts; one that ended long after its Start goes straight to the file.  */

static int
csv_number (struct ev_record *r, void *arg)
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
  if (!c->depth)
    return 0;
  uint64_t k = c->stack[--c->depth], d = c->started - k - 1;
  if (!d)
    return 0;
  if (k >= c->lo + CSV_WINDOW)
    {
      csv_flush_window (c);
      c->lo = k - k % CSV_WINDOW;
    }
  if (k >= c->lo)
    {
      c->window[k - c->lo] = d;
      c->dirty = true;
    }
  else
    csv_put_descs (c, k, &d, 1);
  return 0;
}

static void
csv_begin (const struct pf_process *p, const struct ev_stream *s, void *arg)
{
  (void) p;
  (void) s;
  ((struct csv *) arg)->depth = 0;
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

/* Second pass: a record's number at its Start, from its D.  */

static int
csv_start (const struct ev_event *e, void *arg)
{
  struct csv *c = arg;
  if (e->kind != EV_START)
    return 0;
  uint64_t d = 0;
  if (fread (&d, sizeof d, 1, c->descs) != 1)
    d = 0;                       /* past the last D written: leaves */
  csv_push (c, c->started++ - c->depth + d + 1);
  return 0;
}

static int
csv_row (struct ev_record *r, void *arg)
{
  struct csv *c = arg;
  if (!c->depth)
    return 0;
  uint64_t number = c->stack[--c->depth];
  FILE *out = c->out;
  fprintf (out, "%" PRIu64 ",%" PRId64 ",%u,%" PRIu64 ",%" PRIu64 ",%u,", number,
           c->pid, r->thread, r->start_ns, r->end_ns - r->start_ns, r->depth);
  if (c->depth)
    fprintf (out, "%" PRIu64, c->stack[c->depth - 1]);
  char buf[EV_VALUE_SIZE];
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
  c.descs = scratch_file ();
  if (!c.descs)
    {
      fprintf (stderr, "dsprof export: cannot make a temporary file: %s\n",
               strerror (errno));
      htab_delete (c.seen);
      return EXIT_DATA;
    }
  c.window = XCNEWVEC (uint64_t, CSV_WINDOW);
  int rc = pf_walk_streams (set, csv_number_start, csv_number, csv_begin, &c, 0);
  csv_flush_window (&c);
  if (!rc && (c.failed || fflush (c.descs) || fseeko (c.descs, 0, SEEK_SET)))
    {
      fprintf (stderr, "dsprof export: cannot write a temporary file: %s\n",
               strerror (errno));
      rc = EXIT_DATA;
    }
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
  c.started = 0;
  for (uint32_t i = 0; i < set->nprocs && !rc; i++)
    {
      const struct pf_process *p = &set->procs[i];
      c.pid = p->header.pid;
      for (uint32_t k = 0; k < p->nstreams && !rc; k++)
        {
          c.depth = 0;
          rc = pf_decode_stream (p, &p->streams[k], csv_start, csv_row, &c, 0);
        }
    }
  fclose (c.descs);
  free (c.window);
  free (c.cols);
  free (c.stack);
  htab_delete (c.seen);
  return rc;
}

/* ---- dsprof export --------------------------------------------------------------- */

/* The options every exporter gets (each uses those of its format).  */
struct export_opts
{
  bool raw;
  const struct pprof_opts *pp;
};

static int
run_folded (struct pf_set *set, const struct export_opts *o, FILE *out)
{
  return export_folded (set, o->raw, out);
}

static int
run_pprof (struct pf_set *set, const struct export_opts *o, FILE *out)
{
  return export_pprof (set, o->raw, o->pp, out);
}

/* Cobertura's timestamp is when the earliest process started.  */

static int
run_cobertura (struct pf_set *set, const struct export_opts *o, FILE *out)
{
  (void) o;
  return export_cobertura (set, set->nprocs ? first_start (set) / 1000000000
                           : 0, out);
}

/* The formats: name, --help text, exporter (PLAIN when it takes no
   options).  */
static const struct export_format
{
  const char *name;
  const char *help;
  int (*run) (struct pf_set *set, const struct export_opts *o, FILE *out);
  int (*plain) (struct pf_set *set, FILE *out);
} formats[] = {
  { "chrome",
    "Chrome trace-event JSON (Perfetto UI, chrome://tracing): a B event\n"
    "at each Start and an E event at each Finish, per process (pid) and\n"
    "thread (tid), balanced (an event closed by repair ends with\n"
    "complete false); args are the dimensions: Start's on B, the\n"
    "result, added ones and complete on E.  ts in microseconds since\n"
    "the earliest process started.\n", NULL, export_chrome },
  { "folded",
    "folded stacks for flame-graph tools: `a;b;c SELF_NS`, one line\n"
    "per distinct stack of names with its self time, the recorder's\n"
    "cost deducted as in `dsprof report` unless --raw (the lines then\n"
    "add up to the report's Self column; with --raw to the profiled\n"
    "time).  `;` and control characters in a name are written \\xHH.\n",
    run_folded, NULL },
  { "lcov",
    "an lcov tracefile of the line counts for genhtml: per source file\n"
    "(found as annotate finds it) FN/FNDA for each function's entry\n"
    "count, DA for each line with the largest count of the blocks on it.\n",
    NULL, export_lcov },
  { "cobertura",
    "Cobertura XML (coverage-04.dtd) for CI services (Codecov, GitLab,\n"
    "Jenkins): the lcov export's lines and branches, with its totals\n"
    "and `dsprof summary`'s; the files' common directory is the\n"
    "<source>, a package per directory, a class per file, a method\n"
    "per function; a line with branches has condition-coverage\n"
    "\"PCT% (TAKEN/BRANCHES)\"; rates are 1 when nothing is valid.\n",
    run_cobertura, NULL },
  { "csv",
    "one row per record (RFC 4180): record (its number in `dsprof\n"
    "records`), pid, thread, start_ns (since its process started),\n"
    "duration_ns (as recorded), depth, parent_record (empty at top\n"
    "level), then one column per dimension any record carries.\n",
    NULL, export_csv },
  { "pprof",
    "pprof's profile.proto, gzip-compressed (go tool pprof, any\n"
    "pprof reader): a sample per distinct stack of names (of D's\n"
    "values with --dim D) and set of dimensions of its innermost\n"
    "record, which are its labels (integers as numbers); values\n"
    "records (count), self and total (ns, the recorder's cost\n"
    "deducted as in `dsprof report` unless --raw); self is the\n"
    "default, so pprof's flat is the report's Self, cum its Total.\n"
    "Each name is a function at its event site's file and line.\n",
    run_pprof, NULL },
  { "perfetto",
    "Perfetto's native protobuf trace (ui.perfetto.dev,\n"
    "trace_processor): the chrome export's slices, a fifth to a third\n"
    "of its size, written as the events are read (memory does not\n"
    "grow with the records): a track per process and thread (the\n"
    "first thread's tid is the pid), a slice per record, named and\n"
    "categorised as chrome's, at the same ns; a site's file and line\n"
    "are its source location, the other dimensions debug annotations\n"
    "(numbers, booleans and pointers typed).\n", NULL, export_perfetto },
};
#define NFORMATS (sizeof formats / sizeof *formats)

/* The format named NAME, or NULL.  */

static const struct export_format *
format_named (const char *name)
{
  for (size_t f = 0; f < NFORMATS; f++)
    if (!strcmp (name, formats[f].name))
      return &formats[f];
  return NULL;
}

/* The format names joined by SEP, the last two by LAST, in BUF.  */

static const char *
format_list (char *buf, size_t size, const char *sep, const char *last)
{
  size_t len = 0;
  buf[0] = '\0';
  for (size_t f = 0; f < NFORMATS && len < size; f++)
    len += (size_t) snprintf (buf + len, size - len, "%s%s",
                              !f ? "" : f + 1 < NFORMATS ? sep : last,
                              formats[f].name);
  return buf;
}

/* --help before the options: the usage with the formats, each format's
   text.  */

static void
export_usage (FILE *out)
{
  char list[256];
  fprintf (out, "usage: dsprof export --format %s\n",
           format_list (list, sizeof list, "|", "|"));
  fputs ("                     [--raw] [--dim D] [--label D]... [--no-labels]\n"
         "                     [-o FILE] [PROFILE...]\n\n", out);
  for (size_t f = 0; f < NFORMATS; f++)
    {
      const char *h = formats[f].help;
      fprintf (out, "  %-10s", formats[f].name);
      for (const char *nl; (nl = strchr (h, '\n')); h = nl + 1)
        fprintf (out, "%s%.*s\n", h == formats[f].help ? "" : "            ",
                 (int) (nl - h), h);
    }
  putc ('\n', out);
}

static int export_run (const char *format, const char *output,
                       const struct export_opts *o, bool labels, int argc,
                       char **argv);

/* export's options.  */
struct export_cli
{
  const char *format, *output;
  struct pprof_opts pp;
  struct export_opts o;
  bool labels;                   /* --label or --no-labels given */
};

static int
set_dim (const char *cmd, char *arg, void *p)
{
  struct export_cli *x = p;
  x->pp.dim = arg;
  return check_dim_option (cmd, "--dim", arg);
}

static int
set_label (const char *cmd, char *arg, void *p)
{
  struct export_cli *x = p;
  if (!*arg)
    return usage_error (cmd, "--label wants a dimension name");
  x->pp.labels = XRESIZEVEC (const char *, x->pp.labels, x->pp.nlabels + 2);
  if (x->pp.nlabels < 0)
    x->pp.nlabels = 0;
  x->pp.labels[x->pp.nlabels++] = arg;
  x->labels = true;
  return 0;
}

static int
set_no_labels (const char *cmd, char *arg, void *p)
{
  (void) cmd, (void) arg;
  struct export_cli *x = p;
  x->pp.nlabels = 0;
  x->labels = true;
  return 0;
}

static const struct opt export_options[] = {
  { .name = "format", .letter = 'f', .arg = "F", .kind = OPT_STRING,
    .off = offsetof (struct export_cli, format),
    .help = "one of the above (required)" },
  { .name = "raw", .kind = OPT_FLAG,
    .off = offsetof (struct export_cli, o) + offsetof (struct export_opts, raw),
    .help = "folded, pprof: times without deducting the recorder's\ncost" },
  { .name = "dim", .letter = 'd', .arg = "D", .kind = OPT_FUNC, .set = set_dim,
    .help = "pprof: stacks of D's values instead of names" },
  { .name = "label", .letter = 'l', .arg = "D", .kind = OPT_FUNC,
    .set = set_label,
    .help = "pprof: of the dimensions, only D (repeated: each D)\n"
            "as labels: fewer distinct sets, fewer samples" },
  { .name = "no-labels", .kind = OPT_FUNC, .set = set_no_labels,
    .help = "pprof: no labels, a sample per stack" },
  { .name = "output", .letter = 'o', .arg = "FILE", .kind = OPT_STRING,
    .off = offsetof (struct export_cli, output),
    .help = "write to FILE instead of standard output" },
  { 0 }
};

static int
run_export (int argc, char **argv)
{
  struct export_cli x = { .pp = { .nlabels = -1 } };
  x.o.pp = &x.pp;
  struct opt_operands ops;
  int ret = opt_parse (&cmd_export.cli, argc, argv, &x, &ops);
  char list[256];
  if (!ret && !x.format)
    ret = usage_error ("export", "--format %s is needed",
                       format_list (list, sizeof list, ", ", " or "));
  if (!ret)
    ret = export_run (x.format, x.output, &x.o, x.labels, ops.n, ops.v);
  free (x.pp.labels);
  free (ops.v);
  return ret == OPT_HELP ? 0 : ret;
}

/* export with the options parsed: FORMAT, OUTPUT, the options O (LABELS: the
   pprof labels given), the profiles ARGV[0 .. ARGC).  */

static int
export_run (const char *format, const char *output,
            const struct export_opts *o, bool labels, int argc, char **argv)
{
  const struct export_format *f = format_named (format);
  char list[256];
  if (!f)
    return usage_error ("export", "--format wants %s, not '%s'",
                        format_list (list, sizeof list, ", ", " or "), format);
  if ((o->pp->dim || labels) && f->run != run_pprof)
    return usage_error ("export", "--dim, --label and --no-labels are for --format "
                        "pprof");
  struct pf_set set;
  int rc = load_profiles (argc, argv, &set);
  if (rc)
    return rc;
  struct output out;
  if (!(rc = output_open (&out, "export", output, 0)))
    {
      /* Written as read: no progress line amid it on the terminal.  */
      if (!out.path && isatty (STDOUT_FILENO))
        progress_off ();
      rc = f->plain ? f->plain (&set, out.f) : f->run (&set, o, out.f);
      rc = output_finish (&out, rc);
    }
  pf_free (&set);
  return rc;
}

/* The usage and the formats are export_usage's, from the table.  */
const struct command cmd_export = {
  .summary = "the profile for other tools (chrome, folded, lcov, cobertura, "
             "csv, pprof, perfetto)",
  .run = run_export,
  .cli = { .name = "export", .usage_fn = export_usage, .opts = export_options }
};
