/* writer.c - the profile writer: one file per process, grown chunk by chunk, and
   what becomes of it at fork and at exit (lifecycle.c, which owns the
   order, calls this file's part).  The writer only writes: the fields of a
   new header that other modules own are filled by the owner it was given
   (dsprof_writer_setup), and it calls no module above it (internal.h).

   The file (dsprof-format.h, section 2) is created unnamed (O_TMPFILE; else
   under a temporary name) in its final directory, its header page filled and
   mapped, and then given its name: a new run replaces an older profile
   atomically and never truncates a file that a reader has mapped, nobody sees
   a half-made header, and a process killed meanwhile leaves nothing.  Only a
   stale profile is ever replaced (writer_place): not a file of another kind,
   not through a link, and not the profile of a process still running, whose
   name another process started at the same time leaves to it, taking
   <name>.<pid>; nor, if the name came from a "%p" pattern, a profile of an
   earlier process of the same pid (the kernel reuses pids): the name then
   gets ".<k>" after the pid (writer_place_next).  The header stays
   mapped MAP_SHARED so that `end`, `flags` and `stop_mono_ns` can be updated in
   place; no descriptor is held while the program runs (writer_attach).

   Chunks are appended under the writer lock with the reserve/commit protocol of
   internal.h.  Space is reserved with posix_fallocate before anything is written or
   mapped: a page of a sparse file that is mapped and then cannot be allocated (full
   disk) faults with SIGBUS on its next counter update, while a failed fallocate
   only costs us the chunk.  Only a forked child's counters and the threads'
   shards (update=thread) are left a hole (dsprof_writer_begin_sparse), so
   that they cost what they touch; the SIGBUS handler below keeps the program
   running should its disk fill.

   Nothing is ever flushed: the counters are mapped from the file, so a crash, a
   SIGKILL, abort() or _exit() lose nothing.  At normal exit (lifecycle.c) the
   writer only stores the stop time.

   Failures never reach the program: one "dsprof: cannot write profile" line on
   stderr per process, DSPROF_FLAG_TRUNCATED in the header if there is one, and the
   counters that were not mapped simply stay in the program's memory.  errno is
   saved and restored by every entry point (units.c and the handlers here).

   Someone else may delete or truncate the profile while the program runs.  A
   deleted profile is noticed when the next chunk is added or at exit: one warning,
   and no more chunks.  A truncated one would kill the program with SIGBUS at its
   next access to a mapped page past the new end: the SIGBUS handler below replaces
   each such page, as it is touched, with anonymous memory (the program's counters
   and streams go on in memory, the file has lost them anyway) and warns once.  The
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#include <sys/auxv.h>
#include <sys/file.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <time.h>
#include <unistd.h>

static void writer_install_sigbus (void);
static int shared_wanted (void);
static int shared_open (uint64_t flags, const char **why);
static uint64_t shared_begin (uint64_t size, uint64_t reserve, int *err);
static void shared_commit (uint64_t offset);

enum writer_state
{
  WRITER_UNOPENED,              /* no chunk was asked for yet */
  WRITER_OPEN,                  /* fd and hdr are valid, chunks can be added */
  WRITER_BROKEN                 /* something failed (and was reported): no more
                                   chunks in this process */
};

/* The writer.  All fields are protected by writer_lock, except that HDR and
   STATE are also read without it (dsprof_writer_header, dsprof_writer_exit):
   HDR never changes once set, but in a forked child, single-threaded in its fork
   handler, which replaces it.
   Invariants when STATE is WRITER_OPEN: PATH names the file identified by DEV
   and INO (unless someone else since deleted or replaced it), HDR maps its first
   page, END == HDR->end is the committed length and the file holds exactly
   [0, END) plus possibly the space of a chunk in progress, on disk up to
   RESERVED.  FD is open on the file only while a chunk is added (between
   dsprof_writer_begin and its commit or abort) or while HOLD is set (a forked
   child adding every unit's chunk in its fork handler), else -1.  */
static struct
{
  enum writer_state state;
  int fd;
  int hold;
  struct dsprof_file_header *hdr;
  uint64_t end;
  uint64_t reserved;
  dev_t dev;
  ino_t ino;
  int path_ok;                  /* PATH is the resolved name of the profile (else
                                   what we could show of it, for messages) */
  int lost;                     /* some unit could not be recorded: the header to
                                   come gets DSPROF_FLAG_TRUNCATED */
  int holes;                    /* the file system reads holes without
                                   allocating them (not tmpfs) */
  int secure;                   /* set-user-ID or set-group-ID program (AT_SECURE):
                                   files are made with the real user's rights */
  pid_t pid;                    /* the process whose file it is */
  size_t tmpl_fixed;            /* TMPL's first bytes, the working directory, are
                                   taken as they are */
  char tmpl[PATH_MAX];          /* $DSPROF_OUT made absolute, "%p" not replaced */
  char path[PATH_MAX];          /* absolute unless getcwd failed */
  size_t pid_end;               /* PATH came from "%p": where the pid of its last
                                   "%p" ends in it, else 0 */
} writer = { WRITER_UNOPENED, -1, 0, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "", "", 0 };

/* DSPROF_ACCUMULATE=1: the profile is an accumulated one (dsprof-format.h,
   section 2a), FILE its header (mapped), PROC the page of this process's
   chunk, whose header WRITER.hdr then is.  */
static struct
{
  int on;
  struct dsprof_file_header *file;
  uint64_t proc;
} shared;

/* Set by the SIGBUS handler once it replaced a mapping: the file was truncated.  */
static int writer_faulted;

static pthread_mutex_t writer_lock = PTHREAD_MUTEX_INITIALIZER;

/* What the runtime's owner (lifecycle.c) told the writer, under the writer
   lock, before any file is made (dsprof_writer_setup): how to fill the other
   modules' fields of a new header, and the fork child handler; SETUP_ERR
   if the fork handlers could not be registered.  */
static struct dsprof_writer_owner writer_owner;
static int setup_err, setup_done;


static void writer_detach (void);

/* Report ERR for the profile, or WHY if not NULL, and stop adding chunks.  */

static void
writer_fail (int err, const char *why)
{
  __atomic_store_n (&writer.state, WRITER_BROKEN, __ATOMIC_RELEASE);
  writer.lost = 1;
  if (writer.hdr)
    __atomic_fetch_or (&writer.hdr->flags, DSPROF_FLAG_TRUNCATED, __ATOMIC_RELAXED);
  writer_detach ();
  dsprof_warn ("cannot write profile '%s': %s", writer.path,
               why ? why : strerror (err));
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

/* Allocate [OFFSET, OFFSET + RESERVE) of FD on disk and make the file OFFSET +
   LEN bytes long, the rest a hole (a forked child's counters: see
   dsprof_writer_begin_sparse); return 0 or an errno value.

   Growing a file past `ulimit -f` sends SIGXFSZ, whose default action kills the
   program.  We block it around the call and take back the signal we caused, so the
   limit costs the profile but not the program.  A SIGXFSZ that was already pending
   before is the program's and is left alone.  */

static int
writer_allocate (int fd, uint64_t offset, uint64_t len, uint64_t reserve)
{
  sigset_t xfsz, old, pending;
  sigemptyset (&xfsz);
  sigaddset (&xfsz, SIGXFSZ);
  pthread_sigmask (SIG_BLOCK, &xfsz, &old);
  int was_pending = sigpending (&pending) == 0 && sigismember (&pending, SIGXFSZ);

  int err = reserve ? posix_fallocate (fd, (off_t) offset, (off_t) reserve) : 0;
  if (!err && len > reserve && ftruncate (fd, (off_t) (offset + len)) != 0)
    err = errno;

  if (err && !was_pending && sigpending (&pending) == 0
      && sigismember (&pending, SIGXFSZ))
    {
      struct timespec zero = { 0, 0 };
      sigtimedwait (&xfsz, NULL, &zero);
    }
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  return err;
}

/* Open the profile for a chunk: WRITER.fd, by name (no descriptor is held
   while the program runs: a program under a tight `ulimit -n`, or one that
   closes every descriptor, keeps all of its own), unless it is held already
   (WRITER.hold).  O_NOFOLLOW and O_NONBLOCK: whatever took the name since, a
   link or a fifo, is neither followed nor waited for, and only our file (its
   device and inode) is ever written.  Return 0, ESTALE if the name no longer
   leads to our file (deleted or replaced), or an errno value.  */

static int
writer_attach (void)
{
  if (writer.fd >= 0)
    return 0;
  int fd = open (writer.path,
                 O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT || errno == ELOOP ? ESTALE : errno;
  struct stat st;
  if (fstat (fd, &st) != 0 || st.st_dev != writer.dev || st.st_ino != writer.ino)
    {
      close (fd);
      return ESTALE;
    }
  writer.fd = fd;
  return 0;
}

/* Close WRITER.fd again, unless it is held.  */

static void
writer_detach (void)
{
  if (writer.fd >= 0 && !writer.hold)
    {
      close (writer.fd);
      writer.fd = -1;
    }
}

/* The file was truncated to SIZE bytes by someone else: lower the header's `end`
   to the end of the last whole chunk the file still holds, so that readers read
   what is left, and say that chunks are missing.  The chunk headers are read
   with pread, which past the end of the file reads nothing rather than faulting.
   Called with the writer lock held and the file attached.  */

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

/* Has someone else deleted or truncated the profile?  ATTACH_ERR is what
   writer_attach returned.  If so, report it (once), save what can be saved and
   stop adding chunks; return ESTALE.  Else 0.  Called with the writer lock held,
   with the writer open.  */

static int
writer_check_file (int attach_err)
{
  struct stat st;
  int deleted = 1, truncated = 0;
  if (!attach_err && fstat (writer.fd, &st) == 0)
    {
      deleted = st.st_nlink == 0;
      truncated = (uint64_t) st.st_size < writer.end;
    }
  else if (attach_err != ESTALE)
    return 0;                   /* cannot tell (no descriptor to spare) */
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
      writer_cut ((uint64_t) st.st_size);
      dsprof_warn ("profile '%s' was truncated while the program ran: "
                   "what was past its new end is lost", writer.path);
    }
  writer_detach ();
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

/* Append ".<pid>" of this process to the name of *N bytes in BUF (PATH_MAX
   bytes).  Return 0 or ENAMETOOLONG.  */

static int
append_pid (char *buf, size_t *n)
{
  char dot_pid[24];
  snprintf (dot_pid, sizeof dot_pid, ".%ld", (long) getpid ());
  return append (buf, PATH_MAX, n, dot_pid, strlen (dot_pid));
}

/* When process PID (0: this one) started, in CLOCK_MONOTONIC ns (to a clock
   tick); 0 if /proc does not say.  */

static uint64_t
process_start_mono_ns (pid_t pid)
{
  char buf[1024];
  if (pid)
    snprintf (buf, sizeof buf, "/proc/%ld/stat", (long) pid);
  else
    strcpy (buf, "/proc/self/stat");
  int fd = open (buf, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  return dsprof_stat_start_mono (buf, sysconf (_SC_CLK_TCK),
                                 dsprof_clock_ns (CLOCK_BOOTTIME), dsprof_mono_ns ());
}

/* What is at PATH?  0: nothing (or something that changed while we looked:
   look again); 1: a dsprof profile, whose header is *H and identity *ST;
   -1: something else, which *WHY names.  Nothing is followed, waited for, or
   opened unless it is a regular file.  */

static int
read_profile_header (const char *path, struct dsprof_file_header *h,
                     struct stat *st, const char **why)
{
  struct stat fst;
  *why = NULL;
  if (lstat (path, st) != 0)
    {
      if (errno == ENOENT)
        return 0;
      *why = strerror (errno);
      return -1;
    }
  if (S_ISLNK (st->st_mode))
    *why = "it is a symbolic link";
  else if (!S_ISREG (st->st_mode))
    *why = "not a regular file";
  if (*why)
    return -1;
  int fd = open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    {
      if (errno == ENOENT || errno == ELOOP)
        return 0;
      *why = strerror (errno);
      return -1;
    }
  ssize_t n = -2;
  if (fstat (fd, &fst) == 0 && fst.st_dev == st->st_dev && fst.st_ino == st->st_ino)
    n = pread (fd, h, sizeof *h, 0);
  close (fd);
  if (n == -2)
    return 0;
  if (n != (ssize_t) sizeof *h || memcmp (h->magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE) != 0)
    {
      *why = "not a dsprof profile";
      return -1;
    }
  return 1;
}

/* Is the profile whose header is H still being written by its process?  Not
   if that process exited normally (it stored its stop time), or is gone, or
   the pid now belongs to a process started after the profile was made.  No
   lock tells it: a lock goes with a descriptor, and the writer holds none
   (writer_attach).  Without /proc the pid alone decides, on the side of
   keeping the file.  */

static int
profile_live (const struct dsprof_file_header *h)
{
  if (h->stop_mono_ns != 0 || h->pid <= 0 || h->pid > INT_MAX)
    return 0;
  if (kill ((pid_t) h->pid, 0) != 0 && errno != EPERM)
    return 0;
  uint64_t start = process_start_mono_ns ((pid_t) h->pid);
  return !start || start <= h->start_mono_ns + DSPROF_START_SLACK_NS;
}

/* Is PATH a profile written by an earlier image of this process (a program that
   ran in it before it called exec)?  Its header names our pid and was made after
   the process started.  */

static int
earlier_image (const char *path, uint64_t process_start)
{
  struct dsprof_file_header h;
  struct stat st;
  const char *why;
  if (read_profile_header (path, &h, &st, &why) != 1 || h.pid != (int64_t) getpid ())
    return 0;
  /* A profile left by an earlier process of the same pid is older than we are.
     Without /proc, the pid alone decides, on the side of keeping the file.  */
  return !process_start || h.start_mono_ns + DSPROF_START_SLACK_NS >= process_start;
}

/* Write into BUF (PATH_MAX bytes) the profile's name for process PID:
   WRITER.tmpl with every "%p" after its fixed part replaced by PID; *PID_END
   is where the last one's pid ends in BUF (0: there was none), *N the
   length.  Return 0 or ENAMETOOLONG.  */

static int
writer_expand (char *buf, size_t *n, pid_t pid, size_t *pid_end)
{
  char num[24];
  snprintf (num, sizeof num, "%ld", (long) pid);
  *n = 0;
  *pid_end = 0;
  buf[0] = '\0';
  int err = append (buf, PATH_MAX, n, writer.tmpl, writer.tmpl_fixed);
  for (const char *s = writer.tmpl + writer.tmpl_fixed; *s && !err; s++)
    if (s[0] == '%' && s[1] == 'p')
      {
        err = append (buf, PATH_MAX, n, num, strlen (num));
        *pid_end = *n;
        s++;
      }
    else
      err = append (buf, PATH_MAX, n, s, 1);
  return err;
}

/* How many of a "%p" name's variants a process tries (writer_place_next).  */
#define PID_VARIANTS 10000

/* Write into DST (PATH_MAX bytes) the name SRC, of N bytes, with ".<K>"
   inserted at END, where the pid of its last "%p" ends: the K-th variant of
   a "%p" name, for a process whose pid an earlier process had (K 0: SRC
   itself).  Return its length, or 0 if it is too long.  */

static size_t
pid_variant (char *dst, const char *src, size_t n, size_t end, unsigned k)
{
  char num[16];
  size_t len = k ? (size_t) snprintf (num, sizeof num, ".%u", k) : 0;
  if (n + len >= PATH_MAX)
    return 0;
  memmove (dst + end + len, src + end, n - end + 1);
  if (dst != src)
    memcpy (dst, src, end);
  memcpy (dst + end, num, len);
  return n + len;
}

/* Does anything have the name PATH?  */

static int
name_taken (const char *path)
{
  struct stat st;
  return lstat (path, &st) == 0 || errno != ENOENT;
}

/* The "%p" name in BUF (*N bytes, its pid ending at PID_END): did an earlier
   image of this process write it or one of its variants (pid_variant, taken
   in order)?  If so, put that name in BUF and return 1.  */

static int
earlier_image_variant (char *buf, size_t *n, size_t pid_end,
                       uint64_t process_start)
{
  char name[PATH_MAX];
  for (unsigned k = 0; k < PID_VARIANTS; k++)
    {
      size_t len = pid_variant (name, buf, *n, pid_end, k);
      if (!len || !name_taken (name))
        return 0;
      if (earlier_image (name, process_start))
        {
          memcpy (buf, name, len + 1);
          *n = len;
          return 1;
        }
    }
  return 0;
}

/* Set WRITER.path to the profile's name for a process that is not a forked child:
   $DSPROF_OUT (default dsprof.data) with every "%p" replaced by the pid, made
   absolute so that a later chdir does not move the files of forked children, and
   with ".<pid>" appended if this process was started by exec from a profiled
   process that owns the name (see DSPROF_ENV_PARENT_PID).  Otherwise this process
   owns the name and says so to the processes it starts.  A set-user-ID or
   set-group-ID program ignores DSPROF_OUT (secure_getenv): its user must not
   choose what it writes.

   A program exec'd by a process that already wrote its profile under that name
   (a forked child's <name>.<pid>, or the owner's <name>) must not replace it: the
   counts of the earlier image would be lost.  Its k-th exec'd image writes
   <name>.<pid>.exec<k> instead (".<pid>" only once: not if the name holds the pid
   already), the first such name that no earlier image of this process took.
   With "%p", <name> is the variant the first image took (writer_place_next),
   and <k> the first that nothing has: the name is this process's alone.
   Return 0 or an errno value.  */

static int
writer_resolve_path (void)
{
  writer.secure = getauxval (AT_SECURE) != 0;
  const char *tmpl = secure_getenv (DSPROF_ENV_OUT);
  if (!tmpl || !*tmpl)
    tmpl = DSPROF_DEFAULT_OUT;

  /* Until it is resolved, messages show the name as given.  */
  snprintf (writer.path, sizeof writer.path, "%s", tmpl);
  writer.path_ok = 0;

  char buf[PATH_MAX], pid[24];
  size_t n = 0, pid_end = 0;
  int err = 0, has_pid = 0;
  snprintf (pid, sizeof pid, "%ld", (long) getpid ());
  writer.tmpl[0] = '\0';
  if (tmpl[0] != '/' && getcwd (writer.tmpl, sizeof writer.tmpl))
    {
      n = strlen (writer.tmpl);
      if (n == 0 || writer.tmpl[n - 1] != '/')
        err = append (writer.tmpl, sizeof writer.tmpl, &n, "/", 1);
    }
  writer.tmpl_fixed = n;
  if (!err)
    err = append (writer.tmpl, sizeof writer.tmpl, &n, tmpl, strlen (tmpl));
  if (!err)
    err = writer_expand (buf, &n, getpid (), &pid_end);
  has_pid = pid_end != 0;

  /* The name of a process started by exec from a profiled process: that process
     owns the name, so take <name>.<pid>, unless "%p" made the name unique
     already, or the profile is an accumulated one, which every process adds to.  setenv is not thread-safe, but units register from constructors,
     before the program starts threads (dlopen aside).  */
  const char *owner = shared.on ? NULL : getenv (DSPROF_ENV_PARENT_PID);
  if (owner && *owner && strcmp (owner, pid) != 0)
    {
      if (!has_pid && !err)
        {
          err = append_pid (buf, &n);
          has_pid = 1;
        }
    }
  else
    setenv (DSPROF_ENV_PARENT_PID, pid, 1);

  /* An earlier image of this process wrote BUF: take the first free
     <name>.<pid>.exec<k>.  */
  uint64_t process_start = process_start_mono_ns (0);
  if (!err && !shared.on
      && (pid_end ? earlier_image_variant (buf, &n, pid_end, process_start)
          : earlier_image (buf, process_start)))
    {
      if (!has_pid)
        err = append_pid (buf, &n);
      size_t base = n;
      for (unsigned k = 1; !err; k++)
        {
          char suffix[24];
          n = base;
          snprintf (suffix, sizeof suffix, ".exec%u", k);
          err = append (buf, sizeof buf, &n, suffix, strlen (suffix));
          if (!err && !(pid_end ? name_taken (buf)
                         : earlier_image (buf, process_start)))
            break;
          if (k == 1000)
            err = EEXIST;
        }
    }

  if (err)
    return err;
  memcpy (writer.path, buf, n + 1);
  writer.pid_end = pid_end;
  writer.path_ok = 1;
  return 0;
}

/* A new profile while it is made: FD, and its temporary name TMP in the
   profile's directory, which exists on disk only if NAMED.  It is made
   unnamed (O_TMPFILE) where the file system allows, so that a process killed
   before its profile has its name leaves nothing behind; it gets TMP only
   for a stale profile to be swapped out (writer_place), for the moment of
   the swap.  */
struct newfile
{
  int fd;
  int named;
  char tmp[PATH_MAX];
};

/* Set NF's temporary name, WRITER.path.tmp<pid>-<K>.  Return 0 or
   ENAMETOOLONG.  */

static int
newfile_tmpname (struct newfile *nf, unsigned k)
{
  return (size_t) snprintf (nf->tmp, sizeof nf->tmp, "%s.tmp%ld-%u", writer.path,
                            (long) getpid (), k) >= sizeof nf->tmp
         ? ENAMETOOLONG : 0;
}

/* Give the unnamed file NF a temporary name of its own.  Return 0 or -1 with
   errno.  */

static int
newfile_name (struct newfile *nf)
{
  char self[64];
  snprintf (self, sizeof self, "/proc/self/fd/%d", nf->fd);
  for (unsigned k = 0; !nf->named; k++)
    {
      int err = newfile_tmpname (nf, k);
      if (!err && linkat (AT_FDCWD, self, AT_FDCWD, nf->tmp, AT_SYMLINK_FOLLOW) == 0)
        nf->named = 1;
      else if (err || errno != EEXIST || k == 99)
        return errno = err ? err : errno, -1;
    }
  return 0;
}

/* Open NF, a new file in WRITER.path's directory (rename and link do not
   cross file systems): unnamed where the file system allows it (O_TMPFILE,
   named later through /proc/self/fd), else under a unique temporary name.
   Not mkstemp: it creates files of mode 0600, and the profile should get the
   usual 0666 & ~umask.  Return 0 or an errno value.  */

static int
newfile_open (struct newfile *nf)
{
  struct stat st;
  char dir[PATH_MAX];
  const char *slash = strrchr (writer.path, '/');
  size_t n = !slash ? 0 : slash == writer.path ? 1 : (size_t) (slash - writer.path);
  memcpy (dir, n ? writer.path : ".", n ? n : 1);
  dir[n ? n : 1] = '\0';
  nf->named = 0;
  nf->fd = -1;
  if (newfile_tmpname (nf, 0) != 0)
    return ENAMETOOLONG;
  if (stat ("/proc/self/fd", &st) == 0)
    {
      nf->fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
      if (nf->fd >= 0)
        return 0;
      if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
        return errno;
    }
  for (unsigned k = 0;; k++)
    {
      int err = newfile_tmpname (nf, k);
      if (err)
        return err;
      nf->fd = open (nf->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                     0666);
      if (nf->fd >= 0)
        return nf->named = 1, 0;
      if (errno != EEXIST || k == 99)
        return errno;
    }
}

/* Give NF the name TO unless TO exists (EEXIST).  Return 0 or -1 with
   errno.  */

static int
rename_noreplace (struct newfile *nf, const char *to)
{
  if (!nf->named)
    {
      /* link never replaces; /proc/self/fd names the unnamed file.  */
      char self[64];
      snprintf (self, sizeof self, "/proc/self/fd/%d", nf->fd);
      return linkat (AT_FDCWD, self, AT_FDCWD, to, AT_SYMLINK_FOLLOW);
    }
  if (renameat2 (AT_FDCWD, nf->tmp, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
    {
      nf->named = 0;
      return 0;
    }
  if (errno != EINVAL && errno != ENOSYS)
    return -1;
  /* A file system without RENAME_NOREPLACE: link does not replace either.  */
  if (link (nf->tmp, to) != 0)
    return -1;
  unlink (nf->tmp);
  nf->named = 0;
  return 0;
}

/* The pid of a live process of the accumulated profile open as FD, whose
   chunks go up to END (dsprof-format.h, section 2a); 0 if none is.  The
   chunk headers are read with pread, which reads a hole as zeros without
   allocating it (a full tmpfs) and past the end of the file nothing.  */

static pid_t
shared_live (int fd, uint64_t end)
{
  for (uint64_t off = DSPROF_PAGE; off < end;)
    {
      struct dsprof_process_chunk pc;
      if (pread (fd, &pc, sizeof pc, (off_t) off) != (ssize_t) sizeof pc)
        break;
      uint64_t size = pc.chunk.size;
      if (size < DSPROF_PAGE || size % DSPROF_PAGE || size > end - off)
        size = DSPROF_PAGE;     /* a page of zeros: step over it */
      else if (DSPROF_CHUNK_KIND (pc.chunk.kind) == DSPROF_CHUNK_PROCESS
               && profile_live (&pc.header))
        return pc.header.pid > 0 ? (pid_t) pc.header.pid : -1;
      off += size;
    }
  return 0;
}

/* Does PATH (not followed) lead to the file identified by ST?  */

static int
same_file (const char *path, const struct stat *st)
{
  struct stat now;
  return lstat (path, &now) == 0 && now.st_dev == st->st_dev
         && now.st_ino == st->st_ino;
}

/* Is anybody still writing the profile at WRITER.path, whose header is H and
   identity ST?  Its process (profile_live), or, in an accumulated profile,
   any process that joined it, or one joining it now: a joiner holds a shared
   lock on the file from its open until its process chunk is written
   (shared_attach), so the processes are read under an exclusive lock.  Every
   process that would swap the file out takes that exclusive lock first and
   holds it until the swap (writer_swap), so that two of them never swap the
   same file at once; *LOCK holds it (a descriptor, -1 if none).  Return the
   pid of a live writer (-1 if not known, or if the file cannot be read to
   know), 0 if there is none, or -2 if the file changed since it was looked
   at, or another process is swapping it out now (look again).  */

static pid_t
profile_holder (const struct dsprof_file_header *h, const struct stat *st,
                int *lock)
{
  *lock = -1;
  if (profile_live (h))
    return (pid_t) h->pid;
  int shared = (h->flags & DSPROF_FLAG_ACCUMULATE) != 0;
  int fd = open (writer.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY
                              | O_CLOEXEC);
  struct stat fst;
  if (fd < 0)
    return errno == ENOENT || errno == ELOOP ? -2 : -1;
  pid_t pid = -2;
  if (fstat (fd, &fst) == 0 && fst.st_dev == st->st_dev && fst.st_ino == st->st_ino)
    pid = shared ? shared_live (fd, h->end) : 0;
  /* Not live at a first look (without the lock, which would keep joiners
     out): again under the lock, for the processes that joined since.  */
  if (pid == 0 && flock (fd, LOCK_EX | LOCK_NB) != 0)
    pid = errno != EWOULDBLOCK ? 0 : shared ? -1 : -2;
  if (pid == 0 && shared)
    pid = shared_live (fd, h->end);
  if (pid == 0 && !same_file (writer.path, st))
    pid = -2;                   /* swapped out while we took the lock */
  if (pid == 0)
    *lock = fd;
  else
    close (fd);
  return pid;
}

/* Swap the stale profile at WRITER.path, identified by OLD, with NF, and
   remove it if it is still what was looked at; if someone put something
   else there since, swap back (return EAGAIN: look again).  Return 0 or an
   errno value.  */

static int
writer_swap (struct newfile *nf, const struct stat *old)
{
  struct stat now;
  if (!nf->named && newfile_name (nf) != 0)
    return errno;
  if (renameat2 (AT_FDCWD, nf->tmp, AT_FDCWD, writer.path, RENAME_EXCHANGE) != 0)
    {
      if (errno != EINVAL && errno != ENOSYS)
        return errno;
      /* No atomic exchange on this file system: replace it, which leaves
         the name open to a change between the look and the rename.  */
      if (rename (nf->tmp, writer.path) != 0)
        return errno;
      nf->named = 0;
      return 0;
    }
  if (lstat (nf->tmp, &now) == 0 && now.st_dev == old->st_dev
      && now.st_ino == old->st_ino)
    {
      unlink (nf->tmp);
      nf->named = 0;
      return 0;
    }
  /* If it cannot be swapped back, the profile has the name and what took
     it meanwhile is kept under its temporary name.  */
  if (renameat2 (AT_FDCWD, nf->tmp, AT_FDCWD, writer.path, RENAME_EXCHANGE) != 0)
    {
      nf->named = 0;
      return 0;
    }
  return EAGAIN;
}

/* Give the new profile NF the name WRITER.path.  What has the name already
   is replaced only if it is a regular file holding a dsprof profile that no
   process is writing any more (profile_holder): never a file of another
   kind, a symbolic link, or the profile of a live process.  Return 0; EBUSY,
   with the pid of a process writing the profile there in *HOLDER (-1 if not
   known); EALREADY if it is an accumulated profile and this process
   accumulates; EEXIST with *WHY NULL if the name came from "%p" and is a
   profile, necessarily of another process that had this pid (never
   replaced: writer_place_next); or another errno value, with *WHY saying
   what is there if that is why.  NF is left to the caller on failure.  */

static int
writer_place (struct newfile *nf, pid_t *holder, const char **why)
{
  *why = NULL;
  for (int tries = 0; tries < 16; tries++)
    {
      struct dsprof_file_header h;
      struct stat old;
      if (rename_noreplace (nf, writer.path) == 0)
        return 0;
      if (errno != EEXIST)
        return errno;
      int what = read_profile_header (writer.path, &h, &old, why);
      if (what < 0)
        return EEXIST;
      if (what == 0)
        continue;               /* it changed while we looked: again */
      if (shared.on && (h.flags & DSPROF_FLAG_ACCUMULATE))
        return EALREADY;        /* to be joined (shared_open) */
      if (writer.pid_end)
        return EEXIST;
      int lock;
      pid_t pid = profile_holder (&h, &old, &lock);
      if (pid == -2)
        continue;
      if (pid)
        {
          *holder = pid;
          *why = "in use by another process";
          return EBUSY;
        }
      int err = writer_swap (nf, &old);
      if (lock >= 0)
        close (lock);
      if (err != EAGAIN)
        return err;
    }
  *why = "it keeps changing";
  return EAGAIN;
}

/* Fill in the header HDR of this process, with FLAGS (the page reads as
   zeros).  */

static void
header_init (struct dsprof_file_header *hdr, uint64_t flags)
{
  memcpy (hdr->magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE);
  hdr->version = DSPROF_FORMAT_VERSION;
  hdr->header_size = DSPROF_PAGE;
  hdr->end = DSPROF_PAGE;
  hdr->pid = getpid ();
  hdr->ppid = getppid ();
  hdr->start_ns = dsprof_clock_ns (CLOCK_REALTIME);
  hdr->start_mono_ns = dsprof_mono_ns ();
  hdr->flags = flags | (writer.lost ? DSPROF_FLAG_TRUNCATED : 0);
  ssize_t len = readlink ("/proc/self/exe", hdr->exe, sizeof hdr->exe - 1);
  if (len < 0)
    strncpy (hdr->exe, program_invocation_name, sizeof hdr->exe - 1);
  if (writer_owner.header_init)
    writer_owner.header_init (hdr);
}

/* Make the file open as FD, identified by ST, whose header HDR maps, the
   writer's, its chunks to come after END (HOLES: its file system reads holes
   without allocating them).  */

static void
writer_take_file (int fd, const struct stat *st, struct dsprof_file_header *hdr,
                  uint64_t end, int holes)
{
  writer.fd = fd;
  writer.end = end;
  writer.reserved = end;
  writer.dev = st->st_dev;
  writer.ino = st->st_ino;
  writer.pid = getpid ();
  writer.holes = holes;
  writer_install_sigbus ();
  dsprof_writer_track (hdr, DSPROF_PAGE);
  __atomic_store_n (&writer.hdr, hdr, __ATOMIC_RELEASE);
  __atomic_store_n (&writer.state, WRITER_OPEN, __ATOMIC_RELEASE);
}

/* Give NF the first free variant of WRITER.path, a "%p" name that a profile
   of an earlier process of the same pid has (the kernel reused the pid):
   ".<k>" after the pid, k from 1 (pid_variant), so that "run.%p.data" gives
   "run.<pid>.<k>.data", still matched by "run.*.data".  Nothing is replaced,
   nothing warned: each process's profile is kept.  Return 0 or an errno
   value; WRITER.path is then the name as computed.  */

static int
writer_place_next (struct newfile *nf, const char **why)
{
  char base[PATH_MAX];
  size_t n = strlen (writer.path);
  memcpy (base, writer.path, n + 1);
  for (unsigned k = 1; k < PID_VARIANTS; k++)
    {
      if (!pid_variant (writer.path, base, n, writer.pid_end, k))
        break;
      if (rename_noreplace (nf, writer.path) == 0)
        return 0;
      if (errno != EEXIST)
        {
          int err = errno;
          memcpy (writer.path, base, n + 1);
          return err;
        }
    }
  memcpy (writer.path, base, n + 1);
  *why = "the profiles of earlier processes of the same pid have it and its "
         "variants";
  return EEXIST;
}

/* writer_place, and if the name is the profile of a live process, the same
   with WRITER.path.<pid> (saying so): nothing of either may be lost.  A
   "%p" name that is taken by a profile, of a live process or not, is
   another process's: NF takes a variant of it (writer_place_next).  */

static int
writer_place_own (struct newfile *nf, const char **why)
{
  pid_t holder = 0;
  int err = writer_place (nf, &holder, why);
  if (writer.pid_end && (err == EBUSY || (err == EEXIST && !*why)))
    return writer_place_next (nf, why);
  if (err != EBUSY)
    return err;
  char taken[PATH_MAX];
  size_t n = strlen (writer.path);
  memcpy (taken, writer.path, n + 1);
  err = append_pid (writer.path, &n);
  if (!err)
    err = writer_place (nf, &holder, why);
  if (!err && holder > 0)
    dsprof_warn ("profile '%s' is being written by process %ld: this process "
                 "writes '%s'", taken, (long) holder, writer.path);
  else if (!err)
    dsprof_warn ("profile '%s' is being written by other processes: this "
                 "process writes '%s'", taken, writer.path);
  return err;
}

/* Map the control chunk at OFFSET's flag page over the program's flag
   (control.c), and say so in the chunk: else `dsprof ctl` says the process
   cannot be switched.  Best effort.  */

static void
writer_map_control (uint64_t offset)
{
  void *page = dsprof_control_page ();
  if (!page || !dsprof_writer_map (offset + DSPROF_PAGE, DSPROF_PAGE, page, 1))
    return;
  uint32_t mapped = 1;
  dsprof_writer_write (offset + offsetof (struct dsprof_control_chunk, mapped),
                       &mapped, sizeof mapped);
}

/* Create the profile WRITER.path with a header of FLAGS and make it the writer's
   file.  If the name is taken by the profile of a live process, the profile is
   WRITER.path.<pid> instead (and a warning says so).  Return 0, or an errno value
   with *WHY saying what is wrong if not the value itself; on failure nothing is
   left behind.  A set-user-ID or set-group-ID program makes its profile with
   the real user's and group's rights (the file system ids are those around
   this function), so it writes nothing its user could not write.  */

static int
writer_create (uint64_t flags, const char **why)
{
  struct newfile nf;
  int fd = -1, err;
  struct dsprof_file_header *hdr = MAP_FAILED;
  struct stat st;
  uid_t fsuid = 0;
  gid_t fsgid = 0;

  *why = NULL;
  if (writer.secure)
    {
      fsgid = (gid_t) setfsgid (getgid ());
      fsuid = (uid_t) setfsuid (getuid ());
    }

  err = newfile_open (&nf);
  if (err)
    goto out;
  fd = nf.fd;

  err = writer_allocate (fd, 0, DSPROF_PAGE, DSPROF_PAGE);
  if (err)
    goto fail;
  hdr = mmap (NULL, DSPROF_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (hdr == MAP_FAILED || fstat (fd, &st) != 0)
    {
      err = errno;
      goto fail;
    }

  header_init (hdr, flags);
  /* The control chunk, right after the header (control.c).  A file with no
     room for it is made without: events then cannot be switched; nor can
     they in an accumulated profile, whose processes come and go.  */
  if (!(flags & DSPROF_FLAG_ACCUMULATE)
      && writer_allocate (fd, DSPROF_PAGE, 2 * DSPROF_PAGE, 2 * DSPROF_PAGE) == 0
      && dsprof_control_write (fd, DSPROF_PAGE) == 0)
    hdr->end = 3 * DSPROF_PAGE;

  err = writer_place_own (&nf, why);
  if (err)
    goto fail;

  struct statfs sfs;
  if (writer_owner.header_taken)
    writer_owner.header_taken (hdr);
  writer_take_file (fd, &st, hdr, hdr->end,
                    fstatfs (fd, &sfs) == 0 && sfs.f_type != TMPFS_MAGIC);
  if (hdr->end > DSPROF_PAGE)
    writer_map_control (DSPROF_PAGE);
  writer_detach ();
  goto out;

 fail:
  if (hdr != MAP_FAILED)
    munmap (hdr, DSPROF_PAGE);
  close (fd);
  if (nf.named)
    unlink (nf.tmp);
 out:
  if (writer.secure)
    {
      setfsuid (fsuid);
      setfsgid (fsgid);
    }
  return err;
}

/* ---- an accumulated profile (DSPROF_ACCUMULATE=1) ------------------------------

   Every process adds its chunks to the one file (dsprof-format.h, section 2a):
   space is taken by an atomic add on the `end` of the file's mapped header, so
   no process waits for another, and made with fallocate, which only ever
   grows the file.  A chunk's size is stored as soon as its space is taken and
   its kind, with the process's page, once it is written, so a reader skips
   what a process killed in between left.  The file is made, found stale or
   refused as any profile is (writer_create, writer_place), but is stale only
   once every process in it has ended (profile_holder); an accumulated
   profile already there is joined instead, if it is the user's own
   (shared_foreign).  */

/* Whether DSPROF_ACCUMULATE asks for an accumulated profile: 1, on, yes, true
   (any case); 0, off, no, false or empty do not; anything else does not, with
   a warning.  Read with secure_getenv, as DSPROF_OUT.  */

static int
shared_wanted (void)
{
  static const char *const spellings[] = { "0", "off", "no", "false",
                                           "1", "on", "yes", "true" };
  const char *v = secure_getenv (DSPROF_ENV_ACCUMULATE);
  if (!v || !*v)
    return 0;
  for (size_t i = 0; i < sizeof spellings / sizeof *spellings; i++)
    if (strcasecmp (v, spellings[i]) == 0)
      return i >= 4;
  dsprof_warn ("%s='%.64s' is not 0, 1, on, off, yes, no, true or false: "
               "not accumulating", DSPROF_ENV_ACCUMULATE, v);
  return 0;
}

/* Why an accumulated profile identified by ST is not this process's to
   join, or NULL if it is: it must belong to the process's (file system) user,
   and nobody else may write it (no write permission for others, nor for a
   group other than the process's), else another user could read what the
   process records (made by them, or changed since).  */

static const char *
shared_foreign (const struct stat *st)
{
  uid_t uid = writer.secure ? getuid () : geteuid ();
  gid_t gid = writer.secure ? getgid () : getegid ();
  if (st->st_uid != uid)
    return "it belongs to another user: not joined";
  if ((st->st_mode & S_IWOTH) || ((st->st_mode & S_IWGRP) && st->st_gid != gid))
    return "other users can write it: not joined";
  return NULL;
}

/* Why a joiner looks again: the profile is being looked at by a process
   that would replace it if none of its processes were live.  */
static const char shared_busy[] = "it is being replaced";

/* Open the accumulated profile at WRITER.path and make it the writer's file
   (WRITER.fd left open).  Return 0; EAGAIN if what is there changed since it
   was looked at (look again); or an errno value, with *WHY saying what is
   wrong.  */

static int
shared_attach (const char **why)
{
  uid_t fsuid = 0;
  gid_t fsgid = 0;
  if (writer.secure)
    {
      fsgid = (gid_t) setfsgid (getgid ());
      fsuid = (uid_t) setfsuid (getuid ());
    }
  int fd = open (writer.path,
                 O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  int err = fd < 0 ? errno : 0;
  if (writer.secure)
    {
      setfsuid (fsuid);
      setfsgid (fsgid);
    }
  if (fd < 0)
    return err == ENOENT || err == ELOOP ? EAGAIN : err;
  struct stat st;
  struct dsprof_file_header *hdr = MAP_FAILED;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)
      || (uint64_t) st.st_size < DSPROF_PAGE)
    err = EAGAIN;
  else if ((*why = shared_foreign (&st)))
    err = EPERM;
  else if (flock (fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    {
      err = EAGAIN;             /* being replaced (profile_holder): again */
      *why = shared_busy;
    }
  else if (!same_file (writer.path, &st))
    err = EAGAIN;
  else
    hdr = mmap (NULL, DSPROF_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (!err && hdr == MAP_FAILED)
    err = errno;
  if (!err && (memcmp (hdr->magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE) != 0
               || hdr->version != DSPROF_FORMAT_VERSION
               || hdr->header_size != DSPROF_PAGE
               || !(hdr->flags & DSPROF_FLAG_ACCUMULATE)))
    err = EAGAIN;
  if (err)
    {
      if (hdr != MAP_FAILED)
        munmap (hdr, DSPROF_PAGE);
      close (fd);
      if (err == EAGAIN && *why != shared_busy)
        *why = "not an accumulated dsprof profile";
      else if (err != EAGAIN && err != EPERM)
        *why = NULL;
      return err;
    }
  struct statfs sfs;
  writer_take_file (fd, &st, hdr, DSPROF_PAGE,
                    fstatfs (fd, &sfs) == 0 && sfs.f_type != TMPFS_MAGIC);
  return 0;
}

/* Take SIZE bytes of the file for a chunk: their offset, or 0 with *ERR set.
   Called with the file attached.  */

static uint64_t
shared_take (uint64_t size, uint64_t reserve, int *err)
{
  uint64_t off = __atomic_fetch_add (&shared.file->end, size, __ATOMIC_ACQ_REL);
  if (off < DSPROF_PAGE || off % DSPROF_PAGE || off + size < off)
    *err = EIO;                 /* someone else wrote the header */
  else
    {
      /* A hole past RESERVE: the file grows by allocating the chunk's last
         page (ftruncate could cut off the chunks of other processes).  */
      *err = writer_allocate (writer.fd, off, reserve, reserve);
      if (!*err && reserve < size)
        *err = writer_allocate (writer.fd, off + size - DSPROF_PAGE,
                                DSPROF_PAGE, DSPROF_PAGE);
    }
  if (!*err)
    {
      /* The chunk's size at once (kind 0: not written yet), so a reader can
         step over it should this process die before it is.  */
      struct dsprof_chunk pending = { 0, 0, size };
      *err = dsprof_writer_write (off, &pending, sizeof pending);
    }
  return *err ? 0 : off;
}

/* Add this process's chunk, with a header of FLAGS, to the accumulated
   profile attached: from now on WRITER.hdr is that header.  Return 0 or an
   errno value.  */

static int
shared_add_process (uint64_t flags)
{
  int err;
  shared.file = writer.hdr;
  uint64_t off = shared_take (DSPROF_PAGE, DSPROF_PAGE, &err);
  if (!err && off / DSPROF_PAGE > UINT32_MAX >> 8)
    err = EFBIG;
  struct dsprof_process_chunk *pc = MAP_FAILED;
  if (!err)
    pc = mmap (NULL, DSPROF_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, writer.fd,
               (off_t) off);
  if (!err && pc == MAP_FAILED)
    err = errno;
  if (err)
    {
      writer_detach ();
      return err;
    }
  dsprof_writer_track (pc, DSPROF_PAGE);
  header_init (&pc->header, flags);
  if (writer_owner.header_taken)
    writer_owner.header_taken (&pc->header);
  /* The events dropped before there was a file went to the file's header when
     this process made it.  */
  pc->header.dropped_events
    += __atomic_exchange_n (&shared.file->dropped_events, 0, __ATOMIC_RELAXED);
  shared.proc = off / DSPROF_PAGE;
  __atomic_store_n (&pc->chunk.kind,
                    (uint32_t) (DSPROF_CHUNK_PROCESS | shared.proc << 8),
                    __ATOMIC_RELEASE);
  __atomic_store_n (&writer.hdr, &pc->header, __ATOMIC_RELEASE);
  /* Closed (and its lock, shared_attach's, let go) once the process chunk
     says who we are: a process that would replace the profile sees us.  */
  writer_detach ();
  return 0;
}

/* Join or make the accumulated profile WRITER.path and add this process to
   it, with FLAGS.  Return 0, or an errno value with *WHY as writer_create's.  */

static int
shared_open (uint64_t flags, const char **why)
{
  int err = EAGAIN;
  for (int tries = 0; err == EAGAIN && tries < 16; tries++)
    {
      /* A process that may replace the profile looks at it under a lock
         for as long as it reads its process chunks: a millisecond.  */
      struct timespec ms = { 0, 1000000 };
      if (tries && *why == shared_busy)
        nanosleep (&ms, NULL);
      err = writer_create (flags | DSPROF_FLAG_ACCUMULATE, why);
      if (err == EALREADY)
        err = shared_attach (why);
      else if (!err)
        err = writer_attach ();
    }
  return err ? err : shared_add_process (flags);
}

/* dsprof_writer_begin for an accumulated profile: the offset of SIZE bytes
   taken for a chunk, or 0 with *ERR set.  */

static uint64_t
shared_begin (uint64_t size, uint64_t reserve, int *err)
{
  uint64_t off = shared_take (size, reserve, err);
  if (!*err)
    writer.reserved = off + reserve;
  return off;
}

/* dsprof_writer_commit for an accumulated profile: the chunk at OFFSET is
   written, give it its process.  */

static void
shared_commit (uint64_t offset)
{
  uint32_t kind;
  if (pread (writer.fd, &kind, sizeof kind, (off_t) offset) == (ssize_t) sizeof kind)
    {
      kind = (uint32_t) (DSPROF_CHUNK_KIND (kind) | shared.proc << 8);
      dsprof_writer_write (offset, &kind, sizeof kind);
    }
  writer_detach ();
  pthread_mutex_unlock (&writer_lock);
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
static struct dsprof_pool mapping_pool;   /* WRITER_LOCK held */
static struct sigaction old_sigbus;     /* the disposition we replaced */
static int sigbus_installed;
static uintptr_t page_size = DSPROF_PAGE;

/* List the mapping [ADDR, ADDR + SIZE) of the profile.  Without memory for it,
   a truncation kills the program as it would without dsprof.  */

void
dsprof_writer_track (void *addr, size_t size)
{
  struct mapping *m = dsprof_pool_alloc (&mapping_pool, sizeof *m);
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
  /* Their records stay in the pool, which has no free.  */
  mappings = NULL;
}


/* A SIGBUS at an address of one of our mappings: the file was truncated below
   that page, or the page is in a hole (a forked child's counters) and the disk
   is full.  The page becomes anonymous memory, and the program carries on (a
   truncated file's later pages fault in turn).  */

static void
writer_sigbus (int sig, siginfo_t *si, void *ctx)
{
  int saved_errno = errno;
  dsprof_strings_fault (si);      /* reading a string of the program? */
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
          uintptr_t to = (a | (page_size - 1)) + 1;
          if (to > m->hi)
            to = m->hi;
          if (mmap ((void *) from, to - from, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
            break;
          __atomic_store_n (&writer_faulted, 1, __ATOMIC_RELAXED);
          const char *parts[] = { "dsprof: profile '", writer.path,
                                  "' was truncated, or its disk is full, while "
                                  "the program ran: what did not fit is lost",
                                  NULL };
          dsprof_warn_parts (parts);
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

/* ---- fork: the writer's part (lifecycle.c holds the order) ------------------

   A forked child shares the parent's mappings: without its own file its
   counter updates would land in the parent's.  */

void
dsprof_writer_lock (void)
{
  pthread_mutex_lock (&writer_lock);
}

void
dsprof_writer_unlock (void)
{
  pthread_mutex_unlock (&writer_lock);
}

/* The name of a forked child's profile: "%p" is its own pid in its own name;
   without it, the name is the parent's with ".<pid>"; an accumulated profile
   keeps its name.  0 or an errno value.  */

static int
writer_child_name (void)
{
  char name[PATH_MAX];
  int err = ENAMETOOLONG;
  size_t n, pid_end = 0;
  if (writer.path_ok)
    err = writer_expand (name, &n, getpid (), &pid_end);
  writer.pid_end = err ? 0 : pid_end;
  if (!err && pid_end)
    memcpy (writer.path, name, n + 1);
  else if (!err && !shared.on)
    {
      n = strlen (writer.path);
      err = append_pid (writer.path, &n);
    }
  return err;
}

/* In a forked child: drop the parent's file and start <parent's name>.<pid>
   with DSPROF_FLAG_FORKED, kept open (HOLD) until dsprof_writer_fork_done;
   the units then add their chunks with zero counters (counts from the fork)
   and map them over their counter arrays.  */

void
dsprof_writer_fork_child (void)
{
  pthread_mutex_init (&writer_lock, NULL);
  writer.pid = getpid ();
  if (writer.state != WRITER_UNOPENED)
    {
      if (writer.hdr)           /* an accumulated profile's is inside a page */
        munmap ((void *) ((uintptr_t) writer.hdr & -(uintptr_t) DSPROF_PAGE),
                DSPROF_PAGE);
      writer.hdr = NULL;
      writer.fd = -1;
      writer.end = 0;
      writer.lost = 0;
      writer_faulted = 0;
      writer_forget_all ();
      __atomic_store_n (&writer.state, WRITER_BROKEN, __ATOMIC_RELAXED);

      if (shared.file)
        munmap (shared.file, DSPROF_PAGE);
      shared.file = NULL;
      const char *why = NULL;
      int err = writer_child_name ();
      if (shared.on && !err)
        err = shared_open (DSPROF_FLAG_FORKED, &why);
      else if (!err)
        err = writer_create (DSPROF_FLAG_FORKED, &why);
      if (err)
        writer_fail (err, why);
    }
  /* The file stays open while every unit adds its chunk.  */
  writer.hold = 1;
}

/* The forked child's units have added their chunks: the file is closed.  */

void
dsprof_writer_fork_done (void)
{
  writer.hold = 0;
  writer_detach ();
}

/* A child made by a raw clone () (no CLONE_VM) ran no fork handler: it finds
   the parent's file, whose counter pages it shares.  Before it adds a chunk
   there, give it a file of its own by the fork child handler the owner gave
   (lifecycle.c; the child is single-threaded, and the locks a thread of the
   parent held are made anew).  */

void
dsprof_writer_adopt (void)
{
  pid_t owner = __atomic_load_n (&writer.pid, __ATOMIC_RELAXED);
  if (owner && owner != getpid () && writer_owner.fork_child)
    writer_owner.fork_child ();
}

/* The owner's part (lifecycle.c), given once before any file is made.  Without
   the fork handlers (ERR) a forked child would count into our file: better no
   file at all.  */

void
dsprof_writer_setup (const struct dsprof_writer_owner *owner, int err)
{
  pthread_mutex_lock (&writer_lock);
  writer_owner = *owner;
  setup_err = err;
  __atomic_store_n (&setup_done, 1, __ATOMIC_RELEASE);
  pthread_mutex_unlock (&writer_lock);
}

/* Open the profile for the first chunk of a process (not of a forked child).  */

static void
writer_open (void)
{
  if (!setup_done)
    return;                     /* before the runtime's constructor: later */
  int err = setup_err;
  const char *why = NULL;
  shared.on = shared_wanted ();
  if (!err)
    err = writer_resolve_path ();
  if (!err)
    err = shared.on ? shared_open (0, &why) : writer_create (0, &why);
  if (err)
    writer_fail (err, why);
}

uint64_t
dsprof_writer_begin_sparse (uint64_t size, uint64_t reserve)
{
  int err;
  pthread_mutex_lock (&writer_lock);
  if (writer.state == WRITER_UNOPENED)
    writer_open ();
  if (writer.state != WRITER_OPEN)
    goto unlock;
  err = writer_attach ();
  if (writer_check_file (err) != 0)
    goto unlock;                /* deleted or truncated, reported */
  /* tmpfs allocates a hole's page when a reader maps it, and a reader of a
     profile on a full one would fault: no holes there.  */
  if (!writer.holes)
    reserve = size;
  if (shared.on && !err)
    {
      uint64_t off = shared_begin (size, reserve, &err);
      if (!err)
        return off;
    }
  else if (!err)
    err = writer_allocate (writer.fd, writer.end, size, reserve);
  if (err)
    {
      writer_fail (err, NULL);
      goto unlock;
    }
  writer.reserved = writer.end + reserve;
  return writer.end;

 unlock:
  pthread_mutex_unlock (&writer_lock);
  return 0;
}

uint64_t
dsprof_writer_begin (uint64_t size)
{
  return dsprof_writer_begin_sparse (size, size);
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
   the kernel likes if FIXED is NULL.  The mapping is listed for the SIGBUS
   handler if TRACK (else the caller lists its parts).  Return the address, or
   NULL with errno.  */

void *
dsprof_writer_map (uint64_t offset, size_t size, void *fixed, int track)
{
  void *p = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, writer.fd,
                  (off_t) offset);
  if (p == MAP_FAILED)
    return NULL;
  /* Fault the pages in writable now, in one call: the program's first write to
     each page of a shared file mapping otherwise traps, which costs several
     times what the stores themselves do.  Best effort (Linux >= 5.14).  Not the
     pages of a hole (dsprof_writer_begin_sparse): that would allocate them.  */
  int saved_errno = errno;
  size_t full = offset >= writer.reserved ? 0
                : writer.reserved - offset < size ? writer.reserved - offset : size;
  if (full)
    madvise (p, full, MADV_POPULATE_WRITE);
  /* Nor read ahead around a hole's page when it is first counted in: that
     would fill the page cache with zeroed pages of the hole the child never
     touches (32 of them a fault), most of a child's time in the kernel.  */
  if (full < size)
    madvise ((char *) p + full, size - full, MADV_RANDOM);
  errno = saved_errno;
  if (!fixed)
    {
      if (track)
        dsprof_writer_track (p, size);
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
  if (track)
    dsprof_writer_track (q, size);
  return q;
}

/* Publish the chunk of SIZE bytes at OFFSET: readers that see the new `end` see
   the whole chunk (release, paired with their acquire load of `end`).  */

void
dsprof_writer_commit (uint64_t offset, uint64_t size)
{
  if (shared.on)
    {
      shared_commit (offset);
      return;
    }
  writer.end = offset + size;
  __atomic_store_n (&writer.hdr->end, writer.end, __ATOMIC_RELEASE);
  writer_detach ();
  pthread_mutex_unlock (&writer_lock);
}

void
dsprof_writer_abort (int err)
{
  writer_fail (err, NULL);
  pthread_mutex_unlock (&writer_lock);
}

/* This process's own header, NULL if it has none (a child made by vfork or a
   raw clone has none of its own): for lifecycle.c's exit.  */

struct dsprof_file_header *
dsprof_writer_own_header (void)
{
  struct dsprof_file_header *hdr = __atomic_load_n (&writer.hdr, __ATOMIC_ACQUIRE);
  return hdr && writer.pid == getpid () && hdr->pid == getpid () ? hdr : NULL;
}

/* At normal exit (lifecycle.c, once the recorder and the clock have filled
   their fields): store the stop time; a process that ends any other way
   leaves 0.  No lock: a thread may hold it while the main thread exits, and
   HDR, once set, stays valid.  */

void
dsprof_writer_exit (void)
{
  struct dsprof_file_header *hdr = __atomic_load_n (&writer.hdr, __ATOMIC_ACQUIRE);
  if (!hdr || writer.pid != getpid ())
    return;
  if (hdr->pid == getpid ())
    __atomic_store_n (&hdr->stop_mono_ns, dsprof_mono_ns (), __ATOMIC_RELEASE);
  /* Tell of a profile deleted or truncated since the last chunk was added (and
     make what is left readable).  Only if the lock is free: a thread that holds
     it is adding a chunk and checks the file itself.  */
  if (pthread_mutex_trylock (&writer_lock) == 0)
    {
      if (writer.state == WRITER_OPEN)
        {
          writer_check_file (writer_attach ());
          writer_detach ();
        }
      pthread_mutex_unlock (&writer_lock);
    }
}
