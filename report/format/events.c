/* events.c - decoding event streams into events and records (see events.h).

   The decoder keeps the thread's open records on a stack.  A completed record is
   delivered to the consumer, then kept until its parent completes (the parent's
   callback lists it among its children) and freed with it; a top-level record is
   freed right after its callback.  Every read from the stream is bounded by the
   chunk's `used` count: a corrupt stream ends the walk with an error, never a
   read outside the chunk.  */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libiberty.h"
#include "hashtab.h"
#include "costs.h"
#include "events.h"
#include "progress.h"
#include "text.h"

/* ---- sites ----------------------------------------------------------------- */

static char *
dup_str (struct dsprof_cursor *c)
{
  const char *s;
  size_t n = dsprof_read_str (c, &s);
  return xstrndup (s, n);
}

/* Read the next dim of the site record REC into *D; false if it is malformed.  */

static bool
read_dim (struct dsprof_site_rec *rec, struct ev_dim_desc *d)
{
  struct dsprof_site_dim dim;
  if (dsprof_site_next_dim (&rec->dims, &dim) < 0)
    return false;
  d->name = xstrndup (dim.name, dim.name_len);
  d->type = dim.type;
  if (d->type != DSPROF_DIM_ENUM)
    return true;
  d->nenum = dim.nenum;
  d->enum_vals = XNEWVEC (int64_t, dim.nenum ? dim.nenum : 1);
  d->enum_names = XNEWVEC (const char *, dim.nenum ? dim.nenum : 1);
  for (uint64_t i = 0; i < dim.nenum; i++)
    {
      const char *name;
      size_t len;
      dsprof_site_next_enum (&dim.enums, &d->enum_vals[i], &name, &len);
      d->enum_names[i] = xstrndup (name, len);
    }
  return true;
}

/* The dimensions every record of SITE starts with, made once; and whether a
   parameter's name clashes with another dimension (then the first value wins,
   which the decoder must check record by record).  */

static void
site_intrinsics (struct ev_site *site)
{
  static const char *const names[5] = { "event", "name", "file", "line",
                                         "function" };
  const char *vals[5] = { site->type, site->name, site->file, NULL,
                          site->function };
  site->nintrinsic = site->function ? 5 : 4;
  for (uint32_t i = 0; i < site->nintrinsic; i++)
    {
      struct ev_dim *d = &site->intrinsic[i];
      memset (d, 0, sizeof *d);
      d->name = names[i];
      d->v.type = i != 3 ? DSPROF_DIM_STR : DSPROF_DIM_UINT;
      if (i != 3)
        {
          d->v.s = vals[i];
          d->v.len = (uint32_t) strlen (vals[i]);
        }
      else
        d->v.u = site->line;
    }
  static const char *const reserved[] = { "event", "name", "file", "line",
                                          "thread", "result", "complete",
                                          "function" };
  site->clash = false;
  for (uint32_t i = 0; i < site->ndims; i++)
    {
      for (size_t k = 0; k < sizeof reserved / sizeof *reserved; k++)
        site->clash |= strcmp (site->dims[i].name, reserved[k]) == 0;
      for (uint32_t k = 0; k < i; k++)
        site->clash |= strcmp (site->dims[i].name, site->dims[k].name) == 0;
    }
}

static void site_free (struct ev_site *s);

/* Make the sites of the DSPROF_TAG_DISPATCH record R (dsprof-format.h,
   section 3), of a unit whose site 0 has global id SITE_BASE, op sites of
   its function.  Return 0, or -1 if the record is malformed.  Its sites
   come before it: a unit's site records and then its dispatch records.  */

static int
dispatch_record (struct ev_sites *sites, struct dsprof_cursor *r,
                 uint32_t site_base, uint32_t nsites)
{
  uint64_t first = dsprof_read_uleb (r), n = dsprof_read_uleb (r);
  const char *fn;
  size_t len = dsprof_read_str (r, &fn);
  if (r->err || first > nsites || n > nsites - first || !site_base)
    return -1;
  for (uint64_t i = first; i < first + n; i++)
    {
      uint64_t id = (uint64_t) site_base + i;
      struct ev_site *site = id < sites->size ? sites->by_id[id] : NULL;
      if (!site || site->function || strcmp (site->type, "op") != 0)
        return -1;
      site->function = xstrndup (fn, len);
      site_intrinsics (site);
    }
  return 0;
}

/* Add the function of the DSPROF_TAG_DISPATCH_ASKED record R to the names
   asked for, unless there or EV_MAX_ASKED are (a malformed record, or one
   past those, is ignored: they only serve a message).  */

static void
asked_record (struct ev_sites *sites, struct dsprof_cursor *r)
{
  if (sites->nasked >= EV_MAX_ASKED)
    return;
  char *name = dup_str (r);
  if (r->err)
    {
      free (name);
      return;
    }
  for (uint32_t i = 0; i < sites->nasked; i++)
    if (strcmp (sites->asked[i], name) == 0)
      {
        free (name);
        return;
      }
  sites->asked = XRESIZEVEC (char *, sites->asked, sites->nasked + 1);
  sites->asked[sites->nasked++] = name;
}

void
ev_sites_add_asked (struct ev_sites *sites, const unsigned char *meta,
                    size_t size)
{
  struct dsprof_meta m;
  struct dsprof_cursor r;
  uint64_t tag;
  dsprof_meta_open (&m, meta, size);
  while (dsprof_meta_next (&m, &tag, &r) > 0)
    if (tag == DSPROF_TAG_DISPATCH_ASKED)
      asked_record (sites, &r);
}

/* Whether a site of SITES is an op site of the dispatch function FUNC.  */

bool
ev_sites_dispatch_p (const struct ev_sites *sites, const char *func)
{
  for (uint32_t id = 0; id < sites->size; id++)
    if (sites->by_id[id] && sites->by_id[id]->function
        && strcmp (sites->by_id[id]->function, func) == 0)
      return true;
  return false;
}

static void
free_files (const char **files, size_t nfiles)
{
  for (size_t i = 0; i < nfiles; i++)
    free ((char *) files[i]);
  free (files);
}

/* The event site record R of a unit whose files are FILES[0 .. NFILES), as
   a new site whose index among the unit's NSITES it says in *INDEX; NULL if
   the record is bad.  */

static struct ev_site *
site_record (struct dsprof_cursor *r, const char **files, size_t nfiles,
             uint32_t nsites, uint64_t *index)
{
  struct dsprof_site_rec rec;
  if (dsprof_site_read (r, &rec) != 0 || rec.index >= nsites)
    return NULL;
  struct ev_site *site = XCNEW (struct ev_site);
  site->type = xstrndup (rec.type, rec.type_len);
  site->name = xstrndup (rec.name, rec.name_len);
  site->file = xstrdup (rec.file < nfiles ? files[rec.file] : "?");
  site->line = (uint32_t) rec.line;
  site->ndims = rec.ndims - 1;
  site->dims = XCNEWVEC (struct ev_dim_desc, rec.ndims);
  bool ok = true;
  for (uint64_t i = 0; i + 1 < rec.ndims && ok; i++)
    ok = read_dim (&rec, &site->dims[i]);
  if (!ok || !read_dim (&rec, &site->result))
    {
      site_free (site);
      return NULL;
    }
  site_intrinsics (site);
  *index = rec.index;
  return site;
}

/* SITE as SITES's site ID (< UINT32_MAX), the table grown to hold it; a site
   given twice: the last wins.  */

static void
site_put (struct ev_sites *sites, uint64_t id, struct ev_site *site)
{
  if (id >= sites->size)
    {
      uint32_t nsize = sites->size ? sites->size : 64;
      while (nsize <= id)
        nsize *= 2;
      sites->by_id = XRESIZEVEC (struct ev_site *, sites->by_id, nsize);
      memset (sites->by_id + sites->size, 0,
              (nsize - sites->size) * sizeof *sites->by_id);
      sites->size = nsize;
    }
  site_free (sites->by_id[id]);
  sites->by_id[id] = site;
}

/* One record of a unit's metadata, tag TAG: a file name into *FILES, a
   dispatch record, or an event site.  Return NULL or what is wrong.  */

static const char *
unit_record (struct ev_sites *sites, uint64_t tag, struct dsprof_cursor *r,
             const char ***files, size_t *nfiles, uint32_t site_base,
             uint32_t nsites)
{
  if (tag == DSPROF_TAG_FILE)
    {
      *files = XRESIZEVEC (const char *, *files, *nfiles + 1);
      (*files)[(*nfiles)++] = dup_str (r);
    }
  else if (tag == DSPROF_TAG_DISPATCH_ASKED)
    asked_record (sites, r);
  else if (tag == DSPROF_TAG_DISPATCH)
    {
      if (dispatch_record (sites, r, site_base, nsites) < 0)
        return "bad dispatch record";
    }
  else if (tag == DSPROF_TAG_SITE)
    {
      uint64_t index;
      struct ev_site *site = site_base
        ? site_record (r, *files, *nfiles, nsites, &index) : NULL;
      if (!site)
        return "bad event site record";
      if ((uint64_t) site_base + index >= UINT32_MAX)
        {
          site_free (site);
          return "event site id out of range";
        }
      site_put (sites, (uint64_t) site_base + index, site);
    }
  return NULL;
}

int
ev_sites_add_unit (struct ev_sites *sites, const unsigned char *meta, size_t size,
                   uint32_t site_base, uint32_t nsites, const char **err)
{
  struct dsprof_meta m;
  struct dsprof_cursor r;
  uint64_t tag;
  const char **files = NULL;
  size_t nfiles = 0;
  const char *bad = NULL;
  int more;
  dsprof_meta_open (&m, meta, size);
  while (!bad && (more = dsprof_meta_next (&m, &tag, &r)) > 0)
    bad = unit_record (sites, tag, &r, &files, &nfiles, site_base, nsites);
  free_files (files, nfiles);
  if (!bad && more < 0)
    bad = "bad unit metadata";
  if (bad)
    *err = bad;
  return bad ? -1 : 0;
}

static void
free_dim_desc (struct ev_dim_desc *d)
{
  free ((char *) d->name);
  for (uint32_t i = 0; i < d->nenum; i++)
    free ((char *) d->enum_names[i]);
  free (d->enum_vals);
  free (d->enum_names);
}

static void
site_free (struct ev_site *s)
{
  if (!s)
    return;
  free ((char *) s->type);
  free ((char *) s->name);
  free ((char *) s->file);
  free ((char *) s->function);
  if (s->dims)
    for (uint32_t i = 0; i < s->ndims; i++)
      free_dim_desc (&s->dims[i]);
  free_dim_desc (&s->result);
  free (s->dims);
  free (s);
}

void
ev_sites_free (struct ev_sites *sites)
{
  for (uint32_t id = 0; id < sites->size; id++)
    site_free (sites->by_id[id]);
  free (sites->by_id);
  sites->by_id = NULL;
  sites->size = 0;
  for (uint32_t i = 0; i < sites->nasked; i++)
    free (sites->asked[i]);
  free (sites->asked);
  sites->asked = NULL;
  sites->nasked = 0;
}

/* ---- values ------------------------------------------------------------------ */

/* The text of V into BUF (SIZE bytes), "..." after it when the program cut it
   or when it is cut here to fit, which is at a UTF-8 character boundary.  */

static void
put_text (char *buf, size_t size, const struct ev_value *v)
{
  if (!v->truncated && v->len < size)
    {
      if (v->len)               /* an empty text may have no bytes (NULL) */
        memcpy (buf, v->s, v->len);
      buf[v->len] = '\0';
      return;
    }
  if (size < 4)
    {
      if (size)
        {
          memset (buf, '.', size - 1);
          buf[size - 1] = '\0';
        }
      return;
    }
  size_t n = v->len + 3 < size ? v->len : text_utf8_cut (v->s, v->len, size - 4);
  if (n)
    memcpy (buf, v->s, n);
  memcpy (buf + n, "...", 4);
}

const char *
ev_format_value (const struct ev_value *v, char *buf, size_t size)
{
  switch (v->type)
    {
    case DSPROF_DIM_INT:
    case DSPROF_DIM_UINT:
      if (size >= 24)
        {
          /* Decimal by hand: values are formatted once per record.  */
          char tmp[24], *p = tmp + sizeof tmp;
          bool neg = v->type == DSPROF_DIM_INT && v->i < 0;
          uint64_t u = neg ? -(uint64_t) v->i : v->u;
          do
            *--p = (char) ('0' + u % 10);
          while (u /= 10);
          if (neg)
            *--p = '-';
          memcpy (buf, p, (size_t) (tmp + sizeof tmp - p));
          buf[tmp + sizeof tmp - p] = '\0';
        }
      else if (v->type == DSPROF_DIM_INT)
        snprintf (buf, size, "%" PRId64, v->i);
      else
        snprintf (buf, size, "%" PRIu64, v->u);
      break;
    case DSPROF_DIM_BOOL:
      snprintf (buf, size, "%s", v->u ? "true" : "false");
      break;
    case DSPROF_DIM_ENUM:
      if (v->desc)
        for (uint32_t i = 0; i < v->desc->nenum; i++)
          if (v->desc->enum_vals[i] == v->i)
            {
              snprintf (buf, size, "%s", v->desc->enum_names[i]);
              return buf;
            }
      snprintf (buf, size, "%" PRId64, v->i);
      break;
    case DSPROF_DIM_DOUBLE:
      snprintf (buf, size, "%g", v->d);
      break;
    case DSPROF_DIM_STR:
      if (!v->s)
        snprintf (buf, size, "(null)");
      else
        put_text (buf, size, v);
      break;
    case DSPROF_DIM_PTR:
      if (v->text)
        put_text (buf, size, v);
      else
        snprintf (buf, size, "0x%" PRIx64, v->u);
      break;
    default:
      snprintf (buf, size, "%s", "");
    }
  return buf;
}

/* dsprof_read_uleb, with the one-byte numbers (most deltas, ids and small
   values) read inline.  The out-of-line readers get a copy of the cursor, so
   that the decoder's own never has its address taken and can stay in
   registers (likewise read_value_fast, read_str).  */

static inline __attribute__ ((always_inline)) uint64_t
read_uleb (struct dsprof_cursor *c)
{
  /* Numbers of up to four bytes (time deltas mostly take two, parameters
     a few) read here; past an error the value is garbage, as C's ERR
     says.  */
  const unsigned char *p = c->p;
  if (__builtin_expect (c->end - p >= 4, 1))
    {
      uint64_t v = p[0];
      if (v < 0x80)
        {
          c->p = p + 1;
          return v;
        }
      v = (v & 0x7f) | (uint64_t) (p[1] & 0x7f) << 7;
      if (p[1] < 0x80)
        {
          c->p = p + 2;
          return v;
        }
      v |= (uint64_t) (p[2] & 0x7f) << 14;
      if (p[2] < 0x80)
        {
          c->p = p + 3;
          return v;
        }
      if (p[3] < 0x80)
        {
          c->p = p + 4;
          return v | (uint64_t) p[3] << 21;
        }
    }
  struct dsprof_cursor t = *c;
  uint64_t v = dsprof_read_uleb (&t);
  *c = t;
  return v;
}

static inline size_t
read_str (struct dsprof_cursor *c, const char **s)
{
  struct dsprof_cursor t = *c;
  size_t n = dsprof_read_str (&t, s);
  *c = t;
  return n;
}

/* The strings a chunk has defined so far (dsprof-format.h, section 4), which
   its later values may refer to.  Each points into the chunk, as every string
   value read does: a reference never leaves its chunk, so the copy it
   refers to is in the same mapping, and a page released after reading
   (ev_release_pages) comes back from the file.  */
struct strtab
{
  struct dsprof_value *v;
  uint32_t n, size;
};

/* Resolve DV, read at C, against ST: a reference becomes the string it
   refers to (C's ERR set if there is none such yet), a string that defines
   one is added.  */

static void
resolve_str (struct dsprof_cursor *c, struct strtab *st, struct dsprof_value *dv)
{
  if (dv->ref)
    {
      if (dv->u >= st->n)
        {
          c->err = 1;
          return;
        }
      int text = dv->text;
      *dv = st->v[dv->u];
      dv->text = text;
      return;
    }
  if (!dsprof_value_defines (dv))
    return;
  if (st->n == st->size)
    {
      st->size = st->size ? st->size * 2 : 64;
      st->v = XRESIZEVEC (struct dsprof_value, st->v, st->size);
    }
  st->v[st->n++] = *dv;
}

static int read_value (struct dsprof_cursor *c, struct strtab *st, int type,
                       const struct ev_dim_desc *desc, struct ev_value *v);

/* read_value on a copy of C.  */

static inline int
read_value_copy (struct dsprof_cursor *c, struct strtab *st, int type,
                 const struct ev_dim_desc *desc, struct ev_value *v)
{
  struct dsprof_cursor t = *c;
  int rc = read_value (&t, st, type, desc, v);
  *c = t;
  return rc;
}

/* Read a value of TYPE at C, its strings resolved against ST.  */

static int
read_value (struct dsprof_cursor *c, struct strtab *st, int type,
            const struct ev_dim_desc *desc, struct ev_value *v)
{
  struct dsprof_value dv;
  int rc = dsprof_read_value (c, type, &dv);
  if (!rc && (type == DSPROF_DIM_STR || dv.text))
    {
      resolve_str (c, st, &dv);
      rc = c->err ? -1 : 0;
    }
  v->type = type;
  v->desc = desc;
  /* Every field: the codec's are 0 where they do not apply.  */
  if (type == DSPROF_DIM_STR || dv.text)
    v->s = dv.s;
  else
    v->u = dv.u;
  v->len = dv.len;
  v->truncated = dv.truncated;
  v->text = dv.text;
  return rc;
}

/* read_value, with the numbers (most parameters and results) read inline.  */

static inline __attribute__ ((always_inline)) int
read_value_fast (struct dsprof_cursor *c, struct strtab *st, int type,
                 const struct ev_dim_desc *desc, struct ev_value *v)
{
  if (type != DSPROF_DIM_INT && type != DSPROF_DIM_UINT
      && type != DSPROF_DIM_BOOL && type != DSPROF_DIM_ENUM)
    return read_value_copy (c, st, type, desc, v);
  uint64_t z = read_uleb (c);
  /* Every field, as read_value sets them.  */
  v->type = type;
  v->desc = desc;
  v->u = type == DSPROF_DIM_INT ? (uint64_t) dsprof_unzigzag (z) : z;
  v->len = 0;
  v->truncated = false;
  v->text = false;
  return c->err ? -1 : 0;
}

/* ---- records ------------------------------------------------------------------- */

/* An open record: R, whose dimensions so far (Start's, then the added ones)
   are its DIMS, NDIMS (a record's children see their open parent's), with
   room for DIMS_CAP; and what the decoder keeps until it completes.  */
struct open_rec
{
  struct ev_record *r;
  uint32_t added;                /* dims added by DIM events */
  bool in_place;                 /* an event site's record with no name clash
                                    and no added dimension (in_place) */
  struct ev_record **children;
  uint32_t nchildren, children_size;
  uint32_t ndirect;              /* direct descendants, kept or not */
};

struct decoder
{
  const struct ev_stream *s;
  const struct ev_sites *sites;
  const struct ev_clock *clock;
  ev_event_fn on_event;
  ev_record_fn on_record;
  void *arg;
  bool keep_children;            /* EV_KEEP_CHILDREN */
  bool sample_events;            /* EV_SAMPLES */
  struct ev_stream_samples samples;  /* the stream's so far */
  struct open_rec *stack;
  uint32_t depth, stack_size;
  struct name_slot *names;       /* name ids of the current chunk: a map */
  uint32_t names_cap, nnames;    /* cap: 0 or a power of two, over 2 nnames */
  uint32_t gen;                  /* the current chunk's slots have this gen */
  struct strtab strs;            /* the current chunk's strings */
  uint64_t last_ns;              /* of the stream's latest event */
  uint64_t setup_ns;             /* the current chunk's setup, until its first
                                    event places it (take_setup) */
  struct ev_stream_clock time;   /* the stream's ticks to ns */
  struct ev_record *pool;        /* finished records for reuse, by parent */
  struct ev_value thread;        /* the stream's thread as a dimension value */
  struct ev_raw raw;             /* the bytes of the event being delivered */
  uint64_t op_base;              /* the dispatch of the chunk's latest OP or
                                    NEXT (0: none yet), a CASE op's */
  /* An op record ended by the first event of a chunk (OP_END): the
     recorder ends the frame's op record there and starts the next with an
     OP at the chunk's setup (dsprof-format.h, section 4), so an OP right
     after it, of the same dispatch function at the same depth, continues
     the same call: its op_prev are SPLIT_PREV (the ended record's site and
     op_prev).  */
  const unsigned char *body;     /* the current chunk's first event */
  const unsigned char *split_end;/* where such an OP_END ends, or NULL */
  uint32_t split_depth;
  const struct ev_site *split_prev[3];
};

/* Append NAME = V to the dimensions of the open record R.  */

static inline void
dims_append (struct ev_record *r, const char *name, const struct ev_value *v)
{
  if (r->ndims == r->dims_cap)
    {
      r->dims_cap = r->dims_cap ? 2 * r->dims_cap : 8;
      r->dims = XRESIZEVEC (struct ev_dim, r->dims, r->dims_cap);
    }
  r->dims[r->ndims].name = name;
  r->dims[r->ndims].v = *v;
  r->ndims++;
}

/* Add a dimension to the open record O, which shows it at once (a record's
   children see their open parent's dimensions so far), unless it has one
   of that name.  */

static void
push_open (struct open_rec *o, const char *name, const struct ev_value *v)
{
  const struct ev_record *r = o->r;
  for (uint32_t i = 0; i < r->ndims; i++)
    if (r->dims[i].name == name
        || (r->dims[i].name[0] == name[0] && strcmp (r->dims[i].name, name) == 0))
      return;                    /* the first value wins */
  dims_append (o->r, name, v);
}

/* Add a dimension known to be new to O.  */

static inline void
push_new (struct open_rec *o, const char *name, const struct ev_value *v)
{
  dims_append (o->r, name, v);
}

/* Name ids are global to the process and may be large, while a chunk defines
   few: the names of the current chunk are an open-addressing map, whose slots
   of an earlier chunk (another gen) count as empty, so forgetting a chunk's
   names costs nothing and memory follows the names defined, not their ids.  */
struct name_slot
{
  uint32_t id, gen;
  const char *s;
};

static const char *
name_get (const struct decoder *d, uint64_t id)
{
  if (!d->names_cap || id > UINT32_MAX)
    return NULL;
  for (uint32_t i = ((uint32_t) id * 2654435761u) & (d->names_cap - 1);;
       i = (i + 1) & (d->names_cap - 1))
    {
      const struct name_slot *sl = &d->names[i];
      if (sl->gen != d->gen)
        return NULL;
      if (sl->id == id)
        return sl->s;
    }
}

static void
name_put (struct decoder *d, uint32_t id, const char *s)
{
  if (2 * (d->nnames + 1) > d->names_cap)
    {
      struct name_slot *old = d->names;
      uint32_t old_cap = d->names_cap;
      d->names_cap = old_cap ? 2 * old_cap : 64;
      d->names = XCNEWVEC (struct name_slot, d->names_cap);   /* gen 0: empty */
      d->nnames = 0;
      for (uint32_t i = 0; i < old_cap; i++)
        if (old[i].gen == d->gen)
          name_put (d, old[i].id, old[i].s);
      free (old);
    }
  uint32_t i = (id * 2654435761u) & (d->names_cap - 1);
  while (d->names[i].gen == d->gen && d->names[i].id != id)
    i = (i + 1) & (d->names_cap - 1);
  if (d->names[i].gen != d->gen)
    d->nnames++;
  d->names[i] = (struct name_slot) { id, d->gen, s };
}

/* Names defined in event streams (event types of manual events, names of added
   dimensions), one copy of each text for the life of the program: records use
   them after the chunk that defined them, consumers may key on their address
   (agg's cache), and decoding a stream again (the shell) adds nothing.  */
static htab_t name_table;

struct name_key
{
  const char *s;
  size_t n;
};

static hashval_t
hash_bytes (const char *s, size_t n)
{
  return (hashval_t) dsprof_meta_hash (s, n);
}

static hashval_t
name_hash (const void *p)
{
  return hash_bytes (p, strlen (p));
}

static int
name_eq (const void *entry, const void *key)
{
  const struct name_key *k = key;
  return strncmp (entry, k->s, k->n) == 0 && ((const char *) entry)[k->n] == '\0';
}

static const char *
intern_name (const char *s, size_t n)
{
  if (!name_table)
    name_table = htab_create_alloc (64, name_hash, name_eq, free, xcalloc, free);
  struct name_key k = { s, strnlen (s, n) };
  void **slot = htab_find_slot_with_hash (name_table, &k, hash_bytes (s, k.n),
                                          INSERT);
  if (!*slot)
    *slot = xstrndup (s, k.n);
  return *slot;
}

/* Records are reused: a decoded stream of millions of records allocates about
   as many as its tree is deep.  A reused record keeps its arrays (dims,
   children and their capacities), its thread (the stream's, set when it
   is made) and nchildren (0 again once it completes); push_record sets
   every other field.  */

static inline struct ev_record *
new_record (struct decoder *d)
{
  struct ev_record *r = d->pool;
  if (!r)
    {
      r = XCNEW (struct ev_record);
      r->thread = (uint32_t) d->thread.u;   /* the stream's, as the pool's */
      return r;
    }
  d->pool = r->parent;
  return r;
}

static void
release_record (struct decoder *d, struct ev_record *r)
{
  r->parent = d->pool;
  d->pool = r;
}

static void
free_record (struct ev_record *r)
{
  free (r->dims);
  free (r->children);
  free (r);
}

static struct ev_value
str_value (const char *s)
{
  struct ev_value v;
  memset (&v, 0, sizeof v);
  v.type = DSPROF_DIM_STR;
  v.s = s;
  v.len = (uint32_t) strlen (s);
  return v;
}

/* Open a record of TYPE (of SITE, or NULL for a manual event) at NS: one from
   the pool on top of the stack, with no dimension yet.  */

static inline struct open_rec *
push_record (struct decoder *d, const char *type, const struct ev_site *site,
             uint64_t ns)
{
  if (d->depth == d->stack_size)
    {
      d->stack_size = d->stack_size ? 2 * d->stack_size : 64;
      d->stack = XRESIZEVEC (struct open_rec, d->stack, d->stack_size);
    }
  struct open_rec *o = &d->stack[d->depth];
  struct ev_record *r = new_record (d);
  o->r = r;
  o->added = 0;
  o->in_place = site && !site->clash;
  o->children = r->children;
  o->nchildren = 0;
  o->children_size = r->children_cap;
  o->ndirect = 0;
  r->start_ns = ns;
  r->end_ns = 0;
  r->depth = d->depth;
  r->type = type;
  r->site = site;
  r->complete = false;
  r->setup_ns = 0;
  r->sampled = (struct ev_samples) { 0, 0 };
  r->ndims = 0;
  r->parent = d->depth ? d->stack[d->depth - 1].r : NULL;
  r->seq = 0;
  r->user = NULL;
  r->outer_dim = NULL;
  d->depth++;
  return o;
}

/* Open a record of SITE at NS with its intrinsic dimensions and thread, and
   room for its parameters, result and complete.  */

static inline __attribute__ ((always_inline)) struct open_rec *
open_site_record (struct decoder *d, const struct ev_site *site, uint64_t ns)
{
  struct open_rec *o = push_record (d, site->type, site, ns);
  struct ev_record *r = o->r;
  uint32_t n = site->nintrinsic;
  uint32_t need = n + 3 + site->ndims;   /* intrinsics, thread, params, result,
                                            complete */
  if (r->dims_cap < need)
    {
      r->dims_cap = need;
      r->dims = XRESIZEVEC (struct ev_dim, r->dims, need);
    }
  /* A record reused for the same site holds them already (the records of a
     loop's iterations come back from the pool in the same order).  */
  if (r->dims_site != site)
    {
      memcpy (r->dims, site->intrinsic, n * sizeof *r->dims);
      /* Copied from the decoder rather than built here: a value built field
         by field and then copied whole is read before its stores have
         landed (a stall on every record).  */
      r->dims[n].name = "thread";
      r->dims[n].v = d->thread;
      r->dims_site = site;
    }
  r->ndims = n + 1;
  return o;
}

/* Open a manual event's record of TYPE at NS.  */

static void
open_manual_record (struct decoder *d, const char *type, uint64_t ns)
{
  struct open_rec *o = push_record (d, type, NULL, ns);
  o->r->dims_site = NULL;
  struct ev_value v = str_value (type);
  push_new (o, "event", &v);
  push_new (o, "name", &v);
  push_new (o, "thread", &d->thread);
}

/* Whether the open record O takes its result and complete dimensions with no
   check: an event site's with no name clash and no added dimension, for which
   open_site_record made room.  */

static inline bool
in_place (const struct open_rec *o)
{
  return o->in_place;
}

static const struct ev_value v_true = { .type = DSPROF_DIM_BOOL, .u = 1 };
static const struct ev_value v_false = { .type = DSPROF_DIM_BOOL, .u = 0 };

/* Give the record of O, closing, its result RESULT (may be NULL; it may lie
   in the record's next free dimension when in_place) and its complete
   dimension CV.  Return where its result now lies (NULL: none).  */

static inline const struct ev_value *
close_dims (struct open_rec *o, const struct ev_value *result,
            const struct ev_value *cv)
{
  if (in_place (o))
    {
      struct ev_record *r = o->r;
      struct ev_dim *dv = r->dims + r->ndims;
      if (result)
        {
          dv->name = "result";
          if (result != &dv->v)
            dv->v = *result;
          result = &dv->v;
          dv++;
        }
      dv->name = "complete";
      dv->v = *cv;
      r->ndims += 1 + (result != NULL);
      return result;
    }
  if (result)
    push_open (o, "result", result);
  push_open (o, "complete", cv);
  /* push_open keeps the first value of a name: the result shown is the
     record's own "result" dimension, as it was before.  */
  return result;
}

/* The end event of record R (complete or not) at NS, with its result
   RESULT (NULL: none) or else its complete dimension CV, for D's on_event.  */

static __attribute__ ((noinline)) int
end_event (struct decoder *d, const struct ev_record *r, uint64_t ns,
           const struct ev_value *result, const struct ev_value *cv)
{
  struct ev_event e = { r->complete ? EV_FINISH : EV_ABANDON, ns,
                        (uint32_t) d->thread.u, r->type, result ? 1 : 0, NULL,
                        d->raw };
  struct ev_dim rd = { "result", result ? *result : *cv };
  e.dims = &rd;
  return d->on_event (&e, d->arg);
}

/* Keep the record R, just closed, among the children of its parent, the
   innermost open record of D (EV_KEEP_CHILDREN).  */

static __attribute__ ((noinline)) void
keep_child (struct decoder *d, struct ev_record *r)
{
  struct open_rec *p = &d->stack[d->depth - 1];
  p->ndirect++;
  if (p->nchildren == p->children_size)
    {
      p->children_size = p->children_size ? 2 * p->children_size : 8;
      p->children = XRESIZEVEC (struct ev_record *, p->children,
                                p->children_size);
    }
  p->children[p->nchildren++] = r;
}

/* Close the innermost record at NS; RESULT (may be NULL) is its result, which
   may lie in the record's next free dimension when in_place; EVENTS: D has
   an on_event; KEEP: D keeps children.  Inline where a record of millions ends (EXIT); close_record
   elsewhere.  */

static inline __attribute__ ((always_inline)) int
close_record_inline (struct decoder *d, uint64_t ns, bool complete,
                     const struct ev_value *result, const bool events,
                     const bool keep)
{
  struct open_rec *o = &d->stack[--d->depth];
  struct ev_record *r = o->r;
  r->end_ns = ns < r->start_ns ? r->start_ns : ns;
  r->complete = complete;
  const struct ev_value *cv = complete ? &v_true : &v_false;
  result = close_dims (o, result, cv);
  r->nchildren = o->ndirect;
  r->children_cap = o->children_size;
  r->nadded = o->added;
  r->children = keep ? o->children : NULL;

  int rc = 0;
  if (events)
    rc = end_event (d, r, ns, result, cv);
  if (!rc && d->on_record)
    rc = d->on_record (r, d->arg);

  /* Children are kept (listed in O) only with KEEP.  */
  for (uint32_t i = 0; keep && i < o->nchildren; i++)
    release_record (d, o->children[i]);
  r->children = o->children;
  r->nchildren = 0;
  if (d->depth && keep)
    keep_child (d, r);
  else
    {
      if (d->depth)
        d->stack[d->depth - 1].ndirect++;
      release_record (d, r);
    }
  return rc;
}

static __attribute__ ((noinline)) int
close_record (struct decoder *d, uint64_t ns, bool complete,
              const struct ev_value *result)
{
  return close_record_inline (d, ns, complete, result, d->on_event != NULL,
                              d->keep_children);
}

static int
start_event (struct decoder *d, uint64_t ns)
{
  if (!d->on_event)
    return 0;
  struct open_rec *o = &d->stack[d->depth - 1];
  struct ev_event e = { EV_START, ns, d->s->thread, o->r->type, o->r->ndims,
                        o->r->dims, d->raw };
  return d->on_event (&e, d->arg);
}

/* Note the bytes of the event OP at OP_AT for its callback: the NAME ops from
   NAMES to OP_AT before it, its ID, its payload from PAYLOAD to END.  */

static inline void
set_raw (struct decoder *d, int op, uint64_t id, const unsigned char *names,
         const unsigned char *op_at, const unsigned char *payload,
         const unsigned char *end)
{
  d->raw.op = (uint32_t) op;
  d->raw.id = (uint32_t) id;
  d->raw.names = names;
  d->raw.names_size = (size_t) (op_at - names);
  d->raw.payload = payload;
  d->raw.payload_size = (size_t) (end - payload);
}

/* Whether the innermost open record of D is an op record, which NEXT, CASE
   and OP_END end.  */

static inline bool
innermost_op (const struct decoder *d)
{
  return d->depth && ev_record_op_p (d->stack[d->depth - 1].r);
}

/* The chunk's setup lies inside the records open both before and after its
   first event OP (dsprof-format.h, section 4): give it to the innermost of
   them, if any.  (An op record's boundary at a new chunk is its OP_END and
   then an OP: the setup lies between them, in the records around.)  */

static __attribute__ ((noinline)) void
take_setup (struct decoder *d, int op)
{
  uint32_t k = op == DSPROF_OP_ENTER || op == DSPROF_OP_START
               || op == DSPROF_OP_OP ? d->depth - 1 : d->depth;
  if (k > 0 && k <= d->depth)
    d->stack[k - 1].r->setup_ns += d->setup_ns;
  d->setup_ns = 0;
}

static void
chunk_begin (struct decoder *d, const struct dsprof_events_chunk *ch)
{
  /* Forget the previous chunk's names (gen 0 marks never-used slots).  */
  if (++d->gen == 0)
    {
      if (d->names_cap)
        memset (d->names, 0, d->names_cap * sizeof *d->names);
      d->gen = 1;
    }
  d->nnames = 0;
  d->strs.n = 0;
  d->op_base = 0;
  d->split_end = NULL;
  d->body = (const unsigned char *) (ch + 1);
  struct dsprof_events_costs costs;
  d->setup_ns = costs_trailer (ch, &costs)
                ? costs_ps (&costs, costs.setup_ticks, d->time.ns_per_tick) / 1000
                : 0;
}

/* The event being decoded: its NAME ops from NAMES (the end of the event
   before), its op OP at OP_AT, its time NS.  */
struct ev_at
{
  const unsigned char *names, *op_at;
  int op;
  uint64_t ns;
};

/* Each op's decoding below reads its bytes at C, past its op and time, and
   returns false for a corrupt event, else true with *RC set to the callback's
   value.  The ops of millions are inline in decode_span, so that its cursor
   stays in registers; the others get a copy of it (cold).  */

/* NAME: ID = TEXT for the events of the rest of the chunk.  */

static __attribute__ ((noinline)) bool
dec_name (struct decoder *d, struct dsprof_cursor *c)
{
  uint64_t id = read_uleb (c);
  const char *s;
  size_t n = read_str (c, &s);
  if (c->err || id > (1u << 24))
    return false;
  /* Names are used as C strings: a NUL-terminated copy, interned.  */
  name_put (d, (uint32_t) id, intern_name (s, n));
  return true;
}

/* Read the parameters of SITE at C into the record O just opened.  */

static inline __attribute__ ((always_inline)) bool
read_params (struct decoder *d, struct dsprof_cursor *c,
             const struct ev_site *site, struct open_rec *o)
{
  uint32_t n = site->ndims;
  const struct ev_dim_desc *desc = site->dims;
  if (!site->clash)
    {
      /* Straight into the dims (open_site_record made room).  */
      struct ev_dim *dv = o->r->dims + o->r->ndims;
      for (uint32_t i = 0; i < n; i++)
        {
          dv[i].name = desc[i].name;
          if (read_value_fast (c, &d->strs, desc[i].type, &desc[i], &dv[i].v))
            return false;
        }
      o->r->ndims += n;
      return true;
    }
  for (uint32_t i = 0; i < n; i++)
    {
      struct ev_value v;
      if (read_value_copy (c, &d->strs, desc[i].type, &desc[i], &v))
        return false;
      push_open (o, desc[i].name, &v);
    }
  return true;
}

/* ENTER: an event site's record starts, with its parameters.  */

static inline __attribute__ ((always_inline)) bool
dec_enter (struct decoder *d, struct dsprof_cursor *c, const struct ev_at *e,
           int *rc, const bool events)
{
  uint64_t id = read_uleb (c);
  const struct ev_site *site
    = id < d->sites->size ? d->sites->by_id[id] : NULL;
  if (c->err || !site)
    return false;
  const unsigned char *vals = c->p;
  struct open_rec *o = open_site_record (d, site, e->ns);
  if (!read_params (d, c, site, o))
    return false;
  if (events)
    {
      set_raw (d, e->op, id, e->names, e->op_at, vals, c->p);
      *rc = start_event (d, e->ns);
    }
  return true;
}

/* START: a manual event's record starts.  */

static inline __attribute__ ((always_inline)) bool
dec_start (struct decoder *d, struct dsprof_cursor *c, const struct ev_at *e,
           int *rc, const bool events)
{
  uint64_t id = read_uleb (c);
  const char *name = name_get (d, id);
  if (c->err || !name)
    return false;
  open_manual_record (d, name, e->ns);
  if (events)
    {
      set_raw (d, e->op, id, e->names, e->op_at, c->p, c->p);
      *rc = start_event (d, e->ns);
    }
  return true;
}

/* EXIT: an event site's record ends, with its result.  */

static inline __attribute__ ((always_inline)) bool
dec_exit (struct decoder *d, struct dsprof_cursor *c, const struct ev_at *e,
          int *rc, const bool events, const bool keep)
{
  if (!d->depth)
    return false;
  struct open_rec *o = &d->stack[d->depth - 1];
  const struct ev_site *site = o->r->site;
  if (!site)
    return false;
  struct ev_value v, *res = NULL;
  const unsigned char *vals = c->p;
  if (site->result.type != DSPROF_DIM_NONE)
    {
      /* Read where close_record puts it if it can (in_place).  */
      res = in_place (o) ? &o->r->dims[o->r->ndims].v : &v;
      if (read_value_fast (c, &d->strs, site->result.type, &site->result, res))
        return false;
    }
  if (events)
    set_raw (d, e->op, 0, e->names, e->op_at, vals, c->p);
  *rc = close_record_inline (d, e->ns, true, res, events, keep);
  return true;
}

/* FINISH, OP_END, ABANDON: a manual event's record ends; an op record's (its
   VM function returns); the innermost record is abandoned (repair).  */

static inline __attribute__ ((always_inline)) bool
dec_end (struct decoder *d, const struct dsprof_cursor *c, const struct ev_at *e,
         int *rc, const bool events)
{
  if (e->op == DSPROF_OP_FINISH ? !d->depth || d->stack[d->depth - 1].r->site
      : e->op == DSPROF_OP_OP_END ? !innermost_op (d)
      : !d->depth)
    return false;
  if (e->op == DSPROF_OP_OP_END && e->names == d->body)
    {
      /* The chunk's first event: a split call (decoder's split_end).  */
      const struct ev_record *ending = d->stack[d->depth - 1].r;
      d->split_end = c->p;
      d->split_depth = d->depth - 1;
      d->split_prev[0] = ending->site;
      d->split_prev[1] = ending->op_prev[0];
      d->split_prev[2] = ending->op_prev[1];
    }
  if (events)
    set_raw (d, e->op, 0, e->names, e->op_at, c->p, c->p);
  *rc = close_record (d, e->ns, e->op != DSPROF_OP_ABANDON, NULL);
  return true;
}

/* DIM: a dimension added to the innermost record.  */

static __attribute__ ((noinline)) bool
dec_dim (struct decoder *d, struct dsprof_cursor *c, const struct ev_at *e,
         int *rc)
{
  uint64_t id = read_uleb (c);
  const char *name = name_get (d, id);
  const unsigned char *vals = c->p;
  int type = (int) read_uleb (c);
  struct ev_value v;
  if (c->err || !name || !d->depth
      || type <= DSPROF_DIM_NONE || type > DSPROF_DIM_PTR
      || read_value (c, &d->strs, type, NULL, &v))
    return false;
  struct open_rec *o = &d->stack[d->depth - 1];
  push_open (o, name, &v);
  o->added++;
  o->in_place = false;
  if (d->on_event)
    {
      struct ev_dim dim = { name, v };
      set_raw (d, e->op, id, e->names, e->op_at, vals, c->p);
      struct ev_event ev = { EV_DIM, e->ns, (uint32_t) d->thread.u, o->r->type,
                             1, &dim, d->raw };
      *rc = d->on_event (&ev, d->arg);
    }
  return true;
}

/* The rare ops, NAME and DIM, out of line (dec_name, dec_dim), given
   copies of C, E and RC: what an out-of-line call is given the address of
   leaves the registers, and C is the decoding loop's cursor.  */

static inline __attribute__ ((always_inline)) bool
dec_cold (struct decoder *d, struct dsprof_cursor *c, const struct ev_at *e,
          int *rc)
{
  struct dsprof_cursor t = *c;
  struct ev_at et = *e;
  int rt = 0;
  bool ok = e->op == DSPROF_OP_NAME ? dec_name (d, &t) : dec_dim (d, &t, &et, &rt);
  *c = t;
  *rc = rt;
  return ok;
}

/* OP, NEXT, CASE + K: an op record starts (section 4), after the one it
   ends for NEXT and CASE + K.  */

static inline __attribute__ ((always_inline)) bool
dec_op (struct decoder *d, struct dsprof_cursor *c, const struct ev_at *e,
        int *rc, const bool events)
{
  int op = e->op;
  if (op < DSPROF_OP_OP || (op > DSPROF_OP_NEXT && op < DSPROF_OP_CASE))
    return false;
  const unsigned char *payload = c->p;
  uint64_t base = op >= DSPROF_OP_CASE ? d->op_base : read_uleb (c);
  uint64_t k = op >= DSPROF_OP_CASE ? (uint64_t) (op - DSPROF_OP_CASE)
                                    : read_uleb (c);
  uint64_t id = base + k;
  const struct ev_site *site
    = !c->err && base && k < d->sites->size && id < d->sites->size
        ? d->sites->by_id[id] : NULL;
  if (!site || !site->function || (op != DSPROF_OP_OP && !innermost_op (d)))
    return false;
  /* The op records before it in its call: the one a NEXT ends and those
     before that one; none after an OP but one continuing a split call.  */
  const struct ev_site *prev[3] = { NULL, NULL, NULL };
  if (op == DSPROF_OP_OP && e->names == d->split_end
      && d->depth == d->split_depth
      && (site->function == d->split_prev[0]->function
          || !strcmp (site->function, d->split_prev[0]->function)))
    memcpy (prev, d->split_prev, sizeof prev);
  else if (op != DSPROF_OP_OP)
    {
      const struct ev_record *ending = d->stack[d->depth - 1].r;
      prev[0] = ending->site;
      prev[1] = ending->op_prev[0];
      prev[2] = ending->op_prev[1];
      /* The record ending has no event of its own in the stream (raw op
         0): a writer of the stream writes the one that starts the next.  */
      d->raw.op = d->raw.id = 0;
      d->raw.names_size = d->raw.payload_size = 0;
      if ((*rc = close_record (d, e->ns, true, NULL)))
        return true;
    }
  d->op_base = base;
  memcpy (open_site_record (d, site, e->ns)->r->op_prev, prev, sizeof prev);
  if (events)
    {
      const unsigned char *after_id = payload;
      if (op < DSPROF_OP_CASE)
        {
          struct dsprof_cursor b = { payload, c->end, 0 };
          read_uleb (&b);
          after_id = b.p;
        }
      set_raw (d, op, op < DSPROF_OP_CASE ? base : 0, e->names, e->op_at,
               after_id, c->p);
      *rc = start_event (d, e->ns);
    }
  return true;
}

/* SAMPLE: CPU-time samples, charged to the innermost open record (section
   4).  Sums that overflow are a corrupt stream.  */

static __attribute__ ((noinline)) bool
dec_sample (struct decoder *d, struct dsprof_cursor *c, const struct ev_at *e,
            int *rc)
{
  const unsigned char *payload = c->p;
  struct ev_samples prog, rec;
  prog.n = read_uleb (c);
  prog.ns = read_uleb (c);
  rec.n = read_uleb (c);
  rec.ns = read_uleb (c);
  if (c->err)
    return false;
  struct ev_stream_samples *t = &d->samples;
  struct ev_samples *own = d->depth ? &d->stack[d->depth - 1].r->sampled
                                    : &t->outside;
  struct ev_samples *to[3] = { &t->program, own, &t->recorder };
  const struct ev_samples *from[3] = { &prog, &prog, &rec };
  for (int i = 0; i < 3; i++)
    if (!ev_samples_add (to[i], from[i]))
      return false;
  t->seen = true;
  if (d->sample_events && d->on_event)
    {
      set_raw (d, DSPROF_OP_SAMPLE, 0, e->names, e->op_at, payload, c->p);
      struct ev_event ev = { EV_SAMPLE, e->ns, d->s->thread, NULL, 0, NULL,
                             d->raw };
      *rc = d->on_event (&ev, d->arg);
    }
  return true;
}

/* decode_span, EVENTS and KEEP saying whether D has an on_event and keeps
   children: the loop of every event read, made twice (decode_span), so that
   a report's, which sees records only, has no test or note of an event's
   bytes nor of children to keep.  The ops' decoding
   above is inline in it (dec_enter, dec_exit, dec_op, dec_start, dec_end),
   the rare ones out of line.  */

static inline __attribute__ ((always_inline)) int
decode_events (struct decoder *d, const struct dsprof_events_chunk *ch,
               uint64_t from, uint64_t stop, uint64_t *tickp, uint64_t *atp,
               const char **err, const bool events, const bool keep)
{
  const unsigned char *base = (const unsigned char *) (ch + 1);
  struct dsprof_cursor c = { base + from, base + ch->used, 0 };
  const unsigned char *stop_at = base + (stop < ch->used ? stop : ch->used);
  /* One mapping of ticks to ns for the whole stream (ev_stream_clock).  */
  const struct ev_stream_clock time = d->time;
  uint64_t tick = *tickp;
  int rc = 0;
  bool ok = true;
  /* The end of the previous event: the NAME ops of the next start there.  */
  const unsigned char *prev_end = c.p;

  while (c.p < stop_at && !rc)
    {
      struct ev_at e = { prev_end, c.p, *c.p, 0 };
      c.p++;
      if (e.op == DSPROF_OP_NAME)
        {
          if (!(ok = dec_cold (d, &c, &e, &rc)))
            break;
          continue;
        }
      tick += read_uleb (&c);
      if (c.err)
        {
          ok = false;
          break;
        }
      /* Ticks before the anchor (a clock read on another CPU that was behind,
         written as a delta that wraps around) count back from it.  */
      uint64_t ns = ev_tick_ns (&time, tick);
      /* A thread's times never go back: a tick behind the previous one (read
         on another CPU) is taken as the same instant.  */
      e.ns = d->last_ns = ns < d->last_ns ? d->last_ns : ns;
      switch (e.op)
        {
        case DSPROF_OP_ENTER:
          ok = dec_enter (d, &c, &e, &rc, events);
          break;
        case DSPROF_OP_EXIT:
          ok = dec_exit (d, &c, &e, &rc, events, keep);
          break;
        case DSPROF_OP_START:
          ok = dec_start (d, &c, &e, &rc, events);
          break;
        case DSPROF_OP_FINISH:
        case DSPROF_OP_OP_END:
        case DSPROF_OP_ABANDON:
          ok = dec_end (d, &c, &e, &rc, events);
          break;
        case DSPROF_OP_DIM:
          ok = dec_cold (d, &c, &e, &rc);
          break;
        case DSPROF_OP_SAMPLE:
          ok = dec_sample (d, &c, &e, &rc);
          break;
        default:
          ok = dec_op (d, &c, &e, &rc, events);
          break;
        }
      if (!ok)
        break;
      if (__builtin_expect (d->setup_ns != 0, 0))
        take_setup (d, e.op);
      prev_end = c.p;
    }
  if (!ok)
    {
      *err = "corrupt event stream";
      return -1;
    }
  *tickp = tick;
  *atp = (uint64_t) (prev_end - base);
  return rc;
}

/* Decode the events of chunk CH from byte FROM of its body on, the chunk
   begun (chunk_begin) and *TICKP the tick of the event before FROM, until
   its end or the first event boundary at or past byte STOP.  Leave in *TICKP
   the tick and in *ATP the offset where decoding stopped.  */

static int
decode_span (struct decoder *d, const struct dsprof_events_chunk *ch,
             uint64_t from, uint64_t stop, uint64_t *tickp, uint64_t *atp,
             const char **err)
{
  if (!d->on_event && !d->keep_children)
    return decode_events (d, ch, from, stop, tickp, atp, err, false, false);
  return decode_events (d, ch, from, stop, tickp, atp, err, d->on_event != NULL,
                        d->keep_children);
}

static int
decode_chunk (struct decoder *d, const struct dsprof_events_chunk *ch,
              const char **err)
{
  uint64_t tick = ch->base_ticks, at;
  chunk_begin (d, ch);
  return decode_span (d, ch, 0, UINT64_MAX, &tick, &at, err);
}

/* Set D's mapping of the ticks of stream S to ns since the process started.
   Ticks run on from chunk to chunk (a chunk's base_ticks is the tick of its
   first event), so one linear mapping serves the whole stream, at the
   process's rate.  Mapping each chunk by its own clock pair made a thread's
   times jump at chunk boundaries, backwards as well as forwards (by
   milliseconds on a loaded machine): the recorder reads a chunk's ns after
   its ticks and after setting the chunk up, so a pair is late by that time,
   and by any preemption in between - never early.  The pair read least late
   is therefore the best: the mapping goes through the pair that puts the
   stream earliest.  */

void
ev_stream_clock (const struct ev_stream *s, const struct ev_clock *clock,
                 struct ev_stream_clock *m)
{
  memset (m, 0, sizeof *m);
  m->ns_per_tick = clock->ns_per_tick;
  if (!s->nchunks)
    return;
  m->anchor_ticks = s->chunks[0]->base_ticks;
  m->origin = (double) s->chunks[0]->base_ns - (double) clock->start_mono_ns;
  for (uint32_t k = 1; k < s->nchunks; k++)
    {
      const struct dsprof_events_chunk *ch = s->chunks[k];
      double o = (double) ch->base_ns - (double) clock->start_mono_ns
                 - (double) (int64_t) (ch->base_ticks - m->anchor_ticks)
                   * clock->ns_per_tick;
      if (o < m->origin)
        m->origin = o;
      /* Reading a header maps the folio around it, maybe the whole chunk.  */
      ev_release_chunk (s, ch);
    }
}

/* A mapped file's pages count in the process's memory for as long as they stay
   mapped, so a walk would end up holding the whole stream; the mapping is
   read-only and private, so a page read again (a string of a record still
   open, a second pass) comes back from the file.  A read maps the whole folio
   of the page cache around it, up to a page table's span (2 MB with 4 KB
   pages) and from before the byte read: so the span before LO goes too, or
   reading the next chunk's header would map back half of each chunk.  */

void
ev_release_pages (const unsigned char *map, const unsigned char *lo,
                  const unsigned char *hi)
{
  static uintptr_t page, span;
  if (!page)
    {
      page = (uintptr_t) sysconf (_SC_PAGESIZE);
      span = page / 8 * page;
    }
  uintptr_t a = (uintptr_t) lo - (uintptr_t) map > span ? (uintptr_t) lo - span
                                                        : (uintptr_t) map;
  a = (a + page - 1) & ~(page - 1);
  uintptr_t b = (uintptr_t) hi & ~(page - 1);
  if (b > a)
    madvise ((void *) a, b - a, MADV_DONTNEED);
}

void
ev_release_chunk (const struct ev_stream *s, const struct dsprof_events_chunk *ch)
{
  if (s->map)
    ev_release_pages (s->map, (const unsigned char *) ch,
                      (const unsigned char *) ch + ch->chunk.size);
}

static int decoder_end (struct decoder *d, int rc);

int
ev_decode_stream (const struct ev_stream *s, const struct ev_sites *sites,
                  const struct ev_clock *clock, ev_event_fn on_event,
                  ev_record_fn on_record, void *arg, unsigned flags,
                  const char **err)
{
  struct decoder d;
  memset (&d, 0, sizeof d);
  d.s = s;
  d.sites = sites;
  d.clock = clock;
  d.on_event = on_event;
  d.on_record = on_record;
  d.arg = arg;
  d.keep_children = flags & EV_KEEP_CHILDREN;
  d.sample_events = flags & EV_SAMPLES;
  d.thread.type = DSPROF_DIM_UINT;
  d.thread.u = s->thread;
  ev_stream_clock (s, clock, &d.time);
  int rc = 0;
  for (uint32_t i = 0; i < s->nchunks && !rc; i++)
    {
      d.raw.chunk = i;
      rc = decode_chunk (&d, s->chunks[i], err);
      ev_release_chunk (s, s->chunks[i]);
      progress_add (s->chunks[i]->used);
    }
  if (rc == 0)
    ((struct ev_stream *) s)->samples = d.samples;
  return decoder_end (&d, rc);
}

/* Close the records still open in D (unless RC says the stream is corrupt),
   free D's memory and return RC or a callback's value.  */

static int
decoder_end (struct decoder *d, int rc)
{
  /* Records still open: the thread or process ended inside them (no op in
     the stream).  */
  memset (&d->raw, 0, sizeof d->raw);
  while (d->depth && rc >= 0)
    {
      int r2 = close_record (d, d->last_ns, false, NULL);
      if (!rc)
        rc = r2;
    }
  while (d->depth)
    {
      struct open_rec *o = &d->stack[--d->depth];
      for (uint32_t i = 0; i < o->nchildren; i++)
        free_record (o->children[i]);
      free (o->children);
      free (o->r->dims);
      free (o->r);
    }
  while (d->pool)
    {
      struct ev_record *r = d->pool;
      d->pool = r->parent;
      free_record (r);
    }
  free (d->stack);
  free (d->names);
  free (d->strs.v);
  return rc;
}

const struct ev_value *
ev_record_dim (const struct ev_record *r, const char *name)
{
  for (uint32_t i = 0; i < r->ndims; i++)
    if (r->dims[i].name[0] == name[0] && strcmp (r->dims[i].name, name) == 0)
      return &r->dims[i].v;
  return NULL;
}

const char *
ev_name_of_dims (const struct ev_dim *dims, uint32_t n, const char *type,
                 size_t *len)
{
  for (uint32_t i = 0; i < n; i++)
    if (dims[i].name[0] == 'n' && strcmp (dims[i].name, "name") == 0)
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

const char *
ev_record_name (const struct ev_record *r, size_t *len)
{
  size_t n;
  const char *name = ev_name_of_dims (r->dims, r->ndims, r->type, &n);
  if (len)
    *len = n;
  return name;
}

/* ---- resumable decoding (dsprof top) -------------------------------------------- */

/* A stream decoded in steps: the decoder's state and where it stopped.  */
struct ev_resume
{
  struct decoder d;
  bool clocked;                  /* d.time set, from the chunks first seen */
  bool begun;                    /* chunk CHUNK begun (chunk_begin) */
  uint32_t chunk;
  uint64_t at, tick;             /* in chunk CHUNK: the offset and tick
                                    decoding stopped at */
  char **copies;                 /* strings detached from mappings */
  size_t ncopies;
  struct ev_stream gone;         /* its thread, once the streams fed are */
};

struct ev_resume *
ev_resume_new (uint32_t thread, unsigned flags)
{
  struct ev_resume *res = XCNEW (struct ev_resume);
  res->d.keep_children = flags & EV_KEEP_CHILDREN;
  res->d.thread.type = DSPROF_DIM_UINT;
  res->d.thread.u = thread;
  return res;
}

int
ev_resume_feed (struct ev_resume *res, const struct ev_stream *s,
                const struct ev_sites *sites, const struct ev_clock *clock,
                ev_record_fn on_record, void *arg, uint64_t budget,
                uint64_t *decoded, const char **err)
{
  struct decoder *d = &res->d;
  d->s = s;
  d->sites = sites;
  d->clock = clock;
  d->on_record = on_record;
  d->arg = arg;
  if (!res->clocked && s->nchunks)
    {
      ev_stream_clock (s, clock, &d->time);
      res->clocked = true;
    }
  int rc = 0;
  while (res->chunk < s->nchunks && !rc && *decoded < budget)
    {
      const struct dsprof_events_chunk *ch = s->chunks[res->chunk];
      if (!res->begun)
        {
          chunk_begin (d, ch);
          res->begun = true;
          res->tick = ch->base_ticks;
          res->at = 0;
        }
      d->raw.chunk = res->chunk;
      uint64_t from = res->at;
      uint64_t left = budget - *decoded;
      rc = decode_span (d, ch, from, left > UINT64_MAX - from ? UINT64_MAX
                        : from + left, &res->tick, &res->at, err);
      *decoded += res->at - from;
      /* A chunk is whole once a later one exists.  */
      if (rc || res->at < ch->used || res->chunk + 1 == s->nchunks)
        break;
      ev_release_chunk (s, ch);
      res->chunk++;
      res->begun = false;
    }
  return rc;
}

/* Copy the string of V if it lies in [LO, HI).  */

static void
detach_value (struct ev_resume *res, struct ev_value *v, const char *lo,
              const char *hi)
{
  if ((v->type != DSPROF_DIM_STR && !v->text) || !v->s || v->s < lo
      || v->s >= hi)
    return;
  char *copy = xmemdup (v->s, v->len, (size_t) v->len + 1);
  copy[v->len] = '\0';
  res->copies = XRESIZEVEC (char *, res->copies, res->ncopies + 1);
  res->copies[res->ncopies++] = copy;
  v->s = copy;
}

static void
detach_record (struct ev_resume *res, struct ev_record *r, const char *lo,
               const char *hi)
{
  for (uint32_t i = 0; i < r->ndims; i++)
    detach_value (res, &r->dims[i].v, lo, hi);
  for (uint32_t i = 0; r->children && i < r->nchildren; i++)
    detach_record (res, r->children[i], lo, hi);
}

void
ev_resume_detach (struct ev_resume *res, const unsigned char *lo,
                  const unsigned char *hi)
{
  struct decoder *d = &res->d;
  const char *l = (const char *) lo, *h = (const char *) hi;
  for (uint32_t k = 0; k < d->depth; k++)
    {
      struct open_rec *o = &d->stack[k];
      for (uint32_t i = 0; i < o->r->ndims; i++)
        detach_value (res, &o->r->dims[i].v, l, h);
      for (uint32_t i = 0; i < o->nchildren; i++)
        detach_record (res, o->children[i], l, h);
    }
  for (uint32_t i = 0; i < d->strs.n; i++)
    {
      struct dsprof_value *dv = &d->strs.v[i];
      struct ev_value v = { .type = DSPROF_DIM_STR, .s = dv->s, .len = dv->len };
      detach_value (res, &v, l, h);
      dv->s = v.s;
    }
}

int
ev_resume_end (struct ev_resume *res, ev_record_fn on_record, void *arg)
{
  res->d.on_record = on_record;
  res->d.arg = arg;
  res->gone.thread = (uint32_t) res->d.thread.u;
  res->d.s = &res->gone;
  int rc = decoder_end (&res->d, 0);
  for (size_t i = 0; i < res->ncopies; i++)
    free (res->copies[i]);
  free (res->copies);
  free (res);
  return rc;
}
