/* export-pprof.c - `dsprof export --format pprof` (docs/contract.md §5.8):
   pprof's profile.proto, gzip-compressed, the samples of stacks.h's tree of
   name paths (or of --dim's values) with its variants; pb.h writes the
   encoding.  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "aggregate.h"
#include "exit.h"
#include "files.h"
#include "profile.h"
#include "query.h"
#include "text.h"
#include "export.h"
#include "pb.h"

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

/* The profile's head: the sample types (self the default), its time, and
   one mapping, the first program's, that says the locations are symbolized
   already (pprof then looks for no binary).  */

static void
pp_head (struct pprof *pp, const struct pf_set *set)
{
  pp_cstring (pp, "");           /* string_table[0] */
  pp_value_type (pp, PP_SAMPLE_TYPE, "records", "count");
  pp_value_type (pp, PP_SAMPLE_TYPE, "self", "nanoseconds");
  pp_value_type (pp, PP_SAMPLE_TYPE, "total", "nanoseconds");
  pb_int (&pp->b, PP_DEFAULT_SAMPLE_TYPE, (int64_t) pp_cstring (pp, "self"));
  if (set->nprocs)
    pb_int (&pp->b, PP_TIME_NANOS, (int64_t) first_start (set));
  size_t m = pb_open (&pp->b, PP_MAPPING);
  pb_uint (&pp->b, 1, 1);
  if (set->nprocs)
    pb_int (&pp->b, 5, (int64_t) pp_cstring (pp, set->procs[0].header.exe));
  for (uint32_t field = 7; field <= 9; field++)
    pb_uint (&pp->b, field, 1);     /* has_functions, _filenames, _line_numbers */
  pb_close (&pp->b, m);
}

static void
pp_free (struct pprof *pp)
{
  pb_free (&pp->b);
  free (pp->table);
  htab_delete (pp->strings);
  htab_delete (pp->fns);
  free (pp->truncated);
  for (uint32_t i = 0; i < pp->nnames; i++)
    free (pp->names[i]);
  free (pp->names);
}

int
export_pprof (const struct export_input *in, FILE *out)
{
  struct pprof pp;
  memset (&pp, 0, sizeof pp);
  if (!pb_gzip_open (&pp.gz, out))
    {
      fprintf (stderr, "dsprof export: cannot start a gzip stream\n");
      return EXIT_DATA;
    }
  pp.strings = htab_create_alloc (256, pp_str_hash, pp_str_eq, free, xcalloc, free);
  pp.fns = htab_create_alloc (256, pp_fn_hash, pp_fn_eq, free, xcalloc, free);
  pp_head (&pp, in->set);
  pp_samples (&pp, in->stacks);
  for (uint64_t i = 0; i < pp.nstrings; i++)
    {
      pb_text (&pp.b, PP_STRING_TABLE, pp.table[i]->s, pp.table[i]->len);
      if (pp.b.len > 65536)
        pp_flush (&pp);
    }
  pp_flush (&pp);
  int rc = 0;
  if (!pb_gzip_close (&pp.gz))
    {
      fprintf (stderr, "dsprof export: cannot compress the profile\n");
      rc = EXIT_DATA;
    }
  pp_free (&pp);
  return rc;
}
