/* harness.c - the profile reader under hostile input (README).

   LLVMFuzzerTestOneInput takes one input as a profile image and
     1. checks it as it is with pf_check_image (header, chunks, unit metadata,
        event streams decoded);
     2. pads it to whole pages and rewrites the check word of every unit chunk it
        can find, so that mutations of the metadata reach the metadata parser
        instead of stopping at the check word, and checks that image again;
     3. if that image passes, or fails only in an event stream, writes it to a
        file and runs the report commands over it as the `dsprof` command would:
        info, lines (the file twice, so units are combined), records, trace,
        report along recorded and derived dimensions in every format, dims,
        the pprof, perfetto, folded, lcov and cobertura exports, summary, callgraph,
        and merge (the file twice) with records of the merged profile.  Records before a corrupt event are delivered, so the consumers see
        partial streams too.
   Their output goes to /dev/null; what matters is that nothing reads out of
   bounds, overflows, leaks or crashes (the sanitizers tell).

   Built with clang -fsanitize=fuzzer,address,undefined by `make fuzz`; built with
   driver.c (which has a main) by `make check-sanitize` and by the report-fuzz-regress
   test case to run the kept inputs.  */

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"

#define MAX_IMAGE (1u << 20)

int dsprof_main (int argc, char **argv);   /* report/cmd/dsprof.c, renamed */
int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

static char path[64];
static char merged[72];               /* merge's output, read back */
static unsigned char *image;
static FILE *quiet;

static void
setup (void)
{
  const char *tmp = getenv ("TMPDIR");
  snprintf (path, sizeof path, "%s/dsprof-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp (path);
  if (fd < 0)
    {
      perror ("dsprof fuzz harness: mkstemp");
      exit (1);
    }
  close (fd);
  snprintf (merged, sizeof merged, "%s.m", path);
  image = malloc (MAX_IMAGE);
  quiet = fopen ("/dev/null", "w");
  /* The commands print to stdout: away with it.  */
  int null = open ("/dev/null", O_WRONLY);
  if (!image || !quiet || null < 0 || dup2 (null, 1) < 0)
    {
      perror ("dsprof fuzz harness: setup");
      exit (1);
    }
  close (null);
}

static void
cleanup (void)
{
  if (path[0])
    unlink (path);
  if (merged[0])
    unlink (merged);
}

/* Rewrite the check word of every unit chunk, and of every record of a units
   chunk, reached by walking the chunks as the reader does.  */

static void
fix_check_words (unsigned char *img, size_t size)
{
  const struct dsprof_file_header *h = (const void *) img;
  size_t end = h->end <= size ? (size_t) h->end : size;
  for (size_t off = DSPROF_PAGE; off + DSPROF_PAGE <= end;)
    {
      struct dsprof_unit_chunk *u = (void *) (img + off);
      uint64_t csize = u->chunk.size;
      if (csize < DSPROF_PAGE || csize % DSPROF_PAGE || csize > end - off)
        break;
      /* An accumulated profile's kinds carry their process (proc << 8).  */
      uint32_t kind = DSPROF_CHUNK_KIND (u->chunk.kind);
      if ((kind == DSPROF_CHUNK_UNIT || kind == DSPROF_CHUNK_TUNIT)
          && u->meta_size <= csize - sizeof *u)
        u->chunk.check = dsprof_meta_hash (u + 1, u->meta_size);
      /* The records of a units chunk, as far as they stay inside it.  */
      const struct dsprof_units_chunk *us = (const void *) u;
      size_t at = off + sizeof *us;
      for (uint32_t i = 0; kind == DSPROF_CHUNK_UNITS && i < us->nunits
                           && at + sizeof *u <= off + csize; i++)
        {
          struct dsprof_unit_chunk *r = (void *) (img + at);
          if (r->chunk.size < sizeof *r || r->chunk.size % 8
              || r->chunk.size > off + csize - at)
            break;
          if (r->meta_size <= r->chunk.size - sizeof *r)
            r->chunk.check = dsprof_meta_hash (r + 1, r->meta_size);
          at += r->chunk.size;
        }
      off += csize;
    }
}

static void
run (int argc, const char **argv)
{
  /* The commands' messages are expected (corrupt input): keep them quiet.  */
  FILE *err = stderr;
  stderr = quiet;
  optind = 0;
  dsprof_main (argc, (char **) argv);
  fflush (stdout);
  stderr = err;
}

#define RUN(...)                                                           \
  do                                                                       \
    {                                                                      \
      const char *args_[] = { "dsprof", __VA_ARGS__ };               \
      run ((int) (sizeof args_ / sizeof *args_), args_);                   \
    }                                                                      \
  while (0)

static void
run_commands (void)
{
  const char *p = path;
  RUN ("info", p);
  RUN ("info", "--count", p);
  RUN ("lines", p, p);
  RUN ("records", "--where", "complete!=true", p);
  RUN ("trace", p);
  RUN ("dims", p);
  RUN ("report", "--", p);
  RUN ("report", "event", "thread", "result", "--format", "csv", "--where",
       "depth=1", "--", p);
  RUN ("report", "parent", "location", "children", "site", "depends-on",
       "--format", "json", "--raw", "--top", "2", "--", p);
  RUN ("export", "--format", "pprof", "--dim", "outer:name", "--", p);
  RUN ("export", "--format", "perfetto", "--", p);
  RUN ("export", "--format", "folded", "--", p);
  RUN ("export", "--format", "lcov", "--", p);
  RUN ("export", "--format", "cobertura", "--", p);
  RUN ("summary", "--format", "json", "--", p);
  RUN ("callgraph", "--", p);
  /* merge writes what it read; its output (if any: a corrupt stream is an
     error) is read back.  */
  unlink (merged);
  RUN ("merge", "-o", merged, p, p);
  RUN ("records", merged);
}

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  static bool ready;
  if (!ready)
    {
      setup ();
      atexit (cleanup);
      ready = true;
    }
  char buf[512];
  pf_check_image (data, size, buf, sizeof buf);

  size_t n = (size + DSPROF_PAGE - 1) / DSPROF_PAGE * DSPROF_PAGE;
  if (n < 2 * DSPROF_PAGE || n > MAX_IMAGE)
    return 0;
  memcpy (image, data, size);
  memset (image + size, 0, n - size);
  fix_check_words (image, n);
  const char *err = pf_check_image (image, n, buf, sizeof buf);
  if (err && strncmp (err, "thread ", 7) != 0)
    return 0;

  FILE *f = fopen (path, "w");
  if (!f || fwrite (image, 1, n, f) != n || fclose (f) != 0)
    {
      perror (path);
      abort ();
    }
  run_commands ();
  return 0;
}
