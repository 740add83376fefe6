/* profile.c - reading and checking profile files (see profile.h).  */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>

#include "libiberty.h"
#include "hashtab.h"
#include "costs.h"
#include "profile.h"
#include "files.h"
#include "flow.h"
#include "progress.h"

/* Units of the whole set, keyed by their metadata bytes.  */

static hashval_t
unit_hash (const void *p)
{
  const struct pf_unit *u = p;
  return dsprof_meta_hash (u->meta, u->meta_size);
}

static int
unit_eq (const void *p, const void *q)
{
  const struct pf_unit *a = p, *b = q;
  return a->meta_size == b->meta_size
         && memcmp (a->meta, b->meta, a->meta_size) == 0;
}

/* ---- profiles truncated while read ------------------------------------------------

   A profile is mapped, so a file cut short while dsprof reads it (by the program
   still writing it, or anyone else) makes a read of a page past its new end
   fault with SIGBUS, wherever the reading is: checking, decoding, merging.  The
   handler looks the faulting address up among the mappings; inside one, it
   says which file was cut, removes the outputs being written and exits with
   EXIT_DATA (2) - all async-signal-safe calls, none of the state the fault
   interrupted is used.  Any other SIGBUS goes to the handler there was before
   (the default action, or a fuzzer's or sanitizer's).  */

struct mapping
{
  const unsigned char *start;
  size_t size;
  const char *path;
};

static struct mapping *mappings;
static size_t nmappings, mappings_size;
static struct sigaction previous_sigbus;

static void
put_err (const char *s)
{
  ssize_t r = write (2, s, strlen (s));
  (void) r;
}

static void
on_sigbus (int sig, siginfo_t *si, void *uc)
{
  (void) uc;
  const unsigned char *addr = si->si_addr;
  for (size_t i = 0; i < nmappings; i++)
    if (addr >= mappings[i].start && addr - mappings[i].start
                                     < (ptrdiff_t) mappings[i].size)
      {
        put_err ("dsprof: '");
        put_err (mappings[i].path);
        put_err ("': file truncated while reading\n");
        output_unlink_all ();
        _exit (2);
      }
  /* Not a profile's page: the fault comes again, to the previous handler.  */
  sigaction (sig, &previous_sigbus, NULL);
}

static void
mapping_add (const unsigned char *start, size_t size, const char *path)
{
  if (!mappings_size)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_sigaction = on_sigbus;
      sa.sa_flags = SA_SIGINFO;
      sigemptyset (&sa.sa_mask);
      sigaction (SIGBUS, &sa, &previous_sigbus);
    }
  if (nmappings == mappings_size)
    {
      mappings_size = mappings_size ? 2 * mappings_size : 8;
      mappings = XRESIZEVEC (struct mapping, mappings, mappings_size);
    }
  mappings[nmappings++] = (struct mapping) { start, size, path };
}

static void
mapping_remove (const unsigned char *start)
{
  for (size_t i = 0; i < nmappings; i++)
    if (mappings[i].start == start)
      {
        mappings[i] = mappings[--nmappings];
        break;
      }
}

/* Format a problem into BUF and return it.  */

static const char *
problem (char *buf, size_t size, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf, size, fmt, ap);
  va_end (ap);
  return buf;
}

static char *
cursor_strdup (struct dsprof_cursor *c)
{
  const char *s;
  size_t n = dsprof_read_str (c, &s);
  return xstrndup (s, n);
}

/* Read the FILE record R of U's metadata: one more of U's files (*SIZE of
   them allocated).  */

static void
read_file_record (struct pf_unit *u, struct dsprof_cursor *r, uint32_t *size)
{
  if (u->nfiles == *size)
    {
      *size = *size ? 2 * *size : 8;
      u->files = XRESIZEVEC (const char *, u->files, *size);
    }
  u->files[u->nfiles++] = cursor_strdup (r);
}

/* Read into F the block table that ends the function record R: each block's
   source locations.  Return false if it is malformed.  */

static bool
read_blocks (struct pf_function *f, struct dsprof_cursor *r)
{
  for (uint32_t b = 0; b < f->nblocks && !r->err; b++)
    {
      uint64_t nlocs = dsprof_read_uleb (r);
      if (nlocs > (uint64_t) (r->end - r->p) / 2)
        r->err = 1;
      if (r->err)
        break;
      f->blocks[b].nlocs = (uint32_t) nlocs;
      f->blocks[b].locs = XNEWVEC (struct pf_loc, nlocs ? nlocs : 1);
      for (uint32_t k = 0; k < nlocs; k++)
        {
          f->blocks[b].locs[k].file = (uint32_t) dsprof_read_uleb (r);
          f->blocks[b].locs[k].line = (uint32_t) dsprof_read_uleb (r);
        }
    }
  return !r->err;
}

/* Read the FUNCTION record R of U's metadata: one more of U's functions
   (*SIZE of them allocated), with its blocks.  */

static const char *
read_function_record (struct pf_unit *u, struct dsprof_cursor *r,
                      uint32_t *size, char *buf, size_t bufsize)
{
  if (u->nfunctions == *size)
    {
      *size = *size ? 2 * *size : 16;
      u->functions = XRESIZEVEC (struct pf_function, u->functions, *size);
    }
  struct pf_function *f = &u->functions[u->nfunctions++];
  memset (f, 0, sizeof *f);
  f->name = cursor_strdup (r);
  f->file = (uint32_t) dsprof_read_uleb (r);
  f->line = (uint32_t) dsprof_read_uleb (r);
  uint64_t first = dsprof_read_uleb (r);
  uint64_t nblocks = dsprof_read_uleb (r);
  /* Every block takes at least one byte of the record.  */
  if (r->err || nblocks > (uint64_t) (r->end - r->p) || first > u->ncounters)
    return problem (buf, bufsize, "unit %s: function record %u is "
                    "malformed", u->source, u->nfunctions);
  f->first_counter = (uint32_t) first;
  f->nblocks = (uint32_t) nblocks;
  f->blocks = XCNEWVEC (struct pf_block, nblocks ? nblocks : 1);
  if (!read_blocks (f, r))
    return problem (buf, bufsize, "unit %s: function %s: malformed "
                    "block table", u->source, f->name);
  return NULL;
}

/* Read the FLOW record R of U's metadata, its last function's: check it
   against the function's blocks and counters and keep where it is.  */

static const char *
read_flow_record (struct pf_unit *u, struct dsprof_cursor *r, char *buf,
                  size_t bufsize)
{
  if (u->nfunctions == 0 || u->functions[u->nfunctions - 1].flow)
    return problem (buf, bufsize, "unit %s: flow record without its "
                    "function", u->source);
  struct pf_function *f = &u->functions[u->nfunctions - 1];
  const char *err;
  size_t len = (size_t) (r->end - r->p);
  if (flow_block_counts (r->p, len, f->nblocks, NULL,
                         u->ncounters - f->first_counter, NULL, &err)
      < 0)
    return problem (buf, bufsize, "unit %s: function %s: %s", u->source,
                    f->name, err);
  f->flow = r->p;
  f->flow_size = len;
  return NULL;
}

/* Read the BRANCHES record R of U's metadata, its last function's (checked
   with the others by check_functions): keep where it is.  */

static const char *
read_branches_record (struct pf_unit *u, struct dsprof_cursor *r, char *buf,
                      size_t bufsize)
{
  struct pf_function *f = u->nfunctions
                          ? &u->functions[u->nfunctions - 1] : NULL;
  if (!f || !f->flow || f->branches)
    return problem (buf, bufsize, "unit %s: branch record without its "
                    "function's flow record", u->source);
  f->branches = r->p;
  f->branches_size = (size_t) (r->end - r->p);
  return NULL;
}

/* Check what U's functions name once all its metadata is read: their files,
   branch records and counters.  */

static const char *
check_functions (struct pf_unit *u, char *buf, size_t bufsize)
{
  for (uint32_t i = 0; i < u->nfunctions; i++)
    {
      struct pf_function *f = &u->functions[i];
      if (f->file >= u->nfiles)
        return problem (buf, bufsize, "unit %s: function %s names file %u of %u",
                        u->source, f->name, f->file, u->nfiles);
      const char *bad = f->branches
                        ? flow_check_branches (f->branches, f->branches_size,
                                               f->flow, f->flow_size,
                                               u->nfiles)
                        : NULL;
      if (bad)
        return problem (buf, bufsize, "unit %s: function %s: %s", u->source,
                        f->name, bad);
      if (!f->flow && (uint64_t) f->first_counter + f->nblocks > u->ncounters)
        return problem (buf, bufsize, "unit %s: function %s has counters "
                        "beyond the unit's %u", u->source, f->name,
                        u->ncounters);
      for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t k = 0; k < f->blocks[b].nlocs; k++)
          if (f->blocks[b].locs[k].file >= u->nfiles)
            return problem (buf, bufsize, "unit %s: function %s: block %u "
                            "names file %u of %u", u->source, f->name, b,
                            f->blocks[b].locs[k].file, u->nfiles);
    }
  return NULL;
}

/* Parse the metadata of U (U->meta) for a unit of NCOUNTERS counters: its
   records one by one, then check_functions.  */

static const char *
parse_meta (struct pf_unit *u, char *buf, size_t bufsize)
{
  struct dsprof_meta m;
  struct dsprof_cursor r;
  uint64_t tag;
  int more;
  dsprof_meta_open (&m, u->meta, u->meta_size);
  /* A cut short header is malformed metadata (below), whatever its version.  */
  if (!m.c.err && m.version != DSPROF_META_VERSION)
    return problem (buf, bufsize, "unit metadata version %" PRIu64
                    ", this dsprof reads version %u", m.version,
                    DSPROF_META_VERSION);
  u->source = xstrndup (m.source, m.source_len);
  u->compdir = xstrndup (m.compdir, m.compdir_len);
  uint32_t files_size = 0, functions_size = 0;
  while ((more = dsprof_meta_next (&m, &tag, &r)) > 0)
    {
      const char *err = NULL;
      if (tag == DSPROF_TAG_FILE)
        read_file_record (u, &r, &files_size);
      else if (tag == DSPROF_TAG_FUNCTION)
        err = read_function_record (u, &r, &functions_size, buf, bufsize);
      else if (tag == DSPROF_TAG_FLOW)
        err = read_flow_record (u, &r, buf, bufsize);
      else if (tag == DSPROF_TAG_BRANCHES)
        err = read_branches_record (u, &r, buf, bufsize);
      /* DSPROF_TAG_SITE records are read by ev_sites_add_unit; unknown tags
         are skipped.  */
      if (err)
        return err;
    }
  if (more < 0)
    return problem (buf, bufsize, "unit %s: malformed metadata", u->source);
  return check_functions (u, buf, bufsize);
}

static void
unit_free (struct pf_unit *u)
{
  for (uint32_t i = 0; i < u->nfunctions; i++)
    {
      for (uint32_t b = 0; b < u->functions[i].nblocks; b++)
        free (u->functions[i].blocks[b].locs);
      free (u->functions[i].blocks);
      free ((char *) u->functions[i].name);
    }
  free (u->functions);
  for (uint32_t i = 0; i < u->nfiles; i++)
    free ((char *) u->files[i]);
  free (u->files);
  free ((char *) u->source);
  free ((char *) u->compdir);
  free (u->counts);
  free ((unsigned char *) u->meta);
  free (u);
}

/* Check the unit chunk CH at offset OFF of P, its counters in [LO, HI) (see
   add_unit): its metadata, where its counters are and its site range.  */

static const char *
check_unit_chunk (const struct pf_process *p,
                  const struct dsprof_unit_chunk *ch, uint64_t off,
                  uint64_t lo, uint64_t hi, char *buf, size_t bufsize)
{
  const unsigned char *meta = (const unsigned char *) (ch + 1);
  if (dsprof_meta_hash (meta, ch->meta_size) != ch->chunk.check)
    return problem (buf, bufsize, "unit chunk at offset %" PRIu64
                    ": metadata damaged (check word mismatch)", off);
  uint64_t bytes = (uint64_t) ch->ncounters * 8;
  int thread = DSPROF_CHUNK_KIND (ch->chunk.kind) == DSPROF_CHUNK_TUNIT;
  if (thread
      ? ch->counters_offset > DSPROF_SHARD_COUNTERS
        || ch->ncounters > DSPROF_SHARD_COUNTERS - ch->counters_offset
      : ch->ncounters
      && (ch->counters_offset % DSPROF_PAGE
          || ch->counters_offset < lo
          || ch->counters_offset > hi
          || bytes > hi - ch->counters_offset))
    return problem (buf, bufsize, "unit chunk at offset %" PRIu64
                    ": counters outside the chunk", off);
  /* Site ids are numbered from 1 across the process's units, each site with a
     record of several bytes in some unit's metadata: no id reaches the file's
     size.  */
  if ((ch->site_base == 0) != (ch->nsites == 0)
      || (uint64_t) ch->site_base + ch->nsites > p->size)
    return problem (buf, bufsize, "unit chunk at offset %" PRIu64
                    ": bad site range", off);
  return NULL;
}

/* The unit of SET whose metadata is CH's into *U: the one another chunk
   (of this profile or another) has, else a new one, parsed and numbered.  */

static const char *
intern_unit (struct pf_set *set, const struct dsprof_unit_chunk *ch,
             struct pf_unit **up, char *buf, size_t bufsize)
{
  const unsigned char *meta = (const unsigned char *) (ch + 1);
  struct pf_unit key;
  key.meta = meta;
  key.meta_size = ch->meta_size;
  if (!set->unit_index)
    set->unit_index = htab_create_alloc (64, unit_hash, unit_eq, NULL, xcalloc,
                                         free);
  struct pf_unit *u = htab_find (set->unit_index, &key);
  if (!u)
    {
      u = XCNEW (struct pf_unit);
      u->meta = xmemdup (meta, ch->meta_size, ch->meta_size + 1);
      u->meta_size = ch->meta_size;
      u->ncounters = ch->ncounters;
      u->nsites = ch->nsites;
      const char *err = parse_meta (u, buf, bufsize);
      if (err)
        {
          unit_free (u);
          return err;
        }
      u->counts = XCNEWVEC (uint64_t, u->ncounters ? u->ncounters : 1);
      *htab_find_slot (set->unit_index, u, INSERT) = u;
      u->index = set->nunits;
      set->units = XRESIZEVEC (struct pf_unit *, set->units, set->nunits + 1);
      set->units[set->nunits++] = u;
    }
  else if (u->ncounters != ch->ncounters)
    return problem (buf, bufsize, "unit %s: %u counters here, %u in the same "
                    "unit of another profile", u->source, ch->ncounters,
                    u->ncounters);
  *up = u;
  return NULL;
}

/* The unit at offset OFF of P: a unit chunk, or a record of a units chunk
   (then the record's chunk.size is its own size, checked by the caller).  Its
   counters lie in [LO, HI), LO past its metadata; 0 for both: in its chunk, past
   its metadata.  */

static const char *
add_unit (struct pf_set *set, struct pf_process *p, uint64_t off, uint64_t lo,
          uint64_t hi, char *buf, size_t bufsize)
{
  const struct dsprof_unit_chunk *ch
    = (const struct dsprof_unit_chunk *) (p->map + off);
  uint64_t size = ch->chunk.size;
  if (size < sizeof *ch || ch->meta_size > size - sizeof *ch)
    return problem (buf, bufsize, "unit chunk at offset %" PRIu64
                    ": metadata size %u exceeds the chunk", off, ch->meta_size);
  const unsigned char *meta = (const unsigned char *) (ch + 1);
  if (!hi)
    {
      lo = off + sizeof *ch + ch->meta_size;
      hi = off + size;
    }
  struct pf_unit *u = NULL;
  const char *err = check_unit_chunk (p, ch, off, lo, hi, buf, bufsize);
  if (err || (err = intern_unit (set, ch, &u, buf, bufsize)))
    return err;
  if (DSPROF_CHUNK_KIND (ch->chunk.kind) == DSPROF_CHUNK_TUNIT)
    {
      /* Summed over the process's shards once all are known (add_shards).  */
      p->tunits = XRESIZEVEC (struct pf_tunit, p->tunits, p->ntunits + 1);
      p->tunits[p->ntunits++] = (struct pf_tunit) { u, ch->counters_offset };
    }
  else
    {
      const uint64_t *counters
        = (const uint64_t *) (p->map + ch->counters_offset);
      for (uint32_t i = 0; i < ch->ncounters; i++)
        u->counts[i] += counters[i];
    }
  p->unit_sites = XRESIZEVEC (struct pf_unit_sites, p->unit_sites, p->nunits + 1);
  p->unit_sites[p->nunits++]
    = (struct pf_unit_sites) { u->index, ch->site_base, ch->nsites };
  p->ncounters += ch->ncounters;
  for (uint32_t k = 0; k < u->nfunctions; k++)
    p->nblocks += u->functions[k].nblocks;

  if (ch->nsites)
    {
      if (ev_sites_add_unit (&p->sites, meta, ch->meta_size, ch->site_base,
                             ch->nsites, &err) < 0)
        return problem (buf, bufsize, "unit %s: %s", u->source, err);
    }
  else
    ev_sites_add_asked (&p->sites, meta, ch->meta_size);
  return NULL;
}

/* The shard chunk at offset OFF of P (dsprof-format.h, section 2b).  */

static const char *
add_shard (struct pf_process *p, uint64_t off, char *buf, size_t bufsize)
{
  const struct dsprof_shard_chunk *ch = (const void *) (p->map + off);
  if (ch->ncounters > DSPROF_SHARD_COUNTERS
      || ch->first > DSPROF_SHARD_COUNTERS - ch->ncounters
      || ch->chunk.size != DSPROF_PAGE + ch->ncounters * 8)
    return problem (buf, bufsize, "shard chunk at offset %" PRIu64
                    ": bad size", off);
  p->shards = XRESIZEVEC (struct pf_segment, p->shards, p->nshards + 1);
  p->shards[p->nshards++]
    = (struct pf_segment) { off + DSPROF_PAGE, ch->first, ch->ncounters };
  return NULL;
}

/* Add the counts of P's units counted in shards: each counter the sum of its
   place in every shard of the process.  */

static void
add_shards (struct pf_process *p)
{
  for (uint32_t t = 0; t < p->ntunits; t++)
    {
      struct pf_unit *u = p->tunits[t].unit;
      uint64_t lo = p->tunits[t].index, hi = lo + u->ncounters;
      for (uint32_t k = 0; k < p->nshards; k++)
        {
          /* The unit's counters that the segment holds.  */
          const struct pf_segment *g = &p->shards[k];
          const uint64_t *c = (const uint64_t *) (p->map + g->off);
          uint64_t from = lo > g->first ? lo : g->first;
          uint64_t to = hi < g->first + g->n ? hi : g->first + g->n;
          for (uint64_t i = from; i < to; i++)
            u->counts[i - lo] += c[i - g->first];
        }
    }
  free (p->tunits);
  free (p->shards);
  p->tunits = NULL;
  p->shards = NULL;
  p->ntunits = p->nshards = 0;
}

/* The units chunk at offset OFF of P (a forked child's units): its records
   one by one, each inside the records, its counters past them.  */

static const char *
add_units (struct pf_set *set, struct pf_process *p, uint64_t off, char *buf,
           size_t bufsize)
{
  const struct dsprof_units_chunk *ch
    = (const struct dsprof_units_chunk *) (p->map + off);
  uint64_t size = ch->chunk.size, records = ch->records_size;
  if (records % 8 || records > size - sizeof *ch
      || ch->nunits > records / sizeof (struct dsprof_unit_chunk))
    return problem (buf, bufsize, "units chunk at offset %" PRIu64
                    ": %u units in %" PRIu64 " bytes of records exceed the chunk",
                    off, ch->nunits, records);
  uint64_t at = off + sizeof *ch, end = at + records;
  uint64_t lo = (end + DSPROF_PAGE - 1) / DSPROF_PAGE * DSPROF_PAGE;
  for (uint32_t i = 0; i < ch->nunits; i++)
    {
      const struct dsprof_chunk *rec = (const void *) (p->map + at);
      if (end - at < sizeof (struct dsprof_unit_chunk)
          || rec->kind != DSPROF_CHUNK_UNIT || rec->size % 8
          || rec->size < sizeof (struct dsprof_unit_chunk) || rec->size > end - at)
        return problem (buf, bufsize, "units chunk at offset %" PRIu64
                        ": bad record %u at offset %" PRIu64, off, i, at);
      const char *err = add_unit (set, p, at, lo, off + size, buf, bufsize);
      if (err)
        return err;
      at += rec->size;
    }
  if (at != end)
    return problem (buf, bufsize, "units chunk at offset %" PRIu64
                    ": %" PRIu64 " bytes of records after its %u units", off,
                    end - at, ch->nunits);
  return NULL;
}

/* The events chunks of a file as its chunk headers give them: sorted by thread
   and seq into streams without reading the headers again (each chunk's pages
   are given back once read: see parse_image).  */

struct echunk
{
  uint32_t thread;
  uint64_t seq;
  const struct dsprof_events_chunk *ch;
};

struct echunks
{
  struct echunk *v;
  size_t n, size;
};

/* The events chunk at offset OFF of P, into E.  */

static const char *
add_events (struct pf_process *p, struct echunks *e, uint64_t off, char *buf,
            size_t bufsize)
{
  const struct dsprof_events_chunk *ch
    = (const struct dsprof_events_chunk *) (p->map + off);
  if (ch->chunk.size < sizeof *ch || ch->used > ch->chunk.size - sizeof *ch)
    return problem (buf, bufsize, "events chunk at offset %" PRIu64
                    ": %" PRIu64 " bytes used exceed the chunk", off, ch->used);
  if (ch->thread == 0)
    return problem (buf, bufsize, "events chunk at offset %" PRIu64
                    ": thread number 0", off);
  if (e->n == e->size)
    {
      e->size = e->size ? 2 * e->size : 16;
      e->v = XRESIZEVEC (struct echunk, e->v, e->size);
    }
  e->v[e->n++] = (struct echunk) { ch->thread, ch->seq, ch };
  p->events += ch->used;
  return NULL;
}

static int
cmp_echunk (const void *a, const void *b)
{
  const struct echunk *x = a, *y = b;
  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* P's streams from the events chunks E: by thread, each chunk's seq its place.  */

static const char *
make_streams (struct pf_process *p, struct echunks *e, char *buf, size_t bufsize)
{
  if (e->n)
    qsort (e->v, e->n, sizeof *e->v, cmp_echunk);
  for (size_t i = 0; i < e->n;)
    {
      size_t j = i;
      while (j < e->n && e->v[j].thread == e->v[i].thread)
        j++;
      p->streams = XRESIZEVEC (struct ev_stream, p->streams, p->nstreams + 1);
      struct ev_stream *s = &p->streams[p->nstreams++];
      memset (s, 0, sizeof *s);
      s->thread = e->v[i].thread;
      s->chunks = XNEWVEC (const struct dsprof_events_chunk *, j - i);
      /* nchunks counts the chunks set: a stream left half-made by an error
         holds only those (process_free frees it).  */
      for (uint32_t k = 0; k < j - i; k++)
        {
          if (e->v[i + k].seq != k)
            return problem (buf, bufsize, "thread %u: event chunk %u %s", s->thread,
                            k, k < e->v[i + k].seq ? "is missing" : "appears twice");
          s->chunks[s->nchunks++] = e->v[i + k].ch;
        }
      i = j;
    }
  return NULL;
}

/* Ticks to ns for P, from its header: by the clock pairs at start and exit
   when the run was long enough to measure, else by the rate calibrated at
   start; and the recorder's costs its streams measured (costs_read_stream).  */

static void
set_clock (struct pf_process *p)
{
  const struct dsprof_file_header *h = &p->header;
  p->clock.start_mono_ns = h->start_mono_ns;
  p->clock.ns_per_tick = 1.0;
  if (h->clock == DSPROF_CLOCK_TSC)
    {
      if (h->stop_ticks > h->start_ticks
          && h->stop_mono_ns > h->start_mono_ns + 50000000)
        p->clock.ns_per_tick = (double) (h->stop_mono_ns - h->start_mono_ns)
                               / (double) (h->stop_ticks - h->start_ticks);
      else if (h->tick_hz)
        p->clock.ns_per_tick = 1e9 / (double) h->tick_hz;
    }
  for (uint32_t i = 0; i < p->nstreams; i++)
    costs_read_stream (p, &p->streams[i]);
}

/* The processes of an accumulated profile (include/dsprof-format.h, section
   2a), whose image P holds: P becomes its first process, *MORE (N of them)
   the others, which share P's mapping (their map_size is 0).  A chunk not
   written whole by a process that died (kind 0 or without its process, a
   page of zeros, a unit whose check word does not match) is skipped.  */

static void process_free (struct pf_process *p);

struct shared_proc
{
  struct pf_process p;
  uint64_t page;                 /* of its process chunk */
  struct echunks events;
};

/* The offset of the first page at or after OFF (a page boundary) that is
   not a hole of the file open as FD, or END if there is none: OFF itself if
   it is below *DATA_END, the end of the data it is known to be in.  In an
   accumulated profile the space of a chunk its writer could not allocate
   (a full disk: dsprof-format.h, section 2a) is a hole, and reading a hole
   of a tmpfs through the mapping allocates a page, which a full one cannot
   give (SIGBUS): such chunks are stepped over without a look.  Where the
   file system does not tell (FD -1: an image in memory), all is data.  */

static uint64_t
next_data (int fd, uint64_t off, uint64_t end, uint64_t *data_end)
{
  if (fd < 0 || off < *data_end)
    return off;
  off_t d = lseek (fd, (off_t) off, SEEK_DATA);
  if (d < 0)
    {
      if (errno == ENXIO)
        return end;             /* holes up to the end */
      *data_end = end;
      return off;
    }
  off_t h = lseek (fd, d, SEEK_HOLE);
  *data_end = h < 0 ? end : (uint64_t) h;
  return (uint64_t) d / DSPROF_PAGE * DSPROF_PAGE;
}

/* The index among the N processes V (in the order of their chunks) of the
   one whose process chunk is at page PROC, or N if none is.  */

static size_t
shared_process_at (const struct shared_proc *v, size_t n, uint64_t proc)
{
  size_t lo = 0, hi = n;
  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      if (v[mid].page < proc)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < n && v[lo].page == proc ? lo : n;
}

/* The process chunk PC at offset OFF of P, at page PROC: one more of the *N
   processes *V.  */

static const char *
add_shared_process (const struct pf_process *p,
                    const struct dsprof_process_chunk *pc, uint64_t off,
                    uint64_t proc, struct shared_proc **v, size_t *n,
                    char *buf, size_t bufsize)
{
  if (proc != off / DSPROF_PAGE || pc->header.clock > DSPROF_CLOCK_TSC)
    return problem (buf, bufsize, "process chunk at offset %" PRIu64
                    " is damaged", off);
  *v = XRESIZEVEC (struct shared_proc, *v, *n + 1);
  struct shared_proc *s = &(*v)[*n];
  memset (s, 0, sizeof *s);
  s->p.path = xstrdup (p->path);
  s->p.map = p->map;
  s->p.size = p->size;
  memcpy (&s->p.header, &pc->header, sizeof pc->header);
  s->p.header.exe[sizeof s->p.header.exe - 1] = '\0';
  s->page = proc;
  (*n)++;
  return NULL;
}

/* The chunk CH at offset OFF of P, SIZE bytes (checked): taken in by the
   process of the *N processes *V it names, or a new process.  */

static const char *
add_shared_chunk (struct pf_set *set, struct pf_process *p,
                  const struct dsprof_chunk *ch, uint64_t off, uint64_t size,
                  struct shared_proc **v, size_t *n, char *buf, size_t bufsize)
{
  uint32_t kind = DSPROF_CHUNK_KIND (ch->kind);
  uint64_t proc = DSPROF_CHUNK_PROC (ch->kind);
  if (!proc)
    return NULL;                /* not written whole */
  if (kind == DSPROF_CHUNK_PROCESS)
    return add_shared_process (p, (const void *) ch, off, proc, v, n, buf,
                               bufsize);
  /* Processes come in the order of their chunks.  */
  size_t k = shared_process_at (*v, *n, proc);
  if (k == *n)
    return problem (buf, bufsize, "chunk at offset %" PRIu64 ": its "
                    "process at page %" PRIu64 " is not one", off, proc);
  struct shared_proc *s = &(*v)[k];
  if (kind == DSPROF_CHUNK_UNIT || kind == DSPROF_CHUNK_TUNIT)
    {
      const struct dsprof_unit_chunk *uc = (const void *) ch;
      if (uc->meta_size <= size - sizeof *uc
          && dsprof_meta_hash (uc + 1, uc->meta_size) == ch->check)
        return add_unit (set, &s->p, off, 0, 0, buf, bufsize);
      return NULL;
    }
  if (kind == DSPROF_CHUNK_UNITS)
    return add_units (set, &s->p, off, buf, bufsize);
  if (kind == DSPROF_CHUNK_EVENTS)
    return add_events (&s->p, &s->events, off, buf, bufsize);
  if (kind == DSPROF_CHUNK_SHARD)
    return add_shard (&s->p, off, buf, bufsize);
  return problem (buf, bufsize, "chunk at offset %" PRIu64
                  ": unknown kind %u", off, kind);
}

/* Once the chunks of P are read into the N processes V (ERR: what was
   wrong, if anything): their counters, streams and clocks, and P as the
   first with *MORE the others; on an error, or with none, P alone.  */

static const char *
finish_shared (struct pf_process *p, struct shared_proc *v, size_t n,
               const char *err, char *buf, size_t bufsize,
               struct pf_process **more, uint32_t *nmore)
{
  for (size_t k = 0; k < n; k++)
    add_shards (&v[k].p);
  for (size_t k = 0; k < n && !err; k++)
    if (!(err = make_streams (&v[k].p, &v[k].events, buf, bufsize)))
      set_clock (&v[k].p);
  for (size_t k = 0; k < n; k++)
    free (v[k].events.v);
  if (err || n == 0)
    {
      for (size_t k = 0; k < n; k++)
        {
          process_free (&v[k].p);
          free ((char *) v[k].p.path);
        }
      free (v);
      set_clock (p);
      return err;
    }
  /* P, which keeps the mapping, becomes the first process.  */
  const char *path = p->path;
  const unsigned char *map = p->map;
  size_t map_size = p->map_size;
  *p = v[0].p;
  free ((char *) p->path);
  p->path = path;
  p->map = map;
  p->map_size = map_size;
  *more = XNEWVEC (struct pf_process, n);
  for (size_t k = 1; k < n; k++)
    (*more)[k - 1] = v[k].p;
  *nmore = (uint32_t) (n - 1);
  free (v);
  return NULL;
}

static const char *
parse_shared (struct pf_set *set, struct pf_process *p, int fd, char *buf,
              size_t bufsize, struct pf_process **more, uint32_t *nmore)
{
  struct shared_proc *v = NULL;
  size_t n = 0;
  const char *err = NULL;
  uint64_t data_end = 0;
  for (uint64_t off = DSPROF_PAGE; off < p->size && !err;)
    {
      off = next_data (fd, off, p->size, &data_end);
      if (off >= p->size)
        break;
      const struct dsprof_chunk *ch = (const void *) (p->map + off);
      uint64_t size = ch->size;
      if (size < DSPROF_PAGE || size % DSPROF_PAGE || size > p->size - off)
        {
          if (ch->kind || ch->check || size)
            err = problem (buf, bufsize, "chunk at offset %" PRIu64
                           ": bad size %" PRIu64, off, size);
          off += DSPROF_PAGE;   /* zeros: nothing of a chunk was written */
          continue;
        }
      err = add_shared_chunk (set, p, ch, off, size, &v, &n, buf, bufsize);
      off += size;
    }
  return finish_shared (p, v, n, err, buf, bufsize, more, nmore);
}

/* The control chunk at OFF of P (dsprof-format.h, section 2a): its switches,
   copied (`dsprof ctl` writes them while the program runs).  */

static const char *
add_control (struct pf_process *p, uint64_t off, char *buf, size_t bufsize)
{
  const struct dsprof_control_chunk *c = (const void *) (p->map + off);
  uint32_t n = c->nswitches;
  if (p->control_offset || c->chunk.size != 2 * DSPROF_PAGE
      || n > DSPROF_CONTROL_MAX_SWITCHES || c->mapped > 1
      || c->events_at_start > 1)
    return problem (buf, bufsize, "chunk at offset %" PRIu64 ": corrupt control "
                    "chunk", off);
  for (uint32_t i = 0; i < n; i++)
    if (c->switches[i].on > 1)
      return problem (buf, bufsize, "chunk at offset %" PRIu64 ": corrupt "
                      "switch %u of the control chunk", off, i);
  p->control_offset = off;
  p->control_mapped = c->mapped;
  p->events_at_start = c->events_at_start;
  p->nswitches = n;
  p->switches = XNEWVEC (struct dsprof_switch, n + 1);
  memcpy (p->switches, c->switches, n * sizeof *p->switches);
  return NULL;
}

/* Check the file header of the image of P: its magic number, version and
   sizes.  */

static const char *
check_header (const struct pf_process *p, char *buf, size_t bufsize)
{
  const struct dsprof_file_header *h = (const void *) p->map;
  if (p->size == 0)
    return "empty file";
  if (p->size < DSPROF_MAGIC_SIZE || memcmp (h->magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE))
    return "not a dsprof profile (no dsprof magic number)";
  if (p->size < sizeof *h)
    return problem (buf, bufsize, "truncated: %zu bytes, shorter than the "
                    "%zu-byte header", p->size, sizeof *h);
  if (h->version < DSPROF_FORMAT_VERSION_MIN || h->version > DSPROF_FORMAT_VERSION)
    return problem (buf, bufsize, "profile format version %u; this dsprof "
                    "reads versions %u to %u", h->version,
                    DSPROF_FORMAT_VERSION_MIN, DSPROF_FORMAT_VERSION);
  if (h->header_size != DSPROF_PAGE || h->end < DSPROF_PAGE
      || h->end % DSPROF_PAGE)
    return problem (buf, bufsize, "corrupt header (header size %u, "
                    "committed length %" PRIu64 ")", h->header_size, h->end);
  if (h->end > p->size && !(h->flags & DSPROF_FLAG_ACCUMULATE))
    return problem (buf, bufsize, "truncated: the header commits %" PRIu64
                    " bytes, the file has %zu", h->end, p->size);
  if (h->clock > DSPROF_CLOCK_TSC)
    return problem (buf, bufsize, "corrupt header (clock kind %" PRIu64 ")",
                    h->clock);
  return NULL;
}

/* FD is the file open (-1 for an image in memory), which tells where its
   holes are (next_data).  */

static const char *
parse_image (struct pf_set *set, struct pf_process *p, int fd, char *buf,
             size_t bufsize, struct pf_process **more, uint32_t *nmore)
{
  const struct dsprof_file_header *h = (const void *) p->map;
  *more = NULL;
  *nmore = 0;
  const char *err = check_header (p, buf, bufsize);
  if (err)
    return err;
  memcpy (&p->header, h, sizeof *h);
  p->header.exe[sizeof p->header.exe - 1] = '\0';
  if (h->flags & DSPROF_FLAG_ACCUMULATE)
    {
      /* `end` is where the next chunk would go: the file may end before.  */
      p->size = h->end < p->size ? h->end : p->size / DSPROF_PAGE * DSPROF_PAGE;
      return parse_shared (set, p, fd, buf, bufsize, more, nmore);
    }
  p->size = h->end;

  struct echunks events = { NULL, 0, 0 };
  for (uint64_t off = DSPROF_PAGE; off < p->size;)
    {
      const struct dsprof_chunk *ch = (const void *) (p->map + off);
      if (ch->size < DSPROF_PAGE || ch->size % DSPROF_PAGE
          || ch->size > p->size - off)
        {
          free (events.v);
          return problem (buf, bufsize, "chunk at offset %" PRIu64 ": bad size %"
                          PRIu64, off, ch->size);
        }
      if (ch->kind == DSPROF_CHUNK_UNIT || ch->kind == DSPROF_CHUNK_TUNIT)
        err = add_unit (set, p, off, 0, 0, buf, bufsize);
      else if (ch->kind == DSPROF_CHUNK_SHARD)
        err = add_shard (p, off, buf, bufsize);
      else if (ch->kind == DSPROF_CHUNK_UNITS)
        err = add_units (set, p, off, buf, bufsize);
      else if (ch->kind == DSPROF_CHUNK_EVENTS)
        err = add_events (p, &events, off, buf, bufsize);
      else if (ch->kind == DSPROF_CHUNK_CONTROL)
        err = add_control (p, off, buf, bufsize);
      else
        err = problem (buf, bufsize, "chunk at offset %" PRIu64
                       ": unknown kind %u", off, ch->kind);
      if (err)
        {
          free (events.v);
          return err;
        }
      /* A file's pages come in folios of up to megabytes, mapped whole by the
         first read of any byte of them: give back each chunk's once its
         header is read, or reading the headers alone would map most of the
         file (not for an image in memory: pf_check_image's).  Nothing reads
         a header again before a command decodes its chunk.  */
      uint64_t size = ch->size;
      if (p->map_size)
        ev_release_pages (p->map, p->map + off, p->map + off + size);
      off += size;
    }

  add_shards (p);
  err = make_streams (p, &events, buf, bufsize);
  free (events.v);
  if (err)
    return err;

  set_clock (p);
  return NULL;
}

static void
process_free (struct pf_process *p)
{
  free (p->tunits);
  free (p->shards);
  p->tunits = NULL;
  p->shards = NULL;
  for (uint32_t i = 0; i < p->nstreams; i++)
    free (p->streams[i].chunks);
  free (p->streams);
  p->streams = NULL;
  p->nstreams = 0;
  ev_sites_free (&p->sites);
  free (p->unit_sites);
  p->unit_sites = NULL;
  free (p->switches);
  p->switches = NULL;
  p->nswitches = 0;
}

int
pf_each_off (const struct pf_process *p,
             void (*fn) (uint64_t from_ns, uint64_t to_ns, bool open, void *arg),
             void *arg)
{
  if (!p->control_offset)
    return 0;
  uint64_t start = p->header.start_mono_ns;
  bool on = p->events_at_start;
  uint64_t from = 0;
  int n = 0;
  for (uint32_t i = 0; i < p->nswitches; i++)
    {
      const struct dsprof_switch *w = &p->switches[i];
      uint64_t at = w->mono_ns > start ? w->mono_ns - start : 0;
      if (on && !w->on)
        from = at;
      else if (!on && w->on)
        {
          fn (from, at > from ? at : from, false, arg);
          n++;
        }
      on = w->on != 0;
    }
  if (!on)
    {
      uint64_t end = pf_run_ns (p, from);
      fn (from, end > from ? end : from, true, arg);
      n++;
    }
  return n;
}

/* The text of /proc/PID/stat into BUF (SIZE bytes); "" if /proc does not say.  */

static const char *
process_stat (int64_t pid, char *buf, size_t size)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%" PRId64 "/stat", pid);
  FILE *f = fopen (path, "r");
  size_t n = f ? fread (buf, 1, size - 1, f) : 0;
  if (f)
    fclose (f);
  buf[n] = '\0';
  return buf;
}

/* When the process whose /proc/PID/stat is STAT started, in CLOCK_MONOTONIC
   ns; 0 if it does not say.  */

static uint64_t
process_start (const char *stat)
{
  struct timespec boot, mono;
  if (clock_gettime (CLOCK_BOOTTIME, &boot) || clock_gettime (CLOCK_MONOTONIC, &mono))
    return 0;
  return dsprof_stat_start_mono (stat, sysconf (_SC_CLK_TCK),
                                 (uint64_t) boot.tv_sec * 1000000000u
                                 + (uint64_t) boot.tv_nsec,
                                 (uint64_t) mono.tv_sec * 1000000000u
                                 + (uint64_t) mono.tv_nsec);
}

/* Whether the process whose /proc/PID/stat is STAT is a zombie (killed, its
   parent not waited yet).  */

static bool
process_zombie (const char *stat)
{
  const char *paren = strrchr (stat, ')');
  return paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}

/* Whether process PID maps the file PATH: a line of /proc/PID/maps names its
   device and inode, or its path (an overlay file system shows the layer's
   device).  True when the maps cannot be read.  */

static bool
process_maps (int64_t pid, const char *path)
{
  struct stat st;
  char name[64], line[PATH_MAX + 256], *real = realpath (path, NULL);
  snprintf (name, sizeof name, "/proc/%" PRId64 "/maps", pid);
  FILE *f = stat (path, &st) == 0 ? fopen (name, "r") : NULL;
  bool found = !f, whole = true;
  while (f && !found && fgets (line, sizeof line, f))
    {
      unsigned maj, min;
      unsigned long long ino;
      int at = 0;
      size_t n = strlen (line);
      if (whole && sscanf (line, "%*x-%*x %*s %*x %x:%x %llu %n", &maj, &min, &ino,
                           &at) == 3)
        {
          if (n && line[n - 1] == '\n')
            line[n - 1] = '\0';
          found = (maj == major (st.st_dev) && min == minor (st.st_dev)
                   && ino == st.st_ino)
                  || (real && at && !strcmp (line + at, real));
        }
      whole = n && line[n - 1] == '\n';
    }
  if (f)
    fclose (f);
  free (real);
  return found;
}

enum pf_state
pf_process_state (const struct pf_process *p)
{
  const struct dsprof_file_header *h = &p->header;
  if (h->stop_mono_ns != 0)
    return PF_EXITED;
  char stat[1024];
  if (h->pid <= 0 || (pid_t) h->pid != h->pid
      || (kill ((pid_t) h->pid, 0) != 0 && errno == ESRCH)
      || process_zombie (process_stat (h->pid, stat, sizeof stat)))
    return PF_GONE;
  uint64_t start = process_start (stat);
  if (start && start > h->start_mono_ns + DSPROF_START_SLACK_NS)
    return PF_REUSED;
  return process_maps (h->pid, p->path) ? PF_RUNNING : PF_ELSEWHERE;
}

const char *
pf_state_text (enum pf_state state)
{
  static const char *const texts[] = {
    [PF_RUNNING] = "is running",
    [PF_EXITED] = "has exited",
    [PF_GONE] = "is gone (killed or crashed)",
    [PF_REUSED] = "is gone (killed or crashed; its pid now names a later process)",
    [PF_ELSEWHERE] = "does not write this file (a copy of its profile?)",
  };
  return texts[state];
}

/* Where a profile comes from, for a name that is not there.  */
static const char profile_hint[]
  = "a program built with the plugin writes its profile when it runs, to the "
    "file DSPROF_OUT names, else ./dsprof.data; built with counters=off, only "
    "if it has events (dsprof_event functions, functions=all) or was built "
    "with dispatch=FUNC";

int
pf_add (struct pf_set *set, const char *path)
{
  struct stat st;
  const char *kind;
  int fd = open_regular (path, &st, &kind);
  if (fd < 0 && kind)
    fprintf (stderr, "dsprof: '%s': is %s, not a profile\n", path, kind);
  else if (fd < 0 && errno == ENOENT)
    fprintf (stderr, "dsprof: %s: %s (%s)\n", path, strerror (errno),
             profile_hint);
  else if (fd < 0)
    fprintf (stderr, "dsprof: %s: %s\n", path, strerror (errno));
  if (fd < 0)
    return -1;
  struct pf_process p;
  memset (&p, 0, sizeof p);
  p.path = xstrdup (path);
  p.size = (size_t) st.st_size;
  if (p.size)
    {
      void *m = mmap (NULL, p.size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (m == MAP_FAILED)
        {
          fprintf (stderr, "dsprof: %s: cannot map: %s\n", path, strerror (errno));
          close (fd);
          free ((char *) p.path);
          return -1;
        }
      p.map = m;
      mapping_add (p.map, p.size, p.path);
    }
  p.map_size = p.size;
  char buf[512];
  struct pf_process *more;
  uint32_t nmore;
  const char *err = parse_image (set, &p, fd, buf, sizeof buf, &more, &nmore);
  close (fd);
  if (err)
    {
      fprintf (stderr, "dsprof: %s: %s\n", path, err);
      process_free (&p);
      if (p.map)
        {
          mapping_remove (p.map);
          munmap ((void *) p.map, p.map_size);
        }
      free ((char *) p.path);
      return -1;
    }
  /* parse_image gave back each chunk's pages once checked, and the header's
     now; the decoder gives back each events chunk's once past it
     (ev_release_chunk), so that the resident memory of a command does not
     grow with the file.  */
  if (p.map)
    ev_release_pages (p.map, p.map, p.map + DSPROF_PAGE);
  set->procs = XRESIZEVEC (struct pf_process, set->procs,
                           set->nprocs + 1 + nmore);
  for (uint32_t k = 0; k <= nmore; k++)
    {
      struct pf_process *q = &set->procs[set->nprocs++];
      *q = k ? more[k - 1] : p;
      for (uint32_t i = 0; i < q->nstreams; i++)
        q->streams[i].map = q->map;
      progress_expect (path, q->events);
    }
  free (more);
  return 0;
}

/* Is PATH the temporary file of a profile being made, NAME.tmp<pid>-<k>
   (include/dsprof-format.h, section 2), that holds no profile yet: empty, or
   without the magic number?  A runtime makes its profile under such a name
   where the file system cannot make it unnamed, and one killed meanwhile
   leaves it.  */

static bool
temp_leftover (const char *path)
{
  const char *base = strrchr (path, '/');
  base = base ? base + 1 : path;
  const char *t = NULL;
  for (const char *q = strstr (base, ".tmp"); q; q = strstr (q + 1, ".tmp"))
    t = q + 4;
  size_t pid = t ? strspn (t, "0123456789") : 0;
  if (!pid || t[pid] != '-' || !t[pid + 1]
      || t[pid + 1 + strspn (t + pid + 1, "0123456789")] != '\0')
    return false;
  return profile_magic (path) == 0;
}

int
pf_add_listed (struct pf_set *set, const char *path)
{
  if (!temp_leftover (path))
    return pf_add (set, path);
  fprintf (stderr, "dsprof: '%s': skipped: the temporary file of a profile "
           "being made, or of one whose process was killed making it\n", path);
  return 1;
}

const char *
pf_check_image (const unsigned char *data, size_t size, char *buf,
                size_t bufsize)
{
  struct pf_set set;
  memset (&set, 0, sizeof set);
  struct pf_process p;
  memset (&p, 0, sizeof p);
  p.path = "image";
  p.map = data;
  p.size = size;
  struct pf_process *more;
  uint32_t nmore;
  const char *err = parse_image (&set, &p, -1, buf, bufsize, &more, &nmore);
  /* Decode the streams too: a profile is valid only if they are.  */
  for (uint32_t k = 0; k <= nmore && !err; k++)
    {
      struct pf_process *q = k ? &more[k - 1] : &p;
      for (uint32_t i = 0; !err && i < q->nstreams; i++)
        if (ev_decode_stream (&q->streams[i], &q->sites, &q->clock, NULL, NULL,
                              NULL, 0, &err) < 0)
          err = problem (buf, bufsize, "thread %u: %s", q->streams[i].thread,
                         err);
    }
  for (uint32_t k = 0; k < nmore; k++)
    {
      process_free (&more[k]);
      free ((char *) more[k].path);
    }
  free (more);
  process_free (&p);
  set.nprocs = 0;
  pf_free (&set);
  return err;
}

int
pf_block_counts (const struct pf_unit *u, const struct pf_function *f,
                 uint64_t *out, const char **err)
{
  if (f->flow)
    return flow_block_counts (f->flow, f->flow_size, f->nblocks,
                              u->counts + f->first_counter,
                              u->ncounters - f->first_counter, out, err);
  memcpy (out, u->counts + f->first_counter, f->nblocks * sizeof *out);
  return 0;
}

uint64_t
pf_run_ns (const struct pf_process *p, uint64_t last_ns)
{
  const struct dsprof_file_header *h = &p->header;
  if (h->stop_mono_ns > h->start_mono_ns)
    return h->stop_mono_ns - h->start_mono_ns;
  return last_ns;
}

void
pf_cpu_add (struct pf_cpu *c, const struct dsprof_file_header *h)
{
  if (h->stop_mono_ns <= h->start_mono_ns || !h->cpu_ns)
    return;
  c->run_ns += h->stop_mono_ns - h->start_mono_ns;
  c->cpu_ns += h->cpu_ns;
  c->delay_ns += h->run_delay_ns;
  c->delay_threads += h->run_delay_threads;
  c->procs++;
}

const char *
pf_cpu_line (const struct pf_cpu *c, double ns_per_unit, int decimals,
             const char *unit, char *buf, size_t size)
{
  if (!c->procs)
    return NULL;
  double u = ns_per_unit;
  int n = snprintf (buf, size, "%.*f %s of the %.*f %s run (%.1f%%)", decimals,
                    (double) c->cpu_ns / u, unit, decimals, (double) c->run_ns / u,
                    unit, 100.0 * (double) c->cpu_ns / (double) c->run_ns);
  /* Threads in parallel may be on CPUs longer than the run lasts.  */
  if (c->cpu_ns < c->run_ns && n > 0 && (size_t) n < size)
    n += snprintf (buf + n, size - (size_t) n, ", %.*f %s not on a CPU", decimals,
                   (double) (c->run_ns - c->cpu_ns) / u, unit);
  if (c->delay_threads && n > 0 && (size_t) n < size)
    snprintf (buf + n, size - (size_t) n, "; %.*f %s waiting for a CPU (%" PRIu64
              " thread%s)", decimals, (double) c->delay_ns / u, unit,
              c->delay_threads, c->delay_threads > 1 ? "s" : "");
  return buf;
}

void
pf_warn_lost_updates (const struct pf_set *set)
{
  static bool warned;
  for (uint32_t i = 0; i < set->nprocs && !warned; i++)
    {
      const struct pf_process *p = &set->procs[i];
      if (p->header.single_threads <= 1)
        continue;
      fprintf (stderr, "dsprof: warning: %s: %" PRIu64 " threads ran code "
               "counted with update=single, whose increments may be lost: "
               "counts may be low; -fplugin-arg-dsprof-update=atomic makes "
               "them exact\n", p->path, p->header.single_threads);
      warned = true;
    }
}

/* Whether a process of SET has the op sites of dispatch function FUNC.  */

static bool
set_has_dispatch (const struct pf_set *set, const char *func)
{
  for (uint32_t i = 0; i < set->nprocs; i++)
    if (ev_sites_dispatch_p (&set->procs[i].sites, func))
      return true;
  return false;
}

void
pf_warn_no_dispatch (const struct pf_set *set)
{
  const char *names[EV_MAX_ASKED];
  const char *where[EV_MAX_ASKED];
  uint32_t n = 0;
  for (uint32_t i = 0; i < set->nprocs; i++)
    for (uint32_t k = 0; k < set->procs[i].sites.nasked && n < EV_MAX_ASKED; k++)
      {
        const char *name = set->procs[i].sites.asked[k];
        uint32_t j = 0;
        while (j < n && strcmp (names[j], name) != 0)
          j++;
        if (j == n)
          {
            where[n] = set->procs[i].path;
            names[n++] = name;
          }
      }
  for (uint32_t j = 0; j < n; j++)
    if (!set_has_dispatch (set, names[j]))
      fprintf (stderr, "dsprof: warning: %s: no unit of the program defines "
               "the dispatch function '%s' it was built with (dispatch=%s): "
               "no op records for it\n", where[j], names[j], names[j]);
}

void
pf_free (struct pf_set *set)
{
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      struct pf_process *p = &set->procs[i];
      process_free (p);
      if (p->map && p->map_size)   /* not a later process of its file's */
        {
          mapping_remove (p->map);
          munmap ((void *) p->map, p->map_size);
        }
      free ((char *) p->path);
    }
  free (set->procs);
  for (uint32_t i = 0; i < set->nunits; i++)
    unit_free (set->units[i]);
  free (set->units);
  if (set->unit_index)
    htab_delete (set->unit_index);
  memset (set, 0, sizeof *set);
}

int
pf_decode_stream (const struct pf_process *p, const struct ev_stream *s,
                  ev_event_fn on_event, ev_record_fn on_record, void *arg,
                  unsigned flags)
{
  const char *err = NULL;
  int rc = ev_decode_stream (s, &p->sites, &p->clock, on_event, on_record, arg,
                             flags, &err);
  if (rc < 0)
    {
      progress_end ();
      fprintf (stderr, "dsprof: %s: thread %u: %s\n", p->path, s->thread, err);
      return PF_CORRUPT;
    }
  return rc;
}

int
pf_walk_streams (struct pf_set *set, ev_event_fn on_event, ev_record_fn on_record,
                 void (*begin) (const struct pf_process *p,
                                const struct ev_stream *s, void *arg),
                 void *arg, unsigned flags)
{
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      struct pf_process *p = &set->procs[i];
      for (uint32_t k = 0; k < p->nstreams; k++)
        {
          if (begin)
            begin (p, &p->streams[k], arg);
          int rc = pf_decode_stream (p, &p->streams[k], on_event, on_record, arg,
                                     flags);
          if (rc)
            return rc;
        }
    }
  return 0;
}
