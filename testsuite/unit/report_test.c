/* report_test.c - the profile reader against valid, truncated, damaged and
   hostile images.  A small profile is built here byte by byte from the format
   (include/dsprof-format.h): one unit with a two-block function and one event
   site, and one thread's stream holding one Start/Finish pair.  */

#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aggregate.h"
#include "files.h"
#include "profile.h"
#include "trec.h"

#define IMAGE_SIZE (4 * DSPROF_PAGE)
#define META_OFF (DSPROF_PAGE + sizeof (struct dsprof_unit_chunk))

static unsigned char image[IMAGE_SIZE];

/* Start a stream of agg A whose Start/Finish pairs cost PAIR_PS, as the
   start-up figure of a profile without measurements gives it.  */
static void
begin_pairs (struct agg *a, uint64_t pair_ps)
{
  struct agg_costs c = { .pair_ns = (double) pair_ps / 1000.0 };
  agg_begin_stream (a, &c, &c);
}
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
  /* Versions 1 (before string references) to the current one are read; the
     ones around them are not.  */
  for (uint32_t v = DSPROF_FORMAT_VERSION_MIN; v <= DSPROF_FORMAT_VERSION; v++)
    {
      build_image ();
      ((struct dsprof_file_header *) image)->version = v;
      CU_ASSERT_PTR_NULL (check (IMAGE_SIZE));
    }
  CU_ASSERT_EQUAL (DSPROF_FORMAT_VERSION_MIN, 1);
  build_image ();
  ((struct dsprof_file_header *) image)->version = DSPROF_FORMAT_VERSION_MIN - 1;
  expect_error (IMAGE_SIZE, "version 0");
  build_image ();
  ((struct dsprof_file_header *) image)->version = DSPROF_FORMAT_VERSION + 1;
  expect_error (IMAGE_SIZE, "version");
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

/* A metadata record whose length runs past the unit's metadata is refused, not
   taken for the end of it.  */
static void
test_record_overrun (void)
{
  build_image ();
  struct buf m = { image + META_OFF, meta_size };
  put_u (&m, DSPROF_TAG_FILE);
  put_u (&m, 50);
  put_s (&m, "u.c");
  struct dsprof_unit_chunk *u = (void *) (image + DSPROF_PAGE);
  u->meta_size = (uint32_t) m.n;
  u->chunk.check = dsprof_meta_hash (image + META_OFF, m.n);
  expect_error (IMAGE_SIZE, "malformed metadata");
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

/* The image with its unit chunk made a units chunk (a forked child's) of one
   record, the same unit and counters.  Return the offset of the record.  */

#define RECORD_OFF (DSPROF_PAGE + sizeof (struct dsprof_units_chunk))

static size_t
build_units_image (void)
{
  build_image ();
  struct dsprof_unit_chunk u;
  memcpy (&u, image + DSPROF_PAGE, sizeof u);
  unsigned char meta[DSPROF_PAGE];
  memcpy (meta, image + META_OFF, meta_size);
  memset (image + DSPROF_PAGE, 0, DSPROF_PAGE);
  u.chunk.size = (sizeof u + meta_size + 7) & ~(size_t) 7;
  struct dsprof_units_chunk us;
  memset (&us, 0, sizeof us);
  us.chunk.kind = DSPROF_CHUNK_UNITS;
  us.chunk.size = 2 * DSPROF_PAGE;
  us.nunits = 1;
  us.records_size = u.chunk.size;
  memcpy (image + DSPROF_PAGE, &us, sizeof us);
  memcpy (image + RECORD_OFF, &u, sizeof u);
  memcpy (image + RECORD_OFF + sizeof u, meta, meta_size);
  return RECORD_OFF;
}

/* A units chunk reads as its units; every truncation is refused; a flip of a
   bit of its unit count, its records' size, a record's check word or its
   metadata is detected, and no flip crashes the reader; hostile sizes and
   counters inside the records are refused.  */
static void
test_units_chunk (void)
{
  build_units_image ();
  const char *err = check (IMAGE_SIZE);
  CU_ASSERT_PTR_NULL (err);
  if (err)
    fprintf (stderr, "units chunk image rejected: %s\n", err);
  unsigned refused = 0;
  for (size_t n = 0; n < IMAGE_SIZE; n++)
    refused += check (n) != NULL;
  CU_ASSERT_EQUAL (refused, IMAGE_SIZE);

  unsigned missed = 0;
  size_t meta_off = RECORD_OFF + sizeof (struct dsprof_unit_chunk);
  for (size_t byte = DSPROF_PAGE; byte < 2 * DSPROF_PAGE; byte++)
    for (int bit = 0; bit < 8; bit++)
      {
        image[byte] ^= (unsigned char) (1u << bit);
        err = check (IMAGE_SIZE);
        bool must = (byte >= DSPROF_PAGE + 16 && byte < DSPROF_PAGE + 20)
                    || (byte >= DSPROF_PAGE + 24 && byte < RECORD_OFF)
                    || (byte >= RECORD_OFF + 4 && byte < RECORD_OFF + 8)
                    || (byte >= meta_off && byte < meta_off + meta_size);
        if (must && !err && missed++ < 5)
          fprintf (stderr, "units chunk: flip of bit %d of byte %zu not "
                   "detected\n", bit, byte);
        image[byte] ^= (unsigned char) (1u << bit);
      }
  CU_ASSERT_EQUAL (missed, 0);
  CU_ASSERT_PTR_NULL (check (IMAGE_SIZE));

  struct dsprof_units_chunk *us = (void *) (image + DSPROF_PAGE);
  struct dsprof_unit_chunk *u = (void *) (image + RECORD_OFF);
  us->nunits = 0xffffffffu;
  expect_error (IMAGE_SIZE, "exceed");
  build_units_image ();
  us->records_size = UINT64_MAX - 7;
  expect_error (IMAGE_SIZE, "exceed");
  build_units_image ();
  u->chunk.size = UINT64_MAX - 7;
  expect_error (IMAGE_SIZE, "bad record");
  build_units_image ();
  u->counters_offset = DSPROF_PAGE;
  expect_error (IMAGE_SIZE, "counters outside");
  build_units_image ();
  u->ncounters = 0xfffffff0u;
  expect_error (IMAGE_SIZE, "counters outside");
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
                                     on_record, &s, EV_KEEP_CHILDREN, &err), 0);
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

/* ---- the report's deduction of the recorder's cost --------------------------

   Records are handed to agg_record innermost first, as ev_decode_stream does,
   each with its name as its only dimension (trec.h).  */

/* Self <= Total on every row, no row's Total beyond the profiled time, and the
   first table's Self adding up to the profiled time (every instant of a
   top-level record is some record's own time, once).  */
static void
check_rows (const struct agg *a)
{
  uint64_t self0 = 0;
  for (uint32_t id = 1; id <= agg_nbuckets (a); id++)
    {
      const struct agg_bucket *b = agg_bucket (a, id);
      CU_ASSERT (b->self_ns <= b->total_ns);
      CU_ASSERT (b->total_ns <= agg_profiled_ns (a));
      if (b->self_ns > b->total_ns)
        fprintf (stderr, "row %s: Self %llu > Total %llu\n", b->value,
                 (unsigned long long) b->self_ns, (unsigned long long) b->total_ns);
      if (b->level == 0)
        self0 += b->self_ns;
    }
  CU_ASSERT_EQUAL (self0, agg_profiled_ns (a));
}

/* fib(A) holds fib(B), which holds the leaves fib(C) and fib(D); 10 ns per
   pair.  C and D: 100 - 5 = 95 each.  B: 210 - 25 = 185, less than its
   children's 190 - a deduction record by record would give B no Self and
   leave 5 ns of C and D's time outside B's, so fib's Self (A's 300 - 35 - 185
   = 80, plus 95 + 95) would be 270 against a Total of 265.  B's time is
   raised to its children's 190: A's Self is 75 and fib's Self is its Total.  */
static void
test_deduction_nested (void)
{
  static const char *const dims[] = { "name" };
  struct agg *a = agg_new (1, dims, 0, NULL);
  begin_pairs (a, 10000);
  struct trec A, B, C, D;
  trec_init (&A, NULL, "fib", 0, 300);
  trec_init (&B, &A, "fib", 40, 250);
  trec_init (&C, &B, "fib", 40, 140);
  trec_init (&D, &B, "fib", 150, 250);
  agg_record (&C.r, a);
  agg_record (&D.r, a);
  agg_record (&B.r, a);
  agg_record (&A.r, a);
  CU_ASSERT_EQUAL_FATAL (agg_nbuckets (a), 1);
  const struct agg_bucket *b = agg_bucket (a, 1);
  CU_ASSERT_EQUAL (b->count, 4);
  CU_ASSERT_EQUAL (b->total_ns, 265);
  CU_ASSERT_EQUAL (b->self_ns, 265);
  CU_ASSERT_EQUAL (agg_profiled_ns (a), 265);
  check_rows (a);
  agg_free (a);

  /* The same tree, B and its leaves named apart: A's row shows 75 of its own
     and 190 in its descendants, B's none of its own.  */
  a = agg_new (1, dims, 0, NULL);
  begin_pairs (a, 10000);
  trec_init (&A, NULL, "a", 0, 300);
  trec_init (&B, &A, "b", 40, 250);
  trec_init (&C, &B, "leaf", 40, 140);
  trec_init (&D, &B, "leaf", 150, 250);
  agg_record (&C.r, a);
  agg_record (&D.r, a);
  agg_record (&B.r, a);
  agg_record (&A.r, a);
  CU_ASSERT_EQUAL_FATAL (agg_nbuckets (a), 3);
  for (uint32_t id = 1; id <= 3; id++)
    {
      b = agg_bucket (a, id);
      uint64_t self = !strcmp (b->value, "a") ? 75 : !strcmp (b->value, "b") ? 0 : 190;
      uint64_t total = !strcmp (b->value, "a") ? 265 : 190;
      CU_ASSERT_EQUAL (b->self_ns, self);
      CU_ASSERT_EQUAL (b->total_ns, total);
    }
  check_rows (a);
  agg_free (a);
}

/* The deduction of measured costs (aggregate.h, docs/contract.md §4.4), in
   ps per hook: enter 1000 before the time stamp and 2000 after, exit 3000 and
   4000, start 500 and 600, finish 700 and 800, dim 900 and 1100, the
   caller's part 250.  A (a hook event, one dimension added, 1000 ns) holds
   B (a hook event, 100 ns), M (a manual one holding a chunk setup of 7 ns,
   50 ns) and I (a hook event never finished, 30 ns).
     B: its Start's after and its Finish's before, 5000 ps: 5 ns off, 95
        left; it costs A 3250 + 7250 = 10500 ps.
     M: 600 + 700 + 7000 = 8300 ps: 9 ns off, 41 left; costs A 10100.
     I: its Start's after alone, 2000 ps: 2 ns off, 28 left; costs A 3250.
     A: 2000 + 3000 + the dimension's 2250, 7250 ps, and its descendants'
        23850: 32 ns off, 968 left, 804 of them its own.
   The run's cost: the hooks of the four records, 29600 ps, and the
   stream's setups, 7 ns.  */
static void
test_deduction_measured (void)
{
  static const char *const dims[] = { "name" };
  static const struct ev_site site;
  struct agg_costs c;
  memset (&c, 0, sizeof c);
  c.measured = true;
  static const uint64_t before[] = { 1000, 3000, 500, 700, 900 };
  static const uint64_t after[] = { 2000, 4000, 600, 800, 1100 };
  memcpy (c.before_ps, before, sizeof before);
  memcpy (c.after_ps, after, sizeof after);
  c.caller_ps = 250;
  c.setup_ns = 7;
  struct agg *a = agg_new (1, dims, 0, NULL);
  agg_begin_stream (a, &c, &c);
  struct trec A, B, M, I;
  trec_init (&A, NULL, "a", 0, 1000);
  trec_init (&B, &A, "b", 100, 200);
  trec_init (&M, &A, "m", 300, 350);
  trec_init (&I, &A, "i", 400, 430);
  A.r.site = B.r.site = I.r.site = &site;
  A.r.nadded = 1;
  M.r.setup_ns = 7;
  I.r.complete = false;
  CU_ASSERT_EQUAL (agg_deduction (&c, &B.r, 0, 0), 5);
  CU_ASSERT_EQUAL (agg_record_cost_ps (&c, &B.r), 10500);
  CU_ASSERT_EQUAL (agg_deduction (&c, &M.r, 0, 0), 9);
  CU_ASSERT_EQUAL (agg_record_cost_ps (&c, &M.r), 10100);
  CU_ASSERT_EQUAL (agg_deduction (&c, &I.r, 0, 0), 2);
  CU_ASSERT_EQUAL (agg_record_cost_ps (&c, &I.r), 3250);
  CU_ASSERT_EQUAL (agg_deduction (&c, &A.r, 3, 23850), 32);
  agg_record (&B.r, a);
  agg_record (&M.r, a);
  agg_record (&I.r, a);
  agg_record (&A.r, a);
  static const struct { const char *name; uint64_t self, total; } want[] = {
    { "a", 804, 968 }, { "b", 95, 95 }, { "m", 41, 41 }, { "i", 28, 28 }
  };
  CU_ASSERT_EQUAL_FATAL (agg_nbuckets (a), 4);
  for (uint32_t id = 1; id <= 4; id++)
    for (int k = 0; k < 4; k++)
      if (!strcmp (agg_bucket (a, id)->value, want[k].name))
        {
          CU_ASSERT_EQUAL (agg_bucket (a, id)->self_ns, want[k].self);
          CU_ASSERT_EQUAL (agg_bucket (a, id)->total_ns, want[k].total);
        }
  CU_ASSERT_EQUAL (agg_profiled_ns (a), 968);
  const struct agg_share *sh = agg_share (a);
  CU_ASSERT_EQUAL (sh->events, 8);
  CU_ASSERT_DOUBLE_EQUAL (sh->cost_ns, 36.6, 1e-9);
  char buf[256];
  CU_ASSERT_STRING_EQUAL (agg_share_line (sh, 1000000, buf, sizeof buf),
                          "0.000 ms of 1.000 ms (0.0 %) by 8 events, "
                          "measured in the run");
  check_rows (a);
  agg_free (a);

  /* Without measurements, the start-up figure per pair as before: 10 ns a
     pair, A's three descendants and half its own.  */
  struct agg_costs old = { .pair_ns = 10.0 };
  CU_ASSERT_EQUAL (agg_deduction (&old, &A.r, 3, 0), 35);
  struct agg_share os = { 0 };
  agg_share_stream (&os, &old);
  agg_share_add (&os, &old, &A.r);
  CU_ASSERT_STRING_EQUAL (agg_share_line (&os, 20, buf, sizeof buf),
                          "0.000 ms of 0.000 ms (50.0 %) by 2 events, by the "
                          "start-up figure (no measurement in the profile)");
  /* A cost of the whole run or more is a failed estimate, said so.  */
  CU_ASSERT (!agg_share_failed (&os, 20));
  CU_ASSERT (agg_share_failed (&os, 10));
  CU_ASSERT_STRING_EQUAL (agg_share_line (&os, 5, buf, sizeof buf),
                          "the estimate failed: 0.000 ms, more than the run's "
                          "0.000 ms, by 2 events, by the start-up figure (no "
                          "measurement in the profile); times deducted by it "
                          "are too low (--raw: as recorded)");
  /* No clamped record, no deduction line; clamped ones are counted.  */
  CU_ASSERT_PTR_NULL (agg_clamp_line (&os, buf, sizeof buf));
  os.clamped = 1;
  os.clamped_ns = 2500;
  CU_ASSERT_STRING_EQUAL (agg_clamp_line (&os, buf, sizeof buf),
                          "hook costs estimated above the measured time of 1 "
                          "record (100.0 %), by 2.500 us in all: their time is "
                          "their children's, Self 0 by the estimate, not "
                          "measured (DSPROF_SAMPLE=1ms: times by samples of "
                          "the CPU time instead)");
}

/* agg_clamped: a deduction beyond what the duration leaves over the
   children's time, and its excess.  */
static void
test_agg_clamped (void)
{
  uint64_t over;
  CU_ASSERT (!agg_clamped (100, 30, 70, &over));      /* exactly room */
  CU_ASSERT_EQUAL (over, 0);
  CU_ASSERT (agg_clamped (100, 31, 70, &over));
  CU_ASSERT_EQUAL (over, 1);
  CU_ASSERT (agg_clamped (10, 50, 0, &over));         /* beyond the duration */
  CU_ASSERT_EQUAL (over, 40);
  CU_ASSERT (!agg_clamped (10, 0, 20, &over));        /* nothing deducted */
  CU_ASSERT (agg_clamped (10, 5, 20, &over));         /* children beyond it */
  CU_ASSERT_EQUAL (over, 5);
  CU_ASSERT_EQUAL (agg_deduct (100, 31, 70), 70);
}

/* An events chunk of 4096 bytes, USED of them stream, its trailer COSTS.  */
static struct dsprof_events_chunk *
costs_chunk (uint64_t used, const struct dsprof_events_costs *costs)
{
  struct dsprof_events_chunk *ch = calloc (1, 4096);
  CU_ASSERT_FATAL (ch != NULL);
  ch->chunk.kind = DSPROF_CHUNK_EVENTS;
  ch->chunk.size = 4096;
  ch->used = used;
  memcpy ((char *) ch + 4096 - sizeof *costs, costs, sizeof *costs);
  return ch;
}

/* The trailer read: the current one as it is; an older recorder's op
   stretches (with a replay and without, at least 100 each) turned into the
   probe's figures (dsprof-format.h, section 4); none where the stream
   reaches into it or the magic is another.  And the op hook call's cost
   (agg_costs_of): the probe's figure per replayed call plus the probes'
   own per op call.  */
static void
test_costs_trailer (void)
{
  struct dsprof_events_costs in, out;
  memset (&in, 0, sizeof in);
  in.magic = DSPROF_COSTS_MAGIC;
  in.hook[DSPROF_COST_OP_PROBE] = (struct dsprof_hook_cost) { 1920, 13440, 5760 };
  in.hook[DSPROF_COST_OP_EXTRA] = (struct dsprof_hook_cost) { 1000, 250, 0 };
  struct dsprof_events_chunk *ch = costs_chunk (100, &in);
  CU_ASSERT_FATAL (costs_trailer (ch, &out));
  CU_ASSERT (!memcmp (&in, &out, sizeof in));
  ch->used = 4096 - sizeof *ch - sizeof in + 1;
  CU_ASSERT (!costs_trailer (ch, &out));
  free (ch);

  struct pf_process p;
  memset (&p, 0, sizeof p);
  p.measured = 1;
  p.clock.ns_per_tick = 0.5;
  p.costs = in;
  struct agg_costs c;
  agg_costs_of (&p, NULL, false, &c);
  CU_ASSERT_EQUAL (c.op_probe_ps, 125);   /* 0.25 ticks a call */
  CU_ASSERT_EQUAL (c.op_ps, 3500 + 125);  /* 7 ticks a replayed call */
  CU_ASSERT_EQUAL (agg_hook_ps (&c, DSPROF_HOOK_OP), 3625);

  in.magic = DSPROF_COSTS_MAGIC_1;
  in.hook[DSPROF_COST_OP_PROBE] = (struct dsprof_hook_cost) { 200, 6000, 0 };
  in.hook[DSPROF_COST_OP_EXTRA] = (struct dsprof_hook_cost) { 100, 2000, 0 };
  ch = costs_chunk (100, &in);
  CU_ASSERT_FATAL (costs_trailer (ch, &out));
  CU_ASSERT_EQUAL (out.magic, DSPROF_COSTS_MAGIC);
  /* 30 ticks a stretch with a replay, 20 without: 10 a call.  */
  CU_ASSERT_EQUAL (out.hook[DSPROF_COST_OP_PROBE].calls, 200);
  CU_ASSERT_EQUAL (out.hook[DSPROF_COST_OP_PROBE].before_ticks, 2000);
  CU_ASSERT_EQUAL (out.hook[DSPROF_COST_OP_PROBE].after_ticks, 0);
  CU_ASSERT_EQUAL (out.hook[DSPROF_COST_OP_EXTRA].calls, 0);
  CU_ASSERT_EQUAL (out.hook[DSPROF_COST_OP_EXTRA].before_ticks, 0);
  free (ch);
  in.hook[DSPROF_COST_OP_EXTRA].calls = 99;
  ch = costs_chunk (100, &in);
  CU_ASSERT_FATAL (costs_trailer (ch, &out));
  CU_ASSERT_EQUAL (out.hook[DSPROF_COST_OP_PROBE].calls, 0);
  free (ch);
  in.magic ^= 1;
  ch = costs_chunk (100, &in);
  CU_ASSERT (!costs_trailer (ch, &out));
  free (ch);
}

/* A deduction larger than a record's whole duration leaves it no time, never
   less than none (the unsigned figures would wrap).  */
static void
test_deduction_exceeds (void)
{
  static const char *const dims[] = { "name" };
  struct agg *a = agg_new (1, dims, 0, NULL);
  begin_pairs (a, 1000000);   /* 1000 ns a pair */
  struct trec A, B;
  trec_init (&A, NULL, "a", 0, 100);
  trec_init (&B, &A, "b", 10, 20);
  agg_record (&B.r, a);
  agg_record (&A.r, a);
  CU_ASSERT_EQUAL (agg_profiled_ns (a), 0);
  for (uint32_t id = 1; id <= agg_nbuckets (a); id++)
    {
      CU_ASSERT_EQUAL (agg_bucket (a, id)->self_ns, 0);
      CU_ASSERT_EQUAL (agg_bucket (a, id)->total_ns, 0);
    }
  agg_free (a);
}

/* Random trees of short records under a large per-pair cost, recursion and
   mutual recursion among three names, reported by name and by name and name
   again: the rows keep Self <= Total whatever the deduction does.  */
static uint64_t rnd_state = 88172645463325252ull;

static uint64_t
rnd (uint64_t n)
{
  rnd_state ^= rnd_state << 13;
  rnd_state ^= rnd_state >> 7;
  rnd_state ^= rnd_state << 17;
  return rnd_state % n;
}

static void
emit_tree (struct agg *a, struct trec *parent, uint64_t *clock, int depth)
{
  static const char *const names[] = { "f", "g", "h" };
  struct trec t;
  trec_init (&t, parent, names[rnd (3)], *clock, 0);
  *clock += rnd (30);
  int kids = depth < 6 ? (int) rnd (4) : 0;
  for (int i = 0; i < kids; i++)
    {
      emit_tree (a, &t, clock, depth + 1);
      *clock += rnd (8);
    }
  t.r.end_ns = *clock;
  agg_record (&t.r, a);
}

static void
test_deduction_random (void)
{
  static const char *const dims[] = { "name", "name" };
  for (int ndims = 1; ndims <= 2; ndims++)
    for (int round = 0; round < 50; round++)
      {
        struct agg *a = agg_new (ndims, dims, 0, NULL);
        begin_pairs (a, 1000 * (1 + rnd (40)));
        uint64_t clock = 0;
        for (int top = 0; top < 5; top++)
          emit_tree (a, NULL, &clock, 0);
        check_rows (a);
        agg_free (a);
      }
}

/* ---- a thread's times across event chunks ---------------------------------- */

struct times_seen
{
  uint64_t ns[16];
  int n;
};

static int
on_time (const struct ev_event *e, void *arg)
{
  struct times_seen *t = arg;
  if (t->n < 16)
    t->ns[t->n++] = e->ns;
  return 0;
}

/* A chunk of manual events in BUF: its header with BASE_TICKS and BASE_NS,
   name 1 = "A", then the N bytes of OPS.  */
static const struct dsprof_events_chunk *
make_chunk (unsigned char *buf, uint32_t seq, uint64_t base_ticks, uint64_t base_ns,
            const unsigned char *ops, size_t n)
{
  struct dsprof_events_chunk *e = (void *) buf;
  memset (e, 0, sizeof *e);
  e->chunk.kind = DSPROF_CHUNK_EVENTS;
  e->chunk.size = DSPROF_PAGE;
  e->thread = 1;
  e->seq = seq;
  e->base_ticks = base_ticks;
  e->base_ns = base_ns;
  struct buf s = { (unsigned char *) (e + 1), 0 };
  put_u (&s, DSPROF_OP_NAME); put_u (&s, 1); put_s (&s, "A");
  if (n)                         /* OPS may be NULL then */
    memcpy (s.p + s.n, ops, n);
  e->used = s.n + n;
  return e;
}

/* Ticks run on from one chunk to the next.  The second chunk's clock pair
   says its first tick (1030) came at 900 ns, while the first chunk's says tick
   1000 came at 1000 ns: the recorder reads a pair's ns after its ticks, so the
   first was read at least 130 ns late (the second chunk's events were once
   shown from 900 ns, before the first chunk's).  The third chunk's pair is
   late (tick 1040 at 5000 ns) and is not followed either: the stream keeps
   one mapping, 1 ns a tick through (1030, 900).  A delta that wraps around (a
   tick read behind the previous one, on another CPU) is the previous instant,
   not 2^64 - 1 ns.  */
static void
test_times_monotonic (void)
{
  static unsigned char b0[DSPROF_PAGE] __attribute__ ((aligned (8)));
  static unsigned char b1[DSPROF_PAGE] __attribute__ ((aligned (8)));
  static unsigned char b2[DSPROF_PAGE] __attribute__ ((aligned (8)));
  unsigned char ops[64];
  struct buf o = { ops, 0 };
  put_u (&o, DSPROF_OP_START); put_u (&o, 0); put_u (&o, 1);     /* 1000 */
  put_u (&o, DSPROF_OP_START); put_u (&o, 10); put_u (&o, 1);    /* 1010 */
  put_u (&o, DSPROF_OP_FINISH); put_u (&o, 10);                  /* 1020 */
  const struct dsprof_events_chunk *c0 = make_chunk (b0, 0, 1000, 1000, ops, o.n);
  o.n = 0;
  put_u (&o, DSPROF_OP_FINISH); put_u (&o, 0);                   /* 1030 */
  put_u (&o, DSPROF_OP_START); put_u (&o, 5); put_u (&o, 1);     /* 1035 */
  put_u (&o, DSPROF_OP_START); put_u (&o, UINT64_MAX - 19); put_u (&o, 1);  /* 1015 */
  const struct dsprof_events_chunk *c1 = make_chunk (b1, 1, 1030, 900, ops, o.n);
  o.n = 0;
  put_u (&o, DSPROF_OP_FINISH); put_u (&o, 0);                   /* 1040 */
  put_u (&o, DSPROF_OP_FINISH); put_u (&o, 2);                   /* 1042 */
  const struct dsprof_events_chunk *c2 = make_chunk (b2, 2, 1040, 5000, ops, o.n);

  const struct dsprof_events_chunk *chunks[3] = { c0, c1, c2 };
  struct ev_stream st = { .thread = 1, .nchunks = 3, .chunks = chunks };
  struct ev_sites sites = { 0 };
  struct ev_clock clock = { 0, 1.0 };
  struct times_seen t = { { 0 }, 0 };
  const char *err = NULL;
  CU_ASSERT_EQUAL (ev_decode_stream (&st, &sites, &clock, on_time, NULL, &t,
                                     EV_KEEP_CHILDREN, &err), 0);
  static const uint64_t want[8] = { 870, 880, 890, 900, 905, 905, 910, 912 };
  CU_ASSERT_EQUAL_FATAL (t.n, 8);
  for (int i = 0; i < 8; i++)
    {
      CU_ASSERT_EQUAL (t.ns[i], want[i]);
      if (t.ns[i] != want[i])
        fprintf (stderr, "event %d at %llu ns, want %llu\n", i,
                 (unsigned long long) t.ns[i], (unsigned long long) want[i]);
    }
}

/* The samples the records of a stream were charged, by name (outer,
   inner), from an on_record callback.  */
struct sampled_seen
{
  struct ev_samples outer, inner;
  unsigned records;
};

static int
on_sampled (struct ev_record *r, void *arg)
{
  struct sampled_seen *t = arg;
  t->records++;
  *(r->depth ? &t->inner : &t->outer) = r->sampled;
  return 0;
}

/* SAMPLE events (dsprof-format.h, section 4): each charged to the record
   innermost at it, or to the thread's time outside records; the stream's
   sums; a sampled report's Self and Total from them alone (a record's
   span no longer counts), and a truncated or overflowing SAMPLE a corrupt
   stream.  */
static void
test_samples (void)
{
  static unsigned char b0[DSPROF_PAGE] __attribute__ ((aligned (8)));
  unsigned char ops[128];
  struct buf o = { ops, 0 };
  put_u (&o, DSPROF_OP_SAMPLE); put_u (&o, 0);                   /* outside */
  put_u (&o, 1); put_u (&o, 4000); put_u (&o, 2); put_u (&o, 7000);
  put_u (&o, DSPROF_OP_START); put_u (&o, 0); put_u (&o, 1);     /* outer */
  put_u (&o, DSPROF_OP_SAMPLE); put_u (&o, 0);
  put_u (&o, 3); put_u (&o, 12000); put_u (&o, 0); put_u (&o, 0);
  put_u (&o, DSPROF_OP_START); put_u (&o, 100); put_u (&o, 1);   /* inner */
  put_u (&o, DSPROF_OP_SAMPLE); put_u (&o, 0);
  put_u (&o, 2); put_u (&o, 8000); put_u (&o, 1); put_u (&o, 3000);
  put_u (&o, DSPROF_OP_FINISH); put_u (&o, 100);
  put_u (&o, DSPROF_OP_SAMPLE); put_u (&o, 0);
  put_u (&o, 1); put_u (&o, 4000); put_u (&o, 0); put_u (&o, 0);
  put_u (&o, DSPROF_OP_FINISH); put_u (&o, 100);
  const struct dsprof_events_chunk *c0 = make_chunk (b0, 0, 0, 0, ops, o.n);
  const struct dsprof_events_chunk *chunks[1] = { c0 };
  struct ev_stream st = { .thread = 1, .nchunks = 1, .chunks = chunks };
  struct ev_sites sites = { 0 };
  struct ev_clock clock = { 0, 1.0 };
  struct sampled_seen t;
  memset (&t, 0, sizeof t);
  const char *err = NULL;
  CU_ASSERT_EQUAL_FATAL (ev_decode_stream (&st, &sites, &clock, NULL, on_sampled,
                                           &t, 0, &err), 0);
  CU_ASSERT_EQUAL (t.records, 2);
  CU_ASSERT (t.inner.n == 2 && t.inner.ns == 8000);
  CU_ASSERT (t.outer.n == 4 && t.outer.ns == 16000);
  CU_ASSERT (st.samples.seen);
  CU_ASSERT (st.samples.program.n == 7 && st.samples.program.ns == 28000);
  CU_ASSERT (st.samples.outside.n == 1 && st.samples.outside.ns == 4000);
  CU_ASSERT (st.samples.recorder.n == 3 && st.samples.recorder.ns == 10000);

  /* By samples, the records' spans (300 and 100 ns) count for nothing:
     inner 8000 of its own, outer 16000 and inner's.  */
  static const char *const dims[] = { "name" };
  struct agg *a = agg_new (1, dims, 0, NULL);
  struct agg_costs c = { .by_samples = true, .pair_ns = 10 };
  agg_begin_stream (a, &c, &c);
  struct trec A, B;
  trec_init (&A, NULL, "outer", 0, 300);
  trec_init (&B, &A, "inner", 100, 200);
  A.r.sampled = (struct ev_samples) { 4, 16000 };
  B.r.sampled = (struct ev_samples) { 2, 8000 };
  agg_record (&B.r, a);
  agg_record (&A.r, a);
  CU_ASSERT_EQUAL_FATAL (agg_nbuckets (a), 2);
  for (uint32_t id = 1; id <= 2; id++)
    {
      const struct agg_bucket *bk = agg_bucket (a, id);
      bool outer = !strcmp (bk->value, "outer");
      CU_ASSERT_EQUAL (bk->self_ns, outer ? 16000 : 8000);
      CU_ASSERT_EQUAL (bk->total_ns, outer ? 24000 : 8000);
      CU_ASSERT_EQUAL (bk->clamped, 0);
    }
  CU_ASSERT_EQUAL (agg_profiled_ns (a), 24000);
  check_rows (a);
  agg_free (a);

  /* Cut short: the SAMPLE's last number missing.  */
  o.n = 0;
  put_u (&o, DSPROF_OP_SAMPLE); put_u (&o, 0);
  put_u (&o, 1); put_u (&o, 4000); put_u (&o, 0);
  o.p[o.n++] = 0x80;                     /* a ULEB128 that never ends */
  chunks[0] = make_chunk (b0, 0, 0, 0, ops, o.n);
  CU_ASSERT (ev_decode_stream (&st, &sites, &clock, NULL, NULL, NULL, 0, &err) < 0);
  /* Sums beyond 2^64.  */
  o.n = 0;
  for (int i = 0; i < 2; i++)
    {
      put_u (&o, DSPROF_OP_SAMPLE); put_u (&o, 0);
      put_u (&o, 1); put_u (&o, UINT64_MAX - 1); put_u (&o, 0); put_u (&o, 0);
    }
  chunks[0] = make_chunk (b0, 0, 0, 0, ops, o.n);
  CU_ASSERT (ev_decode_stream (&st, &sites, &clock, NULL, NULL, NULL, 0, &err) < 0);
}

static int
count_record (struct ev_record *r, void *arg)
{
  (void) r;
  ++*(unsigned *) arg;
  return 0;
}

/* A stream decoded in steps (ev_resume_*, dsprof top) as it is written (its
   chunk's `used` grows by whole events): each step decodes only the bytes
   written since the one before; a record open across steps stays open; the
   records in all are ev_decode_stream's.  */
static void
test_resume_steps (void)
{
  static unsigned char b0[DSPROF_PAGE] __attribute__ ((aligned (8)));
  static unsigned char b1[DSPROF_PAGE] __attribute__ ((aligned (8)));
  unsigned char ops[64];
  struct buf o = { ops, 0 };
  put_u (&o, DSPROF_OP_START); put_u (&o, 0); put_u (&o, 1);     /* outer */
  put_u (&o, DSPROF_OP_START); put_u (&o, 1); put_u (&o, 1);
  put_u (&o, DSPROF_OP_FINISH); put_u (&o, 1);
  size_t first = o.n;
  put_u (&o, DSPROF_OP_START); put_u (&o, 1); put_u (&o, 1);
  put_u (&o, DSPROF_OP_FINISH); put_u (&o, 1);
  struct dsprof_events_chunk *c0
    = (struct dsprof_events_chunk *) make_chunk (b0, 0, 0, 0, ops, o.n);
  uint64_t whole0 = c0->used, names = whole0 - o.n;
  o.n = 0;
  put_u (&o, DSPROF_OP_FINISH); put_u (&o, 1);                   /* outer */
  const struct dsprof_events_chunk *c1 = make_chunk (b1, 1, 10, 10, ops, o.n);
  const struct dsprof_events_chunk *chunks[2] = { c0, c1 };
  struct ev_stream st = { .thread = 1, .nchunks = 1, .chunks = chunks };
  struct ev_sites sites = { 0 };
  struct ev_clock clock = { 0, 1.0 };
  const char *err = NULL;
  struct ev_resume *res = ev_resume_new (1, 0);
  unsigned n = 0;
  uint64_t decoded = 0;
  /* Written so far: the names and three events.  */
  c0->used = names + first;
  CU_ASSERT_EQUAL (ev_resume_feed (res, &st, &sites, &clock, count_record, &n,
                                   UINT64_MAX, &decoded, &err), 0);
  CU_ASSERT_EQUAL (n, 1);
  CU_ASSERT_EQUAL (decoded, names + first);
  /* The rest of the chunk: only its new bytes are decoded.  */
  c0->used = whole0;
  decoded = 0;
  CU_ASSERT_EQUAL (ev_resume_feed (res, &st, &sites, &clock, count_record, &n,
                                   UINT64_MAX, &decoded, &err), 0);
  CU_ASSERT_EQUAL (n, 2);
  CU_ASSERT_EQUAL (decoded, whole0 - names - first);
  /* Nothing new: nothing decoded.  */
  decoded = 0;
  CU_ASSERT_EQUAL (ev_resume_feed (res, &st, &sites, &clock, count_record, &n,
                                   UINT64_MAX, &decoded, &err), 0);
  CU_ASSERT_EQUAL (decoded, 0);
  /* A second chunk closes the outer record, open until then.  */
  st.nchunks = 2;
  CU_ASSERT_EQUAL (ev_resume_feed (res, &st, &sites, &clock, count_record, &n,
                                   UINT64_MAX, &decoded, &err), 0);
  CU_ASSERT_EQUAL (n, 3);
  CU_ASSERT_EQUAL (decoded, c1->used);
  CU_ASSERT_EQUAL (ev_resume_end (res, count_record, &n), 0);
  unsigned whole = 0;
  CU_ASSERT_EQUAL (ev_decode_stream (&st, &sites, &clock, NULL, count_record,
                                     &whole, 0, &err), 0);
  CU_ASSERT_EQUAL (n, whole);
}

struct children_seen
{
  uint32_t nchildren;            /* of the outermost record */
  bool kept;                     /* its children array was given */
};

static int
on_outer (struct ev_record *r, void *arg)
{
  struct children_seen *c = arg;
  if (!r->parent)
    {
      c->nchildren = r->nchildren;
      c->kept = r->children != NULL;
    }
  return 0;
}

/* A record with two children: EV_KEEP_CHILDREN hands its children to the
   callback; without it they are counted only.  */
static void
test_keep_children (void)
{
  static unsigned char b0[DSPROF_PAGE] __attribute__ ((aligned (8)));
  unsigned char ops[64];
  struct buf o = { ops, 0 };
  put_u (&o, DSPROF_OP_START); put_u (&o, 0); put_u (&o, 1);
  for (int i = 0; i < 2; i++)
    {
      put_u (&o, DSPROF_OP_START); put_u (&o, 1); put_u (&o, 1);
      put_u (&o, DSPROF_OP_FINISH); put_u (&o, 1);
    }
  put_u (&o, DSPROF_OP_FINISH); put_u (&o, 1);
  const struct dsprof_events_chunk *chunks[1] = { make_chunk (b0, 0, 0, 0, ops,
                                                              o.n) };
  struct ev_stream st = { .thread = 1, .nchunks = 1, .chunks = chunks };
  struct ev_sites sites = { 0 };
  struct ev_clock clock = { 0, 1.0 };
  const char *err = NULL;
  struct children_seen kept = { 0, false }, counted = { 0, true };
  CU_ASSERT_EQUAL (ev_decode_stream (&st, &sites, &clock, NULL, on_outer, &kept,
                                     EV_KEEP_CHILDREN, &err), 0);
  CU_ASSERT_EQUAL (kept.nchildren, 2);
  CU_ASSERT_TRUE (kept.kept);
  CU_ASSERT_EQUAL (ev_decode_stream (&st, &sites, &clock, NULL, on_outer,
                                     &counted, 0, &err), 0);
  CU_ASSERT_EQUAL (counted.nchildren, 2);
  CU_ASSERT_FALSE (counted.kept);
}

/* Op records (a VM's dispatch, dsprof-format.h section 4): site 1 "run" is a
   Start/Finish pair, sites 2 and 3 the two opcodes of run's dispatch (its
   DSPROF_TAG_DISPATCH record).  The stream: run's Start, OP (dispatch 2,
   case 0), CASE + 1, NEXT (2, 0), OP_END, run's Finish: three op records
   inside run, named ADD, SUB, ADD, each ending where the next starts, with
   function=run; a CASE without an OP or NEXT before it in its chunk, or
   ending a record that is no op record, is corrupt.  */

struct ops_seen
{
  int n;
  char names[4][8];
  uint64_t start[4], end[4];
  bool function[4];
  char prev[4][8], seq[4][32];   /* prev:name, seq2:name ("-": none) */
};

static int
on_op (struct ev_record *r, void *arg)
{
  struct ops_seen *o = arg;
  if (o->n < 4)
    {
      const struct ev_value *f = ev_record_dim (r, "function");
      snprintf (o->names[o->n], sizeof o->names[0], "%s", ev_record_name (r, NULL));
      o->start[o->n] = r->start_ns;
      o->end[o->n] = r->end_ns;
      o->function[o->n] = f && f->len == 3 && !memcmp (f->s, "run", 3)
                          && ev_record_op_p (r);
      char buf[64];
      const char *t = agg_dim_text (r, "prev:name", buf, sizeof buf);
      snprintf (o->prev[o->n], sizeof o->prev[0], "%s", t ? t : "-");
      t = agg_dim_text (r, "seq2:name", buf, sizeof buf);
      snprintf (o->seq[o->n], sizeof o->seq[0], "%s", t ? t : "-");
    }
  o->n++;
  return 0;
}

static void
op_site (struct buf *m, unsigned index, const char *type, const char *name)
{
  unsigned char rb[128];
  struct buf r = { rb, 0 };
  put_u (&r, index); put_s (&r, type); put_s (&r, name);
  put_u (&r, 0); put_u (&r, 7); put_u (&r, 1);
  put_s (&r, "result"); put_u (&r, DSPROF_DIM_NONE);
  put_rec (m, DSPROF_TAG_SITE, &r);
}

/* Decode a stream of the run/ADD/SUB sites of two chunks, OPS (N bytes) and
   OPS2 (N2 bytes, none if N2 is 0), into SEEN.  */
static int
decode_ops2 (const unsigned char *ops, size_t n, const unsigned char *ops2,
             size_t n2, struct ops_seen *seen)
{
  unsigned char mb[512], rb[64];
  struct buf m = { mb, 0 }, r = { rb, 0 };
  put_u (&m, DSPROF_META_VERSION); put_s (&m, "vm.c"); put_s (&m, "/");
  put_s (&r, "vm.c");
  put_rec (&m, DSPROF_TAG_FILE, &r);
  op_site (&m, 0, "run", "run");
  op_site (&m, 1, "op", "ADD");
  op_site (&m, 2, "op", "SUB");
  r.n = 0;
  put_u (&r, 1); put_u (&r, 2); put_s (&r, "run");
  put_rec (&m, DSPROF_TAG_DISPATCH, &r);
  struct ev_sites sites = { 0 };
  const char *err = NULL;
  CU_ASSERT_EQUAL_FATAL (ev_sites_add_unit (&sites, mb, m.n, 1, 3, &err), 0);
  static unsigned char b0[DSPROF_PAGE] __attribute__ ((aligned (8)));
  static unsigned char b1[DSPROF_PAGE] __attribute__ ((aligned (8)));
  const struct dsprof_events_chunk *chunks[2] = {
    make_chunk (b0, 0, 0, 0, ops, n), make_chunk (b1, 1, 100, 100, ops2, n2)
  };
  struct ev_stream st = { .thread = 1, .nchunks = n2 ? 2 : 1, .chunks = chunks };
  struct ev_clock clock = { 0, 1.0 };
  memset (seen, 0, sizeof *seen);
  int rc = ev_decode_stream (&st, &sites, &clock, NULL, on_op, seen, 0, &err);
  ev_sites_free (&sites);
  return rc;
}

static int
decode_ops (const unsigned char *ops, size_t n, struct ops_seen *seen)
{
  return decode_ops2 (ops, n, NULL, 0, seen);
}

/* The recorder ends an op record at a new chunk and starts the next with an
   OP (dsprof-format.h, section 4): the chunk's first event an OP_END, then an
   OP at the same depth.  The two are one call, whose sequence goes on; an
   OP_END that is not the chunk's first ends the call.  */
static void
test_op_chunk_split (void)
{
  unsigned char ops[32], ops2[32];
  struct buf o = { ops, 0 }, o2 = { ops2, 0 };
  put_u (&o, DSPROF_OP_ENTER); put_u (&o, 0); put_u (&o, 1);      /* run at 0 */
  put_u (&o, DSPROF_OP_OP); put_u (&o, 10); put_u (&o, 2); put_u (&o, 0);
  o.p[o.n++] = DSPROF_OP_CASE + 1; put_u (&o, 5);                 /* SUB at 15 */
  put_u (&o2, DSPROF_OP_OP_END); put_u (&o2, 0);                  /* at 100 */
  put_u (&o2, DSPROF_OP_OP); put_u (&o2, 3); put_u (&o2, 2); put_u (&o2, 0);
  put_u (&o2, DSPROF_OP_OP_END); put_u (&o2, 2);
  put_u (&o2, DSPROF_OP_OP); put_u (&o2, 1); put_u (&o2, 2); put_u (&o2, 1);
  put_u (&o2, DSPROF_OP_OP_END); put_u (&o2, 1);
  put_u (&o2, DSPROF_OP_EXIT); put_u (&o2, 1);
  struct ops_seen seen;
  CU_ASSERT_EQUAL (decode_ops2 (ops, o.n, ops2, o2.n, &seen), 0);
  CU_ASSERT_EQUAL_FATAL (seen.n, 5);
  static const char *const names[4] = { "ADD", "SUB", "ADD", "SUB" };
  static const char *const prev[4] = { "-", "ADD", "SUB", "-" };
  static const char *const seq[4] = { "-", "ADD > SUB", "SUB > ADD", "-" };
  for (int i = 0; i < 4; i++)
    {
      CU_ASSERT_STRING_EQUAL (seen.names[i], names[i]);
      CU_ASSERT_STRING_EQUAL (seen.prev[i], prev[i]);
      CU_ASSERT_STRING_EQUAL (seen.seq[i], seq[i]);
    }
}

static void
test_op_records (void)
{
  unsigned char ops[64];
  struct buf o = { ops, 0 };
  put_u (&o, DSPROF_OP_ENTER); put_u (&o, 0); put_u (&o, 1);      /* run at 0 */
  put_u (&o, DSPROF_OP_OP); put_u (&o, 10); put_u (&o, 2); put_u (&o, 0);
  o.p[o.n++] = DSPROF_OP_CASE + 1; put_u (&o, 5);                 /* SUB at 15 */
  put_u (&o, DSPROF_OP_NEXT); put_u (&o, 7); put_u (&o, 2); put_u (&o, 0);
  put_u (&o, DSPROF_OP_OP_END); put_u (&o, 3);                    /* at 25 */
  put_u (&o, DSPROF_OP_EXIT); put_u (&o, 5);                      /* run at 30 */
  struct ops_seen seen;
  CU_ASSERT_EQUAL (decode_ops (ops, o.n, &seen), 0);
  CU_ASSERT_EQUAL_FATAL (seen.n, 4);
  static const char *const names[4] = { "ADD", "SUB", "ADD", "run" };
  static const uint64_t start[4] = { 10, 15, 22, 0 }, end[4] = { 15, 22, 25, 30 };
  for (int i = 0; i < 4; i++)
    {
      CU_ASSERT_STRING_EQUAL (seen.names[i], names[i]);
      CU_ASSERT_EQUAL (seen.start[i], start[i]);
      CU_ASSERT_EQUAL (seen.end[i], end[i]);
      CU_ASSERT_EQUAL (seen.function[i], i < 3);
    }
  /* The op records before each in its call (prev:D, seq2:D).  */
  static const char *const prev[4] = { "-", "ADD", "SUB", "-" };
  static const char *const seq[4] = { "-", "ADD > SUB", "SUB > ADD", "-" };
  for (int i = 0; i < 4; i++)
    {
      CU_ASSERT_STRING_EQUAL (seen.prev[i], prev[i]);
      CU_ASSERT_STRING_EQUAL (seen.seq[i], seq[i]);
    }

  /* A call nested in ADD's record has a sequence of its own (SUB first),
     and ADD's call resumes after it (SUB after ADD); an OP after an OP_END
     in the same chunk starts a call of its own.  */
  o.n = 0;
  put_u (&o, DSPROF_OP_ENTER); put_u (&o, 0); put_u (&o, 1);      /* run at 0 */
  put_u (&o, DSPROF_OP_OP); put_u (&o, 10); put_u (&o, 2); put_u (&o, 0);
  put_u (&o, DSPROF_OP_OP); put_u (&o, 2); put_u (&o, 2); put_u (&o, 1);
  put_u (&o, DSPROF_OP_OP_END); put_u (&o, 2);                    /* at 14 */
  o.p[o.n++] = DSPROF_OP_CASE + 1; put_u (&o, 6);                 /* SUB at 20 */
  put_u (&o, DSPROF_OP_OP_END); put_u (&o, 5);                    /* at 25 */
  put_u (&o, DSPROF_OP_OP); put_u (&o, 1); put_u (&o, 2); put_u (&o, 1);
  put_u (&o, DSPROF_OP_OP_END); put_u (&o, 1);
  put_u (&o, DSPROF_OP_EXIT); put_u (&o, 5);
  CU_ASSERT_EQUAL (decode_ops (ops, o.n, &seen), 0);
  CU_ASSERT_EQUAL_FATAL (seen.n, 5);
  static const char *const names2[4] = { "SUB", "ADD", "SUB", "SUB" };
  static const char *const prev2[4] = { "-", "-", "ADD", "-" };
  for (int i = 0; i < 4; i++)
    {
      CU_ASSERT_STRING_EQUAL (seen.names[i], names2[i]);
      CU_ASSERT_STRING_EQUAL (seen.prev[i], prev2[i]);
    }

  /* A CASE before any OP or NEXT of its chunk.  */
  o.n = 0;
  put_u (&o, DSPROF_OP_ENTER); put_u (&o, 0); put_u (&o, 1);
  o.p[o.n++] = DSPROF_OP_CASE + 1; put_u (&o, 5);
  CU_ASSERT_EQUAL (decode_ops (ops, o.n, &seen), -1);
  /* A NEXT, an OP_END whose innermost record is no op record.  */
  o.n = 0;
  put_u (&o, DSPROF_OP_ENTER); put_u (&o, 0); put_u (&o, 1);
  put_u (&o, DSPROF_OP_NEXT); put_u (&o, 5); put_u (&o, 2); put_u (&o, 1);
  CU_ASSERT_EQUAL (decode_ops (ops, o.n, &seen), -1);
  o.n = 0;
  put_u (&o, DSPROF_OP_ENTER); put_u (&o, 0); put_u (&o, 1);
  put_u (&o, DSPROF_OP_OP_END); put_u (&o, 5);
  CU_ASSERT_EQUAL (decode_ops (ops, o.n, &seen), -1);
  /* An OP naming a site that is no op site.  */
  o.n = 0;
  put_u (&o, DSPROF_OP_OP); put_u (&o, 5); put_u (&o, 1); put_u (&o, 0);
  CU_ASSERT_EQUAL (decode_ops (ops, o.n, &seen), -1);
}

/* The deduction for op records: one op hook each, whose part after its
   time stamp (3 ns) starts a record and whose part before it (1 ns) ends the
   one before.  run (0 to 300 ns, a manual pair: 3 ns of its Start after the
   stamp, 2 ns of its Finish before it) holds three op records of 50 ns: each
   keeps 50 - 4 = 46; run loses its own 5 and three whole op hooks, 300 - 5 -
   12 = 283, of which 283 - 138 = 145 its own.  */
static void
test_deduction_ops (void)
{
  static const char *const dims[] = { "name" };
  static struct ev_site op_site_desc;
  op_site_desc.function = "run";
  struct agg *a = agg_new (1, dims, 0, NULL);
  struct agg_costs c = { .measured = true };
  c.after_ps[DSPROF_HOOK_START] = 3000;
  c.before_ps[DSPROF_HOOK_FINISH] = 2000;
  c.before_ps[DSPROF_HOOK_OP] = 1000;
  c.after_ps[DSPROF_HOOK_OP] = 3000;
  agg_begin_stream (a, &c, &c);
  struct trec run, op[3];
  trec_init (&run, NULL, "run", 0, 300);
  for (int i = 0; i < 3; i++)
    {
      trec_init (&op[i], &run, "ADD", 10 + 50 * i, 60 + 50 * i);
      op[i].r.site = &op_site_desc;
      agg_record (&op[i].r, a);
    }
  agg_record (&run.r, a);
  CU_ASSERT_EQUAL_FATAL (agg_nbuckets (a), 2);
  for (uint32_t id = 1; id <= 2; id++)
    {
      const struct agg_bucket *b = agg_bucket (a, id);
      bool is_op = !strcmp (b->value, "ADD");
      CU_ASSERT_EQUAL (b->self_ns, is_op ? 138u : 145u);
      CU_ASSERT_EQUAL (b->total_ns, is_op ? 138u : 283u);
    }
  check_rows (a);
  agg_free (a);
}

/* --sum: integers add exactly; an integer sum that would overflow int64, a
   UINT beyond it or a double makes the sum a double; a bool adds 0 or 1; a
   string adds nothing.  Top-level records named "n", one number each in "v".  */

static void
test_sums (void)
{
  static const char *const dims[] = { "name" }, *const sums[] = { "v" };
  struct { int type; int64_t i; uint64_t u; double d; } in[][3] = {
    /* INT 40 + INT 2 + BOOL true = 43, exact.  */
    { { DSPROF_DIM_INT, 40, 0, 0 }, { DSPROF_DIM_INT, 2, 0, 0 },
      { DSPROF_DIM_BOOL, 0, 1, 0 } },
    /* INT64_MAX + 1 overflows: a double.  */
    { { DSPROF_DIM_INT, INT64_MAX, 0, 0 }, { DSPROF_DIM_INT, 1, 0, 0 },
      { DSPROF_DIM_STR, 0, 0, 0 } },
    /* UINT64_MAX, then -1: a double.  */
    { { DSPROF_DIM_UINT, 0, UINT64_MAX, 0 }, { DSPROF_DIM_INT, -1, 0, 0 },
      { DSPROF_DIM_BOOL, 0, 0, 0 } },
    /* 1 + 0.5 + a string.  */
    { { DSPROF_DIM_INT, 1, 0, 0 }, { DSPROF_DIM_DOUBLE, 0, 0, 0.5 },
      { DSPROF_DIM_STR, 0, 0, 0 } },
  };
  static const char *const want[] = { "43", "9.22337203685478e+18",
                                      "1.84467440737096e+19", "1.5" };
  for (size_t t = 0; t < sizeof in / sizeof in[0]; t++)
    {
      struct agg *a = agg_new (1, dims, 0, NULL);
      agg_set_sums (a, 1, sums);
      begin_pairs (a, 0);
      for (int k = 0; k < 3; k++)
        {
          struct trec rec;
          struct ev_dim d[2];
          trec_init (&rec, NULL, "n", 0, 10);
          d[0] = rec.dim;
          memset (&d[1], 0, sizeof d[1]);
          d[1].name = "v";
          d[1].v.type = (enum dsprof_dim_type) in[t][k].type;
          if (in[t][k].type == DSPROF_DIM_DOUBLE)
            d[1].v.d = in[t][k].d;
          else if (in[t][k].type == DSPROF_DIM_INT)
            d[1].v.i = in[t][k].i;
          else if (in[t][k].type == DSPROF_DIM_STR)
            d[1].v.s = "12", d[1].v.len = 2;
          else
            d[1].v.u = in[t][k].u;
          rec.r.dims = d;
          rec.r.ndims = 2;
          agg_record (&rec.r, a);
        }
      CU_ASSERT_EQUAL_FATAL (agg_nbuckets (a), 1);
      char buf[64];
      CU_ASSERT_STRING_EQUAL (agg_sum_text (&agg_bucket (a, 1)->sums[0], buf,
                                            sizeof buf), want[t]);
      CU_ASSERT_TRUE (agg_sum_finite (&agg_bucket (a, 1)->sums[0]));
      agg_free (a);
    }
}

/* agg_outer_value: the nearest strict ancestor carrying the dimension wins,
   a record's own value does not count, records in between that lack it are
   looked through; the records passed keep the answer (their memo), which the
   next question reads; another dimension replaces the memo; a record opened
   after its parent gained the dimension finds the parent; a name in a buffer
   the caller reuses is not taken for the one it held before.  */

static void
test_outer (void)
{
  struct ev_dim top_d[1], mid_d[2], leaf_d[1];
  trec_str_dim (&top_d[0], "stmt", "outer", 5);
  trec_str_dim (&mid_d[0], "other", "", 0);
  trec_str_dim (&mid_d[1], "stmt", "inner", 5);
  leaf_d[0] = mid_d[1];
  /* top (stmt=outer) > mid (stmt=inner once added) > a > b > leaf (stmt) */
  struct ev_record top, mid, a, b, leaf;
  struct ev_record *chain[] = { &top, &mid, &a, &b, &leaf };
  for (int i = 0; i < 5; i++)
    {
      memset (chain[i], 0, sizeof *chain[i]);
      chain[i]->parent = i ? chain[i - 1] : NULL;
    }
  top.dims = top_d;
  top.ndims = 1;
  mid.dims = mid_d;
  mid.ndims = 1;                 /* stmt not added yet */
  leaf.dims = leaf_d;
  leaf.ndims = 1;

  CU_ASSERT_PTR_EQUAL (agg_outer_value (&leaf, "stmt"), &top_d[0].v);
  CU_ASSERT_PTR_EQUAL (b.outer, &top);
  CU_ASSERT_PTR_EQUAL (a.outer, &top);
  CU_ASSERT_PTR_EQUAL (mid.outer, &top);
  CU_ASSERT_PTR_NULL (top.outer_dim);
  CU_ASSERT_PTR_NULL (agg_outer_value (&top, "stmt"));

  /* The next question stops at b's memo.  */
  b.outer = &mid;
  mid.ndims = 2;
  CU_ASSERT_PTR_EQUAL (agg_outer_value (&leaf, "stmt"), &mid_d[1].v);
  mid.ndims = 1;
  b.outer = &top;

  /* Another dimension: no carrier, and the memos now answer for it.  */
  CU_ASSERT_PTR_NULL (agg_outer_value (&leaf, "nosuch"));
  CU_ASSERT_PTR_NULL (b.outer);
  CU_ASSERT_STRING_EQUAL (b.outer_dim, "nosuch");

  /* mid gains stmt once a, b and leaf completed; new ones (memo cleared by
     the decoder) find it, and mid itself still finds top.  */
  mid.ndims = 2;
  a.outer_dim = b.outer_dim = leaf.outer_dim = NULL;
  CU_ASSERT_PTR_EQUAL (agg_outer_value (&leaf, "stmt"), &mid_d[1].v);
  CU_ASSERT_PTR_EQUAL (agg_outer_value (&a, "stmt"), &mid_d[1].v);
  CU_ASSERT_PTR_EQUAL (agg_outer_value (&mid, "stmt"), &top_d[0].v);

  /* A caller's buffer naming one dimension, then another: the memo knows the
     name it answers for, not the caller's pointer.  */
  char name[8];
  strcpy (name, "nosuch");
  CU_ASSERT_PTR_NULL (agg_outer_value (&leaf, name));
  strcpy (name, "stmt");
  CU_ASSERT_PTR_EQUAL (agg_outer_value (&leaf, name), &mid_d[1].v);

  /* Through agg_dim_text, as every command asks.  */
  char buf[64];
  CU_ASSERT_STRING_EQUAL (agg_dim_text (&leaf, "outer:stmt", buf, sizeof buf),
                          "inner");
  CU_ASSERT_PTR_NULL (agg_dim_text (&top, "outer:stmt", buf, sizeof buf));
  CU_ASSERT_TRUE (agg_dim_present (&b, "outer:stmt"));
  CU_ASSERT_FALSE (agg_dim_present (&top, "outer:stmt"));
}

/* agg_carry: the dimensions wanted, less derived ones and repeats, are
   forgotten as records carry them; the rest keep their order.  */

static void
test_carry (void)
{
  struct agg_carry c;
  memset (&c, 0, sizeof c);
  const char *want[] = { "name", "x", "depth", "nosuch", "x", "y", "site" };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    agg_carry_want (&c, want[i]);
  CU_ASSERT_EQUAL_FATAL (c.n, 4);
  struct ev_dim dims[2];
  memset (dims, 0, sizeof dims);
  dims[0].name = "x";
  dims[0].v.type = DSPROF_DIM_INT;
  dims[1].name = "name";
  dims[1].v.type = DSPROF_DIM_STR;
  dims[1].v.s = "f";
  dims[1].v.len = 1;
  struct ev_record r;
  memset (&r, 0, sizeof r);
  r.dims = dims;
  r.ndims = 1;
  agg_carry_record (&c, &r);
  CU_ASSERT_EQUAL_FATAL (c.n, 3);
  CU_ASSERT_STRING_EQUAL (c.names[0], "name");
  CU_ASSERT_STRING_EQUAL (c.names[1], "nosuch");
  CU_ASSERT_STRING_EQUAL (c.names[2], "y");
  r.ndims = 2;
  agg_carry_record (&c, &r);
  agg_carry_seen (&c, "y");
  CU_ASSERT_EQUAL_FATAL (c.n, 1);
  CU_ASSERT_STRING_EQUAL (c.names[0], "nosuch");
  CU_ASSERT_EQUAL (c.records, 2);
  free (c.names);
}

/* agg_dim_present says what agg_dim_text gives a value for: the derived
   dimensions of a record with and without a site, children kept or not.  */

static void
test_dim_present (void)
{
  struct ev_dim dims[3];
  memset (dims, 0, sizeof dims);
  dims[0].name = "name";
  dims[0].v.type = DSPROF_DIM_STR;
  dims[0].v.s = "f";
  dims[0].v.len = 1;
  dims[1].name = "file";
  dims[1].v.type = DSPROF_DIM_STR;
  dims[1].v.s = "t.c";
  dims[1].v.len = 3;
  dims[2].name = "line";
  dims[2].v.type = DSPROF_DIM_UINT;
  dims[2].v.u = 3;
  struct ev_record child, r, *children[1] = { &child };
  memset (&child, 0, sizeof child);
  child.dims = dims;
  child.ndims = 1;
  memset (&r, 0, sizeof r);
  r.dims = dims;
  static const char *const extra[] = { "name", "file", "line", "nosuch" };
  for (int shape = 0; shape < 6; shape++)
    {
      r.ndims = shape % 2 ? 3 : 1;       /* with a site, or without */
      r.nchildren = shape / 2 ? 1 : 0;
      r.children = shape / 2 == 1 ? children : NULL;  /* 2: not kept */
      r.parent = shape % 3 ? &child : NULL;
      char buf[4096];
      for (size_t i = 0; i < agg_nderived + 4; i++)
        {
          /* Every entry of the table, a prefix followed by a D.  */
          char name[64];
          snprintf (name, sizeof name, "%s%s",
                    i < agg_nderived ? agg_derived[i].name
                                     : extra[i - agg_nderived],
                    i < agg_nderived && agg_derived[i].prefix ? "name" : "");
          CU_ASSERT_EQUAL (agg_dim_present (&r, name),
                           agg_dim_text (&r, name, buf, sizeof buf) != NULL);
        }
    }
}

/* open_regular: a regular file opens; a directory and a fifo are named, never
   opened (a fifo would wait for a writer).  */

static void
test_open_regular (void)
{
  char dir[] = "/tmp/dsprof-unit-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL (mkdtemp (dir));
  char file[64], fifo[64];
  snprintf (file, sizeof file, "%s/file", dir);
  snprintf (fifo, sizeof fifo, "%s/fifo", dir);
  FILE *f = fopen (file, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL (f);
  fputs ("text\n", f);
  fclose (f);
  CU_ASSERT_EQUAL_FATAL (mkfifo (fifo, 0600), 0);

  struct stat st;
  const char *kind;
  int fd = open_regular (file, &st, &kind);
  CU_ASSERT (fd >= 0 && kind == NULL && st.st_size == 5);
  if (fd >= 0)
    close (fd);
  CU_ASSERT_EQUAL (open_regular (dir, &st, &kind), -1);
  CU_ASSERT (kind && !strcmp (kind, "a directory"));
  CU_ASSERT_EQUAL (open_regular (fifo, &st, &kind), -1);
  CU_ASSERT (kind && !strcmp (kind, "a fifo"));
  snprintf (file + strlen (dir), sizeof file - strlen (dir), "/none");
  CU_ASSERT_EQUAL (open_regular (file, &st, &kind), -1);
  CU_ASSERT (kind == NULL);
  size_t size;
  const char *problem;
  CU_ASSERT_PTR_NULL (read_regular (fifo, &size, &problem));
  CU_ASSERT_STRING_EQUAL (problem, "not a regular file");

  unlink (fifo);
  snprintf (file, sizeof file, "%s/file", dir);
  unlink (file);
  rmdir (dir);
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
  CU_add_test (s, "metadata record past the metadata refused",
               test_record_overrun);
  CU_add_test (s, "units chunk: read, truncated, flipped, hostile",
               test_units_chunk);
  CU_add_test (s, "profiles summed, stream decoded", test_files_summed);
  CU_add_test (s, "deduction: a record covers its children", test_deduction_nested);
  CU_add_test (s, "deduction of the costs measured in the run",
               test_deduction_measured);
  CU_add_test (s, "deduction beyond a record's duration", test_deduction_exceeds);
  CU_add_test (s, "deduction: clamped records and their excess", test_agg_clamped);
  CU_add_test (s, "costs trailer: current, older, none", test_costs_trailer);
  CU_add_test (s, "deduction: Self <= Total on random trees", test_deduction_random);
  CU_add_test (s, "a thread's times never go back across chunks", test_times_monotonic);
  CU_add_test (s, "CPU-time samples: charged, summed, sampled times", test_samples);
  CU_add_test (s, "dimensions no record carries", test_carry);
  CU_add_test (s, "outer:D, the nearest enclosing carrier", test_outer);
  CU_add_test (s, "--sum: exact integers, else a double", test_sums);
  CU_add_test (s, "a record's children kept or counted", test_keep_children);
  CU_add_test (s, "a stream decoded in steps as it is written", test_resume_steps);
  CU_add_test (s, "op records: OP, CASE, NEXT, OP_END", test_op_records);
  CU_add_test (s, "op records: a call's sequence across chunks", test_op_chunk_split);
  CU_add_test (s, "deduction: one hook per op record", test_deduction_ops);
  CU_add_test (s, "derived dimensions present as their text", test_dim_present);
  CU_add_test (s, "only regular files are opened to read", test_open_regular);
}
