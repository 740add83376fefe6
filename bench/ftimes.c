/* ftimes.c - functions of known busy-wait times, nested and recursive, for
   the function_times row of scripts/bench.sh: built with functions=all,
   TASK is an annotated function (event type Task), the others are events by
   functions=all.  Each function busy-waits on the clock and adds what it
   waited to its own sum, the independent measure of its Self:

     task (annotated)   spins 2 us, calls step 3 times and rec (3)
     step               spins 400 ns, calls leaf twice
     leaf               spins 150 ns
     rec (n)            calls rec (n - 1) down to rec (0), spins 250 ns

   `ftimes N` runs task N times and prints, one line per function, its
   name, its calls, its median busy-wait and the sum of them, in ns ("leaf
   120000 151.2 18432000"; x86-64: the spins read the TSC, and each counts
   its first read's own time, which a time from read to read leaves out).  The waits are
   short (150 ns to 2 us), so that the hooks' costs deducted by the report
   are a tenth or more of them; the medians hold against a busy machine,
   whose preemptions lengthen a few calls by milliseconds.  */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <dsprof.h>

enum { TASK, STEP, LEAF, REC, NFUNCS };
static const char *const names[NFUNCS] = { "task", "step", "leaf", "rec" };
static uint64_t spent[NFUNCS];       /* ticks */
static uint32_t *each[NFUNCS];        /* each call's ticks */
static size_t ncalls[NFUNCS];

static double ticks_per_ns = 1.0;
static uint64_t read_ticks;           /* one read of the TSC */

static uint64_t
mono_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

/* A macro, not a function: functions=all would make a function an event.
   The spin reads the TSC (a few ns a read; the system clock may be a
   system call on a virtual machine), in ticks; main converts.  */
#define SPIN(f, ns)                                                     \
  do                                                                    \
    {                                                                   \
      uint64_t t0_ = __builtin_ia32_rdtsc (), t_;                       \
      uint64_t n_ = (uint64_t) ((ns) * ticks_per_ns);                   \
      do                                                                \
        t_ = __builtin_ia32_rdtsc ();                                   \
      while (t_ - t0_ < n_);                                            \
      spent[f] += t_ - t0_ + read_ticks;                                \
      each[f][ncalls[f]++] = (uint32_t) (t_ - t0_ + read_ticks);        \
    }                                                                   \
  while (0)

/* One read of the TSC: the least of 1,000 rounds of 128 back-to-back
   reads, per read.  A spin timed from its first read to its last leaves
   out the first read's own time, which the function spends: each spin
   counts it.  */
static __attribute__ ((noinline)) uint64_t
tsc_read (void)
{
  uint64_t best = UINT64_MAX;
  for (int r = 0; r < 1000; r++)
    {
      uint64_t t0 = __builtin_ia32_rdtsc (), t = t0;
      for (int i = 0; i < 128; i++)
        t = __builtin_ia32_rdtsc ();
      if (t - t0 < best)
        best = t - t0;
    }
  return (best + 64) / 128;
}

/* The TSC's rate against the system clock over 20 ms.  */
static __attribute__ ((noinline)) double
tsc_rate (void)
{
  uint64_t n0 = mono_ns (), c0 = __builtin_ia32_rdtsc (), n;
  do
    n = mono_ns ();
  while (n - n0 < 20000000);
  return (double) (__builtin_ia32_rdtsc () - c0) / (double) (n - n0);
}

static __attribute__ ((noinline)) void
leaf (void)
{
  SPIN (LEAF, 150);
}

static __attribute__ ((noinline)) void
step (void)
{
  SPIN (STEP, 400);
  leaf ();
  leaf ();
}

/* Its spin after the call: no tail call, which the compiler would make a
   loop (functions=all's events are the calls as compiled).  */
static __attribute__ ((noinline)) void
rec (int n)
{
  if (n > 0)
    rec (n - 1);
  SPIN (REC, 250);
}

DSPROF_EVENT_TYPE ("Task") __attribute__ ((noinline)) void
task (void)
{
  SPIN (TASK, 2000);
  for (int k = 0; k < 3; k++)
    step ();
  rec (3);
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 20000;
  ticks_per_ns = tsc_rate ();
  read_ticks = tsc_read ();
  for (int f = 0; f < NFUNCS; f++)
    if (!(each[f] = malloc ((size_t) n * 6 * sizeof *each[f])))
      return 1;
  for (long i = 0; i < n; i++)
    task ();
  for (int f = 0; f < NFUNCS; f++)
    {
      /* The median by selection, in main's own loop: a comparison function
         would be a record of its own, millions of them (functions=all).  */
      uint32_t *v = each[f];
      long lo = 0, hi = (long) ncalls[f] - 1, k = (long) ncalls[f] / 2;
      while (lo < hi)
        {
          uint32_t pivot = v[lo + (hi - lo) / 2];
          long i = lo, j = hi;
          while (i <= j)
            {
              while (v[i] < pivot)
                i++;
              while (v[j] > pivot)
                j--;
              if (i <= j)
                {
                  uint32_t t = v[i];
                  v[i++] = v[j];
                  v[j--] = t;
                }
            }
          if (k <= j)
            hi = j;
          else if (k >= i)
            lo = i;
          else
            break;
        }
      printf ("%s %zu %.1f %.0f\n", names[f], ncalls[f], v[k] / ticks_per_ns,
              (double) spent[f] / ticks_per_ns);
    }
  return 0;
}
