/* gen-image.c - `gen-image DIR`: write hand-built profiles, byte by byte from
   include/dsprof-format.h, into DIR as fuzz seeds:
     hand-min.data     the unit tests' image: one unit with a two-block function
                       and one event site f(int x) -> int, one thread's stream
                       with one Start/Finish pair;
     hand-tsc.data     hand-min.data with a 3 GHz TSC clock (ticks to ns by the
                       start and exit clock pairs);
     hand-manual.data  the same unit and, for thread 1, two event chunks: the pair
                       again, then names, manual events, dimensions of every type
                       added by hand, an abandoned event, and an event left open;
                       thread 2 with one pair;
     hand-refs.data    manual events with strings recorded again, stored as
                       references, in two chunks (see main).
   `gen-image DIR N` writes hand-names.data instead (see main).  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsprof-format.h"

#define META_OFF (DSPROF_PAGE + sizeof (struct dsprof_unit_chunk))

static unsigned char *image;
static size_t image_size = 8 * DSPROF_PAGE;

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

static void
put_rec (struct buf *b, unsigned tag, const struct buf *rec)
{
  put_u (b, tag);
  put_u (b, rec->n);
  memcpy (b->p + b->n, rec->p, rec->n);
  b->n += rec->n;
}

/* Header and unit chunk [4096, 12288); return the offset after it.  */
static size_t
put_unit (void)
{
  memset (image, 0, image_size);
  struct dsprof_file_header *h = (void *) image;
  memcpy (h->magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE);
  h->version = DSPROF_FORMAT_VERSION;
  h->header_size = DSPROF_PAGE;
  h->pid = 42;
  h->ppid = 1;
  h->start_mono_ns = 1000;
  h->stop_mono_ns = 1000 + 5000;
  h->clock = DSPROF_CLOCK_NS;
  h->pair_overhead_ps = 1500;
  strcpy (h->exe, "/bin/test");

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

  struct dsprof_unit_chunk *u = (void *) (image + DSPROF_PAGE);
  u->chunk.kind = DSPROF_CHUNK_UNIT;
  u->chunk.size = 2 * DSPROF_PAGE;
  u->chunk.check = dsprof_meta_hash (image + META_OFF, m.n);
  u->ncounters = DSPROF_COUNTERS_PER_PAGE;
  u->meta_size = (uint32_t) m.n;
  u->counters_offset = 2 * DSPROF_PAGE;
  u->site_base = 1;
  u->nsites = 1;
  uint64_t *counters = (void *) (image + 2 * DSPROF_PAGE);
  counters[0] = 7;
  counters[1] = 5;
  return 3 * DSPROF_PAGE;
}

/* An events chunk at OFF for THREAD, chunk SEQ of it; return its stream.  */
static struct buf
events_chunk (size_t off, uint32_t thread, uint32_t seq, uint64_t base)
{
  struct dsprof_events_chunk *e = (void *) (image + off);
  e->chunk.kind = DSPROF_CHUNK_EVENTS;
  e->chunk.size = DSPROF_PAGE;
  e->thread = thread;
  e->seq = seq;
  e->base_ticks = base;
  e->base_ns = base;
  struct buf s = { (unsigned char *) (e + 1), 0 };
  return s;
}

static void
end_chunk (size_t off, const struct buf *s)
{
  ((struct dsprof_events_chunk *) (image + off))->used = s->n;
}

/* f(x = -3) = 7 at +5 ns for 10 ns.  */
static void
put_pair (struct buf *s)
{
  put_u (s, DSPROF_OP_ENTER); put_u (s, 5); put_u (s, 1); put_u (s, 5);
  put_u (s, DSPROF_OP_EXIT); put_u (s, 10); put_u (s, 14);
}

static void
write_image (const char *dir, const char *name, size_t end)
{
  ((struct dsprof_file_header *) image)->end = end;
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen (path, "wb");
  if (!f || fwrite (image, 1, end, f) != end || fclose (f))
    {
      perror (path);
      exit (2);
    }
}

int
main (int argc, char **argv)
{
  if (argc != 2 && argc != 3)
    {
      fprintf (stderr, "usage: gen-image DIR [N]\n");
      return 1;
    }
  if (argc == 3)
    {
      /* hand-names.data: the unit, then N one-page event chunks of thread 1,
         each defining name id 2^24 (the largest the reader takes) as "x" and
         recording one manual event x with it: N records.  */
      unsigned long n = strtoul (argv[2], NULL, 10);
      image_size = (3 + n) * DSPROF_PAGE;
      image = malloc (image_size);
      if (!image)
        return 2;
      size_t off = put_unit ();
      for (unsigned long k = 0; k < n; k++, off += DSPROF_PAGE)
        {
          struct buf s = events_chunk (off, 1, (uint32_t) k, 2000 + 10 * k);
          put_u (&s, DSPROF_OP_NAME); put_u (&s, 1u << 24); put_s (&s, "x");
          put_u (&s, DSPROF_OP_START); put_u (&s, 1); put_u (&s, 1u << 24);
          put_u (&s, DSPROF_OP_FINISH); put_u (&s, 2);
          end_chunk (off, &s);
        }
      write_image (argv[1], "hand-names.data", off);
      return 0;
    }
  image = malloc (image_size);
  if (!image)
    return 2;
  size_t off = put_unit ();
  struct buf s = events_chunk (off, 1, 0, 2000);
  put_pair (&s);
  end_chunk (off, &s);
  write_image (argv[1], "hand-min.data", off + DSPROF_PAGE);

  /* hand-tsc.data: hand-min.data with a 3 GHz invariant TSC clock measured
     over a 100 ms run.  */
  off = put_unit ();
  struct dsprof_file_header *h = (void *) image;
  h->clock = DSPROF_CLOCK_TSC;
  h->stop_mono_ns = h->start_mono_ns + 100000000;
  h->start_ticks = 5000;
  h->stop_ticks = 5000 + 300000000;
  h->tick_hz = 3000000000u;
  s = events_chunk (off, 1, 0, 8000);
  ((struct dsprof_events_chunk *) (image + off))->base_ns = 2000;
  put_pair (&s);
  end_chunk (off, &s);
  write_image (argv[1], "hand-tsc.data", off + DSPROF_PAGE);

  off = put_unit ();
  s = events_chunk (off, 1, 0, 2000);
  put_pair (&s);
  end_chunk (off, &s);
  off += DSPROF_PAGE;
  s = events_chunk (off, 2, 0, 2100);
  put_pair (&s);
  end_chunk (off, &s);
  off += DSPROF_PAGE;
  s = events_chunk (off, 1, 1, 3000);
  put_u (&s, DSPROF_OP_NAME); put_u (&s, 1); put_s (&s, "Phase");
  static const char *const dims[] = { "note", "u", "b", "e", "d", "s", "p",
                                      "fp", "null" };
  for (unsigned i = 0; i < 9; i++)
    {
      put_u (&s, DSPROF_OP_NAME); put_u (&s, 2 + i); put_s (&s, dims[i]);
    }
  put_u (&s, DSPROF_OP_START); put_u (&s, 1); put_u (&s, 1);
  put_u (&s, DSPROF_OP_DIM); put_u (&s, 2); put_u (&s, 2);
  put_u (&s, DSPROF_DIM_INT); put_u (&s, 9);
  put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 3);
  put_u (&s, DSPROF_DIM_UINT); put_u (&s, 12345);
  put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 4);
  put_u (&s, DSPROF_DIM_BOOL); put_u (&s, 1);
  put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 5);
  put_u (&s, DSPROF_DIM_ENUM); put_u (&s, 3);
  put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 6);
  put_u (&s, DSPROF_DIM_DOUBLE);
  double d = 0.5;
  memcpy (s.p + s.n, &d, 8);
  s.n += 8;
  put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 7);
  put_u (&s, DSPROF_DIM_STR); put_u (&s, (5 << 1 | 1) + 1);
  memcpy (s.p + s.n, "a b=c", 5);
  s.n += 5;
  put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 8);
  put_u (&s, DSPROF_DIM_PTR); put_u (&s, 0); put_u (&s, 0xdeadbeef);
  put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 9);
  put_u (&s, DSPROF_DIM_PTR); put_u (&s, 1); put_u (&s, (4 << 1) + 1);
  memcpy (s.p + s.n, "P(1)", 4);
  s.n += 4;
  put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 10);
  put_u (&s, DSPROF_DIM_STR); put_u (&s, 0);
  put_pair (&s);
  put_u (&s, DSPROF_OP_START); put_u (&s, 1); put_u (&s, 1);
  put_u (&s, DSPROF_OP_ENTER); put_u (&s, 2); put_u (&s, 1); put_u (&s, 1);
  put_u (&s, DSPROF_OP_ABANDON); put_u (&s, 3);
  put_u (&s, DSPROF_OP_FINISH); put_u (&s, 4);
  put_u (&s, DSPROF_OP_FINISH); put_u (&s, 5);
  put_u (&s, DSPROF_OP_START); put_u (&s, 6); put_u (&s, 1);
  end_chunk (off, &s);
  off += DSPROF_PAGE;
  write_image (argv[1], "hand-manual.data", off);

  /* hand-refs.data: strings recorded again, stored as references (section
     4).  Thread 1's first chunk: a manual event whose string dims define
     string 0, refer to it as a STR and as a PTR's text, hold a short string
     (which defines none), define string 1 (cut: truncated) and refer to both;
     its second chunk: string 0's text again, defined anew as that chunk's
     string 0, and a reference to it.  */
  off = put_unit ();
  for (uint32_t seq = 0; seq < 2; seq++, off += DSPROF_PAGE)
    {
      s = events_chunk (off, 1, seq, 2000 + 1000 * seq);
      put_u (&s, DSPROF_OP_NAME); put_u (&s, 1); put_s (&s, "Query");
      put_u (&s, DSPROF_OP_NAME); put_u (&s, 2); put_s (&s, "sql");
      put_u (&s, DSPROF_OP_NAME); put_u (&s, 3); put_s (&s, "obj");
      put_u (&s, DSPROF_OP_START); put_u (&s, 1); put_u (&s, 1);
      put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 2);
      put_u (&s, DSPROF_DIM_STR); put_u (&s, (16 << 1) + 1);
      memcpy (s.p + s.n, "SELECT * FROM t;", 16);
      s.n += 16;
      put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 2);
      put_u (&s, DSPROF_DIM_STR); put_u (&s, DSPROF_STR_REF); put_u (&s, 0);
      if (seq == 0)
        {
          put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 3);
          put_u (&s, DSPROF_DIM_PTR); put_u (&s, 1);
          put_u (&s, DSPROF_STR_REF); put_u (&s, 0);
          put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 2);
          put_u (&s, DSPROF_DIM_STR); put_u (&s, (5 << 1) + 1);
          memcpy (s.p + s.n, "short", 5);
          s.n += 5;
          put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 2);
          put_u (&s, DSPROF_DIM_STR); put_u (&s, (20 << 1 | 1) + 1);
          memcpy (s.p + s.n, "SELECT * FROM users;", 20);
          s.n += 20;
          for (unsigned k = 2; k-- > 0;)
            {
              put_u (&s, DSPROF_OP_DIM); put_u (&s, 1); put_u (&s, 2);
              put_u (&s, DSPROF_DIM_STR); put_u (&s, DSPROF_STR_REF); put_u (&s, k);
            }
        }
      put_u (&s, DSPROF_OP_FINISH); put_u (&s, 1);
      end_chunk (off, &s);
    }
  write_image (argv[1], "hand-refs.data", off);
  return 0;
}
