/* writer.c - the profile writer: one file per process, grown chunk by chunk, and
   what happens to it at fork and at exit.

   The file (dsprof-format.h, section 2) is created under a temporary name in its
   final directory, its header page filled and mapped, and then renamed into place:
   a new run replaces an older profile atomically and never truncates a file that a
   reader (or a still-running process) has mapped, and nobody sees a half-made
   header.  The header stays mapped MAP_SHARED so that `end`, `flags` and
   `stop_mono_ns` can be updated in place.

   Chunks are appended under the writer lock with the reserve/commit protocol of
   internal.h.  Space is reserved with posix_fallocate before anything is written or
   mapped: a page of a sparse file that is mapped and then cannot be allocated (full
   disk) kills the program with SIGBUS on its next counter update, while a failed
   fallocate only costs us the chunk.

   Nothing is ever flushed: the counters are mapped from the file, so a crash, a
   SIGKILL, abort() or _exit() lose nothing.  At normal exit the destructor below
   only stores the stop time.

   Failures never reach the program: one "dsprof: cannot write profile" line on
   stderr per process, DSPROF_FLAG_TRUNCATED in the header if there is one, and the
   counters that were not mapped simply stay in the program's memory.  errno is
   saved and restored by every entry point (units.c and the handlers here).

   Someone else may delete or truncate the profile while the program runs.  A
   deleted profile is noticed when the next chunk is added or at exit: one warning,
   and no more chunks.  A truncated one would kill the program with SIGBUS at its
   next access to a mapped page past the new end: the SIGBUS handler below replaces
   the rest of such a mapping with anonymous memory (the program's counters and
   streams go on in memory, the file has lost them anyway) and warns once.  The
   header's `end` is then lowered to the last whole chunk the file still holds,
   so that readers read what is left.

   exec replaces the program but not the process: an instrumented program exec'd
   by a process that already wrote a profile under the same name (the same pid,
   started since the process did) keeps that profile and writes
   <name>.<pid>.exec<k> for its k-th exec instead (see writer_resolve_path).  */

#ifndef _GNU_SOURCE
# define _GNU_SOURCE            /* mremap, program_invocation_name */
#endif

#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void writer_install_sigbus (void);
static void writer_track (void *addr, size_t size);

enum writer_state
{
  WRITER_UNOPENED,              /* no chunk was asked for yet */
  WRITER_OPEN,                  /* fd and hdr are valid, chunks can be added */
  WRITER_BROKEN                 /* something failed (and was reported): no more
                                   chunks in this process */
};

/* The writer.  All fields are protected by writer_lock, except that HDR and
   STATE are also read without it (dsprof_writer_header, the exit destructor):
   HDR never changes once set, but in a forked child, single-threaded in its fork
   handler, which replaces it.
   Invariants when STATE is WRITER_OPEN: FD is open on the file identified by DEV
   and INO, HDR maps its first page, END == HDR->end is the committed length and
   the file holds exactly [0, END) plus possibly space reserved by a chunk
   in progress.  */
static struct
{
  enum writer_state state;
  int fd;
  struct dsprof_file_header *hdr;
  uint64_t end;
  dev_t dev;
  ino_t ino;
  int path_ok;                  /* PATH is the resolved name of the profile (else
                                   what we could show of it, for messages) */
  int lost;                     /* some unit could not be recorded: the header to
                                   come gets DSPROF_FLAG_TRUNCATED */
  pid_t pid;                    /* the process whose file it is */
  char path[PATH_MAX];          /* absolute unless getcwd failed */
} writer = { WRITER_UNOPENED, -1, NULL, 0, 0, 0, 0, 0, 0, "" };

/* Set by the SIGBUS handler once it replaced a mapping: the file was truncated.  */
static int writer_faulted;

static pthread_mutex_t writer_lock = PTHREAD_MUTEX_INITIALIZER;

/* Set once the process (or an ancestor before fork) printed its warning.  */
static int warned;

/* Write the N bytes of BUF to stderr with write(2) (async-signal-safe).  */

static void
warn_write (const char *p, size_t n)
{
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

static uint64_t
now_ns (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* Report ERR for the profile and stop adding chunks.  */

static void
writer_fail (int err)
{
  __atomic_store_n (&writer.state, WRITER_BROKEN, __ATOMIC_RELEASE);
  writer.lost = 1;
  if (writer.hdr)
    __atomic_fetch_or (&writer.hdr->flags, DSPROF_FLAG_TRUNCATED, __ATOMIC_RELAXED);
  dsprof_warn ("cannot write profile '%s': %s", writer.path, strerror (err));
}

void
dsprof_writer_set_truncated (void)
{
  pthread_mutex_lock (&writer_lock);
  writer.lost = 1;
  if (writer.hdr)
    __atomic_fetch_or (&writer.hdr->flags, DSPROF_FLAG_TRUNCATED, __ATOMIC_RELAXED);
  pthread_mutex_unlock (&writer_lock);
}

/* Allocate [OFFSET, OFFSET + LEN) of FD on disk; return 0 or an errno value.

   Growing a file past `ulimit -f` sends SIGXFSZ, whose default action kills the
   program.  We block it around the call and take back the signal we caused, so the
   limit costs the profile but not the program.  A SIGXFSZ that was already pending
   before is the program's and is left alone.  */

static int
writer_allocate (int fd, uint64_t offset, uint64_t len)
{
  sigset_t xfsz, old, pending;
  sigemptyset (&xfsz);
  sigaddset (&xfsz, SIGXFSZ);
  pthread_sigmask (SIG_BLOCK, &xfsz, &old);
  int was_pending = sigpending (&pending) == 0 && sigismember (&pending, SIGXFSZ);

  int err = posix_fallocate (fd, (off_t) offset, (off_t) len);

  if (err && !was_pending && sigpending (&pending) == 0
      && sigismember (&pending, SIGXFSZ))
    {
      struct timespec zero = { 0, 0 };
      sigtimedwait (&xfsz, NULL, &zero);
    }
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  return err;
}

/* Does the writer's descriptor still refer to the profile?  If so, and ST is not
   NULL, *ST is its status.  */

static int
writer_fd_stat (struct stat *st)
{
  struct stat buf;
  if (!st)
    st = &buf;
  return (writer.fd >= 0 && fstat (writer.fd, st) == 0
          && st->st_dev == writer.dev && st->st_ino == writer.ino);
}

static int
writer_fd_is_ours (void)
{
  return writer_fd_stat (NULL);
}

/* The file was truncated to SIZE bytes by someone else: lower the header's `end`
   to the end of the last whole chunk the file still holds, so that readers read
   what is left, and say that chunks are missing.  The chunk headers are read
   with pread, which past the end of the file reads nothing rather than faulting.
   Called with the writer lock held.  */

static void
writer_cut (uint64_t size)
{
  if (size < DSPROF_PAGE || !writer.hdr)
    return;
  uint64_t off = DSPROF_PAGE;
  while (off < writer.end)
    {
      struct dsprof_chunk c;
      if (pread (writer.fd, &c, sizeof c, (off_t) off) != (ssize_t) sizeof c
          || c.size == 0 || c.size % DSPROF_PAGE != 0 || c.size > size - off)
        break;
      off += c.size;
    }
  writer.end = off;
  __atomic_store_n (&writer.hdr->end, off, __ATOMIC_RELEASE);
  __atomic_fetch_or (&writer.hdr->flags, DSPROF_FLAG_TRUNCATED, __ATOMIC_RELAXED);
}

/* Has someone else deleted or truncated the profile?  If so, report it (once),
   save what can be saved and stop adding chunks; return ESTALE.  Else 0.  Called
   with the writer lock held, with the writer open.  */

static int
writer_check_file (void)
{
  struct stat st;
  int deleted, truncated;
  if (writer_fd_stat (&st))
    {
      deleted = st.st_nlink == 0;
      truncated = (uint64_t) st.st_size < writer.end;
    }
  else
    {
      /* The program closed our descriptor: look the name up instead.  */
      deleted = (stat (writer.path, &st) != 0 || st.st_dev != writer.dev
                 || st.st_ino != writer.ino);
      truncated = !deleted && (uint64_t) st.st_size < writer.end;
    }
  truncated |= __atomic_load_n (&writer_faulted, __ATOMIC_RELAXED);
  if (!deleted && !truncated)
    return 0;

  __atomic_store_n (&writer.state, WRITER_BROKEN, __ATOMIC_RELEASE);
  writer.lost = 1;
  if (deleted)
    dsprof_warn ("profile '%s' was deleted while the program ran: "
                 "its counts and events are lost", writer.path);
  else
    {
      if (writer_fd_is_ours ())
        writer_cut ((uint64_t) st.st_size);
      dsprof_warn ("profile '%s' was truncated while the program ran: "
                   "what was past its new end is lost", writer.path);
    }
  return ESTALE;
}

/* Make sure FD refers to the profile.  Programs that close every descriptor
   (daemons, closefrom) take ours too, and the number may since have been reused for
   one of their own files: never write through it.  Reopen the profile by name
   instead, if the name still leads to our file.  Return 0 or an errno value.  */

static int
writer_check_fd (void)
{
  if (writer_fd_is_ours ())
    return 0;
  writer.fd = open (writer.path, O_RDWR | O_CLOEXEC);
  if (writer.fd < 0)
    return errno;
  if (writer_fd_is_ours ())
    return 0;
  close (writer.fd);
  writer.fd = -1;
  return ESTALE;
}

/* Append LEN bytes of S to the string of *N bytes in BUF of SIZE bytes.  Return 0
   or ENAMETOOLONG.  */

static int
append (char *buf, size_t size, size_t *n, const char *s, size_t len)
{
  if (*n + len >= size)
    return ENAMETOOLONG;
  memcpy (buf + *n, s, len);
  *n += len;
  buf[*n] = '\0';
  return 0;
}

/* When this process started, in CLOCK_MONOTONIC ns (to a clock tick); 0 if
   /proc does not say.  */

static uint64_t
process_start_mono_ns (void)
{
  char buf[1024];
  int fd = open ("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  /* Field 22, starttime, in clock ticks since boot; the fields before it follow
     the command name's closing parenthesis, and contain none.  */
  char *p = strrchr (buf, ')');
  if (!p)
    return 0;
  for (int field = 2; field < 22 && p; field++)
    p = strchr (p + 1, ' ');
  long hz = sysconf (_SC_CLK_TCK);
  if (!p || hz <= 0)
    return 0;
  unsigned long long start = strtoull (p + 1, NULL, 10);
  uint64_t start_boot = (uint64_t) (start / (unsigned long long) hz) * 1000000000u
                        + (uint64_t) (start % (unsigned long long) hz)
                          * (1000000000u / (uint64_t) hz);
  uint64_t boot = now_ns (CLOCK_BOOTTIME), mono = now_ns (CLOCK_MONOTONIC);
  if (boot < start_boot || mono < boot - start_boot)
    return 0;
  return mono - (boot - start_boot);
}

/* Is PATH a profile written by an earlier image of this process (a program that
   ran in it before it called exec)?  Its header names our pid and was made after
   the process started.  */

static int
earlier_image (const char *path, uint64_t process_start)
{
  struct dsprof_file_header h;
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = pread (fd, &h, sizeof h, 0);
  close (fd);
  if (n != (ssize_t) sizeof h || memcmp (h.magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE) != 0
      || h.pid != (int64_t) getpid ())
    return 0;
  /* A profile left by an earlier process of the same pid is older than we are
     (the process start is known to a clock tick: allow one).  Without /proc,
     the pid alone decides, on the side of keeping the file.  */
  uint64_t tick = 1000000000u / 100;
  return !process_start || h.start_mono_ns + tick >= process_start;
}

/* Set WRITER.path to the profile's name for a process that is not a forked child:
   $DSPROF_OUT (default dsprof.data) with every "%p" replaced by the pid, made
   absolute so that a later chdir does not move the files of forked children, and
   with ".<pid>" appended if this process was started by exec from a profiled
   process that owns the name (see DSPROF_ENV_PARENT_PID).  Otherwise this process
   owns the name and says so to the processes it starts.

   A program exec'd by a process that already wrote its profile under that name
   (a forked child's <name>.<pid>, or the owner's <name>) must not replace it: the
   counts of the earlier image would be lost.  Its k-th exec'd image writes
   <name>.<pid>.exec<k> instead (".<pid>" only once: not if the name holds the pid
   already), the first such name that no earlier image of this process took.
   Return 0 or an errno value.  */

static int
writer_resolve_path (void)
{
  const char *tmpl = getenv (DSPROF_ENV_OUT);
  if (!tmpl || !*tmpl)
    tmpl = DSPROF_DEFAULT_OUT;

  /* Until it is resolved, messages show the name as given.  */
  snprintf (writer.path, sizeof writer.path, "%s", tmpl);
  writer.path_ok = 0;

  char buf[PATH_MAX], dot_pid[24];
  size_t n = 0;
  int err = 0, has_pid = 0;
  snprintf (dot_pid, sizeof dot_pid, ".%ld", (long) getpid ());
  const char *pid = dot_pid + 1;
  buf[0] = '\0';
  if (tmpl[0] != '/' && getcwd (buf, sizeof buf))
    {
      n = strlen (buf);
      if (n == 0 || buf[n - 1] != '/')
        err = append (buf, sizeof buf, &n, "/", 1);
    }
  for (const char *s = tmpl; *s && !err; s++)
    if (s[0] == '%' && s[1] == 'p')
      {
        err = append (buf, sizeof buf, &n, pid, strlen (pid));
        has_pid = 1;
        s++;
      }
    else
      err = append (buf, sizeof buf, &n, s, 1);

  /* The name of a process started by exec from a profiled process: that process
     owns the name, so take <name>.<pid>, unless "%p" made the name unique
     already.  setenv is not thread-safe, but units register from constructors,
     before the program starts threads (dlopen aside).  */
  const char *owner = getenv (DSPROF_ENV_PARENT_PID);
  if (owner && *owner && strcmp (owner, pid) != 0)
    {
      if (!has_pid && !err)
        {
          err = append (buf, sizeof buf, &n, dot_pid, strlen (dot_pid));
          has_pid = 1;
        }
    }
  else
    setenv (DSPROF_ENV_PARENT_PID, pid, 1);

  /* An earlier image of this process wrote BUF: take the first free
     <name>.<pid>.exec<k>.  */
  uint64_t process_start = process_start_mono_ns ();
  if (!err && earlier_image (buf, process_start))
    {
      if (!has_pid)
        err = append (buf, sizeof buf, &n, dot_pid, strlen (dot_pid));
      size_t base = n;
      for (unsigned k = 1; !err; k++)
        {
          char suffix[24];
          n = base;
          snprintf (suffix, sizeof suffix, ".exec%u", k);
          err = append (buf, sizeof buf, &n, suffix, strlen (suffix));
          if (!err && !earlier_image (buf, process_start))
            break;
          if (k == 1000)
            err = EEXIST;
        }
    }

  if (err)
    return err;
  memcpy (writer.path, buf, n + 1);
  writer.path_ok = 1;
  return 0;
}

/* Create the profile WRITER.path with a header of FLAGS and make it the writer's
   file.  Return 0 or an errno value; on failure nothing is left behind.  */

static int
writer_create (uint64_t flags)
{
  char tmp[PATH_MAX];
  int fd = -1, err;
  struct dsprof_file_header *hdr = MAP_FAILED;
  struct stat st;

  /* A unique temporary name in the same directory (rename does not cross file
     systems).  Not mkstemp: it creates files of mode 0600, and the profile should
     get the usual 0666 & ~umask.  */
  for (unsigned k = 0; fd < 0; k++)
    {
      if ((size_t) snprintf (tmp, sizeof tmp, "%s.tmp%ld-%u", writer.path,
                             (long) getpid (), k) >= sizeof tmp)
        return ENAMETOOLONG;
      fd = open (tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0 && (errno != EEXIST || k == 99))
        return errno;
    }

  err = writer_allocate (fd, 0, DSPROF_PAGE);
  if (err)
    goto fail;
  hdr = mmap (NULL, DSPROF_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (hdr == MAP_FAILED || fstat (fd, &st) != 0)
    {
      err = errno;
      goto fail;
    }

  /* The page reads as zeros: fill in what is not.  */
  memcpy (hdr->magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE);
  hdr->version = DSPROF_FORMAT_VERSION;
  hdr->header_size = DSPROF_PAGE;
  hdr->end = DSPROF_PAGE;
  hdr->pid = getpid ();
  hdr->ppid = getppid ();
  hdr->start_ns = now_ns (CLOCK_REALTIME);
  hdr->start_mono_ns = now_ns (CLOCK_MONOTONIC);
  hdr->flags = flags | (writer.lost ? DSPROF_FLAG_TRUNCATED : 0);
  ssize_t len = readlink ("/proc/self/exe", hdr->exe, sizeof hdr->exe - 1);
  if (len < 0)
    strncpy (hdr->exe, program_invocation_name, sizeof hdr->exe - 1);
  dsprof_recorder_header_init (hdr);

  if (rename (tmp, writer.path) != 0)
    {
      err = errno;
      goto fail;
    }

  writer.fd = fd;
  writer.end = DSPROF_PAGE;
  writer.dev = st.st_dev;
  writer.ino = st.st_ino;
  writer.pid = getpid ();
  writer_install_sigbus ();
  writer_track (hdr, DSPROF_PAGE);
  __atomic_store_n (&writer.hdr, hdr, __ATOMIC_RELEASE);
  __atomic_store_n (&writer.state, WRITER_OPEN, __ATOMIC_RELEASE);
  return 0;

 fail:
  if (hdr != MAP_FAILED)
    munmap (hdr, DSPROF_PAGE);
  close (fd);
  unlink (tmp);
  return err;
}

/* ---- the profile truncated under the program: SIGBUS ---------------------------

   Every mapping of the profile (the header, the counters, the event chunks) is
   listed in MAPPINGS, a list that only grows (under the writer lock) and is read
   by the SIGBUS handler without a lock.  A mapping that goes away with its unit
   (dlclose) is marked dead, not unlinked, so the handler never follows a freed
   node.  */

struct mapping
{
  uintptr_t lo, hi;             /* [lo, hi); lo == hi when dead */
  struct mapping *next;
};

static struct mapping *mappings;
static struct sigaction old_sigbus;     /* the disposition we replaced */
static int sigbus_installed;
static uintptr_t page_size = DSPROF_PAGE;

/* List the mapping [ADDR, ADDR + SIZE) of the profile.  Without memory for it,
   a truncation kills the program as it would without dsprof.  */

static void
writer_track (void *addr, size_t size)
{
  struct mapping *m = malloc (sizeof *m);
  if (!m)
    return;
  m->lo = (uintptr_t) addr;
  m->hi = m->lo + size;
  m->next = mappings;
  __atomic_store_n (&mappings, m, __ATOMIC_RELEASE);
}

void
dsprof_writer_forget (void *addr)
{
  pthread_mutex_lock (&writer_lock);
  for (struct mapping *m = mappings; m; m = m->next)
    if (m->lo == (uintptr_t) addr)
      __atomic_store_n (&m->lo, m->hi, __ATOMIC_RELAXED);
  pthread_mutex_unlock (&writer_lock);
}

/* In a forked child: the parent's mappings are not the child's profile.  */

static void
writer_forget_all (void)
{
  struct mapping *m = mappings;
  mappings = NULL;
  while (m)
    {
      struct mapping *next = m->next;
      free (m);
      m = next;
    }
}

/* Write "dsprof: " and the strings of PARTS (up to a NULL) to stderr as one
   line, if nothing was reported yet; async-signal-safe.  */

static void
warn_signal_safe (const char *const *parts)
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

/* A SIGBUS at an address of one of our mappings: the file was truncated below
   that page.  The page and the rest of the mapping (at higher offsets, so past
   the end too) become anonymous memory, and the program carries on.  */

static void
writer_sigbus (int sig, siginfo_t *si, void *ctx)
{
  int saved_errno = errno;
  dsprof_recorder_fault (si);     /* reading a string of the program? */
  if (si && si->si_code == BUS_ADRERR)
    {
      uintptr_t a = (uintptr_t) si->si_addr;
      for (struct mapping *m = __atomic_load_n (&mappings, __ATOMIC_ACQUIRE); m;
           m = m->next)
        {
          uintptr_t lo = __atomic_load_n (&m->lo, __ATOMIC_RELAXED);
          if (a < lo || a >= m->hi)
            continue;
          uintptr_t from = a & ~(page_size - 1);
          if (from < lo)
            from = lo;
          if (mmap ((void *) from, m->hi - from, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
            break;
          __atomic_store_n (&writer_faulted, 1, __ATOMIC_RELAXED);
          const char *parts[] = { "dsprof: profile '", writer.path,
                                  "' was truncated while the program ran: "
                                  "what was past its new end is lost", NULL };
          warn_signal_safe (parts);
          errno = saved_errno;
          return;
        }
    }
  errno = saved_errno;
  dsprof_signal_chain (sig, &old_sigbus, si, ctx);
}

/* Install the SIGBUS handler once per program (a forked child inherits it).  */

static void
writer_install_sigbus (void)
{
  if (sigbus_installed)
    return;
  sigbus_installed = 1;
  long ps = sysconf (_SC_PAGESIZE);
  if (ps > 0)
    page_size = (uintptr_t) ps;
  dsprof_signal_install (SIGBUS, writer_sigbus, &old_sigbus);
}

/* Fork handlers.  A forked child shares the parent's mappings: without them its
   counter updates would land in the parent's file.  */

static void
writer_atfork_prepare (void)
{
  /* Taken in the lock order, so that the child finds the registry and the writer
     in a consistent state and not locked by a thread it does not have.  */
  dsprof_units_lock ();
  pthread_mutex_lock (&writer_lock);
  dsprof_recorder_lock ();
}

static void
writer_atfork_parent (void)
{
  dsprof_recorder_unlock ();
  pthread_mutex_unlock (&writer_lock);
  dsprof_units_unlock ();
}

/* In the child: drop the parent's file and start <parent's name>.<pid> with
   DSPROF_FLAG_FORKED; the units then add their chunks with zero counters (counts
   from the fork) and map them over their counter arrays.  */

static void
writer_atfork_child (void)
{
  int saved_errno = errno;
  pthread_mutex_init (&writer_lock, NULL);
  writer.pid = getpid ();

  if (writer.state != WRITER_UNOPENED)
    {
      if (writer.hdr)
        munmap (writer.hdr, DSPROF_PAGE);
      if (writer_fd_is_ours ())
        close (writer.fd);
      writer.hdr = NULL;
      writer.fd = -1;
      writer.end = 0;
      writer.lost = 0;
      writer_faulted = 0;
      writer_forget_all ();
      __atomic_store_n (&writer.state, WRITER_BROKEN, __ATOMIC_RELAXED);

      char pid[24];
      size_t n = strlen (writer.path);
      snprintf (pid, sizeof pid, ".%ld", (long) getpid ());
      int err = (writer.path_ok
                 ? append (writer.path, sizeof writer.path, &n, pid, strlen (pid))
                 : ENAMETOOLONG);
      if (!err)
        err = writer_create (DSPROF_FLAG_FORKED);
      if (err)
        writer_fail (err);
    }

  dsprof_units_fork_child ();
  dsprof_recorder_fork_child ();
  errno = saved_errno;
}

/* A child made by a raw clone () (no CLONE_VM) ran no fork handler: it finds
   the parent's file, whose counter pages it shares.  Before it adds a chunk
   there, give it a file of its own as the fork handler does (the child is
   single-threaded; locks a thread of the parent held are made anew).  */

void
dsprof_writer_adopt (void)
{
  pid_t owner = __atomic_load_n (&writer.pid, __ATOMIC_RELAXED);
  if (owner && owner != getpid ())
    writer_atfork_child ();
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static int atfork_err;

static void
writer_register_atfork (void)
{
  atfork_err = pthread_atfork (writer_atfork_prepare, writer_atfork_parent,
                               writer_atfork_child);
}

/* Open the profile for the first chunk of a process (not of a forked child).  */

static void
writer_open (void)
{
  /* Without the fork handlers a forked child would count into our file: better no
     file at all.  */
  pthread_once (&atfork_once, writer_register_atfork);
  int err = atfork_err;
  if (!err)
    err = writer_resolve_path ();
  if (!err)
    err = writer_create (0);
  if (err)
    writer_fail (err);
}

uint64_t
dsprof_writer_begin (uint64_t size)
{
  int err;
  pthread_mutex_lock (&writer_lock);
  if (writer.state == WRITER_UNOPENED)
    writer_open ();
  if (writer.state != WRITER_OPEN)
    goto unlock;
  err = writer_check_fd ();
  if (!err && writer_check_file () != 0)
    goto unlock;                /* deleted or truncated, reported */
  if (!err)
    err = writer_allocate (writer.fd, writer.end, size);
  if (err)
    {
      writer_fail (err);
      goto unlock;
    }
  return writer.end;

 unlock:
  pthread_mutex_unlock (&writer_lock);
  return 0;
}

struct dsprof_file_header *
dsprof_writer_header (void)
{
  struct dsprof_file_header *hdr = __atomic_load_n (&writer.hdr, __ATOMIC_ACQUIRE);
  if (likely (hdr != NULL)
      || __atomic_load_n (&writer.state, __ATOMIC_RELAXED) != WRITER_UNOPENED)
    return hdr;
  pthread_mutex_lock (&writer_lock);
  if (writer.state == WRITER_UNOPENED)
    writer_open ();
  hdr = writer.hdr;
  pthread_mutex_unlock (&writer_lock);
  return hdr;
}

struct dsprof_file_header *
dsprof_writer_header_if_open (void)
{
  return __atomic_load_n (&writer.hdr, __ATOMIC_ACQUIRE);
}

/* Write SIZE bytes of BUF at OFFSET, inside the chunk being added.  Return 0 or
   an errno value.  */

int
dsprof_writer_write (uint64_t offset, const void *buf, size_t size)
{
  const char *p = buf;
  while (size)
    {
      ssize_t n = pwrite (writer.fd, p, size, (off_t) offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return errno;
      if (n == 0)
        return EIO;
      p += n;
      size -= (size_t) n;
      offset += (uint64_t) n;
    }
  return 0;
}

/* Map SIZE bytes of the chunk being added, from file offset OFFSET (page
   aligned), read-write and shared: at FIXED, replacing what is there, or where
   the kernel likes if FIXED is NULL.  Return the address, or NULL with errno.  */

void *
dsprof_writer_map (uint64_t offset, size_t size, void *fixed)
{
  void *p = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, writer.fd,
                  (off_t) offset);
  if (p == MAP_FAILED)
    return NULL;
  /* Fault the pages in writable now, in one call: the program's first write to
     each page of a shared file mapping otherwise traps, which costs several
     times what the stores themselves do.  Best effort (Linux >= 5.14).  */
  int saved_errno = errno;
  madvise (p, size, MADV_POPULATE_WRITE);
  errno = saved_errno;
  if (!fixed)
    {
      writer_track (p, size);
      return p;
    }

  /* Not mmap (FIXED, ..., MAP_FIXED) directly: when that fails (ENOMEM, too many
     mappings), Linux may already have unmapped FIXED, and the program's next
     counter update would fault.  Mapped elsewhere first and then moved, the file
     replaces FIXED only once the mapping exists.  */
  void *q = mremap (p, size, size, MREMAP_MAYMOVE | MREMAP_FIXED, fixed);
  if (q == MAP_FAILED)
    {
      int err = errno;
      munmap (p, size);
      errno = err;
      return NULL;
    }
  writer_track (q, size);
  return q;
}

/* Publish the chunk of SIZE bytes at OFFSET: readers that see the new `end` see
   the whole chunk (release, paired with their acquire load of `end`).  */

void
dsprof_writer_commit (uint64_t offset, uint64_t size)
{
  writer.end = offset + size;
  __atomic_store_n (&writer.hdr->end, writer.end, __ATOMIC_RELEASE);
  pthread_mutex_unlock (&writer_lock);
}

void
dsprof_writer_abort (int err)
{
  writer_fail (err);
  pthread_mutex_unlock (&writer_lock);
}

/* At normal exit (return from main, exit()), let the recorder close the exiting
   thread's open events, then store the stop time; a process that ends any other
   way leaves 0.  No lock: a thread may hold it while the main thread exits, and
   HDR, once set, stays valid.  */

__attribute__ ((destructor)) static void
writer_exit (void)
{
  int saved_errno = errno;
  dsprof_recorder_exit ();
  struct dsprof_file_header *hdr = __atomic_load_n (&writer.hdr, __ATOMIC_ACQUIRE);
  /* A child made by vfork or a raw clone has no header of its own.  */
  if (hdr && writer.pid == getpid () && hdr->pid == getpid ())
    __atomic_store_n (&hdr->stop_mono_ns, now_ns (CLOCK_MONOTONIC), __ATOMIC_RELEASE);
  /* Tell of a profile deleted or truncated since the last chunk was added (and
     make what is left readable).  Only if the lock is free: a thread that holds
     it is adding a chunk and checks the file itself.  */
  if (hdr && writer.pid == getpid () && pthread_mutex_trylock (&writer_lock) == 0)
    {
      if (writer.state == WRITER_OPEN)
        writer_check_file ();
      pthread_mutex_unlock (&writer_lock);
    }
  errno = saved_errno;
}
