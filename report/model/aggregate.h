/* aggregate.h - the dimension report of docs/contract.md §5.3: records bucketed along an
   ordered list of dimensions, with Total, Self, Desc and Count per bucket.

   Definitions, for a bucket B (the records whose values of D1..Dk are v1..vk):
     Self(B)  = sum of self(r), r in B; self(r) = r's time minus its children's
     Total(B) = the time covered by the records of B and all their descendants,
                each instant once: the sum of the durations of the records of B
                that have no ancestor in B (their subtrees contain the others)
     Desc(B)  = Total(B) - Self(B): the self time of the distinct descendants of
                B's records that are not in B
     Count(B) = number of records in B

   Records arrive innermost first (ev_decode_stream), so when a record completes
   its ancestors' values are not known yet (Finish-time dimensions).  Each open
   record therefore carries a "pending" map: for every bucket, the summed
   durations of the outermost records of that bucket in its finished subtree.  At
   completion a record replaces the entries of its own buckets by its duration
   and hands the map to its parent; a top-level record adds it to the buckets'
   totals.  Memory is bounded by the depth of the tree times the buckets that
   occur in it, not by the number of records.  */

#ifndef DSPROF_AGGREGATE_H
#define DSPROF_AGGREGATE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "costs.h"
#include "events.h"

struct agg_filter
{
  const char *dim;
  const char *value;
  bool negate;                   /* DIM!=VALUE */
};

/* A --sum column's figure for one bucket: the sum of the numbers its records
   carry in one dimension.  Integers add up exactly while the sum fits an
   int64_t; a double value, or an integer sum that would overflow, makes the
   sum a double (REAL) from then on.  */
struct agg_sum
{
  int64_t i;                     /* the exact part */
  double d;                      /* the rest, when REAL */
  bool real;
};

struct agg_bucket
{
  uint32_t id, parent;           /* parent 0: a row of the first table */
  uint32_t level;                /* 0 for D1 */
  const char *value;             /* as shown */
  uint64_t self_ns, total_ns, count;
  uint64_t clamped;              /* records of it agg_clamped */
  uint64_t self_samples;         /* timed by samples: the samples of its Self */
  struct agg_sum *sums;          /* one per agg_set_sums dimension, or NULL */
};

struct agg;

/* The recorder's cost in the run: an estimate of the time the hook calls of
   the records took, and the events they are (a Start and an end each).  */
struct agg_share
{
  double cost_ns;
  uint64_t events;
  uint32_t measured, streams;    /* streams measured in the run, of all */
  /* The records whose deduction exceeded their measured time beyond their
     children's (agg_clamped), and the excess in all, in ns: 0 in a --raw
     report, which deducts nothing.  */
  uint64_t clamped;
  double clamped_ns;
};

/* Start a stream whose costs are C in S: its chunk setups.  */
static inline void
agg_share_stream (struct agg_share *s, const struct agg_costs *c)
{
  s->streams++;
  s->measured += c->measured;
  s->cost_ns += (double) c->setup_ns;
}

/* Add record R of a stream whose costs are C to S: its hook calls.  */
static inline void
agg_share_add (struct agg_share *s, const struct agg_costs *c,
               const struct ev_record *r)
{
  s->events += 2;
  s->cost_ns += c->measured ? (double) agg_record_hooks_ps (c, r) / 1000.0
                            : c->pair_ns;
}

/* Whether S's estimate of the recorder's cost has failed against the run
   time RUN_NS: it is the whole run or more, which leaves the program no time
   at all (the estimate of some hook's cost is wrong in this run).  */
static inline bool
agg_share_failed (const struct agg_share *s, uint64_t run_ns)
{
  return s->events && s->cost_ns >= (double) run_ns;
}

/* The text that states S against the run time RUN_NS, e.g. "412.345 ms of
   1340.000 ms (30.8 %) by 20123456 events, measured in the run", into BUF
   (SIZE bytes); return BUF.  The views print it as their "instrumentation"
   line.  An estimate that failed (agg_share_failed) says so instead of a
   share: "the estimate failed: 1234.567 ms, more than the run's 956.652
   ms, by ...; times deducted by it are too low (--raw: as recorded)".  */
const char *agg_share_line (const struct agg_share *s, uint64_t run_ns,
                            char *buf, size_t size);

/* The text that states S's clamped records, into BUF (SIZE bytes), e.g.
   "hook costs estimated above the measured time of 1234 records (0.5 %),
   by 12.345 ms in all: their time is their children's, Self 0 by the
   estimate, not measured (DSPROF_SAMPLE=1ms: times by samples of the CPU
   time instead)"; NULL
   when none was.  The views print it as their "deduction" line.  */
const char *agg_clamp_line (const struct agg_share *s, char *buf, size_t size);

/* The text that states the CPU-time samples S (all of a profile's streams)
   when records are timed by them (docs/contract.md §4.4, "Sampled
   times"), into BUF (SIZE bytes), e.g. "records timed by their threads'
   CPU time, sampled: 878.000 ms in the program in 220 samples of 3.991 ms
   (a figure of n samples is within 2/sqrt(n) of its own, at 95 %), 0.000
   ms of it outside records; 2792.000 ms in the recorder, left out; the
   samples cover 99.5 % of the processes' CPU time (--deduced: times by
   deduction)", the cover where CPU_NS, the processes' CPU time, is known
   (not 0): less than all of it says threads went unsampled (a thread that
   blocks the signal, or records no event).  Return BUF.  The views print
   it as their "sampled" line.  */
const char *agg_samples_line (const struct ev_stream_samples *s,
                              uint64_t cpu_ns, char *buf, size_t size);

/* A report along the NDIMS dimensions DIMS, of the records that pass every one
   of the NFILTERS FILTERS, deducting OVERHEAD_PS per Start/Finish pair.  */
struct agg *agg_new (int ndims, const char *const *dims, int nfilters,
                     const struct agg_filter *filters);

/* Also sum, per bucket, the NSUMS numeric dimensions SUMS (a recorded
   dimension or an outer: one): a record adds an INT, UINT or DOUBLE value, a
   BOOL as 0 or 1, and nothing for a value of another type or none.  Before
   the first record.  */
void agg_set_sums (struct agg *a, int nsums, const char *const *sums);

/* The sum S as text in BUF (SIZE bytes): an integer, or %.15g; return BUF.  */
const char *agg_sum_text (const struct agg_sum *s, char *buf, size_t size);

/* Whether S is a finite number (a double sum may be an infinity or NaN).  */
bool agg_sum_finite (const struct agg_sum *s);

/* Print, for each sum dimension no record gave a number, "dsprof: no record
   carries a number in dimension 'D'" (if there were records at all).  */
void agg_note_unsummed (const struct agg *a);

/* Start a stream whose records are deducted DEDUCT (agg_costs_of) and
   count in the report's agg_share by RUN (the same unless the report is
   --raw, which deducts nothing).  */
void agg_begin_stream (struct agg *a, const struct agg_costs *deduct,
                       const struct agg_costs *run);

/* The recorder's cost in the records seen, all of them (filters aside).  */
const struct agg_share *agg_share (const struct agg *a);

/* The ev_record_fn to give ev_decode_stream, with the agg as its argument.  */
int agg_record (struct ev_record *r, void *agg);

/* Whether the report needs records' children (depends-on, a derive library):
   else the decoder need not keep them (EV_KEEP_CHILDREN).  */
bool agg_needs_children (const struct agg *a);

/* Results: the buckets (ids 1 .. n), the profiled time (the time of top-level
   records), the number of records that passed the filters.  */
uint32_t agg_nbuckets (const struct agg *a);
const struct agg_bucket *agg_bucket (const struct agg *a, uint32_t id);
uint64_t agg_profiled_ns (const struct agg *a);
uint64_t agg_records (const struct agg *a);

/* The value of dimension NAME for record R as text in BUF (SIZE bytes), derived
   dimensions included; NULL if R has no such dimension.  */
const char *agg_dim_text (const struct ev_record *r, const char *name, char *buf,
                          size_t size);

/* The dimension D an "outer:D" names (docs/contract.md §5.3), or NULL when
   NAME is not one: outer:D is the value of D on the nearest enclosing record
   that carries D.  */
static inline const char *
agg_outer_dim (const char *name)
{
  return name[0] == 'o' && strncmp (name, "outer:", 6) == 0 ? name + 6 : NULL;
}

/* The value of the recorded dimension DIM on the nearest enclosing record of
   R that carries it (its Start's dimensions and those added by the time R
   completes: R's ancestors are still open), or NULL if none does.  */
const struct ev_value *agg_outer_value (const struct ev_record *r, const char *dim);

/* Whether agg_dim_text gives R a value of NAME, without formatting it when it
   need not (for dsprof dims, which counts the dimensions of every record).  */
bool agg_dim_present (const struct ev_record *r, const char *name);

/* A user's dimensions: FN is asked for every dimension a record does not
   carry; it returns NULL for one it does not define.  A value for a built-in
   derived dimension's name (agg_derived) is an error: agg_dim_text says so
   and exits with status 1.  */
typedef const char *agg_derive_fn (const struct ev_record *r, const char *name,
                                   char *buf, size_t size);
void agg_set_derive (agg_derive_fn *fn);

/* ---- the built-in derived dimensions (docs/contract.md §5.4) ----------------
   One table, agg_derived (aggregate.c, where its comment says what a new one
   touches), holds them all: a name, or a prefix that a dimension D follows
   (outer:D, prev:D); what the decoding must keep for them; their text and
   presence; what a prefix's D may be; their help line.  */

enum
{
  AGG_NEEDS_CHILDREN = 1         /* a record's children (EV_KEEP_CHILDREN) */
};

struct agg_derived
{
  const char *name;              /* "depth"; with PREFIX "outer:" */
  bool prefix;                   /* NAME followed by a dimension D */
  unsigned needs;                /* AGG_NEEDS_* */
  bool by_count;                 /* its tables rank rows by Count first: a
                                    row's times are not what it ranks */
  /* R's value in BUF (SIZE bytes), or NULL if R has none; D: a prefix's D,
     else "".  */
  const char *(*text) (const struct ev_record *r, const char *d, char *buf,
                       size_t size);
  /* Whether TEXT gives R a value, without formatting it.  */
  bool (*present) (const struct ev_record *r, const char *d);
  bool (*d_ok) (const char *d);  /* a prefix's: whether D may follow it */
  const char *usage;             /* a prefix's: what D must be, for errors */
  const char *help;              /* a line of --help, or NULL */
};

extern const struct agg_derived agg_derived[];
extern const size_t agg_nderived;

/* The entry of agg_derived that NAME names, its D (or "") into *D; NULL if
   none does.  */
const struct agg_derived *agg_derived_find (const char *name, const char **d);

/* What is wrong with the dimension name NAME, e.g. "outer:D wants a
   dimension D" for "outer:"; NULL if nothing is.  */
const char *agg_dim_usage (const char *name);

/* Whether the tables of dimension NAME rank their rows by Count first
   (docs/contract.md §5.3): an entry of agg_derived whose BY_COUNT is set.  */
bool agg_dim_by_count (const char *name);

/* The help lines of the derived dimensions, after a blank line and a
   heading, to OUT.  */
void agg_derived_help (FILE *out);

/* Which of the dimensions a command was given (to bucket by or in --where)
   some record carries.  A dimension no record carries still gives the empty
   value, as documented; agg_carry_note then says so, once per dimension:
   "dsprof: no record carries dimension 'D'".  Derived dimensions, built-in or
   from a --derive library that gives them a value, count as carried.  Only the
   dimensions not yet seen are looked for in a record, so once every one has
   been seen, a record costs one test.  */
struct agg_carry
{
  uint32_t n;                    /* names[0 .. n): not seen carried yet */
  uint32_t size;
  const char **names;
  uint64_t records;              /* records (or events) looked at */
};

/* Add NAME (kept, not copied) to the dimensions C looks for; derived ones and
   repeats are left out.  C starts zeroed.  */
void agg_carry_want (struct agg_carry *c, const char *name);

/* Mark the dimensions record R carries (agg_carry_record's slow path).  */
void agg_carry_check (struct agg_carry *c, const struct ev_record *r);

/* Count record R and mark the dimensions it carries.  */
static inline void
agg_carry_record (struct agg_carry *c, const struct ev_record *r)
{
  c->records++;
  if (c->n)
    agg_carry_check (c, r);
}

/* Mark NAME as carried (for a consumer of events rather than records).  */
void agg_carry_seen (struct agg_carry *c, const char *name);

/* Print the note for every dimension no record carried, if there were records
   at all; then free C's list.  */
void agg_carry_note (struct agg_carry *c);

/* The report's own agg_carry over its dimensions and filters' (agg_record
   fills it): agg_carry_note of it.  */
void agg_note_uncarried (struct agg *a);

/* The notes of agg_note_uncarried and agg_note_unsummed for two reports of
   the same query (`dsprof diff`'s sides), once each: of what neither A nor B
   saw carried.  */
void agg_note_pair (struct agg *a, struct agg *b);

void agg_free (struct agg *a);

#endif /* DSPROF_AGGREGATE_H */
