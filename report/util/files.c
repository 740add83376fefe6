/* files.c - inputs read whole and outputs (see files.h).  */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libiberty.h"
#include "exit.h"
#include "files.h"
#include "dsprof-format.h"

const char *
file_kind (mode_t mode)
{
  if (S_ISREG (mode))
    return NULL;
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a fifo";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  if (S_ISLNK (mode))
    return "a symbolic link";
  return "not a regular file";
}

int
open_regular (const char *path, struct stat *st, const char **kind)
{
  *kind = NULL;
  if (stat (path, st) < 0)
    return -1;
  if ((*kind = file_kind (st->st_mode)))
    {
      errno = 0;
      return -1;
    }
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return -1;
  if (fstat (fd, st) < 0 || (*kind = file_kind (st->st_mode)))
    {
      int e = *kind ? 0 : errno;
      close (fd);
      errno = e;
      return -1;
    }
  return fd;
}

int
profile_magic (const char *path)
{
  struct stat st;
  const char *kind;
  int fd = open_regular (path, &st, &kind);
  if (fd < 0)
    return -1;
  char magic[DSPROF_MAGIC_SIZE];
  ssize_t n = read (fd, magic, sizeof magic);
  close (fd);
  if (n < 0)
    return -1;
  return n == (ssize_t) sizeof magic && !memcmp (magic, DSPROF_MAGIC, sizeof magic);
}

char *
read_regular (const char *path, size_t *size, const char **problem)
{
  struct stat st;
  const char *kind;
  int fd = open_regular (path, &st, &kind);
  if (fd < 0)
    {
      *problem = kind ? "not a regular file" : strerror (errno);
      return NULL;
    }
  size_t cap = 65536, n = 0;
  char *buf = XNEWVEC (char, cap);
  for (;;)
    {
      ssize_t got = read (fd, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          *problem = strerror (errno);
          free (buf);
          close (fd);
          return NULL;
        }
      if (got == 0)
        break;
      n += (size_t) got;
      if (n == cap)
        {
          cap *= 2;
          buf = XRESIZEVEC (char, buf, cap);
        }
    }
  close (fd);
  *size = n;
  return buf;
}

/* ---- outputs ------------------------------------------------------------------ */

/* The outputs open, newest first.  */
static struct output *open_outputs;

static void
unlist (struct output *o)
{
  for (struct output **p = &open_outputs; *p; p = &(*p)->next)
    if (*p == o)
      {
        *p = o->next;
        break;
      }
}

void
output_unlink_all (void)
{
  for (struct output *o = open_outputs; o; o = o->next)
    if (o->tmp)
      unlink (o->tmp);
}

static int
output_error (const struct output *o, const char *problem)
{
  fprintf (stderr, "dsprof %s: '%s': %s\n", o->cmd, o->path, problem);
  return EXIT_DATA;
}

static int
not_regular (const struct output *o, mode_t mode)
{
  fprintf (stderr, "dsprof %s: '%s': is %s; dsprof replaces only a regular "
           "file\n", o->cmd, o->path, file_kind (mode));
  return EXIT_DATA;
}

/* Whether the regular file at PATH starts with the dsprof magic number.  */

static bool
is_profile (const char *path)
{
  int fd = open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return false;
  char magic[DSPROF_MAGIC_SIZE];
  bool yes = read (fd, magic, sizeof magic) == (ssize_t) sizeof magic
             && !memcmp (magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE);
  close (fd);
  return yes;
}

/* Open O->path itself to add to it.  */

static int
open_append (struct output *o)
{
  int fd = open (o->path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK
                          | O_CLOEXEC, 0666);
  struct stat st;
  if (fd < 0)
    return output_error (o, strerror (errno));
  int rc = fstat (fd, &st) < 0 ? output_error (o, strerror (errno))
           : file_kind (st.st_mode) ? not_regular (o, st.st_mode) : 0;
  if (rc)
    {
      close (fd);
      return rc;
    }
  fcntl (fd, F_SETFL, O_WRONLY | O_APPEND);
  if (!(o->f = fdopen (fd, "a")))
    {
      close (fd);
      return output_error (o, strerror (errno));
    }
  return 0;
}

int
output_open (struct output *o, const char *cmd, const char *path, unsigned flags)
{
  memset (o, 0, sizeof *o);
  o->cmd = cmd;
  if (!path || !strcmp (path, "-"))
    {
      o->f = stdout;
      return 0;
    }
  o->path = path;

  /* 1. What is there now: nothing, or a file dsprof may replace.  */
  struct stat st;
  bool exists = lstat (path, &st) == 0;
  if (!exists && errno != ENOENT)
    return output_error (o, strerror (errno));
  if (exists && file_kind (st.st_mode))
    return not_regular (o, st.st_mode);
  if (exists && (flags & OUTPUT_PROFILE) && !is_profile (path))
    return output_error (o, "not a dsprof profile; merge replaces only a "
                         "profile");
  if (flags & OUTPUT_APPEND)
    {
      int rc = open_append (o);
      if (!rc)
        {
          o->next = open_outputs;
          open_outputs = o;
        }
      return rc;
    }

  /* 2. A new file beside it, mode 0666 less the umask (mkstemp makes 0600).  */
  o->tmp = concat (path, ".XXXXXX", NULL);
  int fd = mkostemp (o->tmp, O_CLOEXEC);
  if (fd < 0)
    {
      int rc = output_error (o, strerror (errno));
      free (o->tmp);
      o->tmp = NULL;
      return rc;
    }
  o->next = open_outputs;
  open_outputs = o;
  mode_t mask = umask (0);
  umask (mask);
  if (fchmod (fd, 0666 & ~mask) < 0 || !(o->f = fdopen (fd, "w+")))
    {
      int e = errno;
      close (fd);
      output_error (o, strerror (e));
      output_discard (o);
      return EXIT_DATA;
    }
  return 0;
}

int
output_close (struct output *o)
{
  if (!o->path)
    return close_output (o->cmd, NULL, o->f);
  int rc = close_output (o->cmd, o->path, o->f);
  o->f = NULL;
  /* 3. The complete file replaces the target.  */
  if (!rc && o->tmp && rename (o->tmp, o->path) < 0)
    rc = output_error (o, strerror (errno));
  if (rc)
    output_discard (o);
  unlist (o);
  free (o->tmp);
  o->tmp = NULL;
  return rc;
}

void
output_discard (struct output *o)
{
  if (o->f && o->f != stdout)
    fclose (o->f);
  o->f = NULL;
  if (o->tmp)
    unlink (o->tmp);
  unlist (o);
  free (o->tmp);
  o->tmp = NULL;
}

int
output_finish (struct output *o, int rc)
{
  if (!rc)
    return output_close (o);
  output_discard (o);
  return rc;
}

int
close_output (const char *cmd, const char *path, FILE *out)
{
  bool bad = ferror (out) != 0;
  if (out == stdout)
    bad |= fflush (out) != 0;
  else
    bad |= fclose (out) != 0;
  if (bad)
    {
      fprintf (stderr, "dsprof %s: %s: write error: %s\n", cmd,
               path && strcmp (path, "-") ? path : "standard output",
               strerror (errno ? errno : EIO));
      return EXIT_DATA;
    }
  return 0;
}

FILE *
scratch_file (void)
{
  const char *dir = getenv ("TMPDIR");
  char *name = concat (dir && *dir ? dir : "/tmp", "/dsprof-XXXXXX", NULL);
  int fd = mkstemp (name);
  FILE *f = NULL;
  if (fd >= 0)
    {
      unlink (name);
      if (!(f = fdopen (fd, "w+")))
        {
          int saved = errno;
          close (fd);
          errno = saved;
        }
    }
  free (name);
  return f;
}
