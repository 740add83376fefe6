/* pb.c - the protocol buffers writer (pb.h).  */

#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "pb.h"
#include "text.h"

void
pb_free (struct pb *b)
{
  free (b->buf);
  memset (b, 0, sizeof *b);
}

static void
reserve (struct pb *b, size_t n)
{
  if (b->len + n <= b->size)
    return;
  size_t size = b->size ? b->size : 256;
  while (b->len + n > size)
    size *= 2;
  b->buf = XRESIZEVEC (unsigned char, b->buf, size);
  b->size = size;
}

void
pb_raw (struct pb *b, const void *p, size_t n)
{
  if (!n)
    return;                      /* P may be an empty buffer's NULL */
  reserve (b, n);
  memcpy (b->buf + b->len, p, n);
  b->len += n;
}

void
pb_varint (struct pb *b, uint64_t v)
{
  reserve (b, 10);
  unsigned char *q = b->buf + b->len;
  while (v >= 0x80)
    {
      *q++ = (unsigned char) (v | 0x80);
      v >>= 7;
    }
  *q++ = (unsigned char) v;
  b->len = (size_t) (q - b->buf);
}

static void
tag (struct pb *b, uint32_t field, int type)
{
  pb_varint (b, (uint64_t) field << 3 | (unsigned) type);
}

void
pb_uint (struct pb *b, uint32_t field, uint64_t v)
{
  tag (b, field, PB_VARINT);
  pb_varint (b, v);
}

void
pb_int (struct pb *b, uint32_t field, int64_t v)
{
  pb_uint (b, field, (uint64_t) v);
}

void
pb_double (struct pb *b, uint32_t field, double v)
{
  uint64_t u;
  memcpy (&u, &v, sizeof u);
  unsigned char le[8];
  for (int i = 0; i < 8; i++)
    le[i] = (unsigned char) (u >> (8 * i));
  tag (b, field, PB_I64);
  pb_raw (b, le, 8);
}

void
pb_bytes (struct pb *b, uint32_t field, const void *p, size_t n)
{
  tag (b, field, PB_LEN);
  pb_varint (b, n);
  pb_raw (b, p, n);
}

void
pb_text (struct pb *b, uint32_t field, const char *s, size_t n)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t bad = 0;
  for (size_t i = 0; i < n;)
    if (p[i] < 0x80)
      i++;
    else
      {
        int k = text_utf8_len (p + i, n - i);
        bad += !k;
        i += k ? (size_t) k : 1;
      }
  if (!bad)
    {
      pb_bytes (b, field, s, n);
      return;
    }
  /* Each bad byte becomes the 3 bytes of U+FFFD.  */
  tag (b, field, PB_LEN);
  pb_varint (b, n + 2 * bad);
  reserve (b, n + 2 * bad);
  unsigned char *q = b->buf + b->len;
  for (size_t i = 0; i < n;)
    {
      int k = p[i] < 0x80 ? 1 : text_utf8_len (p + i, n - i);
      if (k)
        {
          memcpy (q, p + i, (size_t) k);
          q += k;
          i += (size_t) k;
        }
      else
        {
          memcpy (q, "\xef\xbf\xbd", 3);
          q += 3;
          i++;
        }
    }
  b->len = (size_t) (q - b->buf);
}

size_t
pb_open (struct pb *b, uint32_t field)
{
  tag (b, field, PB_LEN);
  reserve (b, 1);
  b->buf[b->len++] = 0;
  return b->len;
}

void
pb_close (struct pb *b, size_t mark)
{
  size_t n = b->len - mark;
  unsigned char len[10];
  size_t k = 0;
  for (uint64_t v = n; ; v >>= 7)
    {
      len[k++] = (unsigned char) (v >= 0x80 ? (v | 0x80) : v);
      if (v < 0x80)
        break;
    }
  if (k > 1)
    {
      reserve (b, k - 1);
      memmove (b->buf + mark + k - 1, b->buf + mark, n);
      b->len += k - 1;
    }
  memcpy (b->buf + mark - 1, len, k);
}

/* ---- gzip ------------------------------------------------------------------------ */

bool
pb_gzip_open (struct pb_gzip *g, FILE *out)
{
  memset (g, 0, sizeof *g);
  g->out = out;
  /* 15 + 16: a gzip header and trailer around the deflate stream.  */
  return deflateInit2 (&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                       Z_DEFAULT_STRATEGY) == Z_OK;
}

static void
deflate_to (struct pb_gzip *g, int flush)
{
  unsigned char buf[65536];
  int rc;
  do
    {
      g->z.next_out = buf;
      g->z.avail_out = sizeof buf;
      rc = deflate (&g->z, flush);
      if (rc == Z_STREAM_ERROR)
        {
          g->failed = true;
          return;
        }
      size_t n = sizeof buf - g->z.avail_out;
      if (n && fwrite (buf, 1, n, g->out) != n)
        g->failed = true;
    }
  while (g->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
}

void
pb_gzip_write (struct pb_gzip *g, const void *p, size_t n)
{
  const unsigned char *q = p;
  while (n && !g->failed)
    {
      /* avail_in is an unsigned int.  */
      size_t k = n > (1u << 30) ? (1u << 30) : n;
      g->z.next_in = (unsigned char *) q;
      g->z.avail_in = (unsigned) k;
      deflate_to (g, Z_NO_FLUSH);
      q += k;
      n -= k;
    }
}

bool
pb_gzip_close (struct pb_gzip *g)
{
  g->z.next_in = NULL;
  g->z.avail_in = 0;
  if (!g->failed)
    deflate_to (g, Z_FINISH);
  deflateEnd (&g->z);
  return !g->failed;
}
