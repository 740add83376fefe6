/* shim.c - LD_PRELOAD'ed into dsprof by report-truncated: right after the file
   named by TRUNCATE_FILE (its absolute path) is mapped, cut it to TRUNCATE_AT
   bytes, as a program still writing it or anyone else could between dsprof's
   mmap and its reads.  Nothing else changes.  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void
cut (int fd)
{
  const char *file = getenv ("TRUNCATE_FILE"), *at = getenv ("TRUNCATE_AT");
  char link[64], path[4096];
  if (fd < 0 || !file || !at)
    return;
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink (link, path, sizeof path - 1);
  if (n <= 0)
    return;
  path[n] = '\0';
  if (!strcmp (path, file) && truncate (file, atoll (at)) < 0)
    perror ("shim: truncate");
}

void *
mmap (void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  static void *(*real) (void *, size_t, int, int, int, off_t);
  if (!real)
    real = (void *(*) (void *, size_t, int, int, int, off_t)) dlsym (RTLD_NEXT, "mmap");
  void *m = real (addr, len, prot, flags, fd, off);
  if (m != MAP_FAILED)
    cut (fd);
  return m;
}

void *
mmap64 (void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  return mmap (addr, len, prot, flags, fd, off);
}
