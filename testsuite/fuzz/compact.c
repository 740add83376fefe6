/* compact.c - `compact IN OUT`: copy the profile IN to OUT with every events
   chunk cut to the pages its used bytes need (the runtime makes them large), so
   real profiles make small fuzz seeds.  Unit chunks (and the records of units
   chunks) are copied as they are, their counters_offset moved with them.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsprof-format.h"

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: compact IN OUT\n");
      return 1;
    }
  FILE *f = fopen (argv[1], "rb");
  if (!f)
    {
      perror (argv[1]);
      return 2;
    }
  fseek (f, 0, SEEK_END);
  long size = ftell (f);
  rewind (f);
  unsigned char *in = malloc ((size_t) size), *out = calloc (1, (size_t) size);
  if (!in || !out || fread (in, 1, (size_t) size, f) != (size_t) size)
    {
      perror (argv[1]);
      return 2;
    }
  fclose (f);
  struct dsprof_file_header *h = (void *) in;
  if ((long) h->end > size || h->end % DSPROF_PAGE)
    {
      fprintf (stderr, "%s: not a whole profile\n", argv[1]);
      return 2;
    }
  memcpy (out, in, DSPROF_PAGE);
  uint64_t o = DSPROF_PAGE;
  for (uint64_t off = DSPROF_PAGE; off < h->end;)
    {
      struct dsprof_chunk *ch = (void *) (in + off);
      if (ch->size < DSPROF_PAGE || ch->size % DSPROF_PAGE || ch->size > h->end - off)
        {
          fprintf (stderr, "%s: bad chunk at %llu\n", argv[1],
                   (unsigned long long) off);
          return 2;
        }
      uint64_t n = ch->size;
      if (ch->kind == DSPROF_CHUNK_EVENTS)
        {
          struct dsprof_events_chunk *e = (void *) ch;
          n = (sizeof *e + e->used + DSPROF_PAGE - 1) / DSPROF_PAGE * DSPROF_PAGE;
        }
      memcpy (out + o, ch, n);
      ((struct dsprof_chunk *) (out + o))->size = n;
      if (ch->kind == DSPROF_CHUNK_UNIT)
        ((struct dsprof_unit_chunk *) (out + o))->counters_offset += o - off;
      struct dsprof_units_chunk *us = (void *) (out + o);
      uint64_t at = sizeof *us;
      for (uint32_t i = 0; ch->kind == DSPROF_CHUNK_UNITS && i < us->nunits
                           && at + sizeof (struct dsprof_unit_chunk) <= n; i++)
        {
          struct dsprof_unit_chunk *u = (void *) (out + o + at);
          u->counters_offset += o - off;
          if (u->chunk.size == 0)
            break;
          at += u->chunk.size;
        }
      o += n;
      off += ch->size;
    }
  ((struct dsprof_file_header *) out)->end = o;
  f = fopen (argv[2], "wb");
  if (!f || fwrite (out, 1, o, f) != o || fclose (f))
    {
      perror (argv[2]);
      return 2;
    }
  return 0;
}
