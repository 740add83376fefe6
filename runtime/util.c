/* util.c - what every file of the runtime may use, and which uses nothing of
   theirs: the one warning a process prints (dsprof_warn, and its
   async-signal-safe form for signal handlers), the environment's switches
   (dsprof_env_flag), installing and chaining the runtime's signal handlers
   (the writer's SIGBUS, strings.c's SIGSEGV), and the pages the runtime's
   small records are cut from (dsprof_pool_alloc).

   The warning is printed once per process, and only if the program was
   started with descriptor 2 open: formatted into one buffer and written with
   one write(2), so it takes no stdio lock (it may be printed in a fork
   handler) and does not interleave with the program's output.  */

#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

/* Set once the process (or an ancestor before fork) printed its warning.  */
static int warned;

/* Whether the program was started with descriptor 2 open, found before the
   program's code runs (a constructor that runs before the units register,
   or the first warning if a preinit function's call came first).  If it
   was not, the runtime writes no warning: the program's first open got
   descriptor 2, and a warning there would land in the program's file (as a
   set-user-ID-safe library, which would open /dev/null there, cannot: that
   would change the descriptors the program gets).  */
enum { STDERR_UNKNOWN, STDERR_OPEN, STDERR_CLOSED };
static int start_stderr;

static void
stderr_identify (void)
{
  start_stderr = fcntl (STDERR_FILENO, F_GETFD) >= 0 ? STDERR_OPEN
                                                     : STDERR_CLOSED;
}

/* Priority 98: before the units' constructors (99, plugin/metadata.cc), which
   may warn.  */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wprio-ctor-dtor"
__attribute__ ((constructor (98))) static void
stderr_at_start (void)
{
  if (start_stderr == STDERR_UNKNOWN)
    stderr_identify ();
}
#pragma GCC diagnostic pop

static int
stderr_is_programs (void)
{
  if (start_stderr == STDERR_UNKNOWN)
    stderr_identify ();
  return start_stderr == STDERR_OPEN;
}

/* Write the N bytes of BUF to stderr with write(2) (async-signal-safe), if the
   program was started with one.  */

static void
warn_write (const char *p, size_t n)
{
  if (!stderr_is_programs ())
    return;
  while (n)
    {
      ssize_t w = write (STDERR_FILENO, p, n);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        break;
      p += w;
      n -= (size_t) w;
    }
}

void
dsprof_warn (const char *fmt, ...)
{
  if (__atomic_exchange_n (&warned, 1, __ATOMIC_RELAXED))
    return;

  /* Formatted into one buffer and written with one write(2): no stdio locks (we
     may be in a fork handler) and no interleaving with the program's output.  */
  char buf[PATH_MAX + 256];
  size_t n = sizeof "dsprof: " - 1;
  memcpy (buf, "dsprof: ", n);
  va_list ap;
  va_start (ap, fmt);
  int len = vsnprintf (buf + n, sizeof buf - n - 1, fmt, ap);
  va_end (ap);
  if (len > 0)
    n += (size_t) len < sizeof buf - n - 1 ? (size_t) len : sizeof buf - n - 2;
  buf[n++] = '\n';
  warn_write (buf, n);
}

int
dsprof_env_flag (const char *name, int dflt)
{
  static const char *const spellings[] = { "0", "off", "no", "false",
                                           "1", "on", "yes", "true" };
  const char *v = getenv (name);
  if (!v || !*v)
    return dflt;
  for (size_t i = 0; i < sizeof spellings / sizeof *spellings; i++)
    if (strcasecmp (v, spellings[i]) == 0)
      return i >= 4;
  dsprof_warn ("%s='%.64s' is not 0, 1, on, off, yes, no, true or false: %s",
               name, v, dflt ? "events stay on" : "events stay off");
  return dflt;
}

/* Write "dsprof: " and the strings of PARTS (up to a NULL) to stderr as one
   line, if nothing was reported yet; async-signal-safe.  */

void
dsprof_warn_parts (const char *const *parts)
{
  if (__atomic_exchange_n (&warned, 1, __ATOMIC_RELAXED))
    return;
  char buf[PATH_MAX + 256];
  size_t n = 0;
  for (; *parts; parts++)
    for (const char *p = *parts; *p && n < sizeof buf - 1; p++)
      buf[n++] = *p;
  buf[n++] = '\n';
  warn_write (buf, n);
}

void
dsprof_signal_install (int sig, void (*handler) (int, siginfo_t *, void *),
                       struct sigaction *old)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset (&sa.sa_mask);
  if (sigaction (sig, NULL, old) == 0)
    sigaction (sig, &sa, NULL);
}

/* Pass signal SIG that is not ours to OLD, the disposition we replaced, as if
   we had never been there.  */

void
dsprof_signal_chain (int sig, const struct sigaction *old, siginfo_t *si,
                     void *ctx)
{
  /* A fault (si_code > 0) that is not handled kills the process; one sent by
     kill or raise does so only under SIG_DFL.  */
  int fault = si && si->si_code > 0;
  if (old->sa_flags & SA_SIGINFO)
    {
      if (old->sa_sigaction)
        old->sa_sigaction (sig, si, ctx);
      return;
    }
  if (old->sa_handler == SIG_IGN && !fault)
    return;
  if (old->sa_handler == SIG_DFL || old->sa_handler == SIG_IGN)
    {
      /* Back to the default action: the faulting instruction runs again on our
         return and faults again; a sent signal is sent again, and is delivered
         once the handler returns and unblocks it.  */
      struct sigaction dfl;
      memset (&dfl, 0, sizeof dfl);
      dfl.sa_handler = SIG_DFL;
      sigemptyset (&dfl.sa_mask);
      sigaction (sig, &dfl, NULL);
      if (!fault)
        raise (sig);
      return;
    }
  old->sa_handler (sig);
}

/* Memory for the runtime's records that a thread may need on its first
   counted call, from pages of the runtime's own, never from malloc: glibc's
   first malloc in a thread gives it an arena of 64 MiB of address space,
   which a program's own threads may never have taken (RLIMIT_AS).  The
   caller holds the lock that guards POOL.  NULL without memory; never
   freed.  */

void *
dsprof_pool_alloc (struct dsprof_pool *pool, size_t size)
{
  size = (size + 15) & ~(size_t) 15;
  if ((size_t) (pool->end - pool->next) < size)
    {
      size_t bytes = dsprof_round_page (size);
      char *m = mmap (NULL, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED)
        return NULL;
      pool->next = m;
      pool->end = m + bytes;
    }
  void *p = pool->next;
  pool->next += size;
  return p;
}
