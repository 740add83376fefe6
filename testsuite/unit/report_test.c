/* report_test.c - the profile reader against valid, truncated, damaged and
   hostile images.  A small profile is built here byte by byte from the format
   (include/dsprof-format.h): one unit with a two-block function and one event
   site, and one thread's stream holding one Start/Finish pair.  */

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"

#define IMAGE_SIZE (4 * DSPROF_PAGE)
#define META_OFF (DSPROF_PAGE + sizeof (struct dsprof_unit_chunk))

static unsigned char image[IMAGE_SIZE];
static size_t meta_size;

struct buf
{
  unsigned char *p;
  size_t n;
};

static void
put_u (struct buf *b, uint64_t v)
{
  b->n += dsprof_put_uleb (b->p + b->n, v);
}

static void
put_s (struct buf *b, const char *s)
{
  put_u (b, strlen (s));
  memcpy (b->p + b->n, s, strlen (s));
  b->n += strlen (s);
}

/* A record: tag, length, then the bytes REC holds.  */
static void
put_rec (struct buf *b, unsigned tag, const struct buf *rec)
{
  put_u (b, tag);
  put_u (b, rec->n);
  memcpy (b->p + b->n, rec->p, rec->n);
  b->n += rec->n;
}

static void
build_image (void)
{
  memset (image, 0, sizeof image);
  struct dsprof_file_header *h = (void *) image;
  memcpy (h->magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE);
  h->version = DSPROF_FORMAT_VERSION;
  h->header_size = DSPROF_PAGE;
  h->end = IMAGE_SIZE;
  h->pid = 42;
  h->start_mono_ns = 1000;
  h->stop_mono_ns = 1000 + 5000;
  h->clock = DSPROF_CLOCK_NS;
  strcpy (h->exe, "/bin/test");

  /* Unit chunk: [4096, 12288), counters in its second page.  */
  unsigned char recbuf[256];
  struct buf m = { image + META_OFF, 0 }, r = { recbuf, 0 };
  put_u (&m, DSPROF_META_VERSION);
  put_s (&m, "t.c");
  put_s (&m, "/nonexistent");
  put_s (&r, "t.c");
  put_rec (&m, DSPROF_TAG_FILE, &r);
  r.n = 0;
  put_s (&r, "f");
  put_u (&r, 0); put_u (&r, 3); put_u (&r, 0); put_u (&r, 2);
  put_u (&r, 1); put_u (&r, 0); put_u (&r, 3);
  put_u (&r, 2); put_u (&r, 0); put_u (&r, 4); put_u (&r, 0); put_u (&r, 5);
  put_rec (&m, DSPROF_TAG_FUNCTION, &r);
  r.n = 0;
  put_u (&r, 0); put_s (&r, "AttrEval"); put_s (&r, "f"); put_u (&r, 0);
  put_u (&r, 3); put_u (&r, 2);
  put_s (&r, "x"); put_u (&r, DSPROF_DIM_INT);
  put_s (&r, "result"); put_u (&r, DSPROF_DIM_INT);
  put_rec (&m, DSPROF_TAG_SITE, &r);
  meta_size = m.n;

  struct dsprof_unit_chunk *u = (void *) (image + DSPROF_PAGE);
  u->chunk.kind = DSPROF_CHUNK_UNIT;
  u->chunk.size = 2 * DSPROF_PAGE;
  u->chunk.check = dsprof_meta_hash (image + META_OFF, meta_size);
  u->ncounters = DSPROF_COUNTERS_PER_PAGE;
  u->meta_size = (uint32_t) meta_size;
  u->counters_offset = 2 * DSPROF_PAGE;
  u->site_base = 1;
  u->nsites = 1;
  uint64_t *counters = (void *) (image + 2 * DSPROF_PAGE);
  counters[0] = 7;
  counters[1] = 5;

  /* Events chunk: [12288, 16384): Start f(x = -3) at +5 ns, Finish = 7 at +15.  */
  struct dsprof_events_chunk *e = (void *) (image + 3 * DSPROF_PAGE);
  e->chunk.kind = DSPROF_CHUNK_EVENTS;
  e->chunk.size = DSPROF_PAGE;
  e->thread = 1;
  e->base_ticks = 2000;
  e->base_ns = 2000;
  struct buf s = { (unsigned char *) (e + 1), 0 };
  put_u (&s, DSPROF_OP_ENTER); put_u (&s, 5); put_u (&s, 1); put_u (&s, 5);
  put_u (&s, DSPROF_OP_EXIT); put_u (&s, 10); put_u (&s, 14);
  e->used = s.n;
}

static const char *
check (size_t size)
{
  static char buf[512];
  return pf_check_image (image, size, buf, sizeof buf);
}

static void
test_valid (void)
{
  build_image ();
  const char *err = check (IMAGE_SIZE);
  CU_ASSERT_PTR_NULL (err);
  if (err)
    fprintf (stderr, "valid image rejected: %s\n", err);
}

static void
expect_error (size_t size, const char *needle)
{
  const char *err = check (size);
  CU_ASSERT_PTR_NOT_NULL (err);
  if (err && !strstr (err, needle))
    {
      fprintf (stderr, "error '%s' does not say '%s'\n", err, needle);
      CU_FAIL ("wrong message");
    }
}

static void
test_bad_headers (void)
{
  build_image ();
  expect_error (0, "empty");
  expect_error (100, "truncated");
  expect_error (IMAGE_SIZE - DSPROF_PAGE, "truncated");
  image[0] = 'X';
  expect_error (IMAGE_SIZE, "not a dsprof profile");
  build_image ();
  ((struct dsprof_file_header *) image)->version = 99;
  expect_error (IMAGE_SIZE, "version 99");
  build_image ();
  ((struct dsprof_file_header *) image)->end = IMAGE_SIZE + 1;
  expect_error (IMAGE_SIZE, "committed length");
}

/* Every length short of the whole image is refused with a message (the
   header's committed length says what is missing), never read past.  */
static void
test_truncation_sweep (void)
{
  build_image ();
  unsigned refused = 0;
  for (size_t n = 0; n < IMAGE_SIZE; n++)
    refused += check (n) != NULL;
  CU_ASSERT_EQUAL (refused, IMAGE_SIZE);
}

/* Any single bit flipped in the header's identity fields or in the unit's
   metadata is detected; a flip elsewhere never crashes the reader (run under
   the sanitizers to see that) - it is either refused or read as a profile.  */
static void
test_bit_flips (void)
{
  build_image ();
  unsigned missed = 0;
  for (size_t byte = 0; byte < IMAGE_SIZE; byte++)
    for (int bit = 0; bit < 8; bit++)
      {
        image[byte] ^= (unsigned char) (1u << bit);
        const char *err = check (IMAGE_SIZE);
        bool must = byte < 16 || (byte >= META_OFF && byte < META_OFF + meta_size)
                    || (byte >= DSPROF_PAGE + 4 && byte < DSPROF_PAGE + 8);
        if (must && !err)
          {
            if (missed++ < 5)
              fprintf (stderr, "flip of bit %d of byte %zu not detected\n", bit,
                       byte);
          }
        image[byte] ^= (unsigned char) (1u << bit);
      }
  CU_ASSERT_EQUAL (missed, 0);
  CU_ASSERT_PTR_NULL (check (IMAGE_SIZE));
}

static void
test_hostile_sizes (void)
{
  /* A huge counter count, site base and chunk size are refused before any
     allocation by them.  */
  build_image ();
  ((struct dsprof_unit_chunk *) (image + DSPROF_PAGE))->ncounters = 0xfffffff0u;
  expect_error (IMAGE_SIZE, "counters outside");
  build_image ();
  ((struct dsprof_unit_chunk *) (image + DSPROF_PAGE))->site_base = 0x7fffffffu;
  expect_error (IMAGE_SIZE, "site range");
  build_image ();
  ((struct dsprof_chunk *) (image + DSPROF_PAGE))->size = UINT64_MAX - 4095;
  expect_error (IMAGE_SIZE, "bad size");
  build_image ();
  ((struct dsprof_events_chunk *) (image + 3 * DSPROF_PAGE))->used = DSPROF_PAGE;
  expect_error (IMAGE_SIZE, "exceed");
  build_image ();
  ((struct dsprof_events_chunk *) (image + 3 * DSPROF_PAGE))->seq = 1;
  expect_error (IMAGE_SIZE, "missing");
  /* A stream whose event names an unknown site.  */
  build_image ();
  unsigned char *stream = image + 3 * DSPROF_PAGE + sizeof (struct dsprof_events_chunk);
  stream[2] = 9;
  CU_ASSERT_PTR_NOT_NULL (check (IMAGE_SIZE));
}

struct seen
{
  int records;
  char dims[256];
};

static int
on_record (struct ev_record *r, void *arg)
{
  struct seen *s = arg;
  s->records++;
  char buf[64];
  size_t n = 0;
  for (uint32_t i = 0; i < r->ndims; i++)
    n += snprintf (s->dims + n, sizeof s->dims - n, "%s%s=%s", i ? " " : "",
                   r->dims[i].name, ev_format_value (&r->dims[i].v, buf, sizeof buf));
  CU_ASSERT_EQUAL (r->start_ns, 1000 + 5);
  CU_ASSERT_EQUAL (r->end_ns, 1000 + 15);
  return 0;
}

/* Two copies of one profile: counts summed per unit, one unit, two processes;
   the stream decodes to the record written.  */
static void
test_files_summed (void)
{
  build_image ();
  char path[] = "/tmp/dsprof-unit-XXXXXX";
  int fd = mkstemp (path);
  CU_ASSERT_FATAL (fd >= 0);
  CU_ASSERT_EQUAL (write (fd, image, IMAGE_SIZE), IMAGE_SIZE);
  close (fd);
  struct pf_set set;
  memset (&set, 0, sizeof set);
  CU_ASSERT_EQUAL (pf_add (&set, path), 0);
  CU_ASSERT_EQUAL (pf_add (&set, path), 0);
  CU_ASSERT_EQUAL (set.nprocs, 2);
  CU_ASSERT_EQUAL_FATAL (set.nunits, 1);
  const struct pf_unit *u = set.units[0];
  CU_ASSERT_STRING_EQUAL (u->source, "t.c");
  CU_ASSERT_EQUAL_FATAL (u->nfunctions, 1);
  uint64_t counts[2];
  const char *err;
  CU_ASSERT_EQUAL (pf_block_counts (u, &u->functions[0], counts, &err), 0);
  CU_ASSERT_EQUAL (counts[0], 14);
  CU_ASSERT_EQUAL (counts[1], 10);
  CU_ASSERT_EQUAL (u->functions[0].blocks[1].nlocs, 2);
  CU_ASSERT_EQUAL (u->functions[0].blocks[1].locs[1].line, 5);

  struct pf_process *p = &set.procs[0];
  CU_ASSERT_EQUAL_FATAL (p->nstreams, 1);
  struct seen s = { 0, "" };
  CU_ASSERT_EQUAL (ev_decode_stream (&p->streams[0], &p->sites, &p->clock, NULL,
                                     on_record, &s, &err), 0);
  CU_ASSERT_EQUAL (s.records, 1);
  CU_ASSERT_STRING_EQUAL (s.dims, "event=AttrEval name=f file=t.c line=3 thread=1 "
                          "x=-3 result=7 complete=true");
  pf_free (&set);

  /* The same file truncated: refused, naming the problem.  */
  CU_ASSERT_EQUAL (truncate (path, IMAGE_SIZE - 100), 0);
  memset (&set, 0, sizeof set);
  CU_ASSERT_EQUAL (pf_add (&set, path), -1);
  pf_free (&set);
  unlink (path);
}

void
report_test_register (void)
{
  CU_pSuite s = CU_add_suite ("report", NULL, NULL);
  CU_add_test (s, "valid image", test_valid);
  CU_add_test (s, "empty, short, wrong magic, wrong version", test_bad_headers);
  CU_add_test (s, "every truncation refused", test_truncation_sweep);
  CU_add_test (s, "bit flips detected or harmless", test_bit_flips);
  CU_add_test (s, "hostile sizes refused", test_hostile_sizes);
  CU_add_test (s, "profiles summed, stream decoded", test_files_summed);
}
