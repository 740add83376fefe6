/* sample.c - the sampler of the threads' CPU time (DSPROF_SAMPLE,
   docs/contract.md §4.4, "Sampled times"): the setting, the signal and one
   timer per thread that records events, on the thread's own CPU clock
   (timer_create on CLOCK_THREAD_CPUTIME_ID, delivered to the thread with
   SIGEV_THREAD_ID), so that a sample falls every PERIOD of the CPU time the
   thread spends and none while it waits for a CPU or sleeps.  What a sample
   is charged to is the recorder's (recorder.c: the signal handler it gives
   dsprof_sample_init).

   The kernel checks a CPU-time timer at its scheduler tick, so a signal
   comes at most once a tick (4 ms at HZ=250) and counts the periods that
   passed since the last one in its si_overrun: a sample weighs (1 +
   si_overrun) periods.

   The signal is SIGURG, whose default action is to ignore it: a program
   that sets its disposition back to the default while a timer runs loses
   samples, never its life (SIGPROF's default ends the process).  A program
   that handles SIGURG itself (out-of-band socket data) gets no samples: the
   sampler stands aside, with a warning, when it finds the signal taken at
   start-up or when a thread's timer would start.  */

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <ucontext.h>
#include <sys/syscall.h>

#include "internal.h"

/* The period in ns; 0: no sampling.  */
static uint64_t period_ns;
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
  our_handler = handler;
  dsprof_signal_install (SAMPLE_SIGNAL, handler, &old_action);
  period_ns = ns;
}

DSPROF_HIDDEN int
dsprof_sample_on (void)
{
  return __atomic_load_n (&period_ns, __ATOMIC_RELAXED) != 0;
}

DSPROF_HIDDEN int
dsprof_sample_thread_start (timer_t *timer)
{
  if (!period_ns)
    return -1;
  int saved_errno = errno;
  struct sigaction cur;
  if (sigaction (SAMPLE_SIGNAL, NULL, &cur) == 0
      && !((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == our_handler))
    {
      /* The program took the signal since: no more timers.  */
      __atomic_store_n (&period_ns, 0, __ATOMIC_RELAXED);
      dsprof_warn ("DSPROF_SAMPLE: the program handles SIGURG itself: no "
                   "more samples");
      errno = saved_errno;
      return -1;
    }
  struct sigevent ev;
  memset (&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SAMPLE_SIGNAL;
  ev.sigev_value.sival_ptr = &sample_mark;
  ev._sigev_un._tid = (pid_t) syscall (SYS_gettid);
  int rc = timer_create (CLOCK_THREAD_CPUTIME_ID, &ev, timer);
  if (rc != 0)
    {
      /* A thread unsampled: no more timers, the run is not timed by them.  */
      __atomic_store_n (&period_ns, 0, __ATOMIC_RELAXED);
      dsprof_warn ("DSPROF_SAMPLE: no CPU-time timer for a thread (%s): no "
                   "more samples", strerror (errno));
    }
  else
    {
      struct itimerspec it;
      it.it_value.tv_sec = it.it_interval.tv_sec
        = (time_t) (period_ns / 1000000000u);
      it.it_value.tv_nsec = it.it_interval.tv_nsec
        = (long) (period_ns % 1000000000u);
      rc = timer_settime (*timer, 0, &it, NULL);
      if (rc != 0)
        {
          timer_delete (*timer);
          __atomic_store_n (&period_ns, 0, __ATOMIC_RELAXED);
        }
    }
  errno = saved_errno;
  return rc;
}

DSPROF_HIDDEN void
dsprof_sample_thread_stop (timer_t timer)
{
  int saved_errno = errno;
  timer_delete (timer);
  errno = saved_errno;
}

DSPROF_HIDDEN uint64_t
dsprof_sample_weight (int sig, siginfo_t *si, void *ctx)
{
  if (si && si->si_code == SI_TIMER && si->si_value.sival_ptr == &sample_mark)
    return (1 + (uint64_t) (si->si_overrun > 0 ? si->si_overrun : 0))
           * period_ns;
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
