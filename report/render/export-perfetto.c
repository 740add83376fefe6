/* export-perfetto.c - `dsprof export --format perfetto` (docs/contract.md
   §5.8): Perfetto's protobuf trace, slices per process and thread, streamed
   as the events are decoded; pb.h writes the encoding.  */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "aggregate.h"
#include "exit.h"
#include "files.h"
#include "profile.h"
#include "query.h"
#include "text.h"
#include "export.h"
#include "pb.h"

/* Perfetto's native trace (perfetto.protos.Trace: a TracePacket per message),
   written as the walker delivers the events, in memory bounded by the depth
   and the interning tables: a TrackDescriptor per process and per thread,
   then per thread a packet sequence of TrackEvents, a slice begin at every
   Start and a slice end at every Finish or repair.  A record's dimensions are
   its slice's: event is the category, name the slice's name, thread its
   track, a site's file and line its source location (all interned per
   sequence), the others debug annotations (Start's on the begin; the result,
   those added and complete on the end), typed: integers, booleans and
   doubles as such, pointers as pointers, the rest as text.  */

enum
{
  TR_PACKET = 1,
  TP_TIMESTAMP = 8, TP_SEQUENCE_ID = 10, TP_TRACK_EVENT = 11, TP_INTERNED = 12,
  TP_FLAGS = 13, TP_DEFAULTS = 59, TP_TRACK_DESCRIPTOR = 60,
  SEQ_CLEARED = 1, SEQ_NEEDS_STATE = 2,
  TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT = 5,
  TE_CATEGORY = 3, TE_ANNOTATION = 4, TE_TYPE = 9, TE_NAME = 10, TE_TRACK = 11,
  TE_SOURCE_LOCATION = 34,
  TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2,
  /* InternedData's tables, in the order of the kinds below.  */
  ID_CATEGORY = 1, ID_NAME = 2, ID_ANNOTATION_NAME = 3, ID_SOURCE_LOCATION = 4
};

/* Interned strings of one kind (the InternedData field) per sequence.  */
enum { PF_CATEGORY, PF_NAME, PF_ANNOTATION_NAME, PF_LOCATION, PF_KINDS };
static const uint32_t pf_kind_field[PF_KINDS] = { ID_CATEGORY, ID_NAME,
                                                 ID_ANNOTATION_NAME,
                                                 ID_SOURCE_LOCATION };

/* Entries a sequence interns before it starts afresh (SEQ_CLEARED): the
   bound on the tables' memory, whatever the names.  */
#define PF_INTERN_MAX 4096

struct pf_interned
{
  uint32_t kind;
  uint32_t len;
  uint64_t iid;
  char s[];                      /* LEN bytes */
};

struct perfetto
{
  FILE *out;
  struct pb packet, event, interned, ann;
  struct pb head;                /* a packet's tag and length */
  htab_t table;                  /* struct pf_interned, this sequence's */
  struct pf_interned *key;       /* pf_intern's lookup key */
  size_t key_size;
  uint64_t next_iid[PF_KINDS];   /* never reused, also across resets */
  uint32_t sequence;             /* this thread's trusted_packet_sequence_id */
  uint64_t track;                /* its track's uuid */
  bool cleared;                  /* the next packet starts the sequence afresh */
  uint64_t offset_ns;
  struct added_stack open;
};

static hashval_t
pf_interned_hash (const void *p)
{
  const struct pf_interned *a = p;
  return iterative_hash (a->s, a->len, a->kind);
}

static int
pf_interned_eq (const void *p, const void *q)
{
  const struct pf_interned *a = p, *b = q;
  return a->kind == b->kind && a->len == b->len && !memcmp (a->s, b->s, a->len);
}

/* The iid of the LEN bytes at S of KIND in this sequence, added to the
   packet's InternedData if new.  For a source location S is the file, a NUL
   and the line in decimal.  */

static uint64_t
pf_intern (struct perfetto *pf, uint32_t kind, const char *s, size_t len)
{
  /* The key is built in PF->key, copied only when new.  */
  if (sizeof *pf->key + len > pf->key_size)
    {
      pf->key_size = 2 * (sizeof *pf->key + len);
      free (pf->key);
      pf->key = xmalloc (pf->key_size);
    }
  pf->key->kind = kind;
  pf->key->len = (uint32_t) len;
  memcpy (pf->key->s, s, len);
  void **slot = htab_find_slot (pf->table, pf->key, INSERT);
  if (*slot)
    return ((struct pf_interned *) *slot)->iid;
  struct pf_interned *k = xmalloc (sizeof *k + len);
  memcpy (k, pf->key, sizeof *k + len);
  k->iid = ++pf->next_iid[kind];
  *slot = k;
  size_t m = pb_open (&pf->interned, pf_kind_field[kind]);
  pb_uint (&pf->interned, 1, k->iid);
  if (kind == PF_LOCATION)
    {
      /* SourceLocation: file_name 2, line_number 4.  */
      size_t flen = strlen (s);
      pb_text (&pf->interned, 2, s, flen);
      pb_uint (&pf->interned, 4, strtoull (s + flen + 1, NULL, 10));
    }
  else
    pb_text (&pf->interned, 2, s, len);
  pb_close (&pf->interned, m);
  return k->iid;
}

/* Write the packet built in PF->packet as a Trace's packet.  */

static void
pf_write (struct perfetto *pf)
{
  struct pb *h = &pf->head;
  pb_reset (h);
  pb_varint (h, TR_PACKET << 3 | PB_LEN);
  pb_varint (h, pf->packet.len);
  fwrite (h->buf, 1, h->len, pf->out);
  fwrite (pf->packet.buf, 1, pf->packet.len, pf->out);
  pb_reset (&pf->packet);
}

/* The debug annotation of dimension D into PF->ann: its name interned, or
   with INLINE written out (for an annotation kept until the slice ends, when
   the interned names may have started afresh).  */

static void
pf_annotation (struct perfetto *pf, const struct ev_dim *d, bool inline_name)
{
  size_t m = pb_open (&pf->ann, TE_ANNOTATION);
  if (inline_name)
    pb_text (&pf->ann, 10, d->name, strlen (d->name));
  else
    pb_uint (&pf->ann, 1,
             pf_intern (pf, PF_ANNOTATION_NAME, d->name, strlen (d->name)));
  const struct ev_value *v = &d->v;
  char buf[EV_VALUE_SIZE];
  switch (v->type)
    {
    case DSPROF_DIM_INT: pb_int (&pf->ann, 4, v->i); break;
    case DSPROF_DIM_UINT: pb_uint (&pf->ann, 3, v->u); break;
    case DSPROF_DIM_BOOL: pb_uint (&pf->ann, 2, v->u != 0); break;
    case DSPROF_DIM_DOUBLE: pb_double (&pf->ann, 5, v->d); break;
    default:
      if (v->type == DSPROF_DIM_PTR && !v->text)
        pb_uint (&pf->ann, 7, v->u);
      else
        {
          /* Text: strings, enumerators, a formatter's text.  */
          const char *t = ev_format_value (v, buf, sizeof buf);
          pb_text (&pf->ann, 6, t, strlen (t));
        }
    }
  pb_close (&pf->ann, m);
}

/* The packet's sequence and FLAGS, with SEQ_CLEARED and the sequence's
   defaults (the thread's track) when it starts afresh.  */

static void
pf_sequence (struct perfetto *pf, uint32_t flags)
{
  pb_uint (&pf->packet, TP_SEQUENCE_ID, pf->sequence);
  if (pf->cleared)
    {
      pb_uint (&pf->packet, TP_FLAGS, flags | SEQ_CLEARED);
      size_t d = pb_open (&pf->packet, TP_DEFAULTS);
      size_t t = pb_open (&pf->packet, 11);
      pb_uint (&pf->packet, TE_TRACK, pf->track);
      pb_close (&pf->packet, t);
      pb_close (&pf->packet, d);
      pf->cleared = false;
    }
  else if (flags)
    pb_uint (&pf->packet, TP_FLAGS, flags);
}

/* Write the TrackEvent in PF->event (and the annotations in PF->ann) as a
   packet at NS, with what it interned.  */

static void
pf_event_packet (struct perfetto *pf, uint64_t ns)
{
  pb_uint (&pf->packet, TP_TIMESTAMP, pf->offset_ns + ns);
  pf_sequence (pf, SEQ_NEEDS_STATE);
  size_t m = pb_open (&pf->packet, TP_TRACK_EVENT);
  pb_raw (&pf->packet, pf->event.buf, pf->event.len);
  pb_raw (&pf->packet, pf->ann.buf, pf->ann.len);
  pb_close (&pf->packet, m);
  if (pf->interned.len)
    pb_bytes (&pf->packet, TP_INTERNED, pf->interned.buf, pf->interned.len);
  pb_reset (&pf->event);
  pb_reset (&pf->ann);
  pb_reset (&pf->interned);
  pf_write (pf);
}

/* The dimensions a Start carries as its slice's name, category, track and
   source location rather than as annotations: a site's event, name, file,
   line and thread, a manual event's event, name and thread (events.c puts
   them first).  */

static uint32_t
pf_intrinsic (const struct ev_event *e)
{
  return e->raw.op == DSPROF_OP_ENTER ? 5 : 3;
}

static int
perfetto_event (const struct ev_event *e, void *arg)
{
  struct perfetto *pf = arg;
  /* Start the interning afresh when the tables are full, between packets
     (a packet's entries are the packet's).  */
  if (htab_elements (pf->table) >= PF_INTERN_MAX)
    {
      htab_empty (pf->table);
      pf->cleared = true;
    }
  if (e->kind == EV_DIM)
    {
      if (!pf->open.depth)
        return 0;
      struct added *o = &pf->open.open[pf->open.depth - 1];
      struct pb b = { (unsigned char *) o->bytes, o->len, o->len };
      for (uint32_t i = 0; i < e->ndims; i++)
        /* The end's own complete says how the event ended.  */
        if (!added_before (o, e->dims[i].name)
            && strcmp (e->dims[i].name, "complete") != 0)
          {
            pf_annotation (pf, &e->dims[i], true);
            pb_raw (&b, pf->ann.buf, pf->ann.len);
            pb_reset (&pf->ann);
            added_name (o, e->dims[i].name);
          }
      o->bytes = (char *) b.buf;
      o->len = b.len;
      return 0;
    }
  if (e->kind == EV_START)
    {
      added_push (&pf->open);
      size_t len;
      const char *name = ev_name_of_dims (e->dims, e->ndims, e->type, &len);
      pb_uint (&pf->event, TE_TYPE, TYPE_SLICE_BEGIN);
      pb_uint (&pf->event, TE_NAME, pf_intern (pf, PF_NAME, name, len));
      pb_uint (&pf->event, TE_CATEGORY,
               pf_intern (pf, PF_CATEGORY, e->type, strlen (e->type)));
      uint32_t skip = pf_intrinsic (e);
      if (skip == 5 && e->ndims >= 5)
        {
          char loc[DSPROF_STR_MAX + 32];
          const struct ev_value *file = &e->dims[2].v, *line = &e->dims[3].v;
          int n = snprintf (loc, sizeof loc, "%.*s%c%" PRIu64,
                            file->s ? (int) file->len : 0, file->s ? file->s : "",
                            '\0', line->u);
          pb_uint (&pf->event, TE_SOURCE_LOCATION,
                   pf_intern (pf, PF_LOCATION, loc, (size_t) n));
        }
      for (uint32_t i = skip; i < e->ndims; i++)
        pf_annotation (pf, &e->dims[i], false);
      pf_event_packet (pf, e->ns);
      return 0;
    }
  /* Finish or repair: the result, the added dims, complete.  */
  struct added *o = pf->open.depth ? &pf->open.open[--pf->open.depth] : NULL;
  pb_uint (&pf->event, TE_TYPE, TYPE_SLICE_END);
  for (uint32_t i = 0; i < e->ndims; i++)
    if (!o || !added_before (o, e->dims[i].name))
      pf_annotation (pf, &e->dims[i], false);
  if (o && o->len)
    pb_raw (&pf->ann, o->bytes, o->len);
  struct ev_dim complete = { "complete", { .type = DSPROF_DIM_BOOL,
                                           .u = e->kind == EV_FINISH } };
  pf_annotation (pf, &complete, false);
  if (o)
    added_free (o);
  pf_event_packet (pf, e->ns);
  return 0;
}

/* A TrackDescriptor packet: track UUID under PARENT (0: none), for process
   PID (TID < 0) or its thread TID, named NAME.  A thread's starts its packet
   sequence; a process's is a sequence of its own.  */

static void
pf_track (struct perfetto *pf, uint64_t uuid, uint64_t parent, int64_t pid,
          int64_t tid, const char *name)
{
  size_t m = pb_open (&pf->packet, TP_TRACK_DESCRIPTOR);
  pb_uint (&pf->packet, TD_UUID, uuid);
  if (parent)
    pb_uint (&pf->packet, TD_PARENT, parent);
  size_t d = pb_open (&pf->packet, tid < 0 ? TD_PROCESS : TD_THREAD);
  pb_int (&pf->packet, 1, pid);
  if (tid >= 0)
    pb_int (&pf->packet, 2, tid);
  /* process_name 6, thread_name 5.  */
  pb_text (&pf->packet, tid < 0 ? 6 : 5, name, strlen (name));
  pb_close (&pf->packet, d);
  pb_close (&pf->packet, m);
  pf_sequence (pf, 0);
  pf_write (pf);
}

int
export_perfetto (const struct export_input *in, FILE *out)
{
  struct pf_set *set = in->set;
  struct perfetto pf;
  memset (&pf, 0, sizeof pf);
  pf.out = out;
  pf.table = htab_create_alloc (256, pf_interned_hash, pf_interned_eq, free,
                                xcalloc, free);
  uint64_t first = first_start (set);
  /* A thread's tid: its process's pid for the first, past any pid (Linux's
     pid_max is at most 2^22) for the others, unique in the trace, which
     names threads by tid.  */
  int64_t next_tid = 1 << 22;
  int rc = 0;
  for (uint32_t i = 0; i < set->nprocs && !rc; i++)
    {
      const struct pf_process *p = &set->procs[i];
      int64_t pid = process_pid (set, i);
      uint64_t process = (uint64_t) (i + 1) << 32;
      pf.offset_ns = p->header.start_ns - first;
      pf.sequence++;
      pf.cleared = false;
      pf_track (&pf, process, 0, pid, -1, p->header.exe);
      for (uint32_t k = 0; k < p->nstreams && !rc; k++)
        {
          char name[32];
          snprintf (name, sizeof name, "thread %u", p->streams[k].thread);
          pf.track = process | (k + 1);
          pf.sequence++;
          htab_empty (pf.table);
          pf.cleared = true;
          pf_track (&pf, pf.track, process, pid, k ? next_tid++ : pid, name);
          rc = pf_decode_stream (p, &p->streams[k], perfetto_event, NULL, &pf, 0);
          added_clear (&pf.open);
        }
    }
  free (pf.open.open);
  htab_delete (pf.table);
  pb_free (&pf.packet);
  pb_free (&pf.event);
  pb_free (&pf.interned);
  pb_free (&pf.ann);
  pb_free (&pf.head);
  free (pf.key);
  return rc;
}
