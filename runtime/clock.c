/* clock.c - the recorder's clock: which clock events are timed by, its rate,
   and the clock fields of a profile's header (dsprof-format.h, section 4).

   It is a file of its own because the choice is made once and read everywhere:
   the hooks read the clock inline (dsprof_ticks, internal.h), the recorder and
   the writer stamp chunks and headers with it, and reports turn its ticks into
   nanoseconds by the rate measured here.  Where the processor has an invariant
   TSC, events are timed by rdtsc; elsewhere by CLOCK_MONOTONIC in nanoseconds.

   Both are wall clocks: a record holds the time its thread waited for a CPU.
   So at normal exit the header also gets how much of the run the process was
   on a CPU and how long its threads waited for one (dsprof_clock_exit_times),
   for reports to tell a busy machine's figures.  */

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* What dsprof_clock_exit_times counts from, taken when this process's
   header is made: its CPU time, and the thread that made it (the main thread,
   mostly), whose wait for a CPU before then (from its fork on) is not the
   run's.  */
static uint64_t start_cpu_ns, start_delay_ns;
static long start_tid;

/* The time thread TID (a name in /proc/self/task, under DIR; "thread-self"
   under /proc) waited on a run queue, in ns, into *DELAY: the second figure
   of its schedstat.  0, or -1 if the kernel does not tell.  */

static int
thread_run_delay (int dir, const char *tid, uint64_t *delay)
{
  char path[300], buf[96];
  snprintf (path, sizeof path, "%s/schedstat", tid);
  int fd = openat (dir, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return -1;
  ssize_t len = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (len <= 0)
    return -1;
  buf[len] = 0;
  const char *s = buf;
  while (*s && *s != ' ')    /* the time on a CPU */
    s++;
  if (*s++ != ' ' || *s < '0' || *s > '9')
    return -1;
  for (*delay = 0; *s >= '0' && *s <= '9'; s++)
    *delay = *delay * 10 + (uint64_t) (*s - '0');
  return 0;
}

/* The process's user + system CPU time, all its threads, in ns.  */

static uint64_t
process_cpu_ns (void)
{
  struct rusage ru;
  if (getrusage (RUSAGE_SELF, &ru) != 0)
    return 0;
  return ((uint64_t) ru.ru_utime.tv_sec + (uint64_t) ru.ru_stime.tv_sec) * 1000000000u
         + ((uint64_t) ru.ru_utime.tv_usec + (uint64_t) ru.ru_stime.tv_usec) * 1000u;
}

/* When this process's header is made: what the run's figures count from.  */

static void
start_times (void)
{
  start_cpu_ns = process_cpu_ns ();
  start_tid = (long) syscall (SYS_gettid);
  if (thread_run_delay (AT_FDCWD, "/proc/thread-self", &start_delay_ns) != 0)
    start_delay_ns = 0;
}

/* Sum the run-queue waits of the threads live now, since start_times, into
   H; no allocation (another thread may hold malloc's lock at exit):
   getdents64 into a buffer on the stack.  */

static void
run_delays (struct dsprof_file_header *h)
{
  int dir = open ("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0)
    return;
  char buf[2048] __attribute__ ((aligned (8)));
  uint64_t sum = 0, threads = 0;
  long len;
  while ((len = syscall (SYS_getdents64, dir, buf, sizeof buf)) > 0)
    for (long at = 0; at < len;)
      {
        struct dirent64 *d = (struct dirent64 *) (buf + at);
        uint64_t delay;
        at += d->d_reclen;
        if (d->d_name[0] < '0' || d->d_name[0] > '9'
            || thread_run_delay (dir, d->d_name, &delay) != 0)
          continue;
        if (atol (d->d_name) == start_tid && delay >= start_delay_ns)
          delay -= start_delay_ns;
        sum += delay;
        threads++;
      }
  close (dir);
  h->run_delay_ns = sum;
  h->run_delay_threads = threads;
}

/* Fill the clock fields of a new profile header H: which clock, its rate (if
   measured yet) and the ticks at H's start_mono_ns.  */

DSPROF_HIDDEN void
dsprof_clock_header_init (struct dsprof_file_header *h)
{
  h->clock = dsprof_clock_tsc_p () ? DSPROF_CLOCK_TSC : DSPROF_CLOCK_NS;
  if (!h->start_ticks)
    {
      start_times ();
      /* Ticks at start_mono_ns, by the calibrated rate if there is one.  */
      uint64_t now_t = dsprof_ticks (), now_n = dsprof_mono_ns ();
      double back = (double) (now_n - h->start_mono_ns)
                    * (tick_hz ? (double) tick_hz / 1e9 : 0.0);
      h->start_ticks = now_t - (uint64_t) back;
    }
  h->tick_hz = tick_hz;
}

/* At normal exit, before stop_mono_ns: the CPU time of the process and the
   run-queue waits of its threads since its header was made, into H.  */

DSPROF_HIDDEN void
dsprof_clock_exit_times (struct dsprof_file_header *h)
{
  uint64_t cpu = process_cpu_ns ();
  h->cpu_ns = cpu > start_cpu_ns ? cpu - start_cpu_ns : 0;
  run_delays (h);
}
