/* costs.c - the recorder's own cost as the report reads and deducts it
   (see costs.h): the chunks' trailers, in every version a recorder wrote,
   gathered per stream and per process, and turned into the costs per hook
   call that the deduction formula (costs.h) takes.  */

#include <math.h>
#include <string.h>

#include "costs.h"
#include "profile.h"

/* ---- 1. trailers -------------------------------------------------------- */

bool
costs_trailer (const struct dsprof_events_chunk *ch,
                struct dsprof_events_costs *out)
{
  /* Not one if its stream reaches into the trailer's bytes, or if they are
     no trailer (a chunk of a still older recorder).  */
  size_t room = sizeof *ch + sizeof (struct dsprof_events_costs);
  if (ch->chunk.size < room || ch->used > ch->chunk.size - room)
    return false;
  memcpy (out, (const char *) ch + ch->chunk.size - sizeof *out, sizeof *out);
  if (out->magic == DSPROF_COSTS_MAGIC)
    return true;
  if (out->magic != DSPROF_COSTS_MAGIC_1)
    return false;
  /* Its op probe's stretches with a replay and without, each at least 100
     (dsprof-format.h, section 4): their means' difference is the op hook
     call's cost (that probe's own was not counted).  */
  struct dsprof_hook_cost with = out->hook[DSPROF_COST_OP_PROBE];
  struct dsprof_hook_cost without = out->hook[DSPROF_COST_OP_EXTRA];
  out->hook[DSPROF_COST_OP_PROBE] = out->hook[DSPROF_COST_OP_EXTRA]
    = (struct dsprof_hook_cost) { 0, 0, 0 };
  out->magic = DSPROF_COSTS_MAGIC;
  if (with.calls >= 100 && without.calls >= 100)
    {
      double d = (double) with.before_ticks
                 - (double) without.before_ticks / (double) without.calls
                   * (double) with.calls;
      out->hook[DSPROF_COST_OP_PROBE].calls = with.calls;
      out->hook[DSPROF_COST_OP_PROBE].before_ticks
        = d > 0 && d < 0x1p63 ? (uint64_t) d : 0;
    }
  return true;
}

uint64_t
costs_ps (const struct dsprof_events_costs *c, uint64_t ticks,
             double ns_per_tick)
{
  if (c->unit_ps)
    return ticks * c->unit_ps;
  double ps = (double) ticks * ns_per_tick * 1000.0;
  return ps > 0 && ps < 0x1p63 ? (uint64_t) llround (ps) : 0;
}

/* The trailer IN with its sums in picoseconds (unit_ps 1) into *OUT.  */

static void
costs_to_ps (const struct dsprof_events_costs *in, double ns_per_tick,
             struct dsprof_events_costs *out)
{
  *out = *in;
  out->unit_ps = 1;
  out->setup_ticks = costs_ps (in, in->setup_ticks, ns_per_tick);
  out->caller_ticks = costs_ps (in, in->caller_ticks, ns_per_tick);
  for (int h = 0; h < DSPROF_NHOOKS; h++)
    {
      out->hook[h].before_ticks = costs_ps (in, in->hook[h].before_ticks,
                                            ns_per_tick);
      out->hook[h].after_ticks = costs_ps (in, in->hook[h].after_ticks,
                                           ns_per_tick);
    }
}

void
costs_read_stream (struct pf_process *p, struct ev_stream *s)
{
  for (uint32_t k = s->nchunks; k-- > 0;)
    {
      struct dsprof_events_costs c;
      if (!costs_trailer (s->chunks[k], &c))
        continue;
      s->setup_ns += costs_ps (&c, c.setup_ticks, p->clock.ns_per_tick)
                     / 1000;
      if (!s->has_costs)
        s->costs = c;
      s->has_costs = true;
    }
  if (!s->has_costs)
    return;
  p->measured++;
  struct dsprof_events_costs *pc = &p->costs;
  pc->magic = DSPROF_COSTS_MAGIC;
  pc->unit_ps = s->costs.unit_ps;
  p->setup_ns += s->setup_ns;
  if (s->costs.caller_calls && !pc->caller_calls)
    {
      pc->caller_ticks = s->costs.caller_ticks;
      pc->caller_calls = s->costs.caller_calls;
    }
  for (int h = 0; h < DSPROF_NHOOKS; h++)
    {
      pc->hook[h].calls += s->costs.hook[h].calls;
      pc->hook[h].before_ticks += s->costs.hook[h].before_ticks;
      pc->hook[h].after_ticks += s->costs.hook[h].after_ticks;
    }
}

/* ---- 2. the costs of a stream ------------------------------------------- */

/* Picoseconds per call from TICKS of C over CALLS at NS_PER_TICK, rounded.  */

static uint64_t
per_call_ps (const struct dsprof_events_costs *c, uint64_t ticks,
             uint64_t calls, double ns_per_tick)
{
  return calls ? (costs_ps (c, ticks, ns_per_tick) + calls / 2) / calls : 0;
}

/* --deduced: no sampled times.  */
static bool deduced_only;

void
agg_costs_deduced (void)
{
  deduced_only = true;
}

void
agg_costs_of (const struct pf_process *p, const struct ev_stream *s, bool raw,
              struct agg_costs *c)
{
  memset (c, 0, sizeof *c);
  if (raw)
    return;
  c->by_samples = (p->header.flags & DSPROF_FLAG_SAMPLED) && !deduced_only;
  /* A stream without measurements (an older recorder's, or one merged
     with them) is deducted by its process's start-up figure.  */
  if (!p->measured || (s && !s->has_costs))
    {
      c->pair_ns = (double) p->header.pair_overhead_ps / 1000.0;
      return;
    }
  c->measured = true;
  double npt = p->clock.ns_per_tick;
  for (int h = 0; h < COSTS_NHOOKS; h++)
    {
      const struct dsprof_events_costs *from
        = s && s->has_costs && s->costs.hook[h].calls ? &s->costs : &p->costs;
      const struct dsprof_hook_cost *k = &from->hook[h];
      c->before_ps[h] = per_call_ps (from, k->before_ticks, k->calls, npt);
      c->after_ps[h] = per_call_ps (from, k->after_ticks, k->calls, npt);
      c->sampled[h] = k->calls;
    }
  const struct dsprof_events_costs *cal
    = s && s->has_costs && s->costs.caller_calls ? &s->costs : &p->costs;
  c->caller_ps = per_call_ps (cal, cal->caller_ticks, cal->caller_calls, npt);
  /* The op probes (a batch at least): an op hook call's cost, and the
     probes' own spread over the op calls, from the same figures (the
     stream's if it has them, else its process's).  */
  const struct dsprof_events_costs *pr
    = s && s->has_costs && s->costs.hook[DSPROF_COST_OP_PROBE].calls
      ? &s->costs : &p->costs;
  const struct dsprof_hook_cost *k = &pr->hook[DSPROF_COST_OP_PROBE];
  const struct dsprof_hook_cost *x = &pr->hook[DSPROF_COST_OP_EXTRA];
  if (k->calls)
    {
      c->op_probe_ps = per_call_ps (pr, x->before_ticks, x->calls, npt);
      /* 1 ps at least: measured, if nothing to deduct.  */
      c->op_ps = per_call_ps (pr, k->before_ticks, k->calls, npt)
                 + c->op_probe_ps;
      c->op_ps += !c->op_ps;
      c->replayed = k->calls;
    }
  c->setup_ns = s ? s->setup_ns : p->setup_ns;
}

/* ---- the merge's trailers ----------------------------------------------- */

bool
costs_merged_trailer (const struct agg_costs *c,
                      const struct dsprof_events_chunk *ch, double ns_per_tick,
                      struct dsprof_events_costs *out)
{
  struct dsprof_events_costs in;
  if (!costs_trailer (ch, &in))
    return false;
  costs_to_ps (&in, ns_per_tick, out);
  for (int h = 0; h < COSTS_NHOOKS; h++)
    if (!out->hook[h].calls)
      out->hook[h] = (struct dsprof_hook_cost) { 1, c->before_ps[h],
                                                 c->after_ps[h] };
  if (!out->caller_calls)
    {
      out->caller_calls = 1;
      out->caller_ticks = c->caller_ps;
    }
  return true;
}
