/* names.c - `names OUT`: write a hand-built profile (include/dsprof-format.h)
   whose event chunks hold what is no event: a chunk of NAME ops only, NAME ops
   after a chunk's last event, a chunk with nothing in it.  Manual events only
   (no unit), a nanosecond clock whose ticks are the chunks' ns, so that a merge
   of it has as many bytes of stream, in as many chunks, as it has.

     thread 1  chunk 0: NAME outer
               chunk 1: NAME outer, START outer, NAME k, DIM k=7, NAME unused
               chunk 2: nothing
               chunk 3: NAME inner, START inner, FINISH, FINISH, NAME trailing
     thread 2  chunk 0: NAME t2, START t2 (left open: the reader closes it)
               chunk 1: NAME only  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsprof-format.h"

#define NCHUNKS 6
static unsigned char image[(1 + NCHUNKS) * DSPROF_PAGE];
static size_t off = DSPROF_PAGE;      /* of the next chunk */
static unsigned char *s;              /* the stream of the open chunk */
static size_t n;

static void
u (uint64_t v)
{
  n += dsprof_put_uleb (s + n, v);
}

static void
name (uint32_t id, const char *text)
{
  u (DSPROF_OP_NAME);
  u (id);
  u (strlen (text));
  memcpy (s + n, text, strlen (text));
  n += strlen (text);
}

/* Open chunk SEQ of THREAD, its clock pair at T (ticks = ns).  */

static void
chunk (uint32_t thread, uint32_t seq, uint64_t t)
{
  struct dsprof_events_chunk *c = (void *) (image + off);
  c->chunk.kind = DSPROF_CHUNK_EVENTS;
  c->chunk.size = DSPROF_PAGE;
  c->thread = thread;
  c->seq = seq;
  c->base_ticks = c->base_ns = t;
  s = (unsigned char *) (c + 1);
  n = 0;
}

static void
end_chunk (void)
{
  ((struct dsprof_events_chunk *) (image + off))->used = n;
  off += DSPROF_PAGE;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    return 1;
  struct dsprof_file_header *h = (void *) image;
  memcpy (h->magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE);
  h->version = DSPROF_FORMAT_VERSION;
  h->header_size = DSPROF_PAGE;
  h->pid = 4242;
  h->ppid = 1;
  h->start_ns = 1700000000000000000u;
  h->start_mono_ns = 1000;
  h->clock = DSPROF_CLOCK_NS;
  h->tick_hz = 1000000000u;
  h->pair_overhead_ps = 20000;
  strcpy (h->exe, "/hand/names");

  chunk (1, 0, 1000);
  name (1, "outer");
  end_chunk ();
  chunk (1, 1, 1100);
  name (1, "outer");
  u (DSPROF_OP_START); u (5); u (1);
  name (2, "k");
  u (DSPROF_OP_DIM); u (3); u (2); u (DSPROF_DIM_UINT); u (7);
  name (3, "unused");
  end_chunk ();
  chunk (1, 2, 1200);
  end_chunk ();
  chunk (1, 3, 1300);
  name (4, "inner");
  u (DSPROF_OP_START); u (10); u (4);
  u (DSPROF_OP_FINISH); u (20);
  u (DSPROF_OP_FINISH); u (30);
  name (5, "trailing");
  end_chunk ();
  chunk (2, 0, 1150);
  name (1, "t2");
  u (DSPROF_OP_START); u (0); u (1);
  end_chunk ();
  chunk (2, 1, 1400);
  name (9, "only");
  end_chunk ();

  h->end = off;
  FILE *f = fopen (argv[1], "wb");
  if (!f || fwrite (image, 1, off, f) != off || fclose (f))
    return 1;
  return 0;
}
