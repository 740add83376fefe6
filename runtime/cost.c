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
      not taken).
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
#include "cost.h"

/* The start-up figures (cost.h).  */
uint64_t dsprof_cost_read_ticks, dsprof_cost_caller_ticks,
  dsprof_cost_caller_calls;

/* ---- 1. sampled calls --------------------------------------------------- */

/* The thread has a new chunk, whose trailer is TRAILER, set up in SETUP
   ticks: the figures so far go into it.  */

void
dsprof_cost_chunk (struct dsprof_cost *c, struct dsprof_events_costs *trailer,
                   uint64_t setup)
{
  c->trailer = trailer;
  c->costs.setup_ticks = setup;
  c->setup_total += setup;
  dsprof_cost_store (c, -1);
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

/* ---- 2. the op probe ---------------------------------------------------- */

/* Sampled op calls before the next probe: one probe in every 8 until 4
   batches are in, then one in 64.  */

static uint32_t DSPROF_RECORDER_TEXT
probe_gap (const struct dsprof_cost *c)
{
  return c->costs.hook[DSPROF_COST_OP_PROBE].calls < 4 * DSPROF_PROBE_BATCH
                                                     * DSPROF_PROBE_WINDOW
         ? 8 : 64;
}

static int64_t DSPROF_RECORDER_TEXT
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

static void DSPROF_RECORDER_TEXT
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
  dsprof_cost_store (c, DSPROF_COST_OP_PROBE);
  dsprof_cost_store (c, DSPROF_COST_OP_EXTRA);
}

/* Route the next N op calls past op_sampled, the Nth through it.  */

static uint32_t DSPROF_RECORDER_TEXT
probe_route (struct dsprof_cost *c, uint32_t n)
{
  c->period = n;
  return n;
}

/* No probe under way: start one, every probe_gap'th sampled op call that
   recorded an op (NOW moved from LAST).  */

static uint32_t DSPROF_RECORDER_TEXT
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

/* dsprof_probe_next (cost.h) but in a light or heavy window's calls but its
   last: no probe under way, the normal window over, or a window's last
   call.  */

uint32_t DSPROF_RECORDER_TEXT
dsprof_probe_step (struct dsprof_cost *c, uint64_t last, uint64_t now)
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

/* ---- 3. calibration at start-up ----------------------------------------- */

/* The start-up figures (dsprof_recorder_measure): READ ticks a clock read
   adds, CALLER ticks for CALLS calls the caller's part.  */

void
dsprof_cost_calibrated (uint64_t read, uint64_t caller, uint64_t calls)
{
  __atomic_store_n (&dsprof_cost_read_ticks, read, __ATOMIC_RELAXED);
  __atomic_store_n (&dsprof_cost_caller_ticks, caller, __ATOMIC_RELAXED);
  __atomic_store_n (&dsprof_cost_caller_calls, calls, __ATOMIC_RELAXED);
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
