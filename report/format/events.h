/* events.h - decoding event streams (dsprof-format.h, section 4) into events and
   profile records (docs/contract.md §4.4).

   A profile's event sites come from its units' metadata (ev_sites_add_unit); each
   thread's stream is a list of chunks in seq order (struct ev_stream).
   ev_decode_stream walks one stream and calls back for every event and for every
   record as it completes, innermost first, so a consumer can aggregate without
   keeping the records.  */

#ifndef DSPROF_EVENTS_H
#define DSPROF_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dsprof-format.h"

struct ev_dim_desc
{
  const char *name;
  int type;                      /* DSPROF_DIM_* */
  uint32_t nenum;
  int64_t *enum_vals;
  const char **enum_names;
};

struct ev_value
{
  int type;                      /* DSPROF_DIM_* */
  const struct ev_dim_desc *desc;/* for enum names; may be NULL */
  union
  {
    uint64_t u;
    int64_t i;
    double d;
    const char *s;               /* STR and formatted PTR; NULL for a NULL string */
  };
  uint32_t len;                  /* of s */
  bool truncated;                /* the program's s was longer: cut */
  bool text;                     /* PTR shown as the formatter's text in s */
};

struct ev_dim
{
  const char *name;
  struct ev_value v;
};

struct ev_site
{
  const char *type, *name, *file;
  uint32_t line;
  uint32_t ndims;                /* parameters */
  struct ev_dim_desc *dims;
  struct ev_dim_desc result;     /* type DSPROF_DIM_NONE for void */
  struct ev_dim intrinsic[5];    /* event, name, file, line, and function for
                                    an op site */
  uint32_t nintrinsic;           /* 4, or 5 for an op site */
  const char *function;          /* an op site's: its dispatch function;
                                    else NULL */
  bool clash;                    /* a parameter is named like another dim */
};

/* The sites of one profile, by global id.  */
struct ev_sites
{
  struct ev_site **by_id;
  uint32_t size;
  char **asked;                  /* the dispatch functions its units were
                                    compiled to instrument, each once, the
                                    first EV_MAX_ASKED */
  uint32_t nasked;
};

/* The most dispatch function names a profile's sites keep for the warning
   of one that no unit defines (pf_warn_no_dispatch): a program has a few.  */
#define EV_MAX_ASKED 64


enum ev_kind
{
  EV_START,                      /* hook Start or dsprof_start */
  EV_FINISH,                     /* Finish, dsprof_finish */
  EV_ABANDON,                    /* closed by repair */
  EV_DIM,                        /* a dimension added to the innermost event */
  EV_SAMPLE                      /* CPU-time samples (with EV_SAMPLES only) */
};

/* CPU-time samples (DSPROF_SAMPLE, dsprof-format.h section 4): how many, and
   the CPU time in ns they stand for.  */
struct ev_samples
{
  uint64_t n, ns;
};

/* Add FROM to TO; false (TO unchanged) if a sum would pass 2^64.  */
static inline bool
ev_samples_add (struct ev_samples *to, const struct ev_samples *from)
{
  struct ev_samples sum;
  if (__builtin_add_overflow (to->n, from->n, &sum.n)
      || __builtin_add_overflow (to->ns, from->ns, &sum.ns))
    return false;
  *to = sum;
  return true;
}

/* A stream's samples, all of them: in the program (N, NS), of those the
   ones taken outside every record, and the recorder's.  SEEN: the stream
   holds a SAMPLE event.  */
struct ev_stream_samples
{
  struct ev_samples program, outside, recorder;
  bool seen;
};

/* An event as its stream holds it, for a writer that encodes it again
   (pfwrite.h): its values are copied as bytes, never decoded and encoded.  */
struct ev_raw
{
  uint32_t op;                   /* DSPROF_OP_*; 0: not in the stream (a record
                                    left open at its end, closed by the reader;
                                    an op record ended by the next one's NEXT
                                    or CASE + K) */
  uint32_t id;                   /* ENTER: the site's global id; START, DIM: the
                                    name id; OP, NEXT: the dispatch's site id;
                                    else 0 */
  uint32_t chunk;                /* index of its chunk in the stream's chunks */
  const unsigned char *names;    /* the NAME ops right before it in its chunk */
  size_t names_size;
  const unsigned char *payload;  /* its bytes after the time delta and the id:
                                    ENTER's parameters, EXIT's result, DIM's
                                    type and value, OP's and NEXT's case index;
                                    else none.  The event ends
                                    where its payload does.  */
  size_t payload_size;
};

struct ev_event
{
  enum ev_kind kind;
  uint64_t ns;                   /* since the process started */
  uint32_t thread;
  const char *type;              /* event type (of the event closed, for ends) */
  uint32_t ndims;
  const struct ev_dim *dims;
  struct ev_raw raw;             /* its bytes in the stream */
};

struct ev_record
{
  uint64_t start_ns, end_ns;     /* since the process started */
  uint32_t thread;
  uint32_t depth;                /* 0 for a top-level record */
  const char *type;
  const struct ev_site *site;    /* NULL for a manual event */
  bool complete;
  uint32_t ndims;                /* intrinsic and recorded dims, Start's first */
  struct ev_dim *dims;
  uint32_t nadded;               /* dimensions added by DIM events (the
                                    dsprof_dim_* calls it took) */
  uint64_t setup_ns;             /* the recorder's chunk setups inside it and
                                    in none of its children (dsprof-format.h,
                                    section 4) */
  struct ev_samples sampled;     /* the CPU-time samples charged to it and to
                                    none of its children */
  uint32_t nchildren;            /* direct descendants, completed before */
  struct ev_record **children;   /* valid during the callback only; NULL
                                    if not kept (EV_KEEP_CHILDREN) */
  struct ev_record *parent;      /* the enclosing record, still open; or NULL */
  uint64_t seq;                  /* for the consumer's use */
  void *user;                    /* likewise */
  /* agg_outer_value's memo while the record is open: for the dimension
     OUTER_DIM (NULL: none yet; the copy of its name that agg_outer_value
     keeps), the nearest of its ancestors carrying it (or NULL).  Its ancestors gain no dimension while it is open (a dimension is
     added to the innermost record), so the memo holds until it completes.  */
  const char *outer_dim;
  const struct ev_record *outer;
  /* An op record's: the sites of the op records before it in the same
     invocation of its dispatch function, the latest first, NULL past the
     first (docs/contract.md §5.4, prev:D): an op record a NEXT starts
     follows the one that NEXT ends, one an OP starts (the first of a call
     of the function) follows none.  Not set for other records.  */
  const struct ev_site *op_prev[3];
  uint32_t dims_cap, children_cap;  /* the decoder's, for reuse */
  const struct ev_site *dims_site;  /* the decoder's: the site whose intrinsic
                                       dimensions and thread DIMS starts with
                                       from an earlier record (a record reused
                                       for the same site keeps them), or NULL */
};

struct ev_stream
{
  uint32_t thread;
  uint32_t nchunks;
  const struct dsprof_events_chunk **chunks;  /* seq order, sizes validated */
  const unsigned char *map;      /* the read-only file mapping holding the chunks,
                                    whose pages are given back once decoded;
                                    NULL for chunks in memory */
  bool has_costs;                /* COSTS holds the trailer of its last chunk
                                    that has one (dsprof-format.h, section 4) */
  struct dsprof_events_costs costs;
  uint64_t setup_ns;             /* the setups of its chunks, summed (each
                                    as the decoder takes it) */
  struct ev_stream_samples samples;  /* set by ev_decode_stream once it has
                                    decoded the whole stream (the one field
                                    it writes: S is the reader's own) */
};

/* Clock conversion of a profile.  */
struct ev_clock
{
  uint64_t start_mono_ns;
  double ns_per_tick;
};

/* The one mapping of a stream's clock ticks to ns since its process started,
   used by every reader of events and by merge (ev_stream_clock in events.c says
   how it is chosen): ns = ORIGIN + (TICK - ANCHOR_TICKS) * NS_PER_TICK, a tick
   before the anchor counting back from it, clamped to 0 .. 2^64 - 1.  */
struct ev_stream_clock
{
  uint64_t anchor_ticks;
  double origin;
  double ns_per_tick;
};

void ev_stream_clock (const struct ev_stream *s, const struct ev_clock *clock,
                      struct ev_stream_clock *m);

static inline uint64_t
ev_tick_ns (const struct ev_stream_clock *m, uint64_t tick)
{
  double rel = m->origin + (double) (int64_t) (tick - m->anchor_ticks) * m->ns_per_tick;
  /* A time beyond 2^64 ns (a corrupt delta or clock rate) is the last
     representable one: the conversion of a larger double is undefined.  */
  return rel < 0 ? 0
         : rel < 0x1p63 ? (uint64_t) (int64_t) rel   /* one instruction */
         : rel >= 0x1p64 ? UINT64_MAX : (uint64_t) rel;
}

/* Whether R is an op record (a bytecode VM's opcode, dsprof-format.h
   section 4): one hook per record, not a Start/Finish pair.  */
static inline bool
ev_record_op_p (const struct ev_record *r)
{
  return r->site && r->site->function;
}

typedef int (*ev_event_fn) (const struct ev_event *e, void *arg);
typedef int (*ev_record_fn) (struct ev_record *r, void *arg);

/* Add the DSPROF_TAG_SITE records of the unit metadata META (SIZE bytes), whose
   site 0 has global id SITE_BASE, to SITES.  Return 0, or -1 with *ERR set.  */
int ev_sites_add_unit (struct ev_sites *sites, const unsigned char *meta,
                       size_t size, uint32_t site_base, uint32_t nsites,
                       const char **err);

/* Give back the resident pages of [LO, HI) of the read-only file mapping at MAP,
   and of the span before LO that a read may have mapped with them.  */
void ev_release_pages (const unsigned char *map, const unsigned char *lo,
                       const unsigned char *hi);

/* Give back the resident pages of chunk CH of stream S once read, if S is in a
   file mapping (S->map): ev_decode_stream does after each chunk; so does any
   other reader of the chunks.  */
void ev_release_chunk (const struct ev_stream *s, const struct dsprof_events_chunk *ch);

/* Free the sites of SITES (and leave it empty).  */
void ev_sites_free (struct ev_sites *sites);

/* Add the dispatch functions the unit with metadata META (SIZE bytes) was
   compiled to instrument to SITES, as ev_sites_add_unit does: for a unit
   without sites.  */
void ev_sites_add_asked (struct ev_sites *sites, const unsigned char *meta,
                         size_t size);

/* Whether a site of SITES is an op site of the dispatch function FUNC.  */
bool ev_sites_dispatch_p (const struct ev_sites *sites, const char *func);

/* How a stream is decoded: EV_KEEP_CHILDREN, a record's children are kept for
   its callback; without it they are only counted (children NULL, nchildren
   still counts them), so a stream whose records have millions of direct
   descendants is decoded in memory bounded by its depth.  */
enum { EV_KEEP_CHILDREN = 1, EV_SAMPLES = 2 };

/* Decode stream S as FLAGS say.  ON_EVENT (may be NULL) sees every event
   (SAMPLE events only with EV_SAMPLES, as EV_SAMPLE with their bytes in raw),
   ON_RECORD (may be NULL) every record at its completion; records still open at
   the end of the stream are closed at its last event, incomplete.  A callback
   returning non-zero stops the walk with that value.  Return 0, a callback's
   value, or -1 with *ERR describing the corruption (the records before it were
   delivered).  */
int ev_decode_stream (const struct ev_stream *s, const struct ev_sites *sites,
                      const struct ev_clock *clock, ev_event_fn on_event,
                      ev_record_fn on_record, void *arg, unsigned flags,
                      const char **err);

/* Write value V as docs/contract.md §4.2 shows it into BUF (SIZE bytes); return BUF.
   A text too long for BUF is cut at a UTF-8 character boundary and ends in "...".  */
const char *ev_format_value (const struct ev_value *v, char *buf, size_t size);

/* The size of a buffer that any value fits in whole, as ev_format_value writes
   it: the longest string the format holds, "...", the NUL (and any number).  */
#define EV_VALUE_SIZE (DSPROF_STR_MAX + 64)

/* The value of dimension NAME of R, or NULL.  Start's value wins on a clash.  */
const struct ev_value *ev_record_dim (const struct ev_record *r, const char *name);

/* A record's name (docs/contract.md §4.4): its `name` dimension when that is a
   string and not NULL, else its event type.  The one rule of every view that
   shows records by name (parent, depends-on, the stacks of folded export and
   the html flame graph, chrome's event names).  ev_name_of_dims applies it to
   the N dimensions DIMS of a record or a Start event of type TYPE, the first
   `name` dimension counting (Start's wins on a clash); *LEN is set to the
   name's length (a string value may hold a NUL).  */
const char *ev_name_of_dims (const struct ev_dim *dims, uint32_t n,
                             const char *type, size_t *len);

/* ev_name_of_dims of R's dimensions, Start's and those added so far.  LEN may
   be NULL.  */
const char *ev_record_name (const struct ev_record *r, size_t *len);

/* Where a dimension was found in the last record asked: the text of its name
   there (its address) and its index.  A decoded record never holds two
   dimensions of one name, so a record whose dimension at that index has that
   very name holds the value sought there.  Zero-initialise.  */
struct ev_dim_hint
{
  const char *name;
  uint32_t i;
};

/* ev_record_dim (R, NAME), first trying where HINT says (and updating it):
   records of one stream mostly hold a dimension at one place.  */
static inline const struct ev_value *
ev_record_dim_hinted (const struct ev_record *r, const char *name,
                      struct ev_dim_hint *hint)
{
  if (hint->i < r->ndims && r->dims[hint->i].name == hint->name)
    return &r->dims[hint->i].v;
  const struct ev_value *v = ev_record_dim (r, name);
  if (v)
    {
      hint->i = (uint32_t) ((const struct ev_dim *) ((const char *) v
                            - offsetof (struct ev_dim, v)) - r->dims);
      hint->name = r->dims[hint->i].name;
    }
  return v;
}

/* ---- resumable decoding ----------------------------------------------------------
   A stream of a profile being written, decoded in steps (dsprof top): each
   step decodes the bytes written since the one before, the records still
   open staying open in between.  */

struct ev_resume;

/* A decoder of thread THREAD's stream, decoding as FLAGS say.  */
struct ev_resume *ev_resume_new (uint32_t thread, unsigned flags);

/* Decode stream S (the same thread's, as read again, its chunks a superset
   of those seen before) from where RES stopped: complete events only, the
   chunks it ends with left open for the next step, and until *DECODED, which
   grows by the bytes decoded, reaches BUDGET.  ON_RECORD sees each record
   that completes.  Return as ev_decode_stream.  */
int ev_resume_feed (struct ev_resume *res, const struct ev_stream *s,
                    const struct ev_sites *sites, const struct ev_clock *clock,
                    ev_record_fn on_record, void *arg, uint64_t budget,
                    uint64_t *decoded, const char **err);

/* Copy the strings RES still holds that lie in [LO, HI), a mapping about to
   go: those of its open records and of its current chunk.  The sites it was
   fed stay the caller's to keep while RES lives.  */
void ev_resume_detach (struct ev_resume *res, const unsigned char *lo,
                       const unsigned char *hi);

/* Close the records RES holds open (incomplete, at its last event), calling
   ON_RECORD (may be NULL), and free RES.  Return 0 or a callback's value.  */
int ev_resume_end (struct ev_resume *res, ev_record_fn on_record, void *arg);

#endif /* DSPROF_EVENTS_H */
