/* pb_test.c - the protocol buffers writer (report/render/pb.h): varints at their
   boundaries, negative int64 values as ten bytes, nested messages whose
   length needs one, two and three bytes (the body moved up), strings made
   valid UTF-8, and a gzip stream that zlib reads back.  */

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pb.h"

/* Decode the varint at *P (advanced); -1 on a malformed one.  */

static uint64_t
get_varint (const unsigned char **p, const unsigned char *end)
{
  uint64_t v = 0;
  for (int shift = 0; *p < end && shift < 70; shift += 7)
    {
      unsigned char c = *(*p)++;
      v |= (uint64_t) (c & 0x7f) << shift;
      if (!(c & 0x80))
        return v;
    }
  return (uint64_t) -1;
}

static void
test_pb_varints (void)
{
  static const uint64_t vals[] = { 0, 1, 127, 128, 16383, 16384, UINT32_MAX,
                                   (uint64_t) 1 << 63, UINT64_MAX };
  static const size_t lens[] = { 1, 1, 1, 2, 2, 3, 5, 10, 10 };
  struct pb b = { NULL, 0, 0 };
  for (size_t i = 0; i < sizeof vals / sizeof *vals; i++)
    {
      pb_reset (&b);
      pb_varint (&b, vals[i]);
      CU_ASSERT_EQUAL (b.len, lens[i]);
      const unsigned char *p = b.buf;
      CU_ASSERT_EQUAL (get_varint (&p, b.buf + b.len), vals[i]);
      CU_ASSERT_PTR_EQUAL (p, b.buf + b.len);
    }
  pb_reset (&b);
  pb_int (&b, 3, -1);
  CU_ASSERT_EQUAL (b.len, 11);
  CU_ASSERT_EQUAL (b.buf[0], 3 << 3);
  pb_free (&b);
}

/* A message holding field 1 with a body of N bytes, nested in field 2,
   followed by field 3 = 7.  */

static void
check_nested (size_t n)
{
  struct pb b = { NULL, 0, 0 };
  size_t outer = pb_open (&b, 2);
  size_t inner = pb_open (&b, 1);
  for (size_t i = 0; i < n; i++)
    pb_raw (&b, &(unsigned char) { (unsigned char) i }, 1);
  pb_close (&b, inner);
  pb_close (&b, outer);
  pb_uint (&b, 3, 7);
  const unsigned char *p = b.buf, *end = b.buf + b.len;
  CU_ASSERT_EQUAL (get_varint (&p, end), 2 << 3 | PB_LEN);
  uint64_t olen = get_varint (&p, end);
  const unsigned char *oend = p + olen;
  CU_ASSERT_EQUAL (get_varint (&p, end), 1 << 3 | PB_LEN);
  CU_ASSERT_EQUAL (get_varint (&p, end), n);
  CU_ASSERT_PTR_EQUAL (p + n, oend);
  bool same = true;
  for (size_t i = 0; i < n && p + i < end; i++)
    same &= p[i] == (unsigned char) i;
  CU_ASSERT (same);
  p = oend;
  CU_ASSERT_EQUAL (get_varint (&p, end), 3 << 3 | PB_VARINT);
  CU_ASSERT_EQUAL (get_varint (&p, end), 7);
  CU_ASSERT_PTR_EQUAL (p, end);
  pb_free (&b);
}

static void
test_pb_nested (void)
{
  static const size_t sizes[] = { 0, 1, 125, 126, 127, 128, 16381, 16383, 16384,
                                  100000 };
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    check_nested (sizes[i]);
}

static void
test_pb_text (void)
{
  struct pb b = { NULL, 0, 0 };
  pb_text (&b, 1, "ok\xc3\xa9", 4);
  CU_ASSERT_EQUAL (b.len, 6);
  CU_ASSERT (!memcmp (b.buf, "\x0a\x04ok\xc3\xa9", 6));
  pb_reset (&b);
  pb_text (&b, 1, "a\xff" "b\xc3", 4);
  /* Each of the two bad bytes becomes U+FFFD.  */
  CU_ASSERT_EQUAL (b.len, 10);
  CU_ASSERT (!memcmp (b.buf, "\x0a\x08" "a\xef\xbf\xbd" "b\xef\xbf\xbd", 10));
  pb_free (&b);
}

static void
test_pb_gzip (void)
{
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream (&text, &size);
  struct pb_gzip g;
  CU_ASSERT_FATAL (pb_gzip_open (&g, f));
  unsigned char in[200000];
  for (size_t i = 0; i < sizeof in; i++)
    in[i] = (unsigned char) (i * 7 / 3);
  pb_gzip_write (&g, in, 100);
  pb_gzip_write (&g, in + 100, sizeof in - 100);
  CU_ASSERT (pb_gzip_close (&g));
  fclose (f);
  unsigned char *out = malloc (sizeof in + 1);
  z_stream z;
  memset (&z, 0, sizeof z);
  CU_ASSERT_FATAL (inflateInit2 (&z, 15 + 16) == Z_OK);
  z.next_in = (unsigned char *) text;
  z.avail_in = (unsigned) size;
  z.next_out = out;
  z.avail_out = sizeof in + 1;
  CU_ASSERT_EQUAL (inflate (&z, Z_FINISH), Z_STREAM_END);
  CU_ASSERT_EQUAL (z.total_out, sizeof in);
  CU_ASSERT (!memcmp (out, in, sizeof in));
  inflateEnd (&z);
  free (out);
  free (text);
}

void
pb_test_register (void)
{
  CU_pSuite s = CU_add_suite ("pb", NULL, NULL);
  CU_add_test (s, "varints at their boundaries, negative int64", test_pb_varints);
  CU_add_test (s, "nested lengths of 1 to 3 bytes", test_pb_nested);
  CU_add_test (s, "strings made valid UTF-8", test_pb_text);
  CU_add_test (s, "gzip read back by zlib", test_pb_gzip);
}
