/* sample.c - the sampler of the threads' CPU time (DSPROF_SAMPLE,
   docs/contract.md §4.4, "Sampled times"): the setting, the signal and one
   clock per thread that records events, on the thread's own CPU time, so
   that a sample falls every PERIOD of the CPU time the thread spends and
   none while it waits for a CPU or sleeps.  What a sample is charged to is
   the recorder's (recorder.c: the signal handler it gives
   dsprof_sample_init).

   The clock is the thread's perf task clock where the kernel lets the
   process open one (perf_event_open of PERF_COUNT_SW_TASK_CLOCK, delivered
   to the thread by F_SETOWN_EX and F_SETSIG): the kernel times it with a
   high-resolution timer while the thread runs, so a sample falls every
   PERIOD, 1 ms as well as 100 us.  It signals only where the timer finds
   the thread in its own code (exclude_kernel): a signal that came while
   the thread is in a system call would cut a poll, a nanosleep or a select
   short (EINTR, whatever SA_RESTART says), and so a program's own wait.  A
   sample weighs the thread's CPU time since its last one
   (CLOCK_THREAD_CPUTIME_ID), so the time the thread ran in the kernel is
   in the next sample's weight: none is lost.  The CPU time of the
   recorder's own work outside the hooks' fast paths, most of it the
   kernel's (a new chunk: its space, its pages faulted in), is taken out of
   that weight and counted as the recorder's (dsprof_sample_take).  But
   each sample costs the thread CPU time of its own: the timer interrupt,
   the signal, the handler, the next period's ioctl (39 us in a KVM guest,
   whose timer interrupts leave the guest: docs/bench.md, sampler_cost).
   That cost is measured once, at start-up (calibrate), and taken out of
   each sample's weight, as the recorder's.  Each period is drawn at random
   between half and one and a half PERIOD (PERF_EVENT_IOC_PERIOD, from the
   handler), so that the samples do not fall in step with a program that
   repeats itself (docs/contract.md §4.4).

   Elsewhere (perf_event_paranoid above 2 for a process without
   CAP_PERFMON, a seccomp filter, DSPROF_SAMPLER=timer) the clock is a POSIX
   CPU-time timer (timer_create on CLOCK_THREAD_CPUTIME_ID,
   SIGEV_THREAD_ID), which the kernel checks at its scheduler tick only: a
   signal comes at most once a tick (4 ms at HZ=250) and counts the periods
   that passed since the last one in its si_overrun: a sample weighs (1 +
   si_overrun) periods.  Its signal may come in a system call, and cut a
   wait short, once in many ticks.

   The signal is SIGURG, whose default action is to ignore it: a program
   that sets its disposition back to the default while a clock runs loses
   samples, never its life (SIGPROF's default ends the process).  A program
   that handles SIGURG itself (out-of-band socket data) gets no samples: the
   sampler stands aside, with a warning, when it finds the signal taken at
   start-up or when a thread's clock would start.

   A perf clock is a file descriptor of the process.  Fork copies every
   thread's into the child, where they are the parent threads' clocks: the
   child closes them (dsprof_sample_fork_child), known by a bitmap of their
   numbers.  A descriptor is closed only while it is still a perf event of
   ours (its id, PERF_EVENT_IOC_ID): one the program closed and reused is
   left alone.  */

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <ucontext.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "internal.h"

/* The period in ns; 0: no sampling.  Whether threads try a perf clock
   first (DSPROF_SAMPLER is not "timer").  */
static uint64_t period_ns;
static int try_perf;
/* What a perf clock's sample costs the thread, in ns (calibrate).  */
static uint64_t signal_ns;
/* While calibrate runs: its clock, of mean period CALIB_PERIOD ns, and
   the signals it got.  */
#define CALIB_PERIOD 100000u
static struct dsprof_sampler *calib;
static volatile uint32_t calib_signals;
#define SAMPLE_SIGNAL SIGURG

/* The handler the recorder gave, and the disposition it replaced.  */
static void (*our_handler) (int, siginfo_t *, void *);
static struct sigaction old_action;
/* The value our timers' signals carry, told from any other SIGURG.  */
static char sample_mark;

/* The recorder's code that runs outside its busy flag (a hook's entry and
   return, the cost sampling around a sampled call): the linker's bounds of
   the section DSPROF_RECORDER_TEXT puts it in.  */
extern const char __start_dsprof_text[] DSPROF_HIDDEN;
extern const char __stop_dsprof_text[] DSPROF_HIDDEN;

/* Parse the period of DSPROF_SAMPLE, "N" with a unit of us, ms or s; 0 for
   "0", "off" or an unreadable value (with a warning).  */

static uint64_t
parse_period (const char *v)
{
  char *end;
  errno = 0;
  unsigned long long n = strtoull (v, &end, 10);
  uint64_t unit = !strcmp (end, "us") ? 1000u
                  : !strcmp (end, "ms") ? 1000000u
                  : !strcmp (end, "s") ? 1000000000u : 0;
  if (!strcmp (v, "0") || !strcmp (v, "off"))
    return 0;
  if (end == v || errno || !unit)
    {
      dsprof_warn ("DSPROF_SAMPLE='%.64s' is not a period such as 1ms or 500us"
                   " (0 is off): no samples", v);
      return 0;
    }
  uint64_t ns = (uint64_t) n * unit;
  if (n && (ns / unit != n || ns > 1000000000u || ns < 10000u))
    {
      dsprof_warn ("DSPROF_SAMPLE='%.64s' is not between 10us and 1s: no "
                   "samples", v);
      return 0;
    }
  return ns;
}

static void calibrate (void);

DSPROF_HIDDEN void
dsprof_sample_init (void (*handler) (int, siginfo_t *, void *))
{
  const char *v = getenv ("DSPROF_SAMPLE");
  if (!v || !*v)
    return;
  uint64_t ns = parse_period (v);
  if (!ns)
    return;
  struct sigaction cur;
  if (sigaction (SAMPLE_SIGNAL, NULL, &cur) != 0)
    return;
  if ((cur.sa_flags & SA_SIGINFO) || (cur.sa_handler != SIG_DFL
                                      && cur.sa_handler != SIG_IGN))
    {
      dsprof_warn ("DSPROF_SAMPLE: the program handles SIGURG itself: no "
                   "samples");
      return;
    }
  const char *which = getenv ("DSPROF_SAMPLER");
  try_perf = 1;
  if (which && !strcmp (which, "timer"))
    try_perf = 0;
  else if (which && *which && strcmp (which, "perf"))
    dsprof_warn ("DSPROF_SAMPLER='%.64s' is not perf or timer: perf", which);
  our_handler = handler;
  dsprof_signal_install (SAMPLE_SIGNAL, handler, &old_action);
  period_ns = ns;
  if (try_perf)
    calibrate ();
}

DSPROF_HIDDEN int
dsprof_sample_on (void)
{
  return __atomic_load_n (&period_ns, __ATOMIC_RELAXED) != 0;
}

/* The calling thread's CPU time, in ns.  */

static uint64_t
thread_cpu_ns (void)
{
  return dsprof_clock_ns (CLOCK_THREAD_CPUTIME_ID);
}

/* The descriptors of the process's perf clocks, by number (those below
   PERF_FDS): what a forked child closes.  */
#define PERF_FDS 4096
static uint64_t perf_fds[PERF_FDS / 64];

static void
perf_fd_mark (int fd, int on)
{
  if (fd >= PERF_FDS)
    return;
  uint64_t bit = (uint64_t) 1 << (fd % 64);
  if (on)
    __atomic_fetch_or (&perf_fds[fd / 64], bit, __ATOMIC_RELAXED);
  else
    __atomic_fetch_and (&perf_fds[fd / 64], ~bit, __ATOMIC_RELAXED);
}

/* Close FD if it is still a perf event: with ID, that event.  */

static void
perf_close (int fd, const uint64_t *id)
{
  uint64_t now;
  if (ioctl (fd, PERF_EVENT_IOC_ID, &now) == 0 && (!id || now == *id))
    close (fd);
}

/* Draw S's next period, between half and one and a half of PERIOD; with
   SET, give it to its perf clock (an ioctl restarts the clock's timer from
   now).  */

static uint64_t
perf_next_period (struct dsprof_sampler *s, uint64_t period, int set)
{
  s->rand ^= s->rand << 13;
  s->rand ^= s->rand >> 7;
  s->rand ^= s->rand << 17;
  uint64_t next = period / 2 + s->rand % (period + 1);
  if (set)
    ioctl (s->fd, PERF_EVENT_IOC_PERIOD, &next);
  return next;
}

/* Start a perf task clock of mean period PERIOD for the calling thread TID
   into S; 0, or -1.  */

static int
perf_start (struct dsprof_sampler *s, pid_t tid, uint64_t period)
{
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.exclude_kernel = 1;      /* no signal in a system call: see above */
  a.exclude_hv = 1;
  s->rand = ((uint64_t) tid << 32 ^ dsprof_mono_ns ()) | 1;   /* never 0 */
  a.sample_period = perf_next_period (s, period, 0);
  a.wakeup_events = 1;
  a.disabled = 1;
  int fd = (int) syscall (SYS_perf_event_open, &a, 0, -1, -1,
                          PERF_FLAG_FD_CLOEXEC);
  if (fd < 0)
    return -1;
  struct f_owner_ex owner = { F_OWNER_TID, tid };
  int fl = fcntl (fd, F_GETFL);
  if (fl < 0 || fcntl (fd, F_SETOWN_EX, &owner) != 0
      || fcntl (fd, F_SETSIG, SAMPLE_SIGNAL) != 0
      || fcntl (fd, F_SETFL, fl | O_ASYNC) != 0
      || ioctl (fd, PERF_EVENT_IOC_ID, &s->id) != 0)
    {
      close (fd);
      return -1;
    }
  perf_fd_mark (fd, 1);
  s->last_ns = thread_cpu_ns ();
  __atomic_store_n (&s->fd, fd, __ATOMIC_RELEASE);
  if (ioctl (fd, PERF_EVENT_IOC_ENABLE, 0) != 0)
    {
      dsprof_sample_thread_stop (s);
      return -1;
    }
  return 0;
}

/* Start a POSIX CPU-time timer for the calling thread TID into S; 0, or
   -1.  */

static int
timer_start (struct dsprof_sampler *s, pid_t tid)
{
  struct sigevent ev;
  memset (&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SAMPLE_SIGNAL;
  ev.sigev_value.sival_ptr = &sample_mark;
  ev._sigev_un._tid = tid;
  if (timer_create (CLOCK_THREAD_CPUTIME_ID, &ev, &s->timer) != 0)
    return -1;
  struct itimerspec it;
  it.it_value.tv_sec = it.it_interval.tv_sec
    = (time_t) (period_ns / 1000000000u);
  it.it_value.tv_nsec = it.it_interval.tv_nsec
    = (long) (period_ns % 1000000000u);
  if (timer_settime (s->timer, 0, &it, NULL) != 0)
    {
      timer_delete (s->timer);
      return -1;
    }
  return 0;
}

/* N rounds of a loop that does nothing but cost CPU time; the thread's CPU
   time it took.  */

static uint64_t
spin (uint64_t n)
{
  uint64_t t0 = thread_cpu_ns ();
  for (volatile uint64_t i = 0; i < n; i++)
    ;
  return thread_cpu_ns () - t0;
}

/* Measure signal_ns: a spin of 2 to 4 ms of CPU time, and the same spin
   with a perf clock every 100 us; three times each, the least of each
   (about 25 ms of CPU time in all).  Without a perf clock, the threads use
   their timers (try_perf = 0).  */

static void
calibrate (void)
{
  int saved_errno = errno;
  uint64_t n = 1u << 16, t;
  while ((t = spin (n)) < 2000000u && n < ((uint64_t) 1 << 40))
    n *= 2;
  uint64_t plain = t, sampled = UINT64_MAX;
  uint32_t signals = 0;
  struct dsprof_sampler s;
  if (perf_start (&s, (pid_t) syscall (SYS_gettid), CALIB_PERIOD) != 0)
    try_perf = 0;
  else
    {
      /* In turns, the clock off and on: a spell of the host's (a guest's
         CPU time holds it) spoils one round, not the least.  */
      __atomic_store_n (&calib, &s, __ATOMIC_RELEASE);
      for (int round = 0; round < 3; round++)
        {
          ioctl (s.fd, PERF_EVENT_IOC_DISABLE, 0);
          if ((t = spin (n)) < plain)
            plain = t;
          uint32_t before = calib_signals;
          ioctl (s.fd, PERF_EVENT_IOC_ENABLE, 0);
          if ((t = spin (n)) < sampled)
            {
              sampled = t;
              signals = calib_signals - before;
            }
        }
      __atomic_store_n (&calib, NULL, __ATOMIC_RELEASE);
      dsprof_sample_thread_stop (&s);
    }
  if (signals && sampled > plain)
    signal_ns = (sampled - plain) / signals;
  errno = saved_errno;
}

DSPROF_HIDDEN int
dsprof_sample_thread_start (struct dsprof_sampler *s)
{
  s->fd = -1;
  if (!period_ns)
    return -1;
  int saved_errno = errno;
  struct sigaction cur;
  if (sigaction (SAMPLE_SIGNAL, NULL, &cur) == 0
      && !((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == our_handler))
    {
      /* The program took the signal since: no more clocks.  */
      __atomic_store_n (&period_ns, 0, __ATOMIC_RELAXED);
      dsprof_warn ("DSPROF_SAMPLE: the program handles SIGURG itself: no "
                   "more samples");
      errno = saved_errno;
      return -1;
    }
  pid_t tid = (pid_t) syscall (SYS_gettid);
  int rc = 0, perf_err = 0;
  if (!try_perf || perf_start (s, tid, period_ns) != 0)
    {
      perf_err = try_perf ? errno : 0;
      rc = timer_start (s, tid);
    }
  if (rc != 0)
    {
      /* A thread unsampled: no more clocks, the run is not timed by them.  */
      __atomic_store_n (&period_ns, 0, __ATOMIC_RELAXED);
      dsprof_warn ("DSPROF_SAMPLE: no CPU-time clock for a thread (%s): no "
                   "more samples", strerror (errno));
    }
  else if (perf_err)
    /* The process's clocks open, but not this thread's (out of
       descriptors, say): its samples are a tick's, and the user is told.  */
    dsprof_warn ("DSPROF_SAMPLE: a thread's perf clock did not open (%s): "
                 "its samples come from a CPU-time timer, one a tick at most",
                 strerror (perf_err));
  errno = saved_errno;
  return rc;
}

DSPROF_HIDDEN void
dsprof_sample_thread_stop (struct dsprof_sampler *s)
{
  int saved_errno = errno;
  int fd = s->fd;
  if (fd >= 0)
    {
      __atomic_store_n (&s->fd, -1, __ATOMIC_RELAXED);
      perf_fd_mark (fd, 0);
      perf_close (fd, &s->id);
    }
  else
    timer_delete (s->timer);
  errno = saved_errno;
}

DSPROF_HIDDEN void
dsprof_sample_fork_child (void)
{
  int saved_errno = errno;
  for (int w = 0; w < PERF_FDS / 64; w++)
    for (uint64_t bits = perf_fds[w]; bits; bits &= bits - 1)
      perf_close (w * 64 + __builtin_ctzll (bits), NULL);
  memset (perf_fds, 0, sizeof perf_fds);
  errno = saved_errno;
}

DSPROF_HIDDEN uint64_t
dsprof_sample_weight (struct dsprof_sampler *s, int sig, siginfo_t *si,
                      void *ctx, uint64_t *cost)
{
  *cost = 0;
  if (si && si->si_code == SI_TIMER && si->si_value.sival_ptr == &sample_mark)
    return (1 + (uint64_t) (si->si_overrun > 0 ? si->si_overrun : 0))
           * period_ns;
  if (si && si->si_code == POLL_IN)
    {
      struct dsprof_sampler *c = __atomic_load_n (&calib, __ATOMIC_ACQUIRE);
      if (c && si->si_fd == c->fd)
        {
          int saved_errno = errno;
          calib_signals++;
          perf_next_period (c, CALIB_PERIOD, 1);
          errno = saved_errno;
          return 0;
        }
      if (s && s->fd >= 0 && si->si_fd == s->fd)
        {
          /* The CPU time since the last sample, less what this one cost.  */
          int saved_errno = errno;
          uint64_t now = thread_cpu_ns ();
          uint64_t ns = now - __atomic_load_n (&s->last_ns, __ATOMIC_RELAXED);
          __atomic_store_n (&s->last_ns, now, __ATOMIC_RELAXED);
          perf_next_period (s, period_ns, 1);
          errno = saved_errno;
          ns += !ns;
          *cost = ns > signal_ns ? signal_ns : ns - 1;
          return ns - *cost;
        }
    }
  /* Another SIGURG: the program's, where it had a handler; ignored where
     it had none (the default).  */
  if ((old_action.sa_flags & SA_SIGINFO)
      || (old_action.sa_handler != SIG_DFL && old_action.sa_handler != SIG_IGN))
    dsprof_signal_chain (sig, &old_action, si, ctx);
  return 0;
}

DSPROF_HIDDEN int
dsprof_sample_in_recorder (void *ctx)
{
  const ucontext_t *uc = ctx;
  uintptr_t pc;
#if defined(__x86_64__)
  pc = (uintptr_t) uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
  pc = (uintptr_t) uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
  pc = (uintptr_t) uc->uc_mcontext.pc;
#else
  (void) uc;
  pc = 0;
#endif
  return pc >= (uintptr_t) __start_dsprof_text
         && pc < (uintptr_t) __stop_dsprof_text;
}

DSPROF_HIDDEN uint64_t
dsprof_sample_clock (const struct dsprof_sampler *s)
{
  return s->fd >= 0 ? thread_cpu_ns () : 0;
}

DSPROF_HIDDEN uint64_t
dsprof_sample_take (struct dsprof_sampler *s, uint64_t from)
{
  if (!from)                 /* not a perf clock (dsprof_sample_clock) */
    return 0;
  /* The time since FROM (or since the last sample, if later) moves from
     the next sample's weight to the taker: the sample's start moves on by
     as much, so that the time before FROM stays in the sample.  The signal
     handler may weigh a sample, and move last_ns, anywhere in here: the
     swap moves it only while it is the one read.  */
  uint64_t last = __atomic_load_n (&s->last_ns, __ATOMIC_RELAXED), took;
  do
    {
      uint64_t now = thread_cpu_ns (), since = last > from ? last : from;
      took = now > since ? now - since : 0;
    }
  while (!__atomic_compare_exchange_n (&s->last_ns, &last, last + took, 0,
                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return took;
}
