/* dsprof-format.h - the one description of dsprof's data, shared by the GCC plugin
   (C++), the runtime and the report tool (C11).

   1. The compiler-runtime ABI
   ---------------------------
   For every instrumented translation unit the plugin emits

     static uint64_t __dsprof_counters[N] __attribute__((aligned(4096)));
         N is a multiple of DSPROF_COUNTERS_PER_PAGE, so the array owns whole pages
         and the runtime can map the profile file over it (MAP_FIXED): the inline
         `counters[i]++` stays one RIP-relative add while the counts live in the file.
     static const char __dsprof_meta[M] = "...";
         the unit's metadata blob (section 3), copied verbatim into the profile.
     a constructor  __dsprof_register_unit_v1 (__dsprof_counters, N, __dsprof_meta, M);
     a destructor   __dsprof_unregister_unit_v1 (__dsprof_counters);

   The _v1 suffix changes whenever this ABI changes, so a plugin/runtime mismatch
   fails at link time.

   2. The profile file
   -------------------
   Host byte order (little-endian x86-64 and friends).  The file is a sequence of
   DSPROF_PAGE-aligned pieces:

     [0, 4096)           struct dsprof_file_header (mapped and updated by the writer)
     [4096, header.end)  chunks, each starting on a page boundary, each a whole number
                         of pages; a chunk is {struct dsprof_chunk, payload, padding}.

   The writer allocates a chunk's space, fills it, and only then publishes it by
   storing the new `end` in the header, so a reader never sees a half-written chunk
   header.  Counter pages of a published unit chunk keep changing while the program
   runs (they are the program's counters); a reader may read them at any time.

   Chunk kinds:
     DSPROF_CHUNK_UNIT   struct dsprof_unit_chunk, then meta_size bytes of metadata,
                         padding to a page, then ncounters uint64_t counters at file
                         offset counters_offset (page aligned, inside the chunk).

   3. Unit metadata blob
   ---------------------
   A sequence of ULEB128 numbers and strings (ULEB128 length, then bytes, no NUL).
   It opens with a header, then tagged records, so readers skip what they do not know:

     uleb DSPROF_META_VERSION
     str  source file, as given to the compiler
     str  compilation directory
     repeated:  uleb tag, uleb length, `length` bytes of record
       DSPROF_TAG_FILE      str path                 -> file index 0, 1, 2 ... in order
       DSPROF_TAG_FUNCTION  str name, uleb file, uleb line (of the definition),
                            uleb first_counter, uleb nblocks, then nblocks times:
                              uleb nlocs, nlocs x (uleb file, uleb line)
                            Block k of the function has counter first_counter + k.
                            Its first location is the block's line (its first located
                            statement); the others are every other line it holds
                            statements on (for listings), without duplicates.
   Counter indices of a unit's functions are disjoint and below the unit's ncounters.  */

#ifndef DSPROF_FORMAT_H
#define DSPROF_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DSPROF_MAGIC "DSPROF\x1a\x01"
#define DSPROF_MAGIC_SIZE 8
#define DSPROF_FORMAT_VERSION 1u
#define DSPROF_PAGE 4096u
#define DSPROF_COUNTERS_PER_PAGE (DSPROF_PAGE / 8u)
#define DSPROF_META_VERSION 1u

/* Byte 0 of the file.  All fields written by the runtime; `end` is the committed
   length and is the last thing written when a chunk is added.  */
struct dsprof_file_header
{
  char magic[DSPROF_MAGIC_SIZE];
  uint32_t version;          /* DSPROF_FORMAT_VERSION */
  uint32_t header_size;      /* DSPROF_PAGE */
  uint64_t end;              /* committed length of the file, a multiple of a page */
  int64_t pid;
  int64_t ppid;
  uint64_t start_ns;         /* CLOCK_REALTIME at start, ns since the epoch */
  uint64_t start_mono_ns;    /* CLOCK_MONOTONIC at start */
  uint64_t stop_mono_ns;     /* CLOCK_MONOTONIC at normal exit; 0 if the process never
                                got there (killed, crashed, _exit, still running) */
  uint64_t flags;            /* DSPROF_FLAG_* */
  uint64_t reserved[8];
  char exe[256];             /* /proc/self/exe or argv[0], NUL terminated */
};

#define DSPROF_FLAG_FORKED 1u     /* written by a forked child: counts from the fork */
#define DSPROF_FLAG_TRUNCATED 2u  /* the writer ran out of space: chunks are missing */

struct dsprof_chunk
{
  uint32_t kind;             /* DSPROF_CHUNK_* */
  uint32_t reserved;
  uint64_t size;             /* of the whole chunk, header included; pages */
};

#define DSPROF_CHUNK_UNIT 1u

struct dsprof_unit_chunk
{
  struct dsprof_chunk chunk;
  uint32_t ncounters;
  uint32_t meta_size;
  uint64_t counters_offset;  /* absolute file offset of the counters, page aligned */
  /* meta_size bytes of metadata follow */
};

#define DSPROF_TAG_FILE 1u
#define DSPROF_TAG_FUNCTION 2u

/* A bounded reader over a metadata blob.  On any overrun it sets ERR and returns 0
   forever after, so decoders can read a whole record and check once.  */
struct dsprof_cursor
{
  const unsigned char *p, *end;
  int err;
};

static inline uint64_t
dsprof_read_uleb (struct dsprof_cursor *c)
{
  uint64_t v = 0;
  unsigned shift = 0;
  while (!c->err)
    {
      if (c->p >= c->end || shift > 63)
        {
          c->err = 1;
          break;
        }
      unsigned char b = *c->p++;
      v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80))
        return v;
      shift += 7;
    }
  return 0;
}

/* Read a string: its bytes at *S (not NUL terminated), its length returned.  */
static inline size_t
dsprof_read_str (struct dsprof_cursor *c, const char **s)
{
  uint64_t n = dsprof_read_uleb (c);
  if (c->err || n > (uint64_t) (c->end - c->p))
    {
      c->err = 1;
      *s = "";
      return 0;
    }
  *s = (const char *) c->p;
  c->p += n;
  return (size_t) n;
}

/* Encode V at BUF (at least 10 bytes), return the number of bytes written.  */
static inline size_t
dsprof_put_uleb (unsigned char *buf, uint64_t v)
{
  size_t n = 0;
  do
    {
      unsigned char b = v & 0x7f;
      v >>= 7;
      buf[n++] = b | (v ? 0x80 : 0);
    }
  while (v);
  return n;
}

#endif /* DSPROF_FORMAT_H */
