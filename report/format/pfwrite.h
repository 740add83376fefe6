/* pfwrite.h - writing a profile image (include/dsprof-format.h, section 2), as
   `dsprof merge` does: the file header, unit chunks, events chunks, each
   padded to a page.

   The writer streams: a unit chunk goes out whole, an events chunk is built
   event by event in a buffer of one chunk's payload and goes out when it ends,
   and the header, known last, is written over the first page at the end.  Its
   events clock counts nanoseconds (DSPROF_CLOCK_NS, ns-per-tick 1), and every
   events chunk has base_ticks = base_ns, so that a reader maps each event's
   time back to exactly the ns given here (ev_stream_clock: every chunk's
   clock pair then puts the stream at the same origin, tick = ns).  Exactly
   for times below 2^53 ns (104 days), which the reader's double holds; a
   time past that comes only from a corrupt clock.  */

#ifndef DSPROF_PFWRITE_H
#define DSPROF_PFWRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dsprof-format.h"
#include "events.h"
#include "profile.h"

struct pw_writer
{
  FILE *f;
  uint64_t off;                  /* bytes written so far */
  /* The events chunk being built (open), its payload in buf.  */
  bool open;
  struct dsprof_events_chunk head;
  unsigned char *buf;
  size_t n, size;
  uint64_t last_ns;              /* of its latest event */
};

/* Start writing to F, at its beginning: the header's page, zeros for now.  */
void pw_begin (struct pw_writer *w, FILE *f);

/* Write unit U as a unit chunk: its metadata and its (summed) counters, its
   sites numbered from SITE_BASE (0: none).  */
void pw_unit (struct pw_writer *w, const struct pf_unit *u, uint32_t site_base);

/* Open the events chunk number SEQ of thread THREAD, its first event at NS.  */
void pw_events_open (struct pw_writer *w, uint32_t thread, uint32_t seq,
                     uint64_t ns);

/* Append event E to the open events chunk at E->ns (not before the chunk's
   previous event): its NAME ops, op, time, then ID (the site's id in the
   written file for ENTER, E's name id for START and DIM) and payload, both
   as in E->raw.  */
void pw_event (struct pw_writer *w, const struct ev_event *e, uint32_t id);

/* Append N bytes of stream at DATA to the open events chunk as they are (NAME
   ops: they hold no time).  */
void pw_events_copy (struct pw_writer *w, const void *data, size_t n);

/* Write the open events chunk, if any, with the recorder's COSTS as its
   trailer (NULL: none; dsprof-format.h, section 4).  */
void pw_events_close (struct pw_writer *w,
                      const struct dsprof_events_costs *costs);

/* Write header H over the first page, its magic, version, header size and
   committed length set here.  Return NULL or the problem.  */
const char *pw_finish (struct pw_writer *w, struct dsprof_file_header *h);

/* Free W's buffer.  */
void pw_free (struct pw_writer *w);

#endif /* DSPROF_PFWRITE_H */
