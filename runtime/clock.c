/* clock.c - the recorder's clock: which clock events are timed by, its rate,
   and the clock fields of a profile's header (dsprof-format.h, section 4).

   It is a file of its own because the choice is made once and read everywhere:
   the hooks read the clock inline (dsprof_ticks, internal.h), the recorder and
   the writer stamp chunks and headers with it, and reports turn its ticks into
   nanoseconds by the rate measured here.  Where the processor has an invariant
   TSC, events are timed by rdtsc; elsewhere by CLOCK_MONOTONIC in nanoseconds.  */

#include <stdint.h>

#include "internal.h"

/* 1 if events are timed by the TSC, 0 if by CLOCK_MONOTONIC; -1 until
   dsprof_clock_init ().  */
int dsprof_clock_tsc = -1;

/* Ticks per second, measured by dsprof_clock_calibrate (); 0 until then.  */
static uint64_t tick_hz;

/* Whether the processor's TSC runs at a constant rate in every power state
   (CPUID 0x80000007, EDX bit 8): only then are its ticks a clock.  */

static int
invariant_tsc_p (void)
{
#if defined(__x86_64__) || defined(__i386__)
  unsigned a, b, c, d;
  __asm__ volatile ("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000000u));
  if (a < 0x80000007u)
    return 0;
  __asm__ volatile ("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000007u));
  return (d >> 8) & 1;
#else
  return 0;
#endif
}

DSPROF_HIDDEN void
dsprof_clock_init (void)
{
  __atomic_store_n (&dsprof_clock_tsc, invariant_tsc_p (), __ATOMIC_RELAXED);
}

/* Measure the clock's rate against CLOCK_MONOTONIC over 2 ms (once, for programs
   that record events).  */

DSPROF_HIDDEN void
dsprof_clock_calibrate (void)
{
  if (!dsprof_clock_tsc_p ())
    {
      tick_hz = 1000000000u;
      return;
    }
  uint64_t n0 = dsprof_mono_ns (), t0 = dsprof_ticks (), n1, t1;
  do
    {
      n1 = dsprof_mono_ns ();
      t1 = dsprof_ticks ();
    }
  while (n1 - n0 < 2000000u);
  tick_hz = (uint64_t) ((double) (t1 - t0) * 1e9 / (double) (n1 - n0));
}

/* Fill the clock fields of a new profile header H: which clock, its rate (if
   measured yet) and the ticks at H's start_mono_ns.  */

DSPROF_HIDDEN void
dsprof_clock_header_init (struct dsprof_file_header *h)
{
  h->clock = dsprof_clock_tsc_p () ? DSPROF_CLOCK_TSC : DSPROF_CLOCK_NS;
  if (!h->start_ticks)
    {
      /* Ticks at start_mono_ns, by the calibrated rate if there is one.  */
      uint64_t now_t = dsprof_ticks (), now_n = dsprof_mono_ns ();
      double back = (double) (now_n - h->start_mono_ns)
                    * (tick_hz ? (double) tick_hz / 1e9 : 0.0);
      h->start_ticks = now_t - (uint64_t) back;
    }
  h->tick_hz = tick_hz;
}
