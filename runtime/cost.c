/* cost.c - the recorder's own cost, measured in the run (dsprof-format.h,
   section 4): the figures every chunk's trailer carries, so that reports can
   take the hooks' time out of the records (report/model/costs.c).

   A state machine of its own, with its state in struct dsprof_cost (the cold
   end of a thread's state, recorder.c).  The recorder drives it and runs the
   hooks; this file runs none and calls nothing but the clock.  Its one word
   on the hooks' fast path is the thread's countdown, `sample_left`, which the
   recorder keeps in the hot part: a hook call decrements it, and the call
   that reaches 0 is sampled, the countdown then set anew from what this file
   returns (dsprof_cost_begin, dsprof_probe_next...).

   1. Sampled calls.  Each hook times itself on a sample of its calls: a
      sampled call runs the hook again, as an ordinary call between two reads
      of the clock (dsprof_cost_begin, dsprof_cost_end), and the time stamp
      the event got splits the time into the parts before and after it.  So
      an unsampled call pays the countdown alone (a decrement and a branch
      not taken).  The sampled call counts as the first of the next period.
      The period is pseudo-random (64 to 191 calls), so that it does not keep
      step with page or chunk boundaries, whose costs the samples must catch
      in proportion.  A sampled call stores the thread's sums in its chunk's
      trailer too, where a killed process keeps them.

   2. The op probe.  The op hook's fast path is too short to time in parts:
      its whole cost is measured where it runs, over three windows of
      PROBE_WINDOW op calls each, one after the other.  In the light window
      every op call is routed through the recorder's op_sampled (the
      countdown is 1), in the heavy one op_sampled also replays the hook, in
      the normal one the calls take the fast path (the countdown is the
      window).  Window times run from time stamp to time stamp, so their
      differences are what a replay and a routing cost the program in
      throughput, out-of-order overlap and cache effects included.  A probe
      in which a chunk was set up, or that another hook's sampled call cut
      short (dsprof_cost_begin), is left out.  Each batch of PROBE_BATCH
      probes adds its medians (heavy - light, light - normal) PROBE_BATCH
      times over, so that a window an interrupt or a preemption lengthened
      counts for nothing.  Until the probes have measured the hook, sampled
      op calls are timed in parts as the other hooks' are.

   3. Calibration at start-up (the recorder's dsprof_recorder_measure runs
      the hooks on a scratch stream): what a clock read adds, and the
      caller's part of a hook call, given here with dsprof_cost_calibrated.  */

#include <string.h>

#include "internal.h"

#define COST_PERIOD_MIN 64u
#define COST_PERIOD_MASK 127u
/* A sampled call that took longer than this, but for its setups, was
   interrupted (the thread was preempted, a signal handler ran): it is
   left out, for it would count the interruption 64 to 191 times over.
   About 100 us at 2.6 GHz (the TSC), 262 us in nanoseconds.  */
#define COST_SAMPLE_MAX (1u << 18)

/* The caller's part of a hook call, calibrated at start-up: ticks for
   CALLER_CALLS calls.  */
static uint64_t caller_ticks, caller_calls;

/* What one read of the clock adds to the time between two others, in
   ticks: the least of back-to-back reads, measured at start-up; 0 until
   then.  A sampled call reads the clock once more than an unsampled one
   (the reads at its entry and its return bound the parts, the time stamp is
   the call's own): dsprof_cost_end takes it out of the part after the time
   stamp.  */
static uint64_t read_ticks;

void
dsprof_cost_calibrated (uint64_t read, uint64_t caller, uint64_t calls)
{
  __atomic_store_n (&read_ticks, read, __ATOMIC_RELAXED);
  __atomic_store_n (&caller_ticks, caller, __ATOMIC_RELAXED);
  __atomic_store_n (&caller_calls, calls, __ATOMIC_RELAXED);
}

/* The least ticks of ROUNDS rounds of READS back-to-back reads of the
   clock.  */

uint64_t
dsprof_cost_clock_floor (int rounds, int reads)
{
  uint64_t best = UINT64_MAX;
  for (int r = 0; r < rounds; r++)
    {
      uint64_t t0 = dsprof_ticks (), t = t0;
      for (int i = 0; i < reads; i++)
        t = dsprof_ticks ();
      if (t - t0 < best)
        best = t - t0;
    }
  return best;
}

/* ---- 1. sampled calls -------------------------------------------------------- */

/* A new period for C: the countdown to the next sampled call.  Seeded by the
   state's page (the thread's), so that threads do not sample in step.  */

uint32_t
dsprof_cost_period (struct dsprof_cost *c)
{
  if (c->sample_all)
    c->period = 2;           /* the next call but the hook's own again */
  else
    {
      uint32_t x = c->rng ? c->rng : (uint32_t) ((uintptr_t) c >> 12) | 1u;
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      c->rng = x;
      c->period = COST_PERIOD_MIN + (x & COST_PERIOD_MASK);
    }
  return c->period;
}

/* Store C's figures in the trailer of its chunk (if any): all of them
   (HOOK < 0, a new chunk), or those of HOOK, which changed.  */

static void
cost_store (struct dsprof_cost *c, int hook)
{
  struct dsprof_events_costs *tr = c->trailer;
  if (!tr)
    return;
  c->costs.magic = DSPROF_COSTS_MAGIC;
  c->costs.caller_ticks = __atomic_load_n (&caller_ticks, __ATOMIC_RELAXED);
  c->costs.caller_calls = __atomic_load_n (&caller_calls, __ATOMIC_RELAXED);
  if (hook < 0)
    {
      *tr = c->costs;
      return;
    }
  tr->caller_ticks = c->costs.caller_ticks;
  tr->caller_calls = c->costs.caller_calls;
  tr->hook[hook] = c->costs.hook[hook];
}

/* The thread has a new chunk, whose trailer is TRAILER, set up in SETUP
   ticks: the figures so far go into it.  */

void
dsprof_cost_chunk (struct dsprof_cost *c, struct dsprof_events_costs *trailer,
                   uint64_t setup)
{
  c->trailer = trailer;
  c->costs.setup_ticks = setup;
  c->setup_total += setup;
  cost_store (c, -1);
}

/* A sampled call begins; LAST is the thread's latest time stamp.  A new
   period starts (C->period: the recorder's countdown); another hook's
   sampled call ends a probe.  Return the clock now.  */

uint64_t
dsprof_cost_begin (struct dsprof_cost *c, struct dsprof_cost_mark *m,
                   uint64_t last)
{
  dsprof_cost_period (c);
  c->probe.window = DSPROF_PROBE_NONE;
  m->last = last;
  m->setup = c->setup_total;
  return dsprof_ticks ();
}

/* The sampled call of a hook of kind HOOK (DSPROF_HOOK_*) that began at T0
   (and M) has returned, the thread's time stamp now at NOW: add its parts
   before and after its time stamp to C's sums, if it recorded an event (the
   time stamp moved, into [T0, now]).  A chunk setup in the call is counted
   apart (dsprof_cost_chunk): it is taken out of the part it fell in, before
   the time stamp of a Start or of an op (whose clock the recorder reads
   again after the setup), after the others'.  */

void
dsprof_cost_end (struct dsprof_cost *c, int hook, uint64_t t0,
                 const struct dsprof_cost_mark *m, uint64_t now)
{
  uint64_t t1 = dsprof_ticks ();
  if (now == m->last || now < t0 || now > t1)
    return;
  uint64_t before = now - t0, after = t1 - now;
  uint64_t read = __atomic_load_n (&read_ticks, __ATOMIC_RELAXED);
  after = after > read ? after - read : 0;
  uint64_t setup = c->setup_total - m->setup;
  if (t1 - t0 - setup > COST_SAMPLE_MAX)
    return;
  uint64_t *part = hook == DSPROF_HOOK_ENTER || hook == DSPROF_HOOK_START
                   || hook == DSPROF_HOOK_OP ? &before : &after;
  *part = *part > setup ? *part - setup : 0;
  struct dsprof_hook_cost *h = &c->costs.hook[hook];
  h->calls++;
  h->before_ticks += before;
  h->after_ticks += after;
  cost_store (c, hook);
}

/* In a forked child: the child's own figures, from here.  Return the
   countdown.  */

uint32_t
dsprof_cost_fork_child (struct dsprof_cost *c)
{
  memset (&c->costs, 0, sizeof c->costs);
  c->trailer = NULL;
  memset (&c->probe, 0, sizeof c->probe);
  return dsprof_cost_period (c);
}

/* ---- 2. the op probe ------------------------------------------------------- */

/* Sampled op calls before the next probe: one probe in every 8 until 4
   batches are in, then one in 64.  */

static uint32_t
probe_gap (const struct dsprof_cost *c)
{
  return c->costs.hook[DSPROF_COST_OP_PROBE].calls < 4 * DSPROF_PROBE_BATCH
                                                     * DSPROF_PROBE_WINDOW
         ? 8 : 64;
}

static int64_t
batch_median (int64_t *v)
{
  for (uint32_t i = 1; i < DSPROF_PROBE_BATCH; i++)
    for (uint32_t j = i; j > 0 && v[j - 1] > v[j]; j--)
      {
        int64_t x = v[j];
        v[j] = v[j - 1];
        v[j - 1] = x;
      }
  return v[DSPROF_PROBE_BATCH / 2] > 0 ? v[DSPROF_PROBE_BATCH / 2] : 0;
}

/* A probe has ended: add it to the batch; a full batch to C's figures, and
   what the probes themselves cost so far (the routed calls and the replays
   at the figures measured), stored in the trailer.  */

static void
probe_done (struct dsprof_cost *c)
{
  struct dsprof_probe *p = &c->probe;
  uint64_t *w = p->win;
  p->batch[0][p->batch_n] = (int64_t) (w[1] - w[0]);
  p->batch[1][p->batch_n] = (int64_t) (w[0] - w[2]);
  if (++p->batch_n < DSPROF_PROBE_BATCH)
    return;
  p->batch_n = 0;
  struct dsprof_hook_cost *k = &c->costs.hook[DSPROF_COST_OP_PROBE];
  k->calls += DSPROF_PROBE_BATCH * DSPROF_PROBE_WINDOW;
  k->before_ticks += DSPROF_PROBE_BATCH * (uint64_t) batch_median (p->batch[0]);
  k->after_ticks += DSPROF_PROBE_BATCH * (uint64_t) batch_median (p->batch[1]);
  struct dsprof_hook_cost *x = &c->costs.hook[DSPROF_COST_OP_EXTRA];
  x->calls = p->op_calls;
  x->before_ticks = (uint64_t) (((double) p->replays * (double) k->before_ticks
                                 + (double) p->routed * (double) k->after_ticks)
                                / (double) k->calls);
  cost_store (c, DSPROF_COST_OP_PROBE);
  cost_store (c, DSPROF_COST_OP_EXTRA);
}

/* An op call has reached op_sampled (its countdown ran out, or a probe
   routes every call): count it, and the calls the countdown let pass since
   the last.  Return the window under way (DSPROF_PROBE_*): what op_sampled
   does around the call.  */

int
dsprof_probe_window (struct dsprof_cost *c)
{
  c->probe.op_calls += c->period;
  c->probe.routed++;
  return c->probe.window;
}

/* Route the next N op calls past op_sampled, the Nth through it.  */

static uint32_t
probe_route (struct dsprof_cost *c, uint32_t n)
{
  c->period = n;
  return n;
}

/* No probe under way: start one, every probe_gap'th sampled op call that
   recorded an op (NOW moved from LAST).  */

static uint32_t
probe_start (struct dsprof_cost *c, uint64_t last, uint64_t now)
{
  struct dsprof_probe *p = &c->probe;
  if (now == last || ++p->skip < probe_gap (c))
    return c->period;
  p->skip = 0;
  p->heavy_first ^= 1;
  p->window = p->heavy_first ? DSPROF_PROBE_HEAVY : DSPROF_PROBE_LIGHT;
  p->calls = 0;
  p->t0 = now;
  p->setup = c->setup_total;
  return probe_route (c, 1);
}

/* The op call op_sampled made has returned; the thread's time stamp was
   LAST before it, is NOW after.  Move the probe on; return the countdown to
   the next call through op_sampled.  */

uint32_t
dsprof_probe_next (struct dsprof_cost *c, uint64_t last, uint64_t now)
{
  struct dsprof_probe *p = &c->probe;
  if (p->window == DSPROF_PROBE_NONE)
    return probe_start (c, last, now);
  if (p->window == DSPROF_PROBE_NORMAL)
    {
      p->win[2] = now - p->t0;
      p->window = DSPROF_PROBE_NONE;
      uint32_t n = dsprof_cost_period (c);
      if (c->setup_total == p->setup && now != last)
        probe_done (c);
      return n;
    }
  int heavy = p->window == DSPROF_PROBE_HEAVY;
  if (++p->calls < DSPROF_PROBE_WINDOW)
    return probe_route (c, 1);
  p->win[heavy] = now - p->t0;
  p->t0 = now;
  p->calls = 0;
  /* Light and heavy in either order, then normal.  */
  if (heavy == p->heavy_first)
    {
      p->window = heavy ? DSPROF_PROBE_LIGHT : DSPROF_PROBE_HEAVY;
      return probe_route (c, 1);
    }
  p->window = DSPROF_PROBE_NORMAL;
  return probe_route (c, DSPROF_PROBE_WINDOW);
}
