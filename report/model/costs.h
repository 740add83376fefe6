/* costs.h - the recorder's own cost, as the report takes it out of the
   records' times (docs/contract.md §4.4): one place for the trailers the
   runtime's cost.c writes at the end of every events chunk (dsprof-format.h,
   section 4) and for the formula that deducts them.

   Its interface, in the order a reader uses it:
     1. trailers   costs_trailer reads a chunk's (every version), costs_ps
                   converts its sums; costs_read_stream gathers a stream's and
                   its process's (the profile reader calls it)
     2. a stream   agg_costs_of: what the recorder cost stream S of process P,
                   per hook call, as struct agg_costs
     3. a record   agg_deduction: the cost inside a record's span, from its
                   own hook calls and its descendants' (struct agg_desc,
                   agg_desc_add); agg_deduct: its time with it taken out,
                   never below its children's; agg_clamped: whether that
                   floor was reached
   The merge writes a trailer of its own per chunk (costs_merged_trailer), so
   that the merged profile deducts what its inputs did.

   The trailer's last two hook slots are no hooks: DSPROF_COST_OP_PROBE and
   DSPROF_COST_OP_EXTRA hold the op probe's figures (COSTS_NHOOKS hook kinds
   before them).  */

#ifndef DSPROF_COSTS_H
#define DSPROF_COSTS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "events.h"

/* The hook kinds (DSPROF_HOOK_*): the trailer's slots before the op
   probe's.  */
#define COSTS_NHOOKS DSPROF_COST_OP_PROBE

/* ---- 1. trailers -------------------------------------------------------- */

/* The recorder's costs in the trailer of chunk CH into OUT, an older
   recorder's op probe turned into the current figures; false if CH has
   none (dsprof-format.h, section 4).  */
bool costs_trailer (const struct dsprof_events_chunk *ch,
                    struct dsprof_events_costs *out);

/* TICKS of the trailer C (its unit) in picoseconds at NS_PER_TICK, rounded:
   every reader converts a sum so before dividing it, so that a merged
   profile, whose sums are picoseconds already, gives the same figures.  */
uint64_t costs_ps (const struct dsprof_events_costs *c, uint64_t ticks,
                   double ns_per_tick);

struct pf_process;

/* Take the costs of stream S of P from its last chunk that has them (the
   figures are cumulative), its chunks' setups from each, and add them to
   P's (the profile reader, for every stream it makes).  */
void costs_read_stream (struct pf_process *p, struct ev_stream *s);

/* ---- 2. the costs of a stream ------------------------------------------- */

/* What the recorder cost one stream, per hook call (docs/contract.md §4.4):
   measured in the run (the stream's trailer, dsprof-format.h section 4), or
   for a profile without measurements the start-up figure of its header.  */
struct agg_costs
{
  /* Records are timed by their CPU-time samples (docs/contract.md §4.4,
     "Sampled times"): the profile has them, and neither --raw nor
     --deduced was asked for.  */
  bool by_samples;
  bool measured;                 /* else PAIR_NS alone */
  double pair_ns;                /* the header's cost of a Start/Finish pair */
  /* Measured: picoseconds per call of each hook kind (DSPROF_HOOK_*), the
     part before its event's time stamp and the part after it; and the
     caller's part of every hook call, which no hook sees.  */
  uint64_t before_ps[COSTS_NHOOKS], after_ps[COSTS_NHOOKS], caller_ps;
  /* The whole cost of an op hook call as its probes measured it where it
     ran (dsprof-format.h, section 4), the probes' own spread over the op
     calls included (OP_PROBE_PS of it), or 0: not measured (an older
     recorder's profile, no batch of probes, a clock other than the TSC).  */
  uint64_t op_ps, op_probe_ps;
  uint64_t setup_ns;             /* the stream's chunk setups, all of them */
  /* The sampled calls behind each hook kind's figures, and the op calls
     its probes replayed: what `dsprof info` states beside them.  */
  uint64_t sampled[COSTS_NHOOKS], replayed;
};

/* The costs of stream S of process P into *C: its own measured averages
   and caller's part, those of P's other streams for a hook kind S has no
   sample of, the
   header's start-up figure if P has no measurement at all; all zero if
   RAW (times as recorded); BY_SAMPLES if P's threads were sampled
   (DSPROF_FLAG_SAMPLED) and agg_costs_deduced was not called.  S NULL:
   P's averages over all its streams.  */
void agg_costs_of (const struct pf_process *p, const struct ev_stream *s,
                   bool raw, struct agg_costs *c);

/* Time records by the deduction even in a profile with CPU-time samples
   (--deduced): every later agg_costs_of.  */
void agg_costs_deduced (void);

/* The trailer that chunk CH of a stream whose costs are C gets in a merged
   profile, into OUT: its sums in picoseconds (unit_ps 1: the merged
   profile's clock is not the input's, NS_PER_TICK); a hook kind the stream
   has no sample of, and the caller's part if it has none, take what the
   stream's report used (C, its process's mean), as one sample, for in the
   merged profile the stream's process is not its own.  (The op probes'
   figures are kept as they are: a stream without them is deducted by its
   process's in the merged profile too.)  False if CH has no trailer.  */
bool costs_merged_trailer (const struct agg_costs *c,
                           const struct dsprof_events_chunk *ch,
                           double ns_per_tick,
                           struct dsprof_events_costs *out);

/* ---- 3. a record's deduction -------------------------------------------- */

/* The whole cost of one call of hook kind H (C measured), in ps: its two
   sampled parts and its caller's part; for an op hook call, what its
   probes measured, if they did (docs/contract.md §4.4).  */
static inline uint64_t
agg_hook_ps (const struct agg_costs *c, int h)
{
  if (h == DSPROF_HOOK_OP && c->op_ps)
    return c->op_ps;
  return c->before_ps[h] + c->after_ps[h] + c->caller_ps;
}

/* The hook kinds of record R's Start and Finish: an op record's are both
   the op hook's, whose one call per opcode ends a record and starts the
   next (dsprof-format.h, section 4).  */
static inline void
agg_record_hooks (const struct ev_record *r, int *start, int *finish)
{
  if (ev_record_op_p (r))
    *start = *finish = DSPROF_HOOK_OP;
  else
    {
      *start = r->site ? DSPROF_HOOK_ENTER : DSPROF_HOOK_START;
      *finish = r->site ? DSPROF_HOOK_EXIT : DSPROF_HOOK_FINISH;
    }
}

/* The whole cost of record R's own hook calls (C measured), in ps: its
   Start's, its Finish's if it has one (complete) and is not an op record
   (whose Finish is the next one's Start), and its dimensions'.  */
static inline uint64_t
agg_record_hooks_ps (const struct agg_costs *c, const struct ev_record *r)
{
  int s, f;
  agg_record_hooks (r, &s, &f);
  uint64_t ps = agg_hook_ps (c, s);
  if (r->complete && !ev_record_op_p (r))
    ps += agg_hook_ps (c, f);
  return ps + (uint64_t) r->nadded * agg_hook_ps (c, DSPROF_HOOK_DIM);
}

/* What R takes from the time of each of its ancestors, in ps: its hook
   calls and the chunk setups it holds itself.  */
static inline uint64_t
agg_record_cost_ps (const struct agg_costs *c, const struct ev_record *r)
{
  return agg_record_hooks_ps (c, r) + r->setup_ns * 1000;
}

/* The part of R's own costs inside its span, in ps: its Start's after the
   time stamp, its Finish's before it, its dimensions' whole, and the chunk
   setups it holds itself.  (The caller's parts of its own Start and Finish
   are left out: against known spins (bench/vmspin.c, bench/ftimes.c) the
   two sampled parts alone come closest to what the recorder adds to a
   record; the part before holds the read of the Finish's time stamp, the
   part after no read since the recorder takes the sampling's own out,
   docs/contract.md §4.4.)  A complete
   op record runs from one op hook's time stamp to the next one's, so it
   holds exactly one op hook call: where the probes measured that call
   (C->op_ps), its Start and Finish parts are that figure instead of the
   two sampled parts, whose clock reads the unsampled calls do not make
   (docs/contract.md §4.4).  */
static inline uint64_t
agg_record_inner_ps (const struct agg_costs *c, const struct ev_record *r)
{
  int s, f;
  agg_record_hooks (r, &s, &f);
  uint64_t own = r->complete && ev_record_op_p (r) && c->op_ps
                 ? c->op_ps
                 : c->after_ps[s] + (r->complete ? c->before_ps[f] : 0);
  return own
         + (uint64_t) r->nadded * agg_hook_ps (c, DSPROF_HOOK_DIM)
         + r->setup_ns * 1000;
}

/* The recorder's cost inside record R's span, in ns (docs/contract.md §4.4,
   §5.3).  Measured: agg_record_inner_ps of R plus DESC_PS, the sum of
   agg_record_cost_ps over its descendants, rounded up.  Without
   measurements: PAIR_NS for each of its NDESC descendants and half of it
   for its own pair.  In integers where measured; no conversion to an
   integer of a double beyond 2^64 (undefined) for a corrupt figure.  */
static inline uint64_t
agg_deduction (const struct agg_costs *c, const struct ev_record *r,
               uint64_t ndesc, uint64_t desc_ps)
{
  if (c->measured)
    {
      uint64_t ps = agg_record_inner_ps (c, r) + desc_ps;
      return ps / 1000 + (ps % 1000 != 0);
    }
  if (!(c->pair_ns > 0))
    return 0;
  double cut = ceil (c->pair_ns * ((double) ndesc + 0.5));
  return cut <= 0 ? 0 : cut >= 0x1p64 ? UINT64_MAX : (uint64_t) cut;
}

/* A record's time with the recorder's cost deducted: its duration DUR less
   DED (agg_deduction) - but never less than CHILD_NS, the sum of its direct
   children's deducted times, nor than 0.  A record whose deduction would
   leave it less than its children's keeps exactly theirs (no self time):
   then every record's self time, its time minus CHILD_NS, is >= 0, a
   subtree's self times add up to its root's time, and a row's Self never
   exceeds its Total.  The report, callgraph, dot, folded export and html all
   deduct with this.  */
static inline uint64_t
agg_deduct (uint64_t dur, uint64_t ded, uint64_t child_ns)
{
  uint64_t adj = dur > ded ? dur - ded : 0;
  return adj > child_ns ? adj : child_ns;
}

/* Whether agg_deduct clamped a record: its deduction DED (> 0) exceeded
   what its duration DUR leaves beyond its children's CHILD_NS, so that its
   deducted time is theirs, its Self 0 not as measured but because the
   estimate left no time.  The excess, in ns, into *OVER.  */
static inline bool
agg_clamped (uint64_t dur, uint64_t ded, uint64_t child_ns, uint64_t *over)
{
  uint64_t room = dur > child_ns ? dur - child_ns : 0;
  *over = ded > room ? ded - room : 0;
  return *over != 0;
}

/* What a record's descendants add up to, for agg_deduction: their number
   and their cost.  */
struct agg_desc
{
  uint64_t n, ps;
};

/* Record R's time, with its descendants' DESC and its direct children's
   times CHILD_NS: sampled (C->by_samples), the CPU time of the samples charged
   to R itself plus CHILD_NS; else its duration less its deduction
   (agg_deduct), and into *OVER (if not NULL) by how much the deduction
   exceeded what it left (agg_clamped; 0 by samples).  Either way >=
   CHILD_NS, so that Self = time - CHILD_NS.  The one rule of the report,
   callgraph, dot, the stacks and html.  */
static inline uint64_t
agg_record_time (const struct agg_costs *c, const struct ev_record *r,
                 const struct agg_desc *desc, uint64_t child_ns,
                 uint64_t *over)
{
  if (c->by_samples)
    {
      if (over)
        *over = 0;
      return r->sampled.ns + child_ns;
    }
  uint64_t dur = r->end_ns - r->start_ns;
  uint64_t ded = agg_deduction (c, r, desc->n, desc->ps);
  if (over)
    agg_clamped (dur, ded, child_ns, over);
  return agg_deduct (dur, ded, child_ns);
}

/* Add record R (its own descendants in RD) to its parent's PD.  */
static inline void
agg_desc_add (struct agg_desc *pd, const struct agg_costs *c,
              const struct ev_record *r, const struct agg_desc *rd)
{
  pd->n += rd->n + 1;
  if (c->measured)
    pd->ps += rd->ps + agg_record_cost_ps (c, r);
}


#endif /* DSPROF_COSTS_H */
