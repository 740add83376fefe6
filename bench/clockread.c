/* clockread.c - what one read of each candidate clock for timing records
   costs (scripts/bench.sh, row "clock_cost"):

     clockread            every clock: ns per read, the fastest of 40 batches
                          of 100,000 reads, and whether the kernel lets the
                          thread's CPU time be read without a system call
     clockread KIND N     N reads of KIND only (for callgrind's instruction
                          counts: run it with N and with 0, and subtract)

   The clocks (KIND):
     tsc       rdtsc, the recorder's clock where there is an invariant TSC
     mono      clock_gettime (CLOCK_MONOTONIC), its clock elsewhere
     page      the thread's CPU time from the self-monitoring page of a
               perf_event_open task clock (pid 0, cpu -1), read in user space:
               the page's time_enabled plus the time since its last update
               from rdtsc scaled by time_mult and time_shift, under the page's
               sequence lock.  Only a clock where the page says cap_user_time;
               elsewhere (a virtual machine whose kernel's scheduler clock is
               not the native TSC, for instance) the same instructions give
               time_enabled as of the thread's last switch to a CPU
     read      read(2) of the same task clock's event: its count, the
               thread's CPU time, by a system call
     thread    clock_gettime (CLOCK_THREAD_CPUTIME_ID)

   Prints one line per clock: "tsc 7.61 ns", then "page cap_user_time 0" and
   how often the page's time_enabled changed while the thread spun 200 ms of
   its CPU time: "page steps 50 4.01 ms" (50 changes, one per 4.01 ms of CPU
   time; with cap_user_time 0, the page's time is as of the last one).
   A clock that cannot be opened here prints "read - perf_event_open: ...".  */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int task_fd = -1;
static volatile struct perf_event_mmap_page *page;

static uint64_t
clock_ns (clockid_t c)
{
  struct timespec ts;
  clock_gettime (c, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* Open this thread's task clock and map its page; 0 or errno.  */
static int
open_task_clock (void)
{
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  task_fd = (int) syscall (SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (task_fd < 0)
    return errno;
  void *p = mmap (NULL, (size_t) sysconf (_SC_PAGESIZE), PROT_READ, MAP_SHARED,
                  task_fd, 0);
  if (p == MAP_FAILED)
    return errno;
  page = p;
  return 0;
}

/* The formula of the perf_event_mmap_page comment in linux/perf_event.h.  */
static inline uint64_t
read_page (void)
{
  uint32_t seq, mult;
  uint16_t shift;
  uint64_t enabled, cyc, offset;
  do
    {
      seq = page->lock;
      __asm__ volatile ("" ::: "memory");
      enabled = page->time_enabled;
      cyc = __builtin_ia32_rdtsc ();
      offset = page->time_offset;
      mult = page->time_mult;
      shift = page->time_shift;
      __asm__ volatile ("" ::: "memory");
    }
  while (page->lock != seq);
  uint64_t quot = cyc >> shift, rem = cyc & (((uint64_t) 1 << shift) - 1);
  return enabled + offset + quot * mult + ((rem * mult) >> shift);
}

static inline uint64_t
read_one (int kind)
{
  uint64_t v = 0;
  switch (kind)
    {
    case 0: return __builtin_ia32_rdtsc ();
    case 1: return clock_ns (CLOCK_MONOTONIC);
    case 2: return read_page ();
    case 3:
      if (read (task_fd, &v, sizeof v) != sizeof v)
        abort ();
      return v;
    default: return clock_ns (CLOCK_THREAD_CPUTIME_ID);
    }
}

static const char *const kinds[] = { "tsc", "mono", "page", "read", "thread" };
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* N reads of KIND, kept live.  */
static uint64_t __attribute__ ((noinline))
reads (int kind, long n)
{
  uint64_t sum = 0;
  for (long i = 0; i < n; i++)
    sum += read_one (kind);
  return sum;
}

/* ns per read of KIND: the fastest of 40 batches (the machine may be busy).  */
static double
ns_per_read (int kind)
{
  long batch = kind >= 3 ? 10000 : 100000;
  double best = 1e30;
  for (int b = 0; b < 40; b++)
    {
      uint64_t t0 = clock_ns (CLOCK_MONOTONIC);
      uint64_t sum = reads (kind, batch);
      uint64_t t1 = clock_ns (CLOCK_MONOTONIC);
      __asm__ volatile ("" ::"r"(sum));
      double ns = (double) (t1 - t0) / (double) batch;
      if (ns < best)
        best = ns;
    }
  return best;
}

/* Spin 200 ms of this thread's CPU time, counting the changes of the page's
   time_enabled: "page steps N MS".  */
static void
page_steps (void)
{
  uint64_t prev = page->time_enabled, steps = 0;
  uint64_t t0 = clock_ns (CLOCK_THREAD_CPUTIME_ID), t1;
  do
    {
      uint64_t now = page->time_enabled;
      steps += now != prev;
      prev = now;
      t1 = clock_ns (CLOCK_THREAD_CPUTIME_ID);
    }
  while (t1 - t0 < 200000000u);
  printf ("page steps %llu %.2f ms\n", (unsigned long long) steps,
          steps ? (double) (t1 - t0) / 1e6 / (double) steps : 0.0);
}

static int
kind_of (const char *name)
{
  for (unsigned k = 0; k < NKINDS; k++)
    if (!strcmp (name, kinds[k]))
      return (int) k;
  fprintf (stderr, "clockread: unknown clock '%s'\n", name);
  exit (2);
}

int
main (int argc, char **argv)
{
  int err = open_task_clock ();
  if (argc == 3)
    {
      int kind = kind_of (argv[1]);
      if (kind >= 2 && err)
        return 1;
      uint64_t sum = reads (kind, atol (argv[2]));
      __asm__ volatile ("" ::"r"(sum));
      return 0;
    }
  for (unsigned k = 0; k < NKINDS; k++)
    {
      if (k >= 2 && err)
        printf ("%s - perf_event_open: %s\n", kinds[k], strerror (err));
      else
        printf ("%s %.2f ns\n", kinds[k], ns_per_read ((int) k));
    }
  if (!err)
    {
      printf ("page cap_user_time %d\n", (int) page->cap_user_time);
      page_steps ();
    }
  return 0;
}
