/* strval.h - the encoding of string values into a thread's stream
   (dsprof-format.h, section 4): the inline half of strings.c, included by
   the recorder alone, whose hooks call it per string value (in the same
   translation unit, as the hooks' fast path was measured: see
   docs/architecture.md).  strings.c holds what is called out of line: the
   fault-safe read of the program's string (dsprof_read_string), the
   formatters' registry and the interned names.

   A string value goes into the stream with a head (its length and truncated
   bit), or, if the thread's current chunk defined the same text before, as a
   reference to it: the table of recent strings, struct dsprof_strtab, is
   part of the thread's state, reset with each new chunk
   (dsprof_strtab_reset), and the text compared with is the chunk's own,
   still mapped.

   put_str     encode the program's string S, at most BOUND bytes of it, as
               a STR value at P (the room reserved: MAX_STR_VALUE)
   put_value   encode value V of dimension type TYPE (DSPROF_DIM_*) and name
               NAME_ID (0: none) at P, through its formatter if any  */

#ifndef DSPROF_STRVAL_H
#define DSPROF_STRVAL_H

#include <string.h>

#include "internal.h"

/* A slot of a thread's table of recent strings (put_defined): the string
   the current chunk defined as number K, whose value starts OFF - 1 bytes
   into the chunk's stream (OFF 0: an empty slot).  KEY is its length and
   truncated bit (len << 1 | truncated, above bit 14), which a value the
   same must have, and 14 bits of its hash, which spare comparing most
   strings that only share its set.  */
struct dsprof_str_slot
{
  uint32_t off, k, key;
};

/* The table's sets of two slots, the latest string first: 256 strings in
   3 KB, so that the thread state still fits its page.  */
#define DSPROF_STR_SETS 128u

/* The strings a thread's current chunk defined: N of them, the recent ones
   in SLOTS by hash; BASE is the chunk's stream.  */
struct dsprof_strtab
{
  const unsigned char *base;
  uint32_t n;
  struct dsprof_str_slot slots[DSPROF_STR_SETS][2];
};

static inline void
dsprof_strtab_reset (struct dsprof_strtab *t, const unsigned char *base)
{
  t->base = base;
  t->n = 0;
  memset (t->slots, 0, sizeof t->slots);
}

/* The calling thread's table, which the includer defines (recorder.c):
   read where a string is looked up, not passed down, so that the calls
   that read the string keep no register for it.  */
static inline struct dsprof_strtab *strval_table (void);

/* The formatter of dimension NAME_ID (strings.c), or NULL.  */

static inline dsprof_formatter
formatter_for (uint32_t name_id)
{
  dsprof_formatter *f = __atomic_load_n (&dsprof_formatters, __ATOMIC_ACQUIRE);
  if (!f || name_id >= __atomic_load_n (&dsprof_formatters_size,
                                        __ATOMIC_ACQUIRE))
    return NULL;
  return __atomic_load_n (&f[name_id], __ATOMIC_RELAXED);
}

/* The bytes of the N > LIMIT bytes at S to keep when a string is cut at
   LIMIT: LIMIT, or fewer so as not to split a UTF-8 character.  The cut moves
   back to the lead byte of a sequence only where the bytes are one: S[LIMIT]
   continues it (10xxxxxx), and its lead byte, at most 3 bytes before LIMIT
   with only continuation bytes after it, starts a sequence longer than what
   is kept of it.  Other bytes (Latin-1, binary) are cut at LIMIT.  */

static size_t
utf8_cut (const unsigned char *s, size_t limit)
{
  if ((s[limit] & 0xc0) != 0x80)
    return limit;
  size_t i = limit;
  while (i > 0 && limit - i < 3 && (s[i - 1] & 0xc0) == 0x80)
    i--;
  if (i == 0)
    return limit;
  unsigned c = s[i - 1];
  size_t need = c >= 0xc2 && c <= 0xdf ? 2
                : c >= 0xe0 && c <= 0xef ? 3
                : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  return need > limit - (i - 1) ? i - 1 : limit;
}

/* put_head for a head of more than one byte: out of line, the hooks' strings
   are mostly short.  */

static __attribute__ ((noinline)) unsigned char *
put_long_head (unsigned char *p, size_t len, int truncated, uint64_t head)
{
  size_t h = 1;
  for (uint64_t x = head >> 7; x; x >>= 7)
    h++;
  memmove (p + h, p + 1, len);
  dsprof_encode_str_head (p, len, truncated);
  return p + h + len;
}

/* Finish the STR value at P whose LEN bytes of text are at P + 1 already,
   where a head of one byte leaves them: encode its head, moving the text
   after it if the head takes more (LEN of 63 bytes or more).  Return the
   value's end.  */

static inline unsigned char *
put_head (unsigned char *p, size_t len, int truncated)
{
  uint64_t head = ((uint64_t) len << 1 | (truncated != 0)) + 1;
  if (unlikely (head >= 0x80))
    return put_long_head (p, len, truncated, head);
  *p = (unsigned char) head;
  return p + 1 + len;
}

/* The hash of the N >= 8 bytes of text at S that picks a string's set and
   key bits, a word at a time: all of them up to 128 bytes, else 16 words spread
   over them, the first and the last among them, so that a long string costs
   what a short one does.  Only a hint: put_defined compares the bytes.  */

static inline uint64_t
str_hash (const unsigned char *s, size_t n)
{
  const uint64_t k = 0x9e3779b97f4a7c15u;
  uint64_t h = n * k, w;
  /* (h ^ w) * k carries every bit of w up to the top bits, which pick the
     set.  */
  if (n > 128)
    {
      size_t step = (n - 8) / 15;
      for (size_t i = 0; i < 15; i++)
        {
          memcpy (&w, s + i * step, 8);
          h = (h ^ w) * k;
        }
      memcpy (&w, s + n - 8, 8);
      return (h ^ w) * k;
    }
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    {
      memcpy (&w, s + i, 8);
      h = (h ^ w) * k;
    }
  if (i < n)
    {
      memcpy (&w, s + n - 8, 8);   /* the last 8, some hashed already */
      h = (h ^ w) * k;
    }
  return h;
}

/* Whether the LEN >= 8 bytes of text at Q and at S are the same.  Up to 16
   bytes as two words, overlapping: no call.  */

static inline int
same_text (const unsigned char *q, const unsigned char *s, size_t len)
{
  if (len > 16)
    return memcmp (q, s, len) == 0;
  uint64_t a, b, c, d;
  memcpy (&a, q, 8);
  memcpy (&b, s, 8);
  memcpy (&c, q + len - 8, 8);
  memcpy (&d, s + len - 8, 8);
  return a == b && c == d;
}

/* Finish the STR value at P whose LEN bytes of text are at P + 1 already,
   TRUNCATED or not, as put_head does, if it defines a string of the chunk
   (dsprof-format.h, section 4) and the thread's table does not find the
   same value (length, truncated bit and text, byte for byte) among those
   the chunk defined before; if it does, a reference to that one instead.  A
   string not found takes the first slot of its set, whose string moves to
   the second (one evicted from the table is written in full again when it
   comes back).  The copy compared with lies in the current chunk, still
   mapped: a new chunk starts with no strings (reserve), as readers read
   each chunk alone.  Return the value's end.  */

static unsigned char *
put_defined (unsigned char *p, size_t len, int truncated)
{
  struct dsprof_strtab *t = strval_table ();
  _Static_assert (DSPROF_STR_SETS == 128, "the set is the hash's top 7 bits");
  _Static_assert (DSPROF_STR_MAX < 1u << 17, "a key holds len << 1 | truncated");
  uint64_t h = str_hash (p + 1, len);
  struct dsprof_str_slot *set = t->slots[h >> (64 - 7)];
  uint32_t lt = (uint32_t) len << 1 | (truncated != 0);
  uint32_t key = lt << 14 | (uint32_t) (h >> 43 & 0x3fff);
  /* The bytes of the head, which the key's LT determines.  */
  size_t n = 1 + (lt + 1 >= 0x80) + (lt + 1 >= 0x4000);
  /* A slot's value lies before P, and is as long as this one if its key is
     KEY: the bytes compared are in the chunk.  */
  for (int w = 0; w < 2; w++)
    if (set[w].off && set[w].key == key
        && same_text (t->base + set[w].off - 1 + n, p + 1, len))
      return dsprof_encode_str_ref (p, set[w].k);
  set[1] = set[0];
  set[0].off = (uint32_t) (p - t->base) + 1;
  set[0].k = t->n++;
  set[0].key = key;
  return put_head (p, len, truncated);
}

/* put_head, or put_defined for a text long enough to define a string.  */

static inline unsigned char *
put_text (unsigned char *p, size_t len, int truncated)
{
  if (len < DSPROF_STR_REF_MIN)
    return put_head (p, len, truncated);
  return put_defined (p, len, truncated);
}

/* put_head for the LEN bytes at P + 1 read of a text, kept whole if LEN is
   within LIMIT, else cut there (utf8_cut) and marked truncated; or a
   reference (put_text).  */

static inline unsigned char *
put_kept (unsigned char *p, size_t len, size_t limit)
{
  int truncated = len > limit;
  if (truncated)
    len = utf8_cut (p + 1, limit);
  return put_text (p, len, truncated);
}

/* Encode the program's string S as a STR value at P: at most BOUND bytes of
   it (the parameter that bounds it, docs/contract.md §4.2), up to its
   NUL, DSPROF_STRMAX of them (cut by utf8_cut) and "..." if it is longer;
   what could be read of it and "..." if it becomes unreadable,
   "(unreadable)" if none of it can be.

   The bytes are read straight into the stream, after a one-byte head (no
   buffer on the stack, whatever DSPROF_STRMAX is): at most DSPROF_STRMAX + 1
   of them, the one past the limit telling a longer string.  The room the
   event reserved covers them (MAX_STR_VALUE); nothing is published before
   the event is whole.  */

static unsigned char *
put_str (unsigned char *p, const char *s, uint64_t bound)
{
  if (!s)
    return dsprof_encode_uleb (p, 0);
  size_t limit = dsprof_str_max ();
  char *buf = (char *) p + 1;
  size_t want = bound <= limit ? (size_t) bound : limit + 1;
  size_t got = dsprof_read_string (buf, s, want);
  size_t len = got && !buf[got - 1] ? got - 1 : got;
  if (len == got && got < want)
    {
      /* Unreadable from byte GOT on.  */
      if (got == 0)
        {
          static const char unreadable[] = "(unreadable)";
          memcpy (buf, unreadable, sizeof unreadable - 1);
          return put_text (p, sizeof unreadable - 1, 0);
        }
      return put_text (p, got, 1);
    }
  /* The NUL, the bound, or more than the limit.  */
  return put_kept (p, len, limit);
}

/* Encode value V of TYPE for dimension NAME_ID.  */

static unsigned char *
put_value (unsigned char *p, int type, uint64_t v, uint32_t name_id)
{
  switch (type)
    {
    case DSPROF_DIM_STR:
      return put_str (p, (const char *) (uintptr_t) v, UINT64_MAX);
    case DSPROF_DIM_PTR:
      {
        dsprof_formatter f = name_id ? formatter_for (name_id) : NULL;
        if (f && v)
          {
            /* The formatter writes straight into the stream, as put_str
               reads: after the text marker and a one-byte head, at most
               DSPROF_STRMAX + 2 bytes with its NUL (MAX_STR_VALUE).  */
            size_t limit = dsprof_str_max (), size = limit + 2;
            *p++ = 1;
            char *buf = (char *) p + 1;
            size_t n = f ((const void *) (uintptr_t) v, buf, size);
            if (n >= size)
              n = size - 1;
            return put_kept (p, strnlen (buf, n), limit);
          }
        return dsprof_encode_number (p, type, v);
      }
    default:
      return dsprof_encode_number (p, type, v);
    }
}

#endif /* DSPROF_STRVAL_H */
