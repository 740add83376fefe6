/* codec_test.c - include/dsprof-format.[ch], the format codec every part of
   dsprof shares: numbers at the edges of ULEB128, every value type written with
   the recorder's encoders and read back, inputs cut short at every byte, and
   metadata blobs and site records, well formed and not.  */

#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dsprof-format.h"

void codec_test_register (void);

static struct dsprof_cursor
cursor (const unsigned char *p, size_t n)
{
  struct dsprof_cursor c = { p, p + n, 0 };
  return c;
}

/* ---- numbers ----------------------------------------------------------------- */

static void
test_codec_uleb_edges (void)
{
  static const struct
  {
    uint64_t v;
    size_t bytes;
  } cases[] = { { 0, 1 }, { 127, 1 }, { 128, 2 }, { 16383, 2 }, { 16384, 3 },
                { (uint64_t) 1 << 63, 10 }, { UINT64_MAX, 10 } };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      unsigned char buf[16];
      size_t n = dsprof_put_uleb (buf, cases[i].v);
      CU_ASSERT_EQUAL (n, cases[i].bytes);
      CU_ASSERT_PTR_EQUAL (dsprof_encode_uleb (buf, cases[i].v), buf + n);
      /* Read back with and without ten bytes of room (the two paths).  */
      struct dsprof_cursor c = cursor (buf, n);
      CU_ASSERT_EQUAL (dsprof_read_uleb (&c), cases[i].v);
      CU_ASSERT_FALSE (c.err);
      CU_ASSERT_PTR_EQUAL (c.p, buf + n);
      memset (buf + n, 0x55, sizeof buf - n);
      c = cursor (buf, sizeof buf);
      CU_ASSERT_EQUAL (dsprof_read_uleb (&c), cases[i].v);
      CU_ASSERT_PTR_EQUAL (c.p, buf + n);
      /* Cut short at every byte: an error, and 0.  */
      for (size_t k = 0; k < n; k++)
        {
          c = cursor (buf, k);
          CU_ASSERT_EQUAL (dsprof_read_uleb (&c), 0);
          CU_ASSERT_TRUE (c.err);
        }
    }
  /* Ten bytes of continuation and more hold no number: a number takes ten.  */
  unsigned char over[12];
  memset (over, 0x80, sizeof over);
  over[11] = 0;
  for (size_t n = 10; n <= sizeof over; n++)
    {
      struct dsprof_cursor c = cursor (over, n);
      CU_ASSERT_EQUAL (dsprof_read_uleb (&c), 0);
      CU_ASSERT_TRUE (c.err);
    }
  struct dsprof_cursor c;
  /* Once set, the error sticks: nothing more is read.  */
  unsigned char one = 5;
  c = cursor (&one, 1);
  c.err = 1;
  CU_ASSERT_EQUAL (dsprof_read_uleb (&c), 0);
  CU_ASSERT_PTR_EQUAL (c.p, &one);
}

static void
test_codec_zigzag (void)
{
  static const int64_t vals[] = { 0, -1, 1, -2, 63, -64, 64, INT64_MAX,
                                  INT64_MIN, INT64_MIN + 1 };
  CU_ASSERT_EQUAL (dsprof_zigzag (0), 0);
  CU_ASSERT_EQUAL (dsprof_zigzag (-1), 1);
  CU_ASSERT_EQUAL (dsprof_zigzag (1), 2);
  CU_ASSERT_EQUAL (dsprof_zigzag (INT64_MIN), UINT64_MAX);
  for (size_t i = 0; i < sizeof vals / sizeof *vals; i++)
    CU_ASSERT_EQUAL (dsprof_unzigzag (dsprof_zigzag (vals[i])), vals[i]);
}

/* ---- values ------------------------------------------------------------------ */

/* Encode V of TYPE at BUF as the recorder does; return its size.  */

static size_t
encode (unsigned char *buf, int type, uint64_t v, const char *text, size_t len,
        int truncated)
{
  unsigned char *p = buf;
  if (type == DSPROF_DIM_STR || (type == DSPROF_DIM_PTR && text))
    {
      if (type == DSPROF_DIM_PTR)
        p = dsprof_encode_uleb (p, 1);
      if (!text)
        p = dsprof_encode_uleb (p, 0);
      else
        {
          p = dsprof_encode_str_head (p, len, truncated);
          memcpy (p, text, len);
          p += len;
        }
    }
  else
    p = dsprof_encode_number (p, type, v);
  return (size_t) (p - buf);
}

static void
test_codec_value_round_trips (void)
{
  double d = -2.5e300;
  uint64_t dbits;
  memcpy (&dbits, &d, 8);
  /* Its first 64 bytes were the most a value held before DSPROF_STRMAX;
     1,024 is the runtime's default; all of it the format's bound.  */
  static const char text[DSPROF_STR_MAX] = "a string of sixty-four bytes, "
                                           "once the most a value held, ok";
  const struct
  {
    int type;
    uint64_t v;
    const char *s;
    size_t len;
    int truncated;
  } cases[] = {
    { DSPROF_DIM_INT, (uint64_t) INT64_MIN, NULL, 0, 0 },
    { DSPROF_DIM_INT, (uint64_t) -1, NULL, 0, 0 },
    { DSPROF_DIM_INT, (uint64_t) INT64_MAX, NULL, 0, 0 },
    { DSPROF_DIM_UINT, UINT64_MAX, NULL, 0, 0 },
    { DSPROF_DIM_UINT, 128, NULL, 0, 0 },
    { DSPROF_DIM_BOOL, 1, NULL, 0, 0 },
    { DSPROF_DIM_ENUM, (uint64_t) -7, NULL, 0, 0 },
    { DSPROF_DIM_DOUBLE, dbits, NULL, 0, 0 },
    { DSPROF_DIM_PTR, 0x7ffde0001234, NULL, 0, 0 },
    { DSPROF_DIM_PTR, 0, text, 5, 0 },
    { DSPROF_DIM_STR, 0, NULL, 0, 0 },
    { DSPROF_DIM_STR, 0, text, 0, 0 },
    { DSPROF_DIM_STR, 0, text, 7, 1 },
    { DSPROF_DIM_STR, 0, text, 64, 0 },
    { DSPROF_DIM_STR, 0, text, 64, 1 },
    { DSPROF_DIM_STR, 0, text, 1024, 1 },
    { DSPROF_DIM_PTR, 0, text, 1024, 0 },
    { DSPROF_DIM_STR, 0, text, DSPROF_STR_MAX, 0 },
    { DSPROF_DIM_STR, 0, text, DSPROF_STR_MAX, 1 },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      static unsigned char buf[16 + DSPROF_STR_MAX];
      size_t n = encode (buf, cases[i].type, cases[i].v, cases[i].s, cases[i].len,
                         cases[i].truncated);
      struct dsprof_cursor c = cursor (buf, n);
      struct dsprof_value v;
      CU_ASSERT_EQUAL (dsprof_read_value (&c, cases[i].type, &v), 0);
      CU_ASSERT_PTR_EQUAL (c.p, buf + n);
      bool is_text = cases[i].type == DSPROF_DIM_STR || cases[i].s;
      if (is_text && cases[i].s)
        {
          CU_ASSERT_EQUAL (v.len, cases[i].len);
          CU_ASSERT_EQUAL (v.truncated, cases[i].truncated);
          CU_ASSERT (memcmp (v.s, cases[i].s, v.len) == 0);
        }
      else if (is_text)
        {
          CU_ASSERT_PTR_NULL (v.s);
        }
      else
        {
          CU_ASSERT_EQUAL (v.u, cases[i].v);
        }
      CU_ASSERT_EQUAL (v.text, cases[i].type == DSPROF_DIM_PTR && cases[i].s);
      c = cursor (buf, n);
      CU_ASSERT_EQUAL (dsprof_skip_value (&c, cases[i].type), 0);
      CU_ASSERT_PTR_EQUAL (c.p, buf + n);
      /* Cut short at every byte: refused, never read past the end.  */
      for (size_t k = 0; k < n; k++)
        {
          c = cursor (buf, k);
          CU_ASSERT_EQUAL (dsprof_read_value (&c, cases[i].type, &v), -1);
          CU_ASSERT_TRUE (c.err);
          CU_ASSERT (c.p <= buf + k);
        }
    }
}

static void
test_codec_bad_values (void)
{
  static unsigned char buf[8 + 2 * DSPROF_STR_MAX];
  memset (buf, 'x', sizeof buf);
  struct dsprof_value v;
  /* A string longer than DSPROF_STR_MAX, though the bytes are there.  */
  size_t n = (size_t) (dsprof_encode_str_head (buf, DSPROF_STR_MAX + 1, 0) - buf);
  struct dsprof_cursor c = cursor (buf, n + DSPROF_STR_MAX + 1);
  CU_ASSERT_EQUAL (dsprof_read_value (&c, DSPROF_DIM_STR, &v), -1);
  CU_ASSERT_TRUE (c.err);
  /* Types without values, and unknown types.  */
  static const int bad[] = { DSPROF_DIM_NONE, DSPROF_DIM_PTR + 1, -1 };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    {
      buf[0] = 1;
      c = cursor (buf, 1);
      CU_ASSERT_EQUAL (dsprof_read_value (&c, bad[i], &v), -1);
      CU_ASSERT_EQUAL (dsprof_skip_value (&c, bad[i]), -1);
    }
}

/* References to a chunk's defined strings (section 4): read as the number K,
   for the caller to resolve, as a STR value and as a PTR's text; cut short,
   refused; a number past 32 bits, refused.  Which values define a string.  */
static void
test_codec_str_refs (void)
{
  static const uint32_t ks[] = { 0, 1, 127, 128, 16383, 16384, UINT32_MAX };
  for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
    for (int ptr = 0; ptr < 2; ptr++)
      {
        int type = ptr ? DSPROF_DIM_PTR : DSPROF_DIM_STR;
        unsigned char buf[16], *p = buf;
        if (ptr)
          p = dsprof_encode_uleb (p, 1);
        p = dsprof_encode_str_ref (p, ks[i]);
        size_t n = (size_t) (p - buf);
        CU_ASSERT_EQUAL (buf[ptr], DSPROF_STR_REF);
        struct dsprof_cursor c = cursor (buf, n);
        struct dsprof_value v;
        CU_ASSERT_EQUAL (dsprof_read_value (&c, type, &v), 0);
        CU_ASSERT_PTR_EQUAL (c.p, buf + n);
        CU_ASSERT_TRUE (v.ref);
        CU_ASSERT_EQUAL (v.u, ks[i]);
        CU_ASSERT_PTR_NULL (v.s);
        CU_ASSERT_EQUAL (v.text, ptr);
        CU_ASSERT_FALSE (dsprof_value_defines (&v));
        for (size_t k = 0; k < n; k++)
          {
            c = cursor (buf, k);
            CU_ASSERT_EQUAL (dsprof_read_value (&c, type, &v), -1);
            CU_ASSERT (c.p <= buf + k);
          }
      }
  unsigned char buf[16];
  size_t n = (size_t) (dsprof_encode_uleb (dsprof_encode_uleb (buf, DSPROF_STR_REF),
                                           (uint64_t) UINT32_MAX + 1) - buf);
  struct dsprof_cursor c = cursor (buf, n);
  struct dsprof_value v;
  CU_ASSERT_EQUAL (dsprof_read_value (&c, DSPROF_DIM_STR, &v), -1);
  CU_ASSERT_FALSE (v.ref);
  /* Strings written in full of DSPROF_STR_REF_MIN bytes or more define one.  */
  static const char text[] = "0123456789";
  for (size_t len = 0; len <= 10; len++)
    for (int truncated = 0; truncated < 2; truncated++)
      {
        if (len == 0 && truncated)
          continue;             /* that head is DSPROF_STR_REF */
        unsigned char *p = dsprof_encode_str_head (buf, len, truncated);
        memcpy (p, text, len);
        c = cursor (buf, (size_t) (p - buf) + len);
        CU_ASSERT_EQUAL (dsprof_read_value (&c, DSPROF_DIM_STR, &v), 0);
        CU_ASSERT_FALSE (v.ref);
        CU_ASSERT_EQUAL (dsprof_value_defines (&v), len >= DSPROF_STR_REF_MIN);
      }
  buf[0] = 0;
  c = cursor (buf, 1);
  CU_ASSERT_EQUAL (dsprof_read_value (&c, DSPROF_DIM_STR, &v), 0);
  CU_ASSERT_FALSE (dsprof_value_defines (&v));
}

/* ---- metadata ---------------------------------------------------------------- */

struct blob
{
  unsigned char b[512];
  size_t n;
};

static void
put_u (struct blob *b, uint64_t v)
{
  b->n = (size_t) (dsprof_encode_uleb (b->b + b->n, v) - b->b);
}

static void
put_s (struct blob *b, const char *s)
{
  b->n = (size_t) (dsprof_encode_str (b->b + b->n, s, strlen (s)) - b->b);
}

static void
put_rec (struct blob *b, unsigned tag, const struct blob *r)
{
  b->n = (size_t) (dsprof_encode_record (b->b + b->n, tag, r->b, r->n) - b->b);
}

/* A site record: index 2, "parse" in function f at file 0 line 9, dims
   "n" INT, "k" ENUM { -1 A, 4 B }, result NONE.  */

static void
site_record (struct blob *r)
{
  r->n = 0;
  put_u (r, 2);
  put_s (r, "parse");
  put_s (r, "f");
  put_u (r, 0);
  put_u (r, 9);
  put_u (r, 3);
  put_s (r, "n"), put_u (r, DSPROF_DIM_INT);
  put_s (r, "k"), put_u (r, DSPROF_DIM_ENUM), put_u (r, 2);
  put_u (r, dsprof_zigzag (-1)), put_s (r, "A");
  put_u (r, dsprof_zigzag (4)), put_s (r, "B");
  put_s (r, "result"), put_u (r, DSPROF_DIM_NONE);
}

static void
test_codec_meta_walk (void)
{
  struct blob m = { .n = 0 }, r = { .n = 0 };
  size_t bounds[4];                      /* where the header and records end */
  put_u (&m, DSPROF_META_VERSION);
  put_s (&m, "a.c");
  put_s (&m, "/src");
  bounds[0] = m.n;
  put_s (&r, "a.c");
  put_rec (&m, DSPROF_TAG_FILE, &r);
  bounds[1] = m.n;
  r.n = 0;
  put_u (&r, 7);
  put_rec (&m, 99, &r);                  /* an unknown tag */
  bounds[2] = m.n;
  site_record (&r);
  put_rec (&m, DSPROF_TAG_SITE, &r);
  bounds[3] = m.n;

  struct dsprof_meta meta;
  CU_ASSERT_EQUAL (dsprof_meta_open (&meta, m.b, m.n), 0);
  CU_ASSERT_EQUAL (meta.version, DSPROF_META_VERSION);
  CU_ASSERT (meta.source_len == 3 && memcmp (meta.source, "a.c", 3) == 0);
  CU_ASSERT (meta.compdir_len == 4 && memcmp (meta.compdir, "/src", 4) == 0);
  uint64_t tag, tags[3];
  struct dsprof_cursor body;
  int n = 0, rc;
  while ((rc = dsprof_meta_next (&meta, &tag, &body)) > 0 && n < 3)
    {
      tags[n++] = tag;
      CU_ASSERT_PTR_EQUAL (body.end, m.b + bounds[n]);
      if (tag == 99)
        CU_ASSERT_EQUAL (body.end - body.p, 1);
    }
  CU_ASSERT_EQUAL (rc, 0);
  CU_ASSERT_EQUAL (n, 3);
  CU_ASSERT (tags[0] == DSPROF_TAG_FILE && tags[1] == 99
             && tags[2] == DSPROF_TAG_SITE);

  /* Cut short inside the header or a record: an error, not the end; between
     records it is a shorter blob.  */
  for (size_t k = 0; k < m.n; k++)
    {
      bool boundary = k == bounds[0] || k == bounds[1] || k == bounds[2];
      CU_ASSERT_EQUAL (dsprof_meta_open (&meta, m.b, k), k < bounds[0] ? -1 : 0);
      while ((rc = dsprof_meta_next (&meta, &tag, &body)) > 0)
        CU_ASSERT (body.end <= m.b + k);
      CU_ASSERT_EQUAL (rc, boundary ? 0 : -1);
    }
  /* A record whose length runs past the blob.  */
  m.n = 0;
  put_u (&m, DSPROF_META_VERSION);
  put_s (&m, "a.c");
  put_s (&m, "/src");
  put_u (&m, DSPROF_TAG_FILE);
  put_u (&m, 50);
  put_s (&m, "a.c");
  CU_ASSERT_EQUAL (dsprof_meta_open (&meta, m.b, m.n), 0);
  CU_ASSERT_EQUAL (dsprof_meta_next (&meta, &tag, &body), -1);
  CU_ASSERT_TRUE (meta.c.err);
  CU_ASSERT_EQUAL (dsprof_meta_next (&meta, &tag, &body), -1);
}

static void
test_codec_site_record (void)
{
  struct blob r;
  site_record (&r);
  struct dsprof_cursor body = cursor (r.b, r.n);
  struct dsprof_site_rec s;
  CU_ASSERT_EQUAL_FATAL (dsprof_site_read (&body, &s), 0);
  CU_ASSERT_EQUAL (s.index, 2);
  CU_ASSERT (s.type_len == 5 && memcmp (s.type, "parse", 5) == 0);
  CU_ASSERT (s.name_len == 1 && s.name[0] == 'f');
  CU_ASSERT (s.file == 0 && s.line == 9 && s.ndims == 3);
  struct dsprof_site_dim d;
  CU_ASSERT_EQUAL (dsprof_site_next_dim (&s.dims, &d), 0);
  CU_ASSERT (d.name_len == 1 && d.name[0] == 'n' && d.type == DSPROF_DIM_INT
             && d.nenum == 0);
  CU_ASSERT_EQUAL (dsprof_site_next_dim (&s.dims, &d), 0);
  CU_ASSERT (d.type == DSPROF_DIM_ENUM && d.nenum == 2);
  int64_t val;
  const char *name;
  size_t len;
  CU_ASSERT_EQUAL (dsprof_site_next_enum (&d.enums, &val, &name, &len), 0);
  CU_ASSERT (val == -1 && len == 1 && name[0] == 'A');
  CU_ASSERT_EQUAL (dsprof_site_next_enum (&d.enums, &val, &name, &len), 0);
  CU_ASSERT (val == 4 && len == 1 && name[0] == 'B');
  CU_ASSERT_EQUAL (dsprof_site_next_enum (&d.enums, &val, &name, &len), -1);
  CU_ASSERT_EQUAL (dsprof_site_next_dim (&s.dims, &d), 0);
  CU_ASSERT (d.name_len == 6 && d.type == DSPROF_DIM_NONE);
  CU_ASSERT_PTR_EQUAL (s.dims.p, r.b + r.n);

  /* Cut short anywhere: the fixed fields or a dim refused.  */
  for (size_t k = 0; k < r.n; k++)
    {
      body = cursor (r.b, k);
      int bad = dsprof_site_read (&body, &s) < 0;
      for (uint64_t i = 0; !bad && i < s.ndims; i++)
        bad = dsprof_site_next_dim (&s.dims, &d) < 0;
      CU_ASSERT_TRUE (bad);
    }
}

static void
test_codec_site_malformed (void)
{
  struct blob r;
  struct dsprof_site_rec s;
  struct dsprof_site_dim d;
  struct dsprof_cursor body;
  /* No dims at all: not even the result.  */
  r.n = 0;
  put_u (&r, 0), put_s (&r, "t"), put_s (&r, "f"), put_u (&r, 0), put_u (&r, 1);
  put_u (&r, 0);
  body = cursor (r.b, r.n);
  CU_ASSERT_EQUAL (dsprof_site_read (&body, &s), -1);
  /* More dims than the record has bytes for.  */
  r.n = 0;
  put_u (&r, 0), put_s (&r, "t"), put_s (&r, "f"), put_u (&r, 0), put_u (&r, 1);
  put_u (&r, 1000000);
  put_s (&r, "result"), put_u (&r, DSPROF_DIM_NONE);
  body = cursor (r.b, r.n);
  CU_ASSERT_EQUAL (dsprof_site_read (&body, &s), -1);
  /* A dim of an unknown type.  */
  r.n = 0;
  put_u (&r, 0), put_s (&r, "t"), put_s (&r, "f"), put_u (&r, 0), put_u (&r, 1);
  put_u (&r, 1);
  put_s (&r, "result"), put_u (&r, DSPROF_DIM_PTR + 1);
  body = cursor (r.b, r.n);
  CU_ASSERT_EQUAL_FATAL (dsprof_site_read (&body, &s), 0);
  CU_ASSERT_EQUAL (dsprof_site_next_dim (&s.dims, &d), -1);
  /* An enum table longer than the record.  */
  r.n = 0;
  put_u (&r, 0), put_s (&r, "t"), put_s (&r, "f"), put_u (&r, 0), put_u (&r, 1);
  put_u (&r, 1);
  put_s (&r, "k"), put_u (&r, DSPROF_DIM_ENUM), put_u (&r, 300);
  put_u (&r, 0), put_s (&r, "A");
  body = cursor (r.b, r.n);
  CU_ASSERT_EQUAL_FATAL (dsprof_site_read (&body, &s), 0);
  CU_ASSERT_EQUAL (dsprof_site_next_dim (&s.dims, &d), -1);
  CU_ASSERT_EQUAL (d.nenum, 0);
}

/* A process's start from /proc/PID/stat: field 22 after the command name's
   closing parenthesis (a name may hold ") " itself), in ticks since boot, as
   CLOCK_MONOTONIC ns given both clocks now; 0 for text that does not say.  */

static void
test_codec_stat_start (void)
{
  /* Started 1234 ticks (12.34 s at 100 Hz) after boot; now 100 s after boot,
     and the monotonic clock 5 s behind the boot clock.  */
  static const char stat[] = "4242 (a) b (c) S 1 4242 4242 0 -1 4194560 100 0 0 0 "
                             "1 2 0 0 20 0 1 0 1234 1000000 100 18446744073709551615";
  uint64_t boot = 100000000000u, mono = 95000000000u;
  CU_ASSERT_EQUAL (dsprof_stat_start_mono (stat, 100, boot, mono),
                   mono - (boot - 12340000000u));
  CU_ASSERT_EQUAL (dsprof_stat_start_mono (stat, 0, boot, mono), 0);
  CU_ASSERT_EQUAL (dsprof_stat_start_mono ("4242 (a) S 1 2", 100, boot, mono), 0);
  CU_ASSERT_EQUAL (dsprof_stat_start_mono ("no parenthesis", 100, boot, mono), 0);
  CU_ASSERT_EQUAL (dsprof_stat_start_mono ("", 100, boot, mono), 0);
  /* A start after now (clocks read wrong) says nothing.  */
  CU_ASSERT_EQUAL (dsprof_stat_start_mono (stat, 100, 1000, mono), 0);
}

void
codec_test_register (void)
{
  CU_pSuite s = CU_add_suite ("codec", NULL, NULL);
  CU_add_test (s, "ULEB128 at its edges, cut short", test_codec_uleb_edges);
  CU_add_test (s, "zigzag both ways", test_codec_zigzag);
  CU_add_test (s, "every value type read back as written",
               test_codec_value_round_trips);
  CU_add_test (s, "long strings and unknown types refused", test_codec_bad_values);
  CU_add_test (s, "string references read, cut short refused", test_codec_str_refs);
  CU_add_test (s, "metadata records walked, overruns refused",
               test_codec_meta_walk);
  CU_add_test (s, "site record, its dims and enum table", test_codec_site_record);
  CU_add_test (s, "malformed site records refused", test_codec_site_malformed);
  CU_add_test (s, "a process's start read from /proc/PID/stat", test_codec_stat_start);
}
