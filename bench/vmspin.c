/* vmspin.c - a toy bytecode VM whose three opcodes each spin for a known
   number of clock ticks, for the accuracy of dsprof's times per record
   (scripts/bench.sh, row "vm_times"):

     vmspin MODE N

   runs a program of N instructions, half of them spin50 (50 ticks), three
   in ten spin200 and two in ten spin1000, in an order that does not repeat
   with any short period.  MODE hook: each opcode is an annotated function
   (op_spin50, op_spin200, op_spin1000), a record per execution; manual: each
   opcode runs inside dsprof_start ("spin50") ... dsprof_finish; dispatch:
   the opcodes are the cases of run_dispatch's `switch', which the plugin
   argument dispatch=run_dispatch makes op records (docs/vm.md, records
   SPIN50, SPIN200, SPIN1000); plain: no events (built without the plugin
   too).

   Each opcode times its own spin with the same clock (rdtsc where there is
   one), from its first read to its last, plus one read's own time (the
   least of back-to-back reads, measured at the start), which the function
   spends in its first read and a time from read to read leaves out.  It
   prints, per opcode, how many ran and the mean and the median
   time of their spins in ns ("spin50 150000 19.73 19.62"), the ticks
   converted at the rate measured over the whole run against
   CLOCK_MONOTONIC.  That is the time a record of the opcode holds but for
   the recorder: what dsprof's Self of the opcode's records should be.  On a
   busy machine the means carry the preemptions that fall in a record, in
   the recorder's part of it as well as in the spin: the medians do not.

   The spin is not the whole opcode, though: the loop, the dispatch, storing
   the figure and the spin's first clock read lie outside it.  So each line
   also gives the mean and the median of the opcode's whole time, from its
   spin's first clock read to the next opcode's ("spin50 150000 19.73 19.62
   31.40 30.80"): the clock reads the program makes anyway, no hook.  Built
   without the plugin, run as dispatch, that is the opcode's time in the
   plain program, which an op record's Self should be: an op record runs
   from its case label to the next opcode's, and the two stretches differ
   only by where in the case they start.  */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dsprof.h>

enum vmop { SPIN50, SPIN200, SPIN1000, NOPS };
static const char *const names[NOPS] = { "spin50", "spin200", "spin1000" };
static uint64_t spun[NOPS], ran[NOPS];
static uint32_t *spins[NOPS];     /* each spin's ticks, for the medians */
/* Each opcode's whole time: from its spin's first clock read to the next
   one's, summed and one by one (the last opcode has none).  */
static uint64_t whole[NOPS], nwhole[NOPS];
static uint32_t *wholes[NOPS];
static uint64_t last_t0;          /* the last spin's first clock read */
static int last_op = -1;          /* and its opcode */
static uint64_t read_ticks;       /* one read of the clock */

static inline uint32_t
u32 (uint64_t t)
{
  return (uint32_t) (t < UINT32_MAX ? t : UINT32_MAX);
}

static inline uint64_t
ticks (void)
{
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_ia32_rdtsc ();
#else
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
#endif
}

static uint64_t
mono_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* One read of the clock: the least of 1,000 rounds of 128 back-to-back
   reads, per read.  */
static __attribute__ ((noinline)) uint64_t
clock_read (void)
{
  uint64_t best = UINT64_MAX;
  for (int r = 0; r < 1000; r++)
    {
      uint64_t t0 = ticks (), t = t0;
      for (int i = 0; i < 128; i++)
        t = ticks ();
      if (t - t0 < best)
        best = t - t0;
    }
  return (best + 64) / 128;
}

/* Spin for N ticks; add the ticks spun, the first read's included, to
   opcode OP's.  */
static inline void
spin (int op, uint64_t n)
{
  uint64_t t0 = ticks (), t;
  do
    t = ticks ();
  while (t - t0 < n);
  spun[op] += t - t0 + read_ticks;
  spins[op][ran[op]++] = u32 (t - t0 + read_ticks);
  if (last_op >= 0)
    {
      whole[last_op] += t0 - last_t0;
      wholes[last_op][nwhole[last_op]++] = u32 (t0 - last_t0);
    }
  last_t0 = t0;
  last_op = op;
}

DSPROF_EVENT __attribute__ ((noipa)) void
op_spin50 (void)
{
  spin (SPIN50, 50);
}

DSPROF_EVENT __attribute__ ((noipa)) void
op_spin200 (void)
{
  spin (SPIN200, 200);
}

DSPROF_EVENT __attribute__ ((noipa)) void
op_spin1000 (void)
{
  spin (SPIN1000, 1000);
}

static __attribute__ ((noipa)) void
plain_op (int op)
{
  static const uint64_t n[NOPS] = { 50, 200, 1000 };
  spin (op, n[op]);
}

static __attribute__ ((noipa)) void
manual_op (int op)
{
  static const uint64_t n[NOPS] = { 50, 200, 1000 };
  dsprof_id id = dsprof_start (names[op]);
  spin (op, n[op]);
  dsprof_finish (id);
}

/* The VM with a `switch' for its dispatch: each case is an op record when
   built with -fplugin-arg-dsprof-dispatch=run_dispatch.  */
static __attribute__ ((noipa)) void
run_dispatch (const unsigned char *code, long n)
{
  for (long pc = 0; pc < n; pc++)
    switch ((enum vmop) code[pc])
      {
      case SPIN50: spin (SPIN50, 50); break;
      case SPIN200: spin (SPIN200, 200); break;
      case SPIN1000: spin (SPIN1000, 1000); break;
      default: abort ();
      }
}

static int
cmp_u32 (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: vmspin hook|manual|dispatch|plain N\n");
      return 2;
    }
  const char *mode = argv[1];
  long n = atol (argv[2]);
  int m = !strcmp (mode, "hook") ? 0 : !strcmp (mode, "manual") ? 1
          : !strcmp (mode, "dispatch") ? 3 : 2;
  unsigned char *code = malloc (n > 0 ? (size_t) n : 1);
  for (int op = 0; op < NOPS; op++)
    {
      spins[op] = malloc ((n > 0 ? (size_t) n : 1) * sizeof *spins[op]);
      wholes[op] = malloc ((n > 0 ? (size_t) n : 1) * sizeof *wholes[op]);
    }
  uint32_t x = 2463534242u;
  for (long i = 0; i < n; i++)
    {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      unsigned k = x % 10;
      code[i] = k < 5 ? SPIN50 : k < 8 ? SPIN200 : SPIN1000;
    }
  read_ticks = clock_read ();
  uint64_t ns0 = mono_ns (), t0 = ticks ();
  if (m == 3)
    run_dispatch (code, n);
  else
    for (long pc = 0; pc < n; pc++)
      if (m == 0)
        switch (code[pc])
          {
          case SPIN50: op_spin50 (); break;
          case SPIN200: op_spin200 (); break;
          default: op_spin1000 (); break;
          }
      else if (m == 1)
        manual_op (code[pc]);
      else
        plain_op (code[pc]);
  uint64_t ns1 = mono_ns (), t1 = ticks ();
  double ns_per_tick = (double) (ns1 - ns0) / (double) (t1 - t0);
  for (int op = 0; op < NOPS; op++)
    {
      qsort (spins[op], ran[op], sizeof *spins[op], cmp_u32);
      qsort (wholes[op], nwhole[op], sizeof *wholes[op], cmp_u32);
      printf ("%s %llu %.2f %.2f %.2f %.2f\n", names[op],
              (unsigned long long) ran[op],
              ran[op] ? (double) spun[op] / (double) ran[op] * ns_per_tick : 0.0,
              ran[op] ? spins[op][ran[op] / 2] * ns_per_tick : 0.0,
              nwhole[op] ? (double) whole[op] / (double) nwhole[op] * ns_per_tick
                         : 0.0,
              nwhole[op] ? wholes[op][nwhole[op] / 2] * ns_per_tick : 0.0);
      free (spins[op]);
      free (wholes[op]);
    }
  free (code);
  return 0;
}
