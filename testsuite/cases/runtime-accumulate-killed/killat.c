/* killat.c - runtime-accumulate-killed's LD_PRELOAD library: with KILLAT=N
   the process kills itself with SIGKILL at the N-th call it makes of the
   file and mapping calls a profile's writer uses (just before the call;
   KILLAT=-N: just after it), so that a test can stop a start-up at each of
   its steps; with NOTMPFILE=1, open with O_TMPFILE fails with EOPNOTSUPP,
   as on a file system without it.  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static long calls;

/* Count a call: kill the process if it is the one KILLAT names (AFTER: the
   call was just made).  */
static void
step (int after)
{
  const char *v = getenv ("KILLAT");
  long at = v ? atol (v) : 0;
  if (!after)
    calls++;
  if (at && calls == (after ? -at : at))
    raise (SIGKILL);
}

#define REAL(name) ((__typeof__ (&name)) dlsym (RTLD_NEXT, #name))
#define WRAP(type, name, params, args)          \
  type name params                              \
  {                                             \
    step (0);                                   \
    type r = REAL (name) args;                  \
    int e = errno;                              \
    step (1);                                   \
    errno = e;                                  \
    return r;                                   \
  }

int
open (const char *path, int flags, ...)
{
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE))
    {
      va_list ap;
      va_start (ap, flags);
      mode = va_arg (ap, mode_t);
      va_end (ap);
    }
  if ((flags & O_TMPFILE) == O_TMPFILE && getenv ("NOTMPFILE"))
    {
      errno = EOPNOTSUPP;
      return -1;
    }
  step (0);
  int r = REAL (open) (path, flags, mode);
  int e = errno;
  step (1);
  errno = e;
  return r;
}

WRAP (int, posix_fallocate, (int fd, off_t off, off_t len), (fd, off, len))
WRAP (int, ftruncate, (int fd, off_t len), (fd, len))
WRAP (void *, mmap, (void *a, size_t n, int prot, int fl, int fd, off_t off),
      (a, n, prot, fl, fd, off))
WRAP (ssize_t, pwrite, (int fd, const void *b, size_t n, off_t off), (fd, b, n, off))
WRAP (int, linkat, (int d1, const char *p1, int d2, const char *p2, int fl),
      (d1, p1, d2, p2, fl))
WRAP (int, link, (const char *p1, const char *p2), (p1, p2))
WRAP (int, renameat2, (int d1, const char *p1, int d2, const char *p2,
                       unsigned fl), (d1, p1, d2, p2, fl))
WRAP (int, rename, (const char *p1, const char *p2), (p1, p2))
WRAP (int, unlink, (const char *p), (p))
WRAP (ssize_t, readlink, (const char *p, char *b, size_t n), (p, b, n))
WRAP (int, flock, (int fd, int op), (fd, op))
WRAP (int, close, (int fd), (fd))
