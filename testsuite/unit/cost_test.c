/* cost_test.c - the runtime's cost state machine (runtime/cost.c), driven as
   the recorder's op_sampled drives it, without a hook or a clock: the op
   probe starts every 8th sampled op call that recorded an op, routes every
   op call of its light and heavy windows (countdown 1) and lets its normal
   window's pass (countdown 128), and a batch of 15 probes adds the medians of
   the windows' differences, 15 times over, to the thread's figures and its
   trailer; the op calls it counts are the countdowns it handed out.  */

#include <CUnit/CUnit.h>

#include <string.h>

#include "internal.h"
#include "cost.h"

/* One op call through op_sampled on C at time *NOW, which the call moves by
   STEP ticks: the countdown it hands back.  *ROUTED counts the calls, *SUM
   the countdowns handed out before them (the op calls they stand for).  */

static uint32_t
op_call (struct dsprof_cost *c, uint64_t *now, uint64_t step,
         uint32_t *countdown, uint64_t *sum)
{
  *sum += *countdown;
  dsprof_probe_window (c);
  uint64_t last = *now;
  *now += step;
  if (c->probe.window == DSPROF_PROBE_NONE)
    dsprof_cost_period (c);       /* op_sampled's untimed call */
  *countdown = dsprof_probe_next (c, last, *now);
  return *countdown;
}

/* One whole probe on C: sampled op calls until one starts it, its light
   window's calls 10 ticks each, its heavy window's 20, its normal window
   640 ticks in all.  Return whether every countdown was as it should.  */

static int
one_probe (struct dsprof_cost *c, uint64_t *now, uint32_t *countdown,
           uint64_t *sum)
{
  int ok = 1, calls = 0;
  while (c->probe.window == DSPROF_PROBE_NONE && calls++ < 8)
    {
      uint32_t n = op_call (c, now, 5, countdown, sum);
      int started = c->probe.window != DSPROF_PROBE_NONE;
      ok &= started ? n == 1 : n >= 64 && n < 192;
    }
  ok &= calls == 8;
  for (int w = 0; w < 2; w++)
    {
      uint64_t step = c->probe.window == DSPROF_PROBE_HEAVY ? 20 : 10;
      int window = c->probe.window;
      ok &= window == DSPROF_PROBE_LIGHT || window == DSPROF_PROBE_HEAVY;
      for (uint32_t i = 1; i <= DSPROF_PROBE_WINDOW; i++)
        {
          uint32_t n = op_call (c, now, step, countdown, sum);
          ok &= i < DSPROF_PROBE_WINDOW ? n == 1 && c->probe.window == window
                : w == 0 ? n == 1 && c->probe.window != window
                : n == DSPROF_PROBE_WINDOW
                  && c->probe.window == DSPROF_PROBE_NORMAL;
        }
    }
  uint32_t n = op_call (c, now, 640, countdown, sum);
  return ok && n >= 64 && n < 192 && c->probe.window == DSPROF_PROBE_NONE;
}

static void
test_cost_probe_batch (void)
{
  struct dsprof_cost c;
  struct dsprof_events_costs trailer;
  memset (&c, 0, sizeof c);
  memset (&trailer, 0, sizeof trailer);
  dsprof_cost_chunk (&c, &trailer, 0);
  uint32_t countdown = dsprof_cost_period (&c);
  CU_ASSERT (countdown >= 64 && countdown < 192);
  uint64_t now = 1000, sum = 0;
  for (uint32_t p = 0; p < DSPROF_PROBE_BATCH; p++)
    {
      CU_ASSERT_FATAL (one_probe (&c, &now, &countdown, &sum));
      CU_ASSERT_EQUAL (c.costs.hook[DSPROF_COST_OP_PROBE].calls,
                       p + 1 < DSPROF_PROBE_BATCH
                       ? 0 : DSPROF_PROBE_BATCH * DSPROF_PROBE_WINDOW);
    }
  /* Heavy less light: 128 calls of 10 ticks more; light less normal:
     1280 - 640.  */
  const struct dsprof_hook_cost *k = &trailer.hook[DSPROF_COST_OP_PROBE];
  CU_ASSERT_EQUAL (trailer.magic, DSPROF_COSTS_MAGIC);
  CU_ASSERT_EQUAL (k->calls, DSPROF_PROBE_BATCH * DSPROF_PROBE_WINDOW);
  CU_ASSERT_EQUAL (k->before_ticks, DSPROF_PROBE_BATCH * 1280u);
  CU_ASSERT_EQUAL (k->after_ticks, DSPROF_PROBE_BATCH * 640u);
  /* The op calls: the countdowns handed out, the last one's call yet to
     come.  */
  CU_ASSERT_EQUAL (trailer.hook[DSPROF_COST_OP_EXTRA].calls, sum);
}

/* A sampled call of another hook ends a probe under way; a fork's child
   starts from no figures and no probe.  */

static void
test_cost_probe_cut (void)
{
  struct dsprof_cost c;
  memset (&c, 0, sizeof c);
  uint32_t countdown = dsprof_cost_period (&c);
  uint64_t now = 1000, sum = 0;
  for (int i = 0; i < 8; i++)
    op_call (&c, &now, 5, &countdown, &sum);
  CU_ASSERT_NOT_EQUAL (c.probe.window, DSPROF_PROBE_NONE);
  struct dsprof_cost_mark m;
  dsprof_cost_begin (&c, &m, now, &countdown);
  CU_ASSERT_EQUAL (c.probe.window, DSPROF_PROBE_NONE);
  CU_ASSERT (countdown >= 64 && countdown < 192);
  c.costs.hook[DSPROF_HOOK_ENTER].calls = 3;
  uint32_t n = dsprof_cost_fork_child (&c);
  CU_ASSERT (n >= 64 && n < 192);
  CU_ASSERT_EQUAL (c.costs.hook[DSPROF_HOOK_ENTER].calls, 0);
  CU_ASSERT_EQUAL (c.probe.skip, 0);
  CU_ASSERT_PTR_NULL (c.trailer);
}

void
cost_test_register (void)
{
  CU_pSuite s = CU_add_suite ("cost", NULL, NULL);
  if (!s)
    return;
  CU_add_test (s, "test_cost_probe_batch", test_cost_probe_batch);
  CU_add_test (s, "test_cost_probe_cut", test_cost_probe_cut);
}
