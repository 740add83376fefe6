/* cost.h - what the recorder (recorder.c) and its cost's state machine
   (cost.c, whose opening comment tells how) share: a thread's cost state,
   and the two steps of a sampled call, inline as they were in the hooks'
   sampled paths.

   cost.c:
   store          (below) store C's figures of HOOK in its chunk's trailer
                  (HOOK < 0: all of them)
   period         (inline) a new period of C: the countdown to its next
                  sampled call
   begin, end     (inline, below) around a sampled call of hook HOOK
                  (DSPROF_HOOK_*), the thread's time stamp LAST before it
                  and NOW after
   chunk          the thread's new chunk has its trailer at TRAILER, set up
                  in SETUP ticks
   fork_child     the figures of a forked child's own, from zero; the countdown
   probe_window   (inline) an op call reached op_sampled: the window under way
   probe_next     (inline, else probe_step) op_sampled's call returned: the
                  countdown to the next
   calibrated     the start-up figures: ticks a clock read adds, the
                  caller's part of CALLS hook calls
   clock_floor    the least ticks of ROUNDS rounds of READS clock reads  */

#ifndef DSPROF_COST_H
#define DSPROF_COST_H

#include "internal.h"

enum { DSPROF_PROBE_NONE, DSPROF_PROBE_LIGHT, DSPROF_PROBE_HEAVY,
       DSPROF_PROBE_NORMAL };
#define DSPROF_PROBE_WINDOW 128u         /* op calls per window */
#define DSPROF_PROBE_BATCH 15u           /* probes per batch */

/* The op probe under way: its WINDOW (DSPROF_PROBE_*), which window comes
   first, its op calls so far, the sampled op calls to the next probe
   (SKIP), the batch's size; the time stamp and the setups it began at, the
   windows' ticks (light, heavy, normal), the batch's differences (heavy -
   light, light - normal); the calls routed through op_sampled, the replays
   made, the op calls seen.  */
struct dsprof_probe
{
  uint8_t window, heavy_first;
  uint16_t calls, skip, batch_n;
  uint64_t t0, setup;
  uint64_t win[3];
  int64_t batch[2][DSPROF_PROBE_BATCH];
  uint64_t routed, replays, op_calls;
};

/* A thread's cost state.  COSTS are its sums so far, TRAILER where they go
   in its chunk (set with the chunk, not read from its header: the file may
   have been cut short under it), NULL if none; SETUP_TOTAL the ticks of all
   its chunks' setups; PERIOD the countdown's latest start, RNG the periods'
   pseudo-random state; SAMPLE_ALL for the start-up calibration (every call
   sampled).  */
struct dsprof_cost
{
  struct dsprof_events_costs costs;
  struct dsprof_events_costs *trailer;
  uint64_t setup_total;
  uint32_t period, rng;
  int sample_all;
  struct dsprof_probe probe;
};

/* Where a sampled call began: the thread's last time stamp, to tell whether
   the call recorded an event, and its setups so far.  */
struct dsprof_cost_mark
{
  uint64_t last, setup;
};

DSPROF_HIDDEN void dsprof_cost_chunk (struct dsprof_cost *c,
                                      struct dsprof_events_costs *trailer,
                                      uint64_t setup);
DSPROF_HIDDEN uint32_t dsprof_cost_fork_child (struct dsprof_cost *c);
DSPROF_HIDDEN uint32_t dsprof_probe_step (struct dsprof_cost *c, uint64_t last,
                                          uint64_t now);
DSPROF_HIDDEN void dsprof_cost_calibrated (uint64_t read, uint64_t caller,
                                           uint64_t calls);
DSPROF_HIDDEN uint64_t dsprof_cost_clock_floor (int rounds, int reads);

#define COST_PERIOD_MIN 64u
#define COST_PERIOD_MASK 127u

/* A new period for C: the countdown to the next sampled call.  Seeded by the
   state's page (the thread's), so that threads do not sample in step.  */

static inline uint32_t
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

/* An op call has reached op_sampled (its countdown ran out, or a probe
   routes every call): count it, and the calls the countdown let pass since
   the last.  Return the window under way (DSPROF_PROBE_*): what op_sampled
   does around the call.  */

static inline int
dsprof_probe_window (struct dsprof_cost *c)
{
  c->probe.op_calls += c->period;
  c->probe.routed++;
  return c->probe.window;
}

/* The op call op_sampled made has returned; the thread's time stamp was
   LAST before it, is NOW after.  Move the probe on; return the countdown to
   the next call through op_sampled.  Inline, a light or heavy window's
   calls but its last, which route the next call here again.  */

static inline uint32_t
dsprof_probe_next (struct dsprof_cost *c, uint64_t last, uint64_t now)
{
  struct dsprof_probe *p = &c->probe;
  if ((p->window == DSPROF_PROBE_LIGHT || p->window == DSPROF_PROBE_HEAVY)
      && ++p->calls < DSPROF_PROBE_WINDOW)
    {
      c->period = 1;
      return 1;
    }
  return dsprof_probe_step (c, last, now);
}

/* A sampled call that took longer than this, but for its setups, was
   interrupted (the thread was preempted, a signal handler ran): it is
   left out, for it would count the interruption 64 to 191 times over.
   About 100 us at 2.6 GHz (the TSC), 262 us in nanoseconds.  */
#define DSPROF_COST_SAMPLE_MAX (1u << 18)

/* What one read of the clock adds to the time between two others, in
   ticks: the least of back-to-back reads, measured at start-up
   (dsprof_cost_calibrated); 0 until then.  A sampled call reads the clock
   once more than an unsampled one (the reads at its entry and its return
   bound the parts, the time stamp is the call's own): dsprof_cost_end takes
   it out of the part after the time stamp.  */
DSPROF_HIDDEN extern uint64_t dsprof_cost_read_ticks;

/* The caller's part of a hook call, calibrated at start-up: ticks for
   CALLER_CALLS calls (dsprof_cost_calibrated).  */
DSPROF_HIDDEN extern uint64_t dsprof_cost_caller_ticks, dsprof_cost_caller_calls;

/* Store C's figures in the trailer of its chunk (if any): all of them
   (HOOK < 0, a new chunk), or those of HOOK, which changed.  Out of line,
   but a copy in each file that includes this one, the recorder's among
   them: a call within the hooks' file, which saves no more registers than
   this function uses, as when it was the recorder's own.  */

static __attribute__ ((noinline, unused)) void DSPROF_RECORDER_TEXT
dsprof_cost_store (struct dsprof_cost *c, int hook)
{
  struct dsprof_events_costs *tr = c->trailer;
  if (!tr)
    return;
  c->costs.magic = DSPROF_COSTS_MAGIC;
  c->costs.caller_ticks = __atomic_load_n (&dsprof_cost_caller_ticks, __ATOMIC_RELAXED);
  c->costs.caller_calls = __atomic_load_n (&dsprof_cost_caller_calls, __ATOMIC_RELAXED);
  if (hook < 0)
    {
      *tr = c->costs;
      return;
    }
  tr->caller_ticks = c->costs.caller_ticks;
  tr->caller_calls = c->costs.caller_calls;
  tr->hook[hook] = c->costs.hook[hook];
}

/* A sampled call begins; LAST is the thread's latest time stamp.  A new
   period starts, into *COUNTDOWN (the recorder's); another hook's sampled
   call ends a probe.  Return the clock now.  */

static inline uint64_t
dsprof_cost_begin (struct dsprof_cost *c, struct dsprof_cost_mark *m,
                   uint64_t last, uint32_t *countdown)
{
  *countdown = dsprof_cost_period (c);
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

static inline void
dsprof_cost_end (struct dsprof_cost *c, int hook, uint64_t t0,
                 const struct dsprof_cost_mark *m, uint64_t now)
{
  uint64_t t1 = dsprof_ticks ();
  if (now == m->last || now < t0 || now > t1)
    return;
  uint64_t before = now - t0, after = t1 - now;
  uint64_t read = __atomic_load_n (&dsprof_cost_read_ticks, __ATOMIC_RELAXED);
  after = after > read ? after - read : 0;
  uint64_t setup = c->setup_total - m->setup;
  if (t1 - t0 - setup > DSPROF_COST_SAMPLE_MAX)
    return;
  uint64_t *part = hook == DSPROF_HOOK_ENTER || hook == DSPROF_HOOK_START
                   || hook == DSPROF_HOOK_OP ? &before : &after;
  *part = *part > setup ? *part - setup : 0;
  struct dsprof_hook_cost *h = &c->costs.hook[hook];
  h->calls++;
  h->before_ticks += before;
  h->after_ticks += after;
  dsprof_cost_store (c, hook);
}

#endif /* DSPROF_COST_H */
