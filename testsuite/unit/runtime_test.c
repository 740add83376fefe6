/* runtime_test.c - unit tests of the runtime (runtime/): registering units,
   the profile file they write, fork, exec, exit and failures.

   The runtime sets itself up once per process, at the first registration, so every
   test does its registering in a forked child (the test process itself never
   registers) and checks the file from the parent, with plain open+pread, as
   another process would.  Checks inside a child are CHILD_CHECK: they print the
   failed condition and end the child with status 1, which the parent asserts
   against.

   The units are made by hand as the plugin would make them: 4096-aligned static
   counter arrays, site id words and metadata blobs built with dsprof_put_uleb.  */

#include <CUnit/CUnit.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dsprof-format.h"
#include "dsprof.h"

void runtime_test_register (void);

/* The compiler-runtime ABI (dsprof-format.h, section 1), declared as the code the
   plugin emits calls it.  */
void __dsprof_register_unit_v1 (uint64_t *counters, uint32_t ncounters,
                                const char *meta, uint32_t meta_size,
                                uint32_t *sites, uint32_t nsites);
void __dsprof_unregister_unit_v1 (uint64_t *counters, uint32_t *sites);

#define ENV_OUT "DSPROF_OUT"
#define ENV_PARENT_PID "DSPROF_PARENT_PID"

#define NA 512                  /* counters of unit A: one page */
#define NB 1024                 /* counters of unit B: two pages */

static uint64_t unit_a[NA] __attribute__ ((aligned (4096)));
static uint64_t unit_b[NB] __attribute__ ((aligned (4096)));
static uint32_t sites_c[2];     /* unit C: event sites, no counters */
static unsigned char meta_a[256], meta_b[256], meta_c[256];
static uint32_t meta_a_size, meta_b_size, meta_c_size;

/* The temporary directory of the suite; every test uses its own names in it.
   Short enough that a name in it always fits in PATH_MAX.  */
static char test_dir[PATH_MAX / 4];

#define CHILD_CHECK(cond)                                               \
  do                                                                    \
    {                                                                   \
      if (!(cond))                                                      \
        {                                                               \
          fprintf (stderr, "%s:%d: child check failed: %s\n", __FILE__, \
                   __LINE__, #cond);                                    \
          _exit (1);                                                    \
        }                                                               \
    }                                                                   \
  while (0)

/* Append string S to the blob at BUF + *N.  */

static void
put_str (unsigned char *buf, uint32_t *n, const char *s)
{
  size_t len = strlen (s);
  *n += (uint32_t) dsprof_put_uleb (buf + *n, len);
  memcpy (buf + *n, s, len);
  *n += (uint32_t) len;
}

/* Build in BUF a metadata blob for source file SRC with one file record and one
   function of NBLOCKS blocks; return its size.  */

static uint32_t
make_meta (unsigned char *buf, const char *src, unsigned nblocks)
{
  unsigned char rec[128];
  uint32_t n = 0, r = 0;
  n += (uint32_t) dsprof_put_uleb (buf + n, DSPROF_META_VERSION);
  put_str (buf, &n, src);
  put_str (buf, &n, "/tmp");

  put_str (rec, &r, src);
  n += (uint32_t) dsprof_put_uleb (buf + n, DSPROF_TAG_FILE);
  n += (uint32_t) dsprof_put_uleb (buf + n, r);
  memcpy (buf + n, rec, r);
  n += r;

  r = 0;
  put_str (rec, &r, "f");
  r += (uint32_t) dsprof_put_uleb (rec + r, 0);      /* file */
  r += (uint32_t) dsprof_put_uleb (rec + r, 1);      /* line */
  r += (uint32_t) dsprof_put_uleb (rec + r, 0);      /* first counter */
  r += (uint32_t) dsprof_put_uleb (rec + r, nblocks);
  for (unsigned k = 0; k < nblocks; k++)
    {
      r += (uint32_t) dsprof_put_uleb (rec + r, 1);  /* nlocs */
      r += (uint32_t) dsprof_put_uleb (rec + r, 0);
      r += (uint32_t) dsprof_put_uleb (rec + r, 2 + k);
    }
  n += (uint32_t) dsprof_put_uleb (buf + n, DSPROF_TAG_FUNCTION);
  n += (uint32_t) dsprof_put_uleb (buf + n, r);
  memcpy (buf + n, rec, r);
  return n + r;
}

/* Append to BUF + *N a DSPROF_TAG_SITE record for site INDEX, function NAME
   with one int parameter "x" and an int result.  */

static void
put_site (unsigned char *buf, uint32_t *n, unsigned index, const char *name)
{
  unsigned char rec[128];
  uint32_t r = 0;
  r += (uint32_t) dsprof_put_uleb (rec + r, index);
  put_str (rec, &r, name);                           /* event type */
  put_str (rec, &r, name);                           /* function */
  r += (uint32_t) dsprof_put_uleb (rec + r, 0);      /* file */
  r += (uint32_t) dsprof_put_uleb (rec + r, 10 + index);
  r += (uint32_t) dsprof_put_uleb (rec + r, 2);      /* ndims, result included */
  put_str (rec, &r, "x");
  r += (uint32_t) dsprof_put_uleb (rec + r, DSPROF_DIM_INT);
  put_str (rec, &r, "result");
  r += (uint32_t) dsprof_put_uleb (rec + r, DSPROF_DIM_INT);
  *n += (uint32_t) dsprof_put_uleb (buf + *n, DSPROF_TAG_SITE);
  *n += (uint32_t) dsprof_put_uleb (buf + *n, r);
  memcpy (buf + *n, rec, r);
  *n += r;
}

static void
register_a (void)
{
  __dsprof_register_unit_v1 (unit_a, NA, (const char *) meta_a, meta_a_size, NULL,
                             0);
}

static void
register_b (void)
{
  __dsprof_register_unit_v1 (unit_b, NB, (const char *) meta_b, meta_b_size, NULL,
                             0);
}

static void
register_c (void)
{
  __dsprof_register_unit_v1 (NULL, 0, (const char *) meta_c, meta_c_size, sites_c,
                             2);
}

static void
test_path (char *buf, const char *name)
{
  snprintf (buf, PATH_MAX, "%s/%s", test_dir, name);
}

/* A profile as read back from disk: the header and the committed bytes.  */
struct profile
{
  struct dsprof_file_header hdr;
  unsigned char *data;          /* [0, hdr.end) of the file */
};

/* Read the profile PATH into P with open+pread.  Return 0, or -1 if it is
   missing or malformed.  */

static int
read_profile (const char *path, struct profile *p)
{
  memset (p, 0, sizeof *p);
  int fd = open (path, O_RDONLY);
  if (fd < 0)
    return -1;
  int ok = (pread (fd, &p->hdr, sizeof p->hdr, 0) == (ssize_t) sizeof p->hdr
            && memcmp (p->hdr.magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE) == 0
            && p->hdr.end >= DSPROF_PAGE && p->hdr.end % DSPROF_PAGE == 0
            && p->hdr.end < ((uint64_t) 1 << 30));
  if (ok)
    {
      p->data = malloc (p->hdr.end);
      ok = p->data && pread (fd, p->data, p->hdr.end, 0) == (ssize_t) p->hdr.end;
    }
  close (fd);
  if (!ok)
    {
      free (p->data);
      p->data = NULL;
      return -1;
    }
  return 0;
}

/* The control chunk every profile opens with, right after the header, when
   the file has room for it (dsprof-format.h, section 2a).  */
#define CONTROL_SIZE (2 * DSPROF_PAGE)

/* The number of chunks of P, or -1 if they do not tile [DSPROF_PAGE, end).  */

static int
count_chunks (const struct profile *p)
{
  int n = 0;
  uint64_t off = DSPROF_PAGE;
  while (off < p->hdr.end)
    {
      const struct dsprof_chunk *c = (const void *) (p->data + off);
      if (c->size == 0 || c->size % DSPROF_PAGE || c->size > p->hdr.end - off)
        return -1;
      off += c->size;
      n++;
    }
  return n;
}

/* The unit chunk of P whose metadata is META of SIZE bytes (and whose chunk is
   consistent), or NULL.  A forked child's units are records of one units
   chunk, each with its counters past the records, in the chunk.  */

static const struct dsprof_unit_chunk *
find_unit (const struct profile *p, const unsigned char *meta, uint32_t size)
{
  if (count_chunks (p) < 0)
    return NULL;
  for (uint64_t off = DSPROF_PAGE; off < p->hdr.end;)
    {
      const struct dsprof_unit_chunk *u = (const void *) (p->data + off);
      if (u->chunk.kind == DSPROF_CHUNK_UNIT && u->meta_size == size
          && memcmp (u + 1, meta, size) == 0
          && u->counters_offset % DSPROF_PAGE == 0
          && u->counters_offset >= off + sizeof *u + size
          && (u->counters_offset + (uint64_t) u->ncounters * 8
              == off + u->chunk.size))
        return u;
      const struct dsprof_units_chunk *us = (const void *) u;
      uint64_t at = off + sizeof *us, end = at + us->records_size;
      for (uint32_t i = 0; u->chunk.kind == DSPROF_CHUNK_UNITS && i < us->nunits
                           && end <= off + u->chunk.size && at < end; i++)
        {
          const struct dsprof_unit_chunk *r = (const void *) (p->data + at);
          if (r->chunk.kind == DSPROF_CHUNK_UNIT && r->meta_size == size
              && memcmp (r + 1, meta, size) == 0
              && r->chunk.size == ((sizeof *r + size + 7) & ~(size_t) 7)
              && r->counters_offset % DSPROF_PAGE == 0
              && r->counters_offset >= end
              && (r->counters_offset + (uint64_t) r->ncounters * 8
                  <= off + u->chunk.size))
            return r;
          at += r->chunk.size ? r->chunk.size : end - at;
        }
      off += u->chunk.size;
    }
  return NULL;
}

static const uint64_t *
unit_counters (const struct profile *p, const struct dsprof_unit_chunk *u)
{
  return (const uint64_t *) (p->data + u->counters_offset);
}

/* The contents of file PATH (at most SIZE - 1 bytes) in BUF.  */

static void
read_text (const char *path, char *buf, size_t size)
{
  buf[0] = '\0';
  FILE *f = fopen (path, "r");
  if (!f)
    return;
  size_t n = fread (buf, 1, size - 1, f);
  buf[n] = '\0';
  fclose (f);
}

/* Fork a child that sets DSPROF_OUT to OUT (if not NULL), sends its stderr to
   the file ERR (if not NULL) and runs FN, then _exits 0.  Return its pid.  */

static pid_t
spawn (const char *out, const char *err, void (*fn) (void))
{
  fflush (NULL);
  pid_t pid = fork ();
  if (pid != 0)
    return pid;
  unsetenv (ENV_PARENT_PID);
  if (out)
    setenv (ENV_OUT, out, 1);
  if (err)
    {
      int fd = open (err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
      if (fd < 0 || dup2 (fd, STDERR_FILENO) < 0)
        _exit (2);
      close (fd);
    }
  fn ();
  _exit (0);
}

/* Wait for PID; its exit status, or 128 + the signal that killed it.  */

static int
wait_child (pid_t pid)
{
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return -1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

/* Does directory DIR hold a file whose name starts with PREFIX and has more
   after it?  The name found goes to NAME (PATH_MAX bytes).  Return how many.  */

static int
find_prefixed (const char *prefix, char *name)
{
  int n = 0;
  DIR *d = opendir (test_dir);
  if (!d)
    return -1;
  for (struct dirent *e; (e = readdir (d));)
    if (strncmp (e->d_name, prefix, strlen (prefix)) == 0
        && strlen (e->d_name) > strlen (prefix))
      {
        snprintf (name, PATH_MAX, "%s/%s", test_dir, e->d_name);
        n++;
      }
  closedir (d);
  return n;
}

/* register_unit: the chunk is there and the counts are visible to a reader while
   the program runs, including counts made before the constructor; after SIGKILL
   they are still there.  */

static int sync_pipe[2], go_pipe[2];

static void
child_register_unit (void)
{
  char c;
  close (sync_pipe[0]);
  close (go_pipe[1]);           /* so that the read sees EOF if the test dies */
  unit_a[3] = 7;                /* code that ran before the constructor */
  register_a ();
  CHILD_CHECK (unit_a[3] == 7);
  unit_a[0] += 5;
  unit_a[3]++;
  unit_a[NA - 1] = 42;
  CHILD_CHECK (write (sync_pipe[1], "r", 1) == 1);
  /* Wait to be killed.  */
  CHILD_CHECK (read (go_pipe[0], &c, 1) == 1);
}

static void
test_runtime_register_unit (void)
{
  char path[PATH_MAX], err[PATH_MAX], text[256], c = 0;
  struct profile p;
  test_path (path, "reg.data");
  test_path (err, "reg.err");
  CU_ASSERT_FATAL (pipe (sync_pipe) == 0 && pipe (go_pipe) == 0);

  pid_t pid = spawn (path, err, child_register_unit);
  /* Only the child writes SYNC_PIPE: if it dies early, the read sees EOF.  */
  close (sync_pipe[1]);
  close (go_pipe[0]);
  CU_ASSERT (read (sync_pipe[0], &c, 1) == 1 && c == 'r');

  /* The child is running: read its file, then kill it.  */
  int read_ok = pid > 0 && read_profile (path, &p) == 0;
  if (pid > 0)
    kill (pid, SIGKILL);
  CU_ASSERT (wait_child (pid) == 128 + SIGKILL);
  close (sync_pipe[0]);
  close (go_pipe[1]);

  CU_ASSERT_FATAL (read_ok);
  CU_ASSERT (p.hdr.version == DSPROF_FORMAT_VERSION);
  CU_ASSERT (p.hdr.header_size == DSPROF_PAGE);
  CU_ASSERT (p.hdr.pid == pid);
  CU_ASSERT (p.hdr.ppid == getpid ());
  CU_ASSERT (p.hdr.flags == 0);
  CU_ASSERT (p.hdr.start_ns != 0 && p.hdr.start_mono_ns != 0);
  CU_ASSERT (p.hdr.stop_mono_ns == 0);
  CU_ASSERT (p.hdr.exe[0] == '/');
  CU_ASSERT (p.hdr.end == 3 * DSPROF_PAGE + CONTROL_SIZE);
  CU_ASSERT (count_chunks (&p) == 2);
  /* The control chunk, its page mapped over the flag, which is on.  */
  const struct dsprof_control_chunk *ctl = (const void *) (p.data + DSPROF_PAGE);
  CU_ASSERT (ctl->chunk.kind == DSPROF_CHUNK_CONTROL);
  CU_ASSERT (ctl->chunk.size == CONTROL_SIZE);
  CU_ASSERT (ctl->mapped == 1 && ctl->events_at_start == 1 && ctl->nswitches == 0);
  CU_ASSERT (*(const int *) (p.data + 2 * DSPROF_PAGE) == 1);
  const struct dsprof_unit_chunk *u = find_unit (&p, meta_a, meta_a_size);
  CU_ASSERT_FATAL (u != NULL);
  CU_ASSERT (u->chunk.size == 2 * DSPROF_PAGE);
  CU_ASSERT (u->ncounters == NA);
  CU_ASSERT (u->counters_offset == 2 * DSPROF_PAGE + CONTROL_SIZE);
  CU_ASSERT (unit_counters (&p, u)[0] == 5);
  CU_ASSERT (unit_counters (&p, u)[3] == 8);
  CU_ASSERT (unit_counters (&p, u)[NA - 1] == 42);
  free (p.data);

  /* After SIGKILL the counts are all there.  */
  CU_ASSERT_FATAL (read_profile (path, &p) == 0);
  u = find_unit (&p, meta_a, meta_a_size);
  CU_ASSERT_FATAL (u != NULL);
  CU_ASSERT (unit_counters (&p, u)[0] == 5);
  CU_ASSERT (p.hdr.stop_mono_ns == 0);
  free (p.data);

  /* Success is silent, and no temporary file is left behind.  */
  read_text (err, text, sizeof text);
  CU_ASSERT_STRING_EQUAL (text, "");
  char other[PATH_MAX];
  CU_ASSERT (find_prefixed ("reg.data", other) == 0);
}

/* pid_substitution: every %p of $DSPROF_OUT is the pid; _exit leaves no stop
   time.  */

static void
child_pid_substitution (void)
{
  register_a ();
  unit_a[1] = 3;
  _exit (0);
}

static void
test_runtime_pid_substitution (void)
{
  char tmpl[PATH_MAX], path[PATH_MAX];
  struct profile p;
  test_path (tmpl, "pid-%p.data.%p");
  pid_t pid = spawn (tmpl, NULL, child_pid_substitution);
  CU_ASSERT_FATAL (wait_child (pid) == 0);
  snprintf (path, sizeof path, "%s/pid-%ld.data.%ld", test_dir, (long) pid,
            (long) pid);
  CU_ASSERT_FATAL (read_profile (path, &p) == 0);
  CU_ASSERT (p.hdr.pid == pid);
  CU_ASSERT (p.hdr.stop_mono_ns == 0);
  const struct dsprof_unit_chunk *u = find_unit (&p, meta_a, meta_a_size);
  CU_ASSERT_FATAL (u != NULL);
  CU_ASSERT (unit_counters (&p, u)[1] == 3);
  free (p.data);
}

/* second_unit: two units, two chunks, each with its own counts; a unit
   registered twice has one chunk; exit() stores the stop time.  */

static void
child_second_unit (void)
{
  register_a ();
  register_b ();
  register_a ();
  unit_a[2] = 11;
  unit_b[0] = 1;
  unit_b[NB - 1] = 22;
  exit (0);
}

static void
test_runtime_second_unit (void)
{
  char path[PATH_MAX], exe[sizeof ((struct dsprof_file_header *) 0)->exe] = "";
  struct profile p;
  test_path (path, "two.data");
  CU_ASSERT_FATAL (wait_child (spawn (path, NULL, child_second_unit)) == 0);
  CU_ASSERT_FATAL (read_profile (path, &p) == 0);
  CU_ASSERT (p.hdr.end == DSPROF_PAGE + CONTROL_SIZE + 2 * DSPROF_PAGE
             + 3 * DSPROF_PAGE);
  CU_ASSERT (count_chunks (&p) == 3);
  const struct dsprof_unit_chunk *a = find_unit (&p, meta_a, meta_a_size);
  const struct dsprof_unit_chunk *b = find_unit (&p, meta_b, meta_b_size);
  CU_ASSERT_FATAL (a != NULL && b != NULL);
  CU_ASSERT (b->ncounters == NB);
  CU_ASSERT (unit_counters (&p, a)[2] == 11);
  CU_ASSERT (unit_counters (&p, b)[0] == 1);
  CU_ASSERT (unit_counters (&p, b)[NB - 1] == 22);
  CU_ASSERT (unit_counters (&p, b)[2] == 0);
  CU_ASSERT (p.hdr.stop_mono_ns >= p.hdr.start_mono_ns);
  CU_ASSERT (p.hdr.stop_mono_ns != 0);
  CU_ASSERT (readlink ("/proc/self/exe", exe, sizeof exe - 1) > 0);
  CU_ASSERT_STRING_EQUAL (p.hdr.exe, exe);
  free (p.data);
}

/* unwritable_dir: one warning for two units and a forked child (which fails to
   write <name>.<pid> too), errno untouched, the counters still work (in
   memory).  */

static void
child_unwritable_dir (void)
{
  errno = EDOM;
  register_a ();
  CHILD_CHECK (errno == EDOM);
  register_b ();
  CHILD_CHECK (errno == EDOM);
  for (int i = 0; i < 10; i++)
    unit_a[0]++, unit_b[NB - 1]++;
  CHILD_CHECK (unit_a[0] == 10 && unit_b[NB - 1] == 10);
  pid_t pid = fork ();
  CHILD_CHECK (pid >= 0);
  if (pid == 0)
    {
      CHILD_CHECK (errno == EDOM);
      unit_a[0]++;
      exit (0);
    }
  CHILD_CHECK (wait_child (pid) == 0);
  exit (0);
}

static void
test_runtime_unwritable_dir (void)
{
  char path[PATH_MAX], err[PATH_MAX], text[1024], expect[PATH_MAX + 64];
  test_path (path, "missing-dir/x.data");
  test_path (err, "unwritable.err");
  CU_ASSERT (wait_child (spawn (path, err, child_unwritable_dir)) == 0);
  read_text (err, text, sizeof text);
  snprintf (expect, sizeof expect, "dsprof: cannot write profile '%s': %s\n", path,
            strerror (ENOENT));
  CU_ASSERT_STRING_EQUAL (text, expect);
}

/* file_size_limit: `ulimit -f` leaves room for the header only: the program is
   not killed by SIGXFSZ, warns once, and the header says TRUNCATED.  */

static void
child_file_size_limit (void)
{
  struct rlimit r = { 2 * DSPROF_PAGE, 2 * DSPROF_PAGE };
  CHILD_CHECK (setrlimit (RLIMIT_FSIZE, &r) == 0);
  errno = EDOM;
  register_a ();
  register_b ();
  CHILD_CHECK (errno == EDOM);
  unit_a[0]++;
  CHILD_CHECK (unit_a[0] == 1);
  exit (0);
}

static void
test_runtime_file_size_limit (void)
{
  char path[PATH_MAX], err[PATH_MAX], text[1024], expect[PATH_MAX + 64];
  struct profile p;
  test_path (path, "fsize.data");
  test_path (err, "fsize.err");
  CU_ASSERT (wait_child (spawn (path, err, child_file_size_limit)) == 0);
  read_text (err, text, sizeof text);
  snprintf (expect, sizeof expect, "dsprof: cannot write profile '%s': %s\n", path,
            strerror (EFBIG));
  CU_ASSERT_STRING_EQUAL (text, expect);
  CU_ASSERT_FATAL (read_profile (path, &p) == 0);
  CU_ASSERT (p.hdr.flags & DSPROF_FLAG_TRUNCATED);
  CU_ASSERT (p.hdr.end == DSPROF_PAGE);
  CU_ASSERT (p.hdr.stop_mono_ns != 0);
  free (p.data);
}

/* fork_child: the child writes <name>.<pid>, FORKED, counting from zero at the
   fork; the parent's file does not see the child's counts.  */

static void
child_fork (void)
{
  register_a ();
  unit_a[0] = 3;
  unit_a[1] = 4;
  pid_t pid = fork ();
  CHILD_CHECK (pid >= 0);
  if (pid == 0)
    {
      CHILD_CHECK (unit_a[0] == 0 && unit_a[1] == 0);
      unit_a[0] += 2;
      exit (0);
    }
  CHILD_CHECK (wait_child (pid) == 0);
  CHILD_CHECK (unit_a[0] == 3);
  unit_a[1]++;
  _exit (0);
}

static void
test_runtime_fork_child (void)
{
  char path[PATH_MAX], child[PATH_MAX], suffix[32];
  struct profile p;
  test_path (path, "fork.data");
  pid_t pid = spawn (path, NULL, child_fork);
  CU_ASSERT_FATAL (wait_child (pid) == 0);

  CU_ASSERT_FATAL (read_profile (path, &p) == 0);
  const struct dsprof_unit_chunk *u = find_unit (&p, meta_a, meta_a_size);
  CU_ASSERT_FATAL (u != NULL);
  CU_ASSERT (unit_counters (&p, u)[0] == 3);
  CU_ASSERT (unit_counters (&p, u)[1] == 5);
  CU_ASSERT (!(p.hdr.flags & DSPROF_FLAG_FORKED));
  free (p.data);

  CU_ASSERT_FATAL (find_prefixed ("fork.data.", child) == 1);
  CU_ASSERT_FATAL (read_profile (child, &p) == 0);
  snprintf (suffix, sizeof suffix, ".%ld", (long) p.hdr.pid);
  CU_ASSERT (strcmp (child + strlen (child) - strlen (suffix), suffix) == 0);
  CU_ASSERT (p.hdr.ppid == pid);
  CU_ASSERT (p.hdr.flags == DSPROF_FLAG_FORKED);
  CU_ASSERT (p.hdr.stop_mono_ns != 0);
  u = find_unit (&p, meta_a, meta_a_size);
  CU_ASSERT_FATAL (u != NULL);
  CU_ASSERT (unit_counters (&p, u)[0] == 2);
  CU_ASSERT (unit_counters (&p, u)[1] == 0);
  free (p.data);
}

/* exec_child: a process that finds DSPROF_PARENT_PID set to another pid (as after
   fork+exec from a profiled process) writes <name>.<pid> and leaves the base
   name alone; a process that owns the base name exports its pid.  */

static char exec_owner[32];

static void
child_exec (void)
{
  setenv (ENV_PARENT_PID, exec_owner, 1);
  register_a ();
  unit_a[5] = 9;
  CHILD_CHECK (strcmp (getenv (ENV_PARENT_PID), exec_owner) == 0);
  _exit (0);
}

static void
child_owner (void)
{
  char pid[32];
  register_a ();
  snprintf (pid, sizeof pid, "%ld", (long) getpid ());
  CHILD_CHECK (getenv (ENV_PARENT_PID) != NULL);
  CHILD_CHECK (strcmp (getenv (ENV_PARENT_PID), pid) == 0);
  _exit (0);
}

static void
test_runtime_exec_child (void)
{
  char path[PATH_MAX], child[PATH_MAX];
  struct profile p;
  struct stat st;
  test_path (path, "exec.data");
  snprintf (exec_owner, sizeof exec_owner, "%ld", (long) getpid ());
  pid_t pid = spawn (path, NULL, child_exec);
  CU_ASSERT_FATAL (wait_child (pid) == 0);
  CU_ASSERT (stat (path, &st) != 0);
  snprintf (child, sizeof child, "%s/exec.data.%ld", test_dir, (long) pid);
  CU_ASSERT_FATAL (read_profile (child, &p) == 0);
  CU_ASSERT (p.hdr.flags == 0);
  const struct dsprof_unit_chunk *u = find_unit (&p, meta_a, meta_a_size);
  CU_ASSERT_FATAL (u != NULL);
  CU_ASSERT (unit_counters (&p, u)[5] == 9);
  free (p.data);

  test_path (path, "owner.data");
  CU_ASSERT (wait_child (spawn (path, NULL, child_owner)) == 0);
  CU_ASSERT (stat (path, &st) == 0);
}

/* replace_old_file: a new run replaces the profile of an old one by rename,
   without truncating it: a reader that has the old file open still reads the
   old contents.  (A file that is not a profile is left alone: the
   runtime-out-kinds case.)  */

static void
test_runtime_replace_old_file (void)
{
  char path[PATH_MAX];
  struct profile p;
  struct dsprof_file_header old;
  test_path (path, "old.data");
  pid_t first = spawn (path, NULL, child_pid_substitution);
  CU_ASSERT_FATAL (wait_child (first) == 0);
  int fd = open (path, O_RDONLY);
  CU_ASSERT_FATAL (fd >= 0);

  pid_t second = spawn (path, NULL, child_pid_substitution);
  CU_ASSERT (wait_child (second) == 0);
  CU_ASSERT_FATAL (read_profile (path, &p) == 0);
  CU_ASSERT (p.hdr.pid == second);
  free (p.data);
  CU_ASSERT (pread (fd, &old, sizeof old, 0) == (ssize_t) sizeof old);
  CU_ASSERT (memcmp (old.magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE) == 0);
  CU_ASSERT (old.pid == first);
  close (fd);
}

/* unregister: the unit leaves the registry (a later fork does not give it a
   chunk) but its mapping is untouched (its counts still reach the file).  */

static void
child_unregister (void)
{
  register_a ();
  register_b ();
  __dsprof_unregister_unit_v1 (unit_a, NULL);
  unit_a[0] = 6;
  unit_b[0] = 7;
  pid_t pid = fork ();
  CHILD_CHECK (pid >= 0);
  if (pid == 0)
    _exit (0);
  CHILD_CHECK (wait_child (pid) == 0);
  _exit (0);
}

static void
test_runtime_unregister (void)
{
  char path[PATH_MAX], child[PATH_MAX];
  struct profile p;
  test_path (path, "unreg.data");
  CU_ASSERT_FATAL (wait_child (spawn (path, NULL, child_unregister)) == 0);
  CU_ASSERT_FATAL (read_profile (path, &p) == 0);
  const struct dsprof_unit_chunk *a = find_unit (&p, meta_a, meta_a_size);
  CU_ASSERT_FATAL (a != NULL);
  CU_ASSERT (unit_counters (&p, a)[0] == 6);
  free (p.data);

  CU_ASSERT_FATAL (find_prefixed ("unreg.data.", child) == 1);
  CU_ASSERT_FATAL (read_profile (child, &p) == 0);
  CU_ASSERT (count_chunks (&p) == 2);
  CU_ASSERT (find_unit (&p, meta_a, meta_a_size) == NULL);
  CU_ASSERT (find_unit (&p, meta_b, meta_b_size) != NULL);
  free (p.data);
}

/* unit_sites: a unit with event sites and no counters: its sites get
   consecutive global ids, its chunk holds the metadata, the first id and no
   counters; unregistering leaves the ids (at exit, the destructors that run
   after the unit's still record its events).  */

static void
child_unit_sites (void)
{
  register_c ();
  CHILD_CHECK (sites_c[0] != 0 && sites_c[1] == sites_c[0] + 1);
  struct profile p;
  char *out = getenv (ENV_OUT);
  CHILD_CHECK (out && read_profile (out, &p) == 0);
  const struct dsprof_unit_chunk *u = find_unit (&p, meta_c, meta_c_size);
  CHILD_CHECK (u != NULL);
  CHILD_CHECK (u->site_base == sites_c[0] && u->nsites == 2);
  CHILD_CHECK (u->ncounters == 0 && u->chunk.size == DSPROF_PAGE);
  uint32_t base = sites_c[0];
  __dsprof_unregister_unit_v1 (NULL, sites_c);
  CHILD_CHECK (sites_c[0] == base && sites_c[1] == base + 1);
  _exit (0);
}

static void
test_runtime_unit_sites (void)
{
  char path[PATH_MAX];
  test_path (path, "sites.data");
  CU_ASSERT (wait_child (spawn (path, NULL, child_unit_sites)) == 0);
}

/* event_api: the event API is safe to call in a program without instrumented
   units, leaves errno alone, and the profile it writes stays well formed.  */

static size_t
format_ptr (const void *ptr, char *buf, size_t size)
{
  (void) ptr;
  return (size_t) snprintf (buf, size, "x");
}

/* Without the plugin the macro expands to nothing.  */
DSPROF_EVENT static int
annotated (int x)
{
  return x + 1;
}

static void
child_event_api (void)
{
  errno = EDOM;
  dsprof_dim_int ("stray", 1);
  dsprof_set_formatter ("p", format_ptr);
  dsprof_id id = dsprof_start ("manual");
  dsprof_dim_int ("i", -1);
  dsprof_dim_uint ("u", 1);
  dsprof_dim_double ("d", 0.5);
  dsprof_dim_bool ("b", 1);
  dsprof_dim_str ("s", "text");
  dsprof_dim_str ("s", NULL);
  dsprof_dim_ptr ("p", &id);
  dsprof_dim_ptr ("p", NULL);
  dsprof_finish (id);
  dsprof_finish (id + 1);
  CHILD_CHECK (errno == EDOM);
  CHILD_CHECK (annotated (1) == 2);
  exit (0);
}

static void
test_runtime_event_api (void)
{
  char path[PATH_MAX], err[PATH_MAX], text[256];
  struct profile p;
  test_path (path, "api.data");
  test_path (err, "api.err");
  CU_ASSERT (wait_child (spawn (path, err, child_event_api)) == 0);
  read_text (err, text, sizeof text);
  CU_ASSERT_STRING_EQUAL (text, "");
  /* The manual event needed a stream chunk, and so the file.  */
  CU_ASSERT_FATAL (read_profile (path, &p) == 0);
  CU_ASSERT (count_chunks (&p) >= 1);
  CU_ASSERT (!(p.hdr.flags & DSPROF_FLAG_TRUNCATED));
  CU_ASSERT (p.hdr.stop_mono_ns != 0);
  free (p.data);
}

#if defined(__x86_64__) && defined(__LP64__)
/* The runtime calls of instrumented code (update=thread's first counted
   call in a thread) go through dsprof_call_saving_all, which must give the
   caller back every register but %rax as it was, the vector ones too,
   whatever the C function it calls does with them: here one that clobbers
   every general register the ABI lets it and all sixteen XMM registers.  */

static uint64_t seen_args[2];

static __attribute__ ((used, noinline)) uint64_t
clobber_all (uint64_t a, uint64_t b)
{
  seen_args[0] = a;
  seen_args[1] = b;
  __asm__ volatile ("xor %%ecx, %%ecx\n\txor %%edx, %%edx\n\txor %%esi, %%esi\n\t"
                    "xor %%edi, %%edi\n\txor %%r8d, %%r8d\n\txor %%r9d, %%r9d\n\t"
                    "xor %%r10d, %%r10d\n\txor %%r11d, %%r11d\n\t"
                    "pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
                    "pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
                    "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\tpxor %%xmm8, %%xmm8\n\t"
                    "pxor %%xmm9, %%xmm9\n\tpxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
                    "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\tpxor %%xmm14, %%xmm14\n\t"
                    "pxor %%xmm15, %%xmm15"
                    ::: "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
                    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
                    "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
                    "xmm15");
  return a * 1000 + b;
}

static void
test_runtime_call_saves_registers (void)
{
  /* d[0..7]: rcx rdx rsi rdi r8 r9 r10 r11 before, d[8..15] after; x[0..15]
     the XMM registers' low halves before, x[16..31] after; d[16] %rax.  */
  uint64_t d[17];
  double x[32];
  for (int i = 0; i < 8; i++)
    d[i] = 0x1111111111111111ull * (uint64_t) (i + 1);
  for (int i = 0; i < 16; i++)
    x[i] = 1.5 + i;
  uint64_t *dp = d;
  double *xp = x;
  __asm__ volatile (
    "mov 0(%%rbx), %%rcx\n\tmov 8(%%rbx), %%rdx\n\tmov 16(%%rbx), %%rsi\n\t"
    "mov 24(%%rbx), %%rdi\n\tmov 32(%%rbx), %%r8\n\tmov 40(%%rbx), %%r9\n\t"
    "mov 48(%%rbx), %%r10\n\tmov 56(%%rbx), %%r11\n\t"
    "movsd 0(%%rax), %%xmm0\n\tmovsd 8(%%rax), %%xmm1\n\tmovsd 16(%%rax), %%xmm2\n\t"
    "movsd 24(%%rax), %%xmm3\n\tmovsd 32(%%rax), %%xmm4\n\tmovsd 40(%%rax), %%xmm5\n\t"
    "movsd 48(%%rax), %%xmm6\n\tmovsd 56(%%rax), %%xmm7\n\tmovsd 64(%%rax), %%xmm8\n\t"
    "movsd 72(%%rax), %%xmm9\n\tmovsd 80(%%rax), %%xmm10\n\tmovsd 88(%%rax), %%xmm11\n\t"
    "movsd 96(%%rax), %%xmm12\n\tmovsd 104(%%rax), %%xmm13\n\tmovsd 112(%%rax), %%xmm14\n\t"
    "movsd 120(%%rax), %%xmm15\n\t"
    "push %%rax\n\t"
    "lea -128(%%rsp), %%rsp\n\t"
    "push $7\n\tpush $5\n\t"
    "lea clobber_all(%%rip), %%rax\n\t"
    "call dsprof_call_saving_all\n\t"
    "lea 144(%%rsp), %%rsp\n\t"
    "mov %%rax, 128(%%rbx)\n\t"
    "pop %%rax\n\t"
    "mov %%rcx, 64(%%rbx)\n\tmov %%rdx, 72(%%rbx)\n\tmov %%rsi, 80(%%rbx)\n\t"
    "mov %%rdi, 88(%%rbx)\n\tmov %%r8, 96(%%rbx)\n\tmov %%r9, 104(%%rbx)\n\t"
    "mov %%r10, 112(%%rbx)\n\tmov %%r11, 120(%%rbx)\n\t"
    "movsd %%xmm0, 128(%%rax)\n\tmovsd %%xmm1, 136(%%rax)\n\tmovsd %%xmm2, 144(%%rax)\n\t"
    "movsd %%xmm3, 152(%%rax)\n\tmovsd %%xmm4, 160(%%rax)\n\tmovsd %%xmm5, 168(%%rax)\n\t"
    "movsd %%xmm6, 176(%%rax)\n\tmovsd %%xmm7, 184(%%rax)\n\tmovsd %%xmm8, 192(%%rax)\n\t"
    "movsd %%xmm9, 200(%%rax)\n\tmovsd %%xmm10, 208(%%rax)\n\tmovsd %%xmm11, 216(%%rax)\n\t"
    "movsd %%xmm12, 224(%%rax)\n\tmovsd %%xmm13, 232(%%rax)\n\tmovsd %%xmm14, 240(%%rax)\n\t"
    "movsd %%xmm15, 248(%%rax)"
    : "+b" (dp), "+a" (xp)
    :
    : "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0", "xmm1",
      "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory", "cc");
  CU_ASSERT_EQUAL (seen_args[0], 5);
  CU_ASSERT_EQUAL (seen_args[1], 7);
  CU_ASSERT_EQUAL (d[16], 5007);
  for (int i = 0; i < 8; i++)
    CU_ASSERT_EQUAL (d[8 + i], d[i]);
  for (int i = 0; i < 16; i++)
    CU_ASSERT_EQUAL (x[16 + i], x[i]);
}
#endif

static int
runtime_suite_init (void)
{
  const char *tmp = getenv ("TMPDIR");
  snprintf (test_dir, sizeof test_dir, "%s/dsprof-runtime-XXXXXX",
            tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp (test_dir))
    return -1;
  meta_a_size = make_meta (meta_a, "a.c", 3);
  meta_b_size = make_meta (meta_b, "dir/b.c", 5);
  meta_c_size = make_meta (meta_c, "c.c", 0);
  put_site (meta_c, &meta_c_size, 0, "g");
  put_site (meta_c, &meta_c_size, 1, "h");
  return 0;
}

static int
runtime_suite_clean (void)
{
  char path[PATH_MAX];
  DIR *d = opendir (test_dir);
  if (!d)
    return -1;
  for (struct dirent *e; (e = readdir (d));)
    if (strcmp (e->d_name, ".") && strcmp (e->d_name, ".."))
      {
        snprintf (path, sizeof path, "%s/%s", test_dir, e->d_name);
        unlink (path);
      }
  closedir (d);
  return rmdir (test_dir);
}

void
runtime_test_register (void)
{
  CU_pSuite s = CU_add_suite ("runtime", runtime_suite_init, runtime_suite_clean);
  if (!s)
    return;
  CU_add_test (s, "test_runtime_register_unit", test_runtime_register_unit);
  CU_add_test (s, "test_runtime_pid_substitution", test_runtime_pid_substitution);
  CU_add_test (s, "test_runtime_second_unit", test_runtime_second_unit);
  CU_add_test (s, "test_runtime_unwritable_dir", test_runtime_unwritable_dir);
  CU_add_test (s, "test_runtime_file_size_limit", test_runtime_file_size_limit);
  CU_add_test (s, "test_runtime_fork_child", test_runtime_fork_child);
  CU_add_test (s, "test_runtime_exec_child", test_runtime_exec_child);
  CU_add_test (s, "test_runtime_replace_old_file", test_runtime_replace_old_file);
  CU_add_test (s, "test_runtime_unregister", test_runtime_unregister);
  CU_add_test (s, "test_runtime_unit_sites", test_runtime_unit_sites);
  CU_add_test (s, "test_runtime_event_api", test_runtime_event_api);
#if defined(__x86_64__) && defined(__LP64__)
  CU_add_test (s, "test_runtime_call_saves_registers",
               test_runtime_call_saves_registers);
#endif
}
