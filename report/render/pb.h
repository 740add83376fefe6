/* pb.h - writing the protocol buffers wire encoding, for the exports to
   pprof's profile.proto and Perfetto's trace (export-pprof.c,
   export-perfetto.c): varints, length-delimited fields and nested messages
   into a growing buffer, and a gzip stream to write a buffer through.

   A nested message is written in place: pb_open reserves one byte for its
   length and pb_close puts the length there, moving the body up when the
   length takes more bytes.  Messages open and close innermost first, so a
   move never disturbs an enclosing message's start.  Strings are written as
   valid UTF-8 (pb_text): each byte not part of a well-formed sequence becomes
   U+FFFD, as the JSON writer does (text.h), since both formats declare their
   strings UTF-8.  */

#ifndef DSPROF_PB_H
#define DSPROF_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <zlib.h>

/* Wire types.  */
enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2 };

struct pb
{
  unsigned char *buf;
  size_t len, size;
};

/* Empty B (its buffer kept for reuse).  */
static inline void
pb_reset (struct pb *b)
{
  b->len = 0;
}

void pb_free (struct pb *b);

void pb_varint (struct pb *b, uint64_t v);
void pb_raw (struct pb *b, const void *p, size_t n);

/* FIELD as a varint: an unsigned value, or a signed one as int64 encodes
   it (two's complement).  */
void pb_uint (struct pb *b, uint32_t field, uint64_t v);
void pb_int (struct pb *b, uint32_t field, int64_t v);
/* FIELD as a double (fixed 64 bits).  */
void pb_double (struct pb *b, uint32_t field, double v);
/* FIELD as N bytes.  */
void pb_bytes (struct pb *b, uint32_t field, const void *p, size_t n);
/* FIELD as a string of the N bytes at S, made valid UTF-8 (see above).  */
void pb_text (struct pb *b, uint32_t field, const char *s, size_t n);

/* Open the nested message FIELD; return its mark for pb_close.  */
size_t pb_open (struct pb *b, uint32_t field);
void pb_close (struct pb *b, size_t mark);

/* A gzip stream to OUT.  */
struct pb_gzip
{
  z_stream z;
  FILE *out;
  bool failed;
};

/* Start G on OUT; false if zlib cannot.  */
bool pb_gzip_open (struct pb_gzip *g, FILE *out);
/* Compress the N bytes at P to the stream.  */
void pb_gzip_write (struct pb_gzip *g, const void *p, size_t n);
/* End the stream; return false if compressing or writing failed.  */
bool pb_gzip_close (struct pb_gzip *g);

#endif /* DSPROF_PB_H */
