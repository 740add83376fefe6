/* pfwrite.c - writing a profile image (see pfwrite.h).  Write errors are left
   in the stream's error flag, for the caller's check when it closes it.  */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "pfwrite.h"

static const unsigned char zero_page[DSPROF_PAGE];

static uint64_t
page_round (uint64_t n)
{
  return (n + DSPROF_PAGE - 1) / DSPROF_PAGE * DSPROF_PAGE;
}

/* Write N bytes of DATA.  */

static void
put (struct pw_writer *w, const void *data, size_t n)
{
  if (n)
    fwrite (data, 1, n, w->f);
  w->off += n;
}

/* Write N bytes of DATA, then zeros up to a page boundary.  */

static void
put_padded (struct pw_writer *w, const void *data, size_t n)
{
  put (w, data, n);
  put (w, zero_page, (size_t) (page_round (w->off) - w->off));
}

void
pw_begin (struct pw_writer *w, FILE *f)
{
  memset (w, 0, sizeof *w);
  w->f = f;
  put (w, zero_page, DSPROF_PAGE);
}

void
pw_unit (struct pw_writer *w, const struct pf_unit *u, uint32_t site_base)
{
  struct dsprof_unit_chunk uc;
  memset (&uc, 0, sizeof uc);
  uint64_t counters = page_round (w->off + sizeof uc + u->meta_size);
  uint64_t end = page_round (counters + (uint64_t) u->ncounters * 8);
  uc.chunk.kind = DSPROF_CHUNK_UNIT;
  uc.chunk.check = dsprof_meta_hash (u->meta, u->meta_size);
  uc.chunk.size = end - w->off;
  uc.ncounters = u->ncounters;
  uc.meta_size = u->meta_size;
  uc.counters_offset = u->ncounters ? counters : 0;
  if (site_base)
    {
      uc.site_base = site_base;
      uc.nsites = u->nsites;
    }
  put (w, &uc, sizeof uc);
  put_padded (w, u->meta, u->meta_size);
  put_padded (w, u->counts, (size_t) u->ncounters * 8);
}

void
pw_events_open (struct pw_writer *w, uint32_t thread, uint32_t seq, uint64_t ns)
{
  memset (&w->head, 0, sizeof w->head);
  w->head.chunk.kind = DSPROF_CHUNK_EVENTS;
  w->head.thread = thread;
  w->head.seq = seq;
  /* Ticks are ns: the clock pair of every chunk is (ns, ns).  */
  w->head.base_ticks = w->head.base_ns = ns;
  w->open = true;
  w->n = 0;
  w->last_ns = ns;
}

/* Make room for N more bytes in the open chunk's payload; return where they
   go (a buffer also for N = 0: no offset is added to NULL).  */

static inline unsigned char *
room (struct pw_writer *w, size_t n)
{
  if (!w->buf || w->n + n > w->size)
    {
      w->size = w->size ? w->size : DSPROF_PAGE;
      while (w->n + n > w->size)
        w->size *= 2;
      w->buf = XRESIZEVEC (unsigned char, w->buf, w->size);
    }
  return w->buf + w->n;
}

/* Copy N bytes of DATA to P; return the end.  */

static inline unsigned char *
put_bytes (unsigned char *p, const void *data, size_t n)
{
  if (n)
    memcpy (p, data, n);
  return p + n;
}

void
pw_event (struct pw_writer *w, const struct ev_event *e, uint32_t id)
{
  const struct ev_raw *r = &e->raw;
  /* One reservation: names, op, delta and id (ten bytes each at most),
     payload.  */
  unsigned char *start = room (w, r->names_size + 21 + r->payload_size);
  unsigned char *p = put_bytes (start, r->names, r->names_size);
  *p++ = (unsigned char) r->op;
  p += dsprof_put_uleb (p, e->ns > w->last_ns ? e->ns - w->last_ns : 0);
  if (e->ns > w->last_ns)
    w->last_ns = e->ns;
  if (r->op == DSPROF_OP_ENTER || r->op == DSPROF_OP_START
      || r->op == DSPROF_OP_DIM || r->op == DSPROF_OP_OP
      || r->op == DSPROF_OP_NEXT)
    p += dsprof_put_uleb (p, id);
  p = put_bytes (p, r->payload, r->payload_size);
  w->n += (size_t) (p - start);
}

void
pw_events_copy (struct pw_writer *w, const void *data, size_t n)
{
  put_bytes (room (w, n), data, n);
  w->n += n;
}

void
pw_events_close (struct pw_writer *w, const struct dsprof_events_costs *costs)
{
  if (!w->open)
    return;
  size_t trailer = costs ? sizeof *costs : 0;
  w->head.used = w->n;
  w->head.chunk.size = page_round (sizeof w->head + w->n + trailer);
  put (w, &w->head, sizeof w->head);
  put (w, w->buf, w->n);
  uint64_t pad = w->head.chunk.size - sizeof w->head - w->n - trailer;
  for (; pad; pad -= pad < DSPROF_PAGE ? pad : DSPROF_PAGE)
    put (w, zero_page, pad < DSPROF_PAGE ? (size_t) pad : DSPROF_PAGE);
  if (costs)
    put (w, costs, sizeof *costs);
  w->open = false;
}

const char *
pw_finish (struct pw_writer *w, struct dsprof_file_header *h)
{
  memcpy (h->magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE);
  h->version = DSPROF_FORMAT_VERSION;
  h->header_size = DSPROF_PAGE;
  h->end = w->off;
  if (fseek (w->f, 0, SEEK_SET) < 0)
    return strerror (errno);
  fwrite (h, 1, sizeof *h, w->f);
  return NULL;
}

void
pw_free (struct pw_writer *w)
{
  free (w->buf);
  w->buf = NULL;
  w->size = w->n = 0;
}
