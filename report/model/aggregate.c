/* aggregate.c - the dimension report's buckets and times (see aggregate.h).  */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "aggregate.h"
#include "intmap.h"
#include "files.h"
#include "profile.h"
#include "progress.h"

/* Add the entries of FROM, bucket id -> nanoseconds, to INTO and empty FROM;
   the smaller map is merged into the larger, so a record's entries move
   O(log n) times at most.  */

static void
pending_merge (struct intmap *into, struct intmap *from)
{
  if (from->n > into->n)
    {
      struct intmap t = *into;
      *into = *from;
      *from = t;
    }
  for (uint32_t i = 0; i < from->n; i++)
    {
      const struct intmap_entry *e = intmap_at (from, i);
      *intmap_slot (into, e->key) += e->val;
    }
  intmap_clear (from);
}

/* ---- the report state --------------------------------------------------------- */

/* What an open record accumulates from its finished children.  */
struct rec_state
{
  uint64_t child_ns;             /* the children's (deducted) durations */
  struct agg_desc desc;          /* descendant records and their cost */
  struct intmap pending;         /* bucket id -> nanoseconds */
  struct rec_state *next;        /* in the pool */
  struct rec_state *all;         /* every state made, for agg_free: a corrupt
                                    stream ends with open records holding some */
};

/* Recently seen (parent, level, value) -> bucket, keyed by the value's identity
   rather than its text: a string dimension by where its bytes lie (site tables
   and the mapped profile do not move while the report runs), a number by
   itself.  Most records then find their buckets without formatting a value.  */
#define CACHE_SIZE 4096

struct cache_entry
{
  uint64_t key;
  uint64_t tag;                  /* parent << 32 | level << 8 | type << 1
                                    | truncated: never 0 for a value (its
                                    type is not DSPROF_DIM_NONE), so an
                                    empty entry matches nothing */
  uint32_t len, bucket;
};

/* A record's kind, as agg_record_hooks tells its hook calls apart: a manual
   event's, an event site's, an op record's.  */
enum { KIND_MANUAL, KIND_SITE, KIND_OP, NKINDS };

/* R's row in a struct kind_costs: 2 * its kind + whether it is complete; or
   -1 for a record with an added dimension or a chunk setup, whose costs are
   its own.  */

static inline int
kind_row (const struct ev_record *r)
{
  if (__builtin_expect (r->nadded || r->setup_ns, 0))
    return -1;
  int kind = !r->site ? KIND_MANUAL : r->site->function ? KIND_OP : KIND_SITE;
  return 2 * kind + r->complete;
}

/* What agg_share_add and agg_desc_add add for a record that has no added
   dimension and holds no chunk setup, whose costs depend on its kind and
   whether it is complete alone: computed once a stream by those very
   functions (kind_costs_init), so that a record of millions costs a look-up
   instead of the sums of its hook calls' parts.  */
struct kind_costs
{
  double share_ns[2 * NKINDS];   /* agg_share_add's cost_ns, by RUN_COSTS */
  uint64_t desc_ps[2 * NKINDS];  /* agg_desc_add's ps, by COSTS */
};

struct agg
{
  struct cache_entry cache[CACHE_SIZE];
  int ndims;
  const char *const *dims;
  int nfilters;
  const struct agg_filter *filters;
  struct agg_costs costs;        /* deducted, for this stream */
  struct agg_costs run_costs;    /* the same but for --raw, for SHARE */
  struct agg_share share;
  struct kind_costs kinds;       /* of COSTS and RUN_COSTS, for this stream */
  struct ev_dim_hint *hints;     /* where each level's dimension was last found */
  const char **outer;            /* each level's agg_outer_dim, or NULL */
  int nsums;
  const char *const *sums;       /* agg_set_sums's dimensions */
  uint64_t *summed;              /* records that gave each a number */
  htab_t index;                  /* (parent, value) -> bucket */
  struct agg_bucket *buckets;    /* by id; 0 unused */
  uint32_t nbuckets, size;
  uint64_t profiled_ns, records;
  struct rec_state *pool;        /* states of finished records, for reuse */
  struct rec_state *all;         /* every state, linked by their `all` */
  struct agg_carry carry;        /* of the dims and the filters' dims */
};

static hashval_t
bucket_hash (const void *p)
{
  const struct agg_bucket *b = p;
  return htab_hash_string (b->value) ^ (b->parent * 2654435761u);
}

static int
bucket_eq (const void *p, const void *q)
{
  const struct agg_bucket *a = p, *b = q;
  return a->parent == b->parent && a->level == b->level
         && strcmp (a->value, b->value) == 0;
}

struct agg *
agg_new (int ndims, const char *const *dims, int nfilters,
         const struct agg_filter *filters)
{
  struct agg *a = XCNEW (struct agg);
  a->ndims = ndims;
  a->dims = dims;
  a->nfilters = nfilters;
  a->filters = filters;
  a->hints = XCNEWVEC (struct ev_dim_hint, ndims ? ndims : 1);
  a->outer = XCNEWVEC (const char *, ndims ? ndims : 1);
  for (int i = 0; i < ndims; i++)
    a->outer[i] = agg_outer_dim (dims[i]);
  a->index = htab_create_alloc (64, bucket_hash, bucket_eq, free, xcalloc, free);
  a->size = 64;
  a->buckets = XCNEWVEC (struct agg_bucket, a->size);
  a->nbuckets = 0;
  for (int i = 0; i < ndims; i++)
    agg_carry_want (&a->carry, dims[i]);
  for (int i = 0; i < nfilters; i++)
    agg_carry_want (&a->carry, filters[i].dim);
  return a;
}

/* Fill K with what agg_share_add by RUN and agg_desc_add by DEDUCT add for
   a record of each kind, complete or not (no added dimension, no setup).  */

static void
kind_costs_init (struct kind_costs *k, const struct agg_costs *deduct,
                 const struct agg_costs *run)
{
  static const struct ev_site site = { .function = NULL };
  static const struct ev_site op_site = { .function = "" };
  static const struct agg_desc none;
  const struct ev_site *sites[NKINDS] = { NULL, &site, &op_site };
  for (int kind = 0; kind < NKINDS; kind++)
    for (int complete = 0; complete < 2; complete++)
      {
        struct ev_record r;
        memset (&r, 0, sizeof r);
        r.site = sites[kind];
        r.complete = complete;
        struct agg_share share;
        memset (&share, 0, sizeof share);
        agg_share_add (&share, run, &r);
        k->share_ns[2 * kind + complete] = share.cost_ns;
        struct agg_desc d = { 0, 0 };
        agg_desc_add (&d, deduct, &r, &none);
        k->desc_ps[2 * kind + complete] = d.ps;
      }
}

/* agg_share_add (&A->share, &A->run_costs, R), by A->kinds where it can (R
   in row ROW, kind_row).  */

static inline void
share_add (struct agg *a, const struct ev_record *r, int row)
{
  if (__builtin_expect (row < 0, 0))
    {
      agg_share_add (&a->share, &a->run_costs, r);
      return;
    }
  a->share.events += 2;
  a->share.cost_ns += a->kinds.share_ns[row];
}

/* agg_desc_add (PD, &A->costs, R, RD), by A->kinds where it can (R in row
   ROW, kind_row).  */

static inline void
desc_add (const struct agg *a, struct agg_desc *pd, const struct ev_record *r,
          int row, const struct agg_desc *rd)
{
  if (__builtin_expect (row < 0 || !a->costs.measured, 0))
    {
      agg_desc_add (pd, &a->costs, r, rd);
      return;
    }
  pd->n += rd->n + 1;
  pd->ps += rd->ps + a->kinds.desc_ps[row];
}

void
agg_begin_stream (struct agg *a, const struct agg_costs *deduct,
                  const struct agg_costs *run)
{
  a->costs = *deduct;
  a->run_costs = *run;
  kind_costs_init (&a->kinds, deduct, run);
  agg_share_stream (&a->share, run);
}

const struct agg_share *
agg_share (const struct agg *a)
{
  return &a->share;
}

const char *
agg_share_line (const struct agg_share *s, uint64_t run_ns, char *buf,
                size_t size)
{
  const char *how = !s->streams ? "no events in the profile"
                    : s->measured == s->streams ? "measured in the run"
                    : s->measured ? "measured in the run (some threads: the "
                                    "start-up figure)"
                    : "by the start-up figure (no measurement in the profile)";
  if (agg_share_failed (s, run_ns))
    snprintf (buf, size, "the estimate failed: %.3f ms, more than the run's "
              "%.3f ms, by %" PRIu64 " events, %s; times deducted by it are "
              "too low (--raw: as recorded)", s->cost_ns / 1e6,
              (double) run_ns / 1e6, s->events, how);
  else
    snprintf (buf, size, "%.3f ms of %.3f ms (%.1f %%) by %" PRIu64
              " events, %s", s->cost_ns / 1e6, (double) run_ns / 1e6,
              run_ns ? 100.0 * s->cost_ns / (double) run_ns : 0.0, s->events,
              how);
  return buf;
}

const char *
agg_samples_line (const struct ev_stream_samples *s, uint64_t cpu_ns,
                  char *buf, size_t size)
{
  char cover[96] = "";
  if (cpu_ns)
    snprintf (cover, sizeof cover, "; the samples cover %.1f %% of the "
              "processes' CPU time",
              100.0 * (double) (s->program.ns + s->recorder.ns) / (double) cpu_ns);
  snprintf (buf, size, "records timed by their threads' CPU time, sampled: "
            "%.3f ms in the program in %" PRIu64 " samples of %.3f ms (a "
            "figure of n samples is within 2/sqrt(n) of its own, at 95 %%), "
            "%.3f ms of it outside records; %.3f ms in the recorder, left "
            "out%s (--deduced: times by deduction)",
            (double) s->program.ns / 1e6, s->program.n,
            s->program.n ? (double) s->program.ns / 1e6 / (double) s->program.n
                         : 0.0,
            (double) s->outside.ns / 1e6, (double) s->recorder.ns / 1e6, cover);
  return buf;
}

const char *
agg_clamp_line (const struct agg_share *s, char *buf, size_t size)
{
  if (!s->clamped)
    return NULL;
  uint64_t records = s->events / 2;
  bool ms = s->clamped_ns >= 1e6;
  snprintf (buf, size, "hook costs estimated above the measured time of "
            "%" PRIu64 " record%s (%.1f %%), by %.3f %s in all: their time is "
            "their children's, Self 0 by the estimate, not measured "
            "(DSPROF_SAMPLE=1ms: times by samples of the CPU time instead)",
            s->clamped, s->clamped > 1 ? "s" : "",
            records ? 100.0 * (double) s->clamped / (double) records : 0.0,
            s->clamped_ns / (ms ? 1e6 : 1e3), ms ? "ms" : "us");
  return buf;
}

/* The bucket for VALUE at LEVEL under PARENT, created if new.  */

static uint32_t
intern_bucket (struct agg *a, uint32_t parent, uint32_t level, const char *value)
{
  struct agg_bucket key = { 0, parent, level, value, 0, 0, 0, 0, 0, NULL };
  void **slot = htab_find_slot (a->index, &key, INSERT);
  if (*slot)
    return ((struct agg_bucket *) *slot)->id;
  if (a->nbuckets + 1 >= a->size)
    {
      a->size *= 2;
      a->buckets = XRESIZEVEC (struct agg_bucket, a->buckets, a->size);
    }
  uint32_t id = ++a->nbuckets;
  struct agg_bucket *b = &a->buckets[id];
  memset (b, 0, sizeof *b);
  b->id = id;
  b->parent = parent;
  b->level = level;
  b->value = xstrdup (value);
  if (a->nsums)
    b->sums = XCNEWVEC (struct agg_sum, a->nsums);
  struct agg_bucket *k = XNEW (struct agg_bucket);
  *k = *b;
  *slot = k;
  return id;
}

static uint32_t bucket_by_text (struct agg *a, const struct ev_record *r,
                                const struct ev_value *v, uint32_t parent,
                                uint32_t level);

/* The bucket under PARENT at LEVEL of value V of record R (NULL: R has none
   of its own), found in the cache when V's identity is there.  */

static inline uint32_t
bucket_of_value (struct agg *a, const struct ev_record *r,
                 const struct ev_value *v, uint32_t parent, uint32_t level)
{
  struct cache_entry *e = NULL;
  if (v && v->type != DSPROF_DIM_DOUBLE && v->type != DSPROF_DIM_PTR
      && v->type != DSPROF_DIM_ENUM)
    {
      uint64_t key = v->type == DSPROF_DIM_STR ? (uint64_t) (uintptr_t) v->s : v->u;
      uint64_t tag = (uint64_t) parent << 32 | level << 8
                     | (uint32_t) v->type << 1 | v->truncated;
      uint64_t h = (key ^ (key >> 29) ^ tag) * 0x9e3779b97f4a7c15ull;
      e = &a->cache[h >> 52 & (CACHE_SIZE - 1)];
      if (e->key != key || e->tag != tag || e->len != v->len)
        {
          e->key = key;
          e->tag = tag;
          e->len = v->len;
          e->bucket = bucket_by_text (a, r, v, parent, level);
        }
      return e->bucket;
    }
  return bucket_by_text (a, r, v, parent, level);
}

/* bucket_of_value's value formatted, its bucket found by its text: out of
   line, with its buffer.  Without a value of R's
   own, an outer:D takes its ancestor's value, which the cache knows by its
   identity like R's own.  */

static __attribute__ ((noinline)) uint32_t
bucket_by_text (struct agg *a, const struct ev_record *r, const struct ev_value *v,
                uint32_t parent, uint32_t level)
{
  char buf[EV_VALUE_SIZE];
  const char *t;
  if (!v && a->outer[level])
    {
      v = agg_outer_value (r, a->outer[level]);
      if (v)
        return bucket_of_value (a, r, v, parent, level);
      t = NULL;                  /* no carrier: agg_dim_text's answer */
    }
  else
    t = v ? ev_format_value (v, buf, sizeof buf)
          : agg_dim_text (r, a->dims[level], buf, sizeof buf);
  return intern_bucket (a, parent, level, t ? t : "");
}

/* The bucket under PARENT at LEVEL of record R's value of DIM.  */

static inline uint32_t
bucket_of (struct agg *a, const struct ev_record *r, uint32_t parent,
           uint32_t level)
{
  const struct ev_value *v = ev_record_dim_hinted (r, a->dims[level],
                                                   &a->hints[level]);
  return bucket_of_value (a, r, v, parent, level);
}

static int
cmp_str (const void *p, const void *q)
{
  return strcmp (*(const char *const *) p, *(const char *const *) q);
}

static agg_derive_fn *derive;

void
agg_set_derive (agg_derive_fn *fn)
{
  derive = fn;
}

/* DIM's own copy, the same for every caller asking for the same name: a memo
   names its dimension by it, and a caller's text (a --derive library's buffer)
   may not outlive the decoding.  The copies last as long as the process; there
   are as many as names asked for.  */

static const char *
intern_dim (const char *dim)
{
  static const char **names;
  static size_t n, size, last;
  if (n && !strcmp (names[last], dim))
    return names[last];
  for (last = 0; last < n; last++)
    if (!strcmp (names[last], dim))
      return names[last];
  if (n == size)
    {
      size = size ? 2 * size : 8;
      names = XRESIZEVEC (const char *, names, size);
    }
  names[n] = xstrdup (dim);
  return names[n++];
}

const struct ev_value *
agg_outer_value (const struct ev_record *r, const char *dim)
{
  /* Walk up to the carrier, or to a record whose memo knows it; then give
     every record passed (none carries DIM) the answer, so that a deep tree
     costs one walk per open record rather than one per record.  The memo is
     the decoder's cache in the record, hence the casts.  */
  const struct ev_record *p = r->parent, *carrier = NULL;
  if (!p)
    return NULL;
  dim = intern_dim (dim);
  for (; p; p = p->parent)
    {
      if (ev_record_dim (p, dim))
        {
          carrier = p;
          break;
        }
      if (p->outer_dim == dim)
        {
          carrier = p->outer;
          break;
        }
    }
  for (const struct ev_record *q = r->parent; q != p; q = q->parent)
    {
      ((struct ev_record *) q)->outer_dim = dim;
      ((struct ev_record *) q)->outer = carrier;
    }
  return carrier ? ev_record_dim (carrier, dim) : NULL;
}

/* ---- the built-in derived dimensions ------------------------------------------ */

/* Each one's text function (struct agg_derived): R's value in BUF, or NULL
   when R has none; ARG is the D of a prefix's name (outer:D), else "".  */

static const char *
depth_text (const struct ev_record *r, const char *arg, char *buf, size_t size)
{
  (void) arg;
  snprintf (buf, size, "%u", r->depth);
  return buf;
}

static const char *
parent_text (const struct ev_record *r, const char *arg, char *buf, size_t size)
{
  (void) arg;
  snprintf (buf, size, "%s", r->parent ? ev_record_name (r->parent, NULL) : "(top)");
  return buf;
}

static const char *
location_text (const struct ev_record *r, const char *arg, char *buf, size_t size)
{
  (void) arg;
  snprintf (buf, size, "%s", !r->parent ? "Root" : r->nchildren == 0 ? "Leaf"
                             : "Inner");
  return buf;
}

static const char *
children_text (const struct ev_record *r, const char *arg, char *buf, size_t size)
{
  (void) arg;
  snprintf (buf, size, "%u", r->nchildren);
  return buf;
}

static bool
always (const struct ev_record *r, const char *arg)
{
  (void) r, (void) arg;
  return true;
}

static const char *
depends_on_text (const struct ev_record *r, const char *arg, char *buf,
                 size_t size)
{
  (void) arg;
  if (r->nchildren && !r->children)
    return NULL;                 /* not kept: see agg_needs_children */
  if (r->nchildren == 0)
    {
      snprintf (buf, size, "(none)");
      return buf;
    }
  const char **names = XNEWVEC (const char *, r->nchildren);
  for (uint32_t i = 0; i < r->nchildren; i++)
    names[i] = ev_record_name (r->children[i], NULL);
  qsort (names, r->nchildren, sizeof *names, cmp_str);
  size_t n = 0;
  buf[0] = '\0';
  for (uint32_t i = 0; i < r->nchildren; i++)
    if (i == 0 || strcmp (names[i], names[i - 1]) != 0)
      n += snprintf (buf + (n < size ? n : size), n < size ? size - n : 0,
                     "%s%s", n ? "," : "", names[i]);
  free (names);
  return buf;
}

static bool
depends_on_present (const struct ev_record *r, const char *arg)
{
  (void) arg;
  return !r->nchildren || r->children;
}

/* file:line of the dimensions DIMS (N of them), or NULL.  */

static const char *
site_of_dims (const struct ev_dim *dims, uint32_t n, char *buf, size_t size)
{
  const struct ev_value *file = NULL, *line = NULL;
  for (uint32_t i = 0; i < n; i++)
    if (!file && !strcmp (dims[i].name, "file"))
      file = &dims[i].v;
    else if (!line && !strcmp (dims[i].name, "line"))
      line = &dims[i].v;
  if (!file || !line)
    return NULL;
  snprintf (buf, size, "%.*s:%llu", (int) file->len, file->s,
            (unsigned long long) line->u);
  return buf;
}

static const char *
site_text (const struct ev_record *r, const char *arg, char *buf, size_t size)
{
  (void) arg;
  return site_of_dims (r->dims, r->ndims, buf, size);
}

static bool
site_present (const struct ev_record *r, const char *arg)
{
  (void) arg;
  return ev_record_dim (r, "file") && ev_record_dim (r, "line");
}

static const char *
outer_text (const struct ev_record *r, const char *d, char *buf, size_t size)
{
  const struct ev_value *v = agg_outer_value (r, d);
  return v ? ev_format_value (v, buf, size) : NULL;
}

static bool
outer_present (const struct ev_record *r, const char *d)
{
  return agg_outer_value (r, d) != NULL;
}

static bool
any_dim (const char *d)
{
  return d[0] != '\0';
}

/* The dimensions an op site gives its records, which prev:D and seqN:D take
   of the op records before: their site's intrinsic ones, and site.  */

static bool
op_site_dim (const char *d)
{
  static const char *const dims[] = { "name", "line", "file", "function",
                                      "event", "site" };
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
    if (!strcmp (d, dims[i]))
      return true;
  return false;
}

/* D of the records of op site SITE, in BUF; NULL if they have none.  */

static const char *
op_site_text (const struct ev_site *site, const char *d, char *buf, size_t size)
{
  if (!strcmp (d, "site"))
    return site_of_dims (site->intrinsic, site->nintrinsic, buf, size);
  for (uint32_t i = 0; i < site->nintrinsic; i++)
    if (!strcmp (site->intrinsic[i].name, d))
      return ev_format_value (&site->intrinsic[i].v, buf, size);
  return NULL;
}

/* Whether R is an op record with at least N op records before it in its
   invocation of its dispatch function (ev_record's op_prev).  */

static inline bool
op_after (const struct ev_record *r, int n)
{
  return ev_record_op_p (r) && r->op_prev[n - 1];
}

static const char *
prev_text (const struct ev_record *r, const char *d, char *buf, size_t size)
{
  return op_after (r, 1) ? op_site_text (r->op_prev[0], d, buf, size) : NULL;
}

static bool
prev_present (const struct ev_record *r, const char *d)
{
  (void) d;
  return op_after (r, 1);
}

/* The separator of the op records' values in a seqN:D value.  */
#define SEQ_SEP " > "

/* S after the LEN bytes of BUF (SIZE bytes), cut to fit; the new length.
   (The values are made once per record: no printf.)  */

static size_t
seq_append (char *buf, size_t size, size_t len, const char *s)
{
  size_t n = strlen (s);
  if (len + n >= size)
    n = size - 1 - len;
  memcpy (buf + len, s, n);
  buf[len + n] = '\0';
  return len + n;
}

/* seqN:D of R: D of the last N op records of R's invocation, R last, joined
   by SEQ_SEP; NULL if fewer than N - 1 come before R.  */

static const char *
seq_text (const struct ev_record *r, const char *d, int n, char *buf,
          size_t size)
{
  if (!op_after (r, n - 1))
    return NULL;
  char part[EV_VALUE_SIZE];
  size_t len = 0;
  buf[0] = '\0';
  for (int i = n - 1; i >= 0; i--)
    {
      const char *t = op_site_text (i ? r->op_prev[i - 1] : r->site, d, part,
                                    sizeof part);
      if (i < n - 1)
        len = seq_append (buf, size, len, SEQ_SEP);
      len = seq_append (buf, size, len, t ? t : "");
    }
  return buf;
}

#define SEQ(N)                                                                \
  static const char *                                                         \
  seq##N##_text (const struct ev_record *r, const char *d, char *buf,         \
                 size_t size)                                                 \
  {                                                                           \
    return seq_text (r, d, N, buf, size);                                     \
  }                                                                           \
  static bool                                                                 \
  seq##N##_present (const struct ev_record *r, const char *d)                 \
  {                                                                           \
    (void) d;                                                                 \
    return op_after (r, N - 1);                                               \
  }
SEQ (2)
SEQ (3)
SEQ (4)

#define OP_SITE_DIMS "name, line, file, function, event, site"

/* The built-in derived dimensions (docs/contract.md §5.4), the one list of
   them: agg_dim_text and agg_dim_present compute them by it, the decoding
   keeps what they need by it (agg_needs_children), `dsprof dims` lists its
   names and prints its help lines (agg_derived_help, after `dsprof dims
   --help'), the commands check a prefix's D (agg_dim_usage) by it, the report ranks the tables of a BY_COUNT
   one by Count (report/model/model.c, agg_dim_by_count), and a --derive
   library that gives a value to one of its names is an error
   (derive_clash).  A new built-in derived dimension touches three code
   files: this one (its text and presence functions above and its entry
   here), testsuite/unit/report_test.c (its values; test_dim_present checks
   every entry's PRESENT against its TEXT by itself) and the test.sh of a
   case that shows it in a report; then its lines in docs/contract.md §5.4
   and docs/dsprof.1.  One that needs more of the stream than a record holds
   (prev:D, the op records before) adds it to the decoder's record
   (report/format/events.h, events.c).  */

const struct agg_derived agg_derived[] = {
  { .name = "depth", .text = depth_text, .present = always,
    .help = "depth       0 for a top-level record, its children 1, ..." },
  { .name = "parent", .text = parent_text, .present = always,
    .help = "parent      the enclosing record's name, (top) if none" },
  { .name = "location", .text = location_text, .present = always,
    .help = "location    Root (no enclosing record), Leaf (no descendants), "
            "else Inner" },
  { .name = "depends-on", .needs = AGG_NEEDS_CHILDREN, .text = depends_on_text,
    .present = depends_on_present,
    .help = "depends-on  the sorted distinct names of the direct descendants, "
            "(none)" },
  { .name = "children", .text = children_text, .present = always,
    .help = "children    the number of direct descendants" },
  { .name = "site", .text = site_text, .present = site_present,
    .help = "site        file:line" },
  { .name = "outer:", .prefix = true, .text = outer_text,
    .present = outer_present, .d_ok = any_dim,
    .usage = "outer:D wants a dimension D",
    .help = "outer:D     D's value on the nearest enclosing record carrying D" },
  { .name = "prev:", .prefix = true, .by_count = true, .text = prev_text,
    .present = prev_present, .d_ok = op_site_dim,
    .usage = "prev:D wants a dimension of op records (" OP_SITE_DIMS ")",
    .help = "prev:D      an op record's: D of the op record before it in its "
            "call of its\n              dispatch function (none for the first; "
            "tables by Count);\n              D one of " OP_SITE_DIMS },
  { .name = "seq2:", .prefix = true, .by_count = true, .text = seq2_text,
    .present = seq2_present, .d_ok = op_site_dim,
    .usage = "seq2:D wants a dimension of op records (" OP_SITE_DIMS ")",
    .help = "seq2:D      an op record's: D of the last 2 op records of its "
            "call, joined\n              by \"" SEQ_SEP "\" (seq3:D, seq4:D: "
            "the last 3, 4)" },
  { .name = "seq3:", .prefix = true, .by_count = true, .text = seq3_text,
    .present = seq3_present, .d_ok = op_site_dim,
    .usage = "seq3:D wants a dimension of op records (" OP_SITE_DIMS ")" },
  { .name = "seq4:", .prefix = true, .by_count = true, .text = seq4_text,
    .present = seq4_present, .d_ok = op_site_dim,
    .usage = "seq4:D wants a dimension of op records (" OP_SITE_DIMS ")" },
};
const size_t agg_nderived = sizeof agg_derived / sizeof agg_derived[0];

const struct agg_derived *
agg_derived_find (const char *name, const char **d)
{
  for (size_t i = 0; i < agg_nderived; i++)
    {
      const struct agg_derived *e = &agg_derived[i];
      size_t n = strlen (e->name);
      if (e->prefix ? !strncmp (name, e->name, n) : !strcmp (name, e->name))
        {
          *d = e->prefix ? name + n : "";
          return e;
        }
    }
  return NULL;
}

bool
agg_dim_by_count (const char *name)
{
  const char *d;
  const struct agg_derived *e = agg_derived_find (name, &d);
  return e && e->by_count;
}

const char *
agg_dim_usage (const char *name)
{
  const char *d;
  const struct agg_derived *e = agg_derived_find (name, &d);
  return e && e->prefix && !e->d_ok (d) ? e->usage : NULL;
}

void
agg_derived_help (FILE *out)
{
  fputs ("\nDerived dimensions (besides the recorded ones):\n", out);
  for (size_t i = 0; i < agg_nderived; i++)
    if (agg_derived[i].help)
      fprintf (out, "  %s\n", agg_derived[i].help);
}

/* A --derive library gave NAME, a built-in derived dimension, a value: one
   message, the outputs removed, exit status 1 (a usage error).  */

static void __attribute__ ((noreturn))
derive_clash (const char *name)
{
  progress_end ();
  fprintf (stderr, "dsprof: the --derive library defines '%s', a built-in "
           "derived dimension: a library's dimensions need names of their "
           "own (`dsprof dims --help' lists the built-in ones)\n", name);
  output_unlink_all ();
  exit (1);
}

/* agg_dim_text of a dimension R does not carry: out of line, so that the
   common case, a recorded one, stays inline in its callers.  */

static __attribute__ ((noinline)) const char *
derived_text (const struct ev_record *r, const char *name, char *buf,
              size_t size)
{
  const char *d;
  const struct agg_derived *e = agg_derived_find (name, &d);
  if (derive)
    {
      const char *t = derive (r, name, buf, size);
      if (t && e)
        derive_clash (name);
      if (t)
        return t;
    }
  return e ? e->text (r, d, buf, size) : NULL;
}

const char *
agg_dim_text (const struct ev_record *r, const char *name, char *buf, size_t size)
{
  const struct ev_value *v = ev_record_dim (r, name);
  return v ? ev_format_value (v, buf, size) : derived_text (r, name, buf, size);
}

bool
agg_dim_present (const struct ev_record *r, const char *name)
{
  if (ev_record_dim (r, name))
    return true;
  char buf[EV_VALUE_SIZE];
  if (derive)
    return agg_dim_text (r, name, buf, sizeof buf) != NULL;
  const char *d;
  const struct agg_derived *e = agg_derived_find (name, &d);
  if (!e)
    return false;
  return e->present ? e->present (r, d) : e->text (r, d, buf, sizeof buf) != NULL;
}

static __attribute__ ((noinline)) bool
passes_filters (const struct agg *a, const struct ev_record *r)
{
  char buf[EV_VALUE_SIZE];
  for (int i = 0; i < a->nfilters; i++)
    {
      const char *t = agg_dim_text (r, a->filters[i].dim, buf, sizeof buf);
      bool eq = strcmp (t ? t : "", a->filters[i].value) == 0;
      if (eq == a->filters[i].negate)
        return false;
    }
  return true;
}

static inline bool
passes (const struct agg *a, const struct ev_record *r)
{
  return !a->nfilters || passes_filters (a, r);
}

/* ---- --sum ------------------------------------------------------------------------- */

void
agg_set_sums (struct agg *a, int nsums, const char *const *sums)
{
  a->nsums = nsums;
  a->sums = sums;
  a->summed = XCNEWVEC (uint64_t, nsums ? nsums : 1);
}

/* Whether V is a number a sum adds.  */

static bool
summable (const struct ev_value *v)
{
  return v->type == DSPROF_DIM_INT || v->type == DSPROF_DIM_UINT
         || v->type == DSPROF_DIM_DOUBLE || v->type == DSPROF_DIM_BOOL;
}

/* Add the number V to S.  */

static void
sum_add (struct agg_sum *s, const struct ev_value *v)
{
  if (v->type == DSPROF_DIM_DOUBLE)
    {
      s->real = true;
      s->d += v->d;
      return;
    }
  if (v->type == DSPROF_DIM_UINT && v->u > (uint64_t) INT64_MAX)
    {
      s->real = true;
      s->d += (double) v->u;
      return;
    }
  int64_t x = v->type == DSPROF_DIM_BOOL ? v->u != 0
              : v->type == DSPROF_DIM_UINT ? (int64_t) v->u : v->i;
  int64_t t;
  if (__builtin_add_overflow (s->i, x, &t))
    {
      s->real = true;
      s->d += (double) x;
    }
  else
    s->i = t;
}

/* Add the numbers R carries in the sum dimensions to the sums of its bucket
   B and of the buckets above B (one per level): out of line, so that a
   report without --sum pays one test per record.  */

static __attribute__ ((noinline)) void
add_sums (struct agg *a, const struct ev_record *r, uint32_t b)
{
  for (int k = 0; k < a->nsums; k++)
    {
      const char *outer = agg_outer_dim (a->sums[k]);
      const struct ev_value *v = ev_record_dim (r, a->sums[k]);
      if (!v && outer)
        v = agg_outer_value (r, outer);
      if (!v || !summable (v))
        continue;
      a->summed[k]++;
      for (uint32_t id = b; id; id = a->buckets[id].parent)
        sum_add (&a->buckets[id].sums[k], v);
    }
}

const char *
agg_sum_text (const struct agg_sum *s, char *buf, size_t size)
{
  if (s->real)
    snprintf (buf, size, "%.15g", (double) s->i + s->d);
  else
    snprintf (buf, size, "%" PRId64, s->i);
  return buf;
}

bool
agg_sum_finite (const struct agg_sum *s)
{
  return !s->real || isfinite ((double) s->i + s->d);
}

void
agg_note_unsummed (const struct agg *a)
{
  for (int k = 0; a->records && k < a->nsums; k++)
    if (!a->summed[k])
      fprintf (stderr, "dsprof: no record carries a number in dimension '%s'\n",
               a->sums[k]);
}

/* The state of R's parent, which R's figures go to (made if R is its first
   child to complete), or NULL for a top-level record.  */

static inline struct rec_state *
parent_state (struct agg *a, struct ev_record *r)
{
  if (!r->parent)
    return NULL;
  struct rec_state *ps = r->parent->user;
  if (ps)
    return ps;
  ps = a->pool;
  if (ps)
    {
      a->pool = ps->next;
      ps->child_ns = 0;
      ps->desc = (struct agg_desc) { 0, 0 };
    }
  else
    {
      ps = XCNEW (struct rec_state);
      ps->all = a->all;
      a->all = ps;
    }
  r->parent->user = ps;
  return ps;
}

/* Add R (its own state ST, NULL for a leaf; its parent's PS, NULL at the top
   level) to its bucket at every level: SELF and the clamp to each, ADJ to
   the pending map that gives each its Total.  */

static inline void
add_to_buckets (struct agg *a, const struct ev_record *r, struct rec_state *st,
                struct rec_state *ps, uint64_t self, uint64_t adj, bool clamped)
{
  uint32_t b = 0;
  for (int level = 0; level < a->ndims; level++)
    {
      b = bucket_of (a, r, b, (uint32_t) level);
      struct agg_bucket *bk = &a->buckets[b];
      bk->self_ns += self;
      bk->count++;
      bk->clamped += clamped;
      bk->self_samples += a->costs.by_samples ? r->sampled.n : 0;
      /* A leaf hands its buckets straight to its parent or the totals.  */
      if (st)
        *intmap_slot (&st->pending, b) = adj;   /* covers its nested ones */
      else if (ps)
        *intmap_slot (&ps->pending, b) += adj;
      else
        bk->total_ns += adj;
    }
  if (a->nsums)
    add_sums (a, r, b);
  a->records++;
}

/* Hand R's figures (R in row ROW of A's kind_costs, its state ST, NULL for a leaf; DESC its descendants;
   ADJ its deducted time) to its parent's state PS, or at the top level to
   the buckets' totals and the profiled time.  */

static inline void
hand_up (struct agg *a, const struct ev_record *r, int row, struct rec_state *st,
         struct rec_state *ps, const struct agg_desc *desc, uint64_t adj)
{
  if (ps)
    {
      ps->child_ns += adj;
      desc_add (a, &ps->desc, r, row, desc);
      if (st)
        pending_merge (&ps->pending, &st->pending);
    }
  else
    {
      if (st)
        {
          for (uint32_t i = 0; i < st->pending.n; i++)
            {
              const struct intmap_entry *e = intmap_at (&st->pending, i);
              a->buckets[e->key].total_ns += e->val;
            }
          intmap_clear (&st->pending);
        }
      a->profiled_ns += adj;
    }
  if (st)
    {
      st->next = a->pool;
      a->pool = st;
    }
}

int
agg_record (struct ev_record *r, void *arg)
{
  struct agg *a = arg;
  struct rec_state *st = r->user;          /* NULL for a leaf */
  static const struct agg_desc none;
  const struct agg_desc *desc = st ? &st->desc : &none;
  uint64_t child_ns = st ? st->child_ns : 0;
  int row = kind_row (r);
  agg_carry_record (&a->carry, r);
  share_add (a, r, row);

  /* adj >= the children's, so self >= 0 and the self times of a subtree
     add up to its root's adj.  */
  uint64_t over;
  uint64_t adj = agg_record_time (&a->costs, r, desc, child_ns, &over);
  uint64_t self = adj - child_ns;
  bool clamped = over != 0;
  if (clamped)
    {
      a->share.clamped++;
      a->share.clamped_ns += (double) over;
    }

  struct rec_state *ps = parent_state (a, r);
  if (passes (a, r))
    add_to_buckets (a, r, st, ps, self, adj, clamped);
  hand_up (a, r, row, st, ps, desc, adj);
  r->user = NULL;
  return 0;
}

/* What the decoding must keep for dimension NAME (AGG_NEEDS_*).  */

static unsigned
dim_needs (const char *name)
{
  const char *d;
  const struct agg_derived *e = agg_derived_find (name, &d);
  return e ? e->needs : 0;
}

bool
agg_needs_children (const struct agg *a)
{
  if (derive)
    return true;
  for (int i = 0; i < a->ndims; i++)
    if (dim_needs (a->dims[i]) & AGG_NEEDS_CHILDREN)
      return true;
  for (int i = 0; i < a->nfilters; i++)
    if (dim_needs (a->filters[i].dim) & AGG_NEEDS_CHILDREN)
      return true;
  return false;
}

uint32_t
agg_nbuckets (const struct agg *a)
{
  return a->nbuckets;
}

const struct agg_bucket *
agg_bucket (const struct agg *a, uint32_t id)
{
  return &a->buckets[id];
}

uint64_t
agg_profiled_ns (const struct agg *a)
{
  return a->profiled_ns;
}

uint64_t
agg_records (const struct agg *a)
{
  return a->records;
}

void
agg_free (struct agg *a)
{
  while (a->all)
    {
      struct rec_state *st = a->all;
      a->all = st->all;
      intmap_free (&st->pending);
      free (st);
    }
  free (a->carry.names);
  for (uint32_t i = 1; i <= a->nbuckets; i++)
    {
      free ((char *) a->buckets[i].value);
      free (a->buckets[i].sums);
    }
  free (a->summed);
  free (a->buckets);
  free (a->hints);
  free (a->outer);
  htab_delete (a->index);
  free (a);
}

/* ---- dimensions nobody carries -------------------------------------------------- */

void
agg_carry_want (struct agg_carry *c, const char *name)
{
  const char *d;
  const struct agg_derived *e = agg_derived_find (name, &d);
  if (e && !e->prefix)
    return;
  for (uint32_t i = 0; i < c->n; i++)
    if (!strcmp (name, c->names[i]))
      return;
  if (c->n == c->size)
    {
      c->size = c->size ? 2 * c->size : 8;
      c->names = XRESIZEVEC (const char *, c->names, c->size);
    }
  c->names[c->n++] = name;
}

/* Forget names[I]: it is carried.  The others keep their order.  */

static void
carried (struct agg_carry *c, uint32_t i)
{
  memmove (&c->names[i], &c->names[i + 1], (c->n - i - 1) * sizeof *c->names);
  c->n--;
}

void
agg_carry_check (struct agg_carry *c, const struct ev_record *r)
{
  for (uint32_t i = c->n; i-- > 0;)
    if (agg_dim_present (r, c->names[i]))
      carried (c, i);
}

void
agg_carry_seen (struct agg_carry *c, const char *name)
{
  for (uint32_t i = c->n; i-- > 0;)
    if (!strcmp (c->names[i], name))
      carried (c, i);
}

void
agg_carry_note (struct agg_carry *c)
{
  for (uint32_t i = 0; c->records && i < c->n; i++)
    fprintf (stderr, "dsprof: no record carries dimension '%s'\n", c->names[i]);
  free (c->names);
  memset (c, 0, sizeof *c);
}

void
agg_note_uncarried (struct agg *a)
{
  agg_carry_note (&a->carry);
}

void
agg_note_pair (struct agg *a, struct agg *b)
{
  /* A's list keeps the dimensions B did not see carried either.  */
  uint32_t n = 0;
  for (uint32_t i = 0; i < a->carry.n; i++)
    for (uint32_t j = 0; j < b->carry.n; j++)
      if (!strcmp (a->carry.names[i], b->carry.names[j]))
        {
          a->carry.names[n++] = a->carry.names[i];
          break;
        }
  a->carry.n = n;
  a->carry.records += b->carry.records;
  b->carry.records = 0;
  agg_carry_note (&a->carry);
  agg_carry_note (&b->carry);
  for (int k = 0; a->records + b->records && k < a->nsums; k++)
    if (!a->summed[k] && !b->summed[k])
      fprintf (stderr, "dsprof: no record carries a number in dimension '%s'\n",
               a->sums[k]);
}
