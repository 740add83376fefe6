/* units.c - the registration entry points called by instrumented code, and the
   registry of the units that registered.

   For every instrumented translation unit the plugin emits (dsprof-format.h,
   section 1)

     static uint64_t __dsprof_counters[N] __attribute__((aligned(4096)));
     static uint32_t __dsprof_sites[S];
     constructor:  __dsprof_register_unit_v1 (__dsprof_counters, N, __dsprof_meta, M,
                                              __dsprof_sites, S);
     destructor:   __dsprof_unregister_unit_v1 (__dsprof_counters, __dsprof_sites);

   Registering has the recorder give the unit's event sites their global ids, adds
   a DSPROF_CHUNK_UNIT chunk to the profile (the metadata, so that readers can name
   counters and sites) and maps the chunk's counter pages over __dsprof_counters,
   so that from then on the unit's inline `__dsprof_counters[i]++` update the file
   itself.  The registry remembers the units so that a forked child can give them
   a chunk of its own (one DSPROF_CHUNK_UNITS chunk for all of them).  */

#ifndef _GNU_SOURCE
# define _GNU_SOURCE            /* mremap */
#endif

#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A registered unit.  Unless the plugin and the runtime disagree (unit_ok),
   COUNTERS is DSPROF_PAGE aligned and NCOUNTERS a multiple of
   DSPROF_COUNTERS_PER_PAGE, so the array owns whole pages and can be replaced by a
   mapping.  META is the unit's static metadata blob, SITES its site id words;
   both live as long as the unit (until its destructor unregisters it).  Either
   array may be NULL (with a count of 0), not both.  */
struct unit
{
  uint64_t *counters;
  uint32_t ncounters;
  const char *meta;
  uint32_t meta_size;
  uint32_t *sites;
  uint32_t nsites;
  uint32_t site_base;           /* global id of site 0, 0 if none */
  uint32_t check;               /* dsprof_meta_hash of META */
  int mapped;                   /* COUNTERS are mapped from this process's profile */
  uint64_t at;                  /* in a forked child's fork handler: the file
                                   offset of its counters */
  int thread;                   /* update=thread: its counters are in the
                                   shards (dsprof-format.h, section 2b) */
  uint64_t index;               /* then the index of its counter 0 there */
};

/* The next free index of the shards' counter space.  */
static uint64_t next_index = DSPROF_SHARD_SINK;

/* The registry, in registration order, protected by UNITS_LOCK.  Plain realloc,
   not libiberty's xrealloc: running out of memory must not abort the program.  */
static struct unit *units;
static size_t nunits, maxunits;
static pthread_mutex_t units_lock = PTHREAD_MUTEX_INITIALIZER;

void
dsprof_units_lock (void)
{
  pthread_mutex_lock (&units_lock);
}

void
dsprof_units_unlock (void)
{
  pthread_mutex_unlock (&units_lock);
}

/* Report that U cannot be recorded because of WHY.  */

static void
unit_warn (const struct unit *u, const char *why)
{
  struct dsprof_meta m;
  dsprof_meta_open (&m, u->meta, u->meta_size);
  const char *src = m.source;
  size_t len = m.source_len;
  if (len == 0)
    src = "?", len = 1;
  dsprof_warn ("cannot record unit '%.*s': %s", (int) (len < 256 ? len : 256), src,
               why);
  dsprof_writer_set_truncated ();
}

/* Can U's counters be replaced by a mapping of the file?  */

static int
unit_ok (const struct unit *u)
{
  return ((uintptr_t) u->counters % DSPROF_PAGE == 0
          && u->ncounters % DSPROF_COUNTERS_PER_PAGE == 0);
}

/* The size of the head of U's chunk (struct dsprof_unit_chunk, the metadata,
   padding to a page); its counters follow.

   The chunk:  struct dsprof_unit_chunk, meta, padding to a page   (HEAD bytes)
               ncounters counters                                 (BYTES bytes)  */

static uint64_t
unit_head (const struct unit *u)
{
  return dsprof_round_page (sizeof (struct dsprof_unit_chunk) + u->meta_size);
}

static uint64_t
unit_bytes (const struct unit *u)
{
  if (u->thread)
    return 0;
  return (uint64_t) u->ncounters * sizeof (uint64_t);
}

/* Fill *CH, the head of U's chunk of SIZE bytes, or of its record of SIZE bytes
   in a DSPROF_CHUNK_UNITS chunk, its counters at file offset COUNTERS.  */

static void
unit_describe (const struct unit *u, uint64_t size, uint64_t counters,
               struct dsprof_unit_chunk *ch)
{
  memset (ch, 0, sizeof *ch);
  ch->chunk.kind = u->thread ? DSPROF_CHUNK_TUNIT : DSPROF_CHUNK_UNIT;
  ch->chunk.size = size;
  ch->chunk.check = u->check;
  ch->ncounters = u->ncounters;
  ch->meta_size = u->meta_size;
  ch->counters_offset = u->thread ? u->index : counters;
  ch->site_base = u->site_base;
  ch->nsites = u->nsites;
}

/* Write U's chunk at file offset OFF, inside the space reserved by
   dsprof_writer_begin, and map its counters from it.  The counters start from
   their current values: code of the unit may have run before its constructor
   (other constructors call it).  Return 0 or an errno value.  */

static int
unit_put (struct unit *u, uint64_t off)
{
  uint64_t head = unit_head (u), bytes = unit_bytes (u);

  /* The space was just allocated and reads as zeros: the padding needs no
     writing.  */
  struct dsprof_unit_chunk ch;
  unit_describe (u, head + bytes, off + head, &ch);

  /* One write for both when the metadata is small (as a unit's mostly is).  */
  unsigned char buf[1024];
  int err;
  if (u->meta_size <= sizeof buf - sizeof ch)
    {
      memcpy (buf, &ch, sizeof ch);
      memcpy (buf + sizeof ch, u->meta, u->meta_size);
      err = dsprof_writer_write (off, buf, sizeof ch + u->meta_size);
    }
  else
    {
      err = dsprof_writer_write (off, &ch, sizeof ch);
      if (!err)
        err = dsprof_writer_write (off + sizeof ch, u->meta, u->meta_size);
    }
  if (!err && bytes)
    err = dsprof_writer_write (off + head, u->counters, bytes);
  /* Updates between the write and the mapping are lost; a constructor runs before
     the unit's code normally can, so there are none in practice.  */
  if (!err && bytes && !dsprof_writer_map (off + head, bytes, u->counters, 1))
    err = errno;
  if (!err)
    u->mapped = bytes != 0;
  return err;
}

/* Add U's chunk to the profile, its counters from their current values.
   Return 0, or -1 if the writer failed (and reported it).  */

static int
unit_record (struct unit *u)
{
  uint64_t size = unit_head (u) + unit_bytes (u);
  uint64_t off = dsprof_writer_begin (size);
  if (off == 0)
    return -1;
  int err = unit_put (u, off);
  if (err)
    {
      dsprof_writer_abort (err);
      return -1;
    }
  dsprof_writer_commit (off, size);
  return 0;
}

/* The index of the unit with COUNTERS and SITES, or -1.  */

static ptrdiff_t
unit_find (const uint64_t *counters, const uint32_t *sites)
{
  for (size_t i = 0; i < nunits; i++)
    if (units[i].counters == counters && units[i].sites == sites)
      return (ptrdiff_t) i;
  return -1;
}

static void
register_unit (uint64_t *counters, uint32_t ncounters, const char *meta,
               uint32_t meta_size, uint32_t *sites, uint32_t nsites, int thread)
{
  int saved_errno = errno;
  pthread_mutex_lock (&units_lock);

  if (!counters)
    ncounters = 0;
  if (!sites)
    nsites = 0;
  /* A unit with neither has nothing to record; a second registration of the
     same unit (a constructor run twice) would map a second chunk over its
     counters and orphan the first.  */
  if ((!counters && !sites) || unit_find (counters, sites) >= 0)
    goto out;

  struct unit new_unit = { counters, ncounters, meta, meta_size, sites, nsites, 0,
                           dsprof_meta_hash (meta, meta_size), 0, 0, thread, 0 };
  if (nunits == maxunits)
    {
      size_t max = maxunits ? 2 * maxunits : 64;
      struct unit *v = realloc (units, max * sizeof *units);
      if (!v)
        {
          /* Unregistered, a forked child could not take the unit's counters off
             our file, so they stay in memory.  */
          unit_warn (&new_unit, strerror (ENOMEM));
          goto out;
        }
      units = v;
      maxunits = max;
    }
  struct unit *u = &units[nunits++];
  *u = new_unit;

  /* Site ids first: the unit chunk records the first one.  Site k has id
     site_base + k (dsprof-format.h); a site the recorder rejected keeps 0 and its
     hooks do nothing.  */
  if (nsites)
    u->site_base = dsprof_recorder_add_sites (meta, meta_size, sites, nsites);
  if (!unit_ok (u))
    unit_warn (u, "counters are not page-aligned (plugin and runtime do not match)");
  else if (thread && ncounters
           && (ncounters > DSPROF_SHARD_COUNTERS - next_index
               || dsprof_shards_grow (next_index + ncounters) < 0))
    {
      unit_warn (u, "no room for its counters in the threads' shards");
      u->ncounters = 0;
      u->counters = NULL;
    }
  else
    {
      /* The unit's code adds counters[0] to its thread's shard (section
         2b): from now on its counts go to the unit's place, not the sink.  */
      if (thread && ncounters)
        {
          u->index = next_index;
          next_index += ncounters;
          __atomic_store_n (&counters[0], u->index, __ATOMIC_RELEASE);
          dsprof_shards_registered (counters);
        }
      if (unit_record (u) == 0 && thread == 2 && ncounters)
        dsprof_shards_sink (counters, (uint32_t) u->index, ncounters);
    }

 out:
  pthread_mutex_unlock (&units_lock);
  errno = saved_errno;
}

DSPROF_API void
__dsprof_register_unit_v1 (uint64_t *counters, uint32_t ncounters, const char *meta,
                           uint32_t meta_size, uint32_t *sites, uint32_t nsites)
{
  register_unit (counters, ncounters, meta, meta_size, sites, nsites, 0);
}

DSPROF_API void
__dsprof_register_unit_thread_v1 (uint64_t *counters, uint32_t ncounters,
                                  const char *meta, uint32_t meta_size,
                                  uint32_t *sites, uint32_t nsites)
{
  register_unit (counters, ncounters, meta, meta_size, sites, nsites, 1);
}

/* The same for a unit whose array has its sink (include/dsprof-format.h,
   section 2b).  */

DSPROF_API void
__dsprof_register_unit_thread_v2 (uint64_t *counters, uint32_t ncounters,
                                  const char *meta, uint32_t meta_size,
                                  uint32_t *sites, uint32_t nsites)
{
  register_unit (counters, ncounters, meta, meta_size, sites, nsites, 2);
}

/* Forget the unit with COUNTERS and SITES (its shared library is being
   unloaded, or the program exits).  The counters' mapping is left alone: the
   loader unmaps the library's pages, counters included, right after, and the file
   keeps the final counts.  */

DSPROF_API void
__dsprof_unregister_unit_v1 (uint64_t *counters, uint32_t *sites)
{
  int saved_errno = errno;
  pthread_mutex_lock (&units_lock);
  ptrdiff_t i = (counters || sites) ? unit_find (counters, sites) : -1;
  if (i >= 0)
    {
      if (units[i].mapped)
        dsprof_writer_forget (units[i].counters);
      /* The site ids stay: a unit unloaded by dlclose takes its hooks with it,
         and at exit the destructors of other units still record events.  */
      memmove (units + i, units + i + 1, (nunits - (size_t) i - 1) * sizeof *units);
      nunits--;
    }
  pthread_mutex_unlock (&units_lock);
  errno = saved_errno;
}

/* Take U's counters off the parent's file when the child has no file of its own:
   zero anonymous memory, so the child still counts from the fork.  Moved in place
   like the writer's mappings, so that a failure leaves the old pages, not a hole.  */

static void
unit_detach (struct unit *u)
{
  size_t bytes = (size_t) u->ncounters * sizeof (uint64_t);
  void *p = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                  -1, 0);
  if (p == MAP_FAILED)
    return;
  if (mremap (p, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED, u->counters)
      == MAP_FAILED)
    munmap (p, bytes);
}

/* The size of U's record in a forked child's DSPROF_CHUNK_UNITS chunk: its
   struct dsprof_unit_chunk and its metadata, padded to 8 bytes.  */

static uint64_t
unit_record_size (const struct unit *u)
{
  return (sizeof (struct dsprof_unit_chunk) + u->meta_size + 7) & ~(uint64_t) 7;
}

static int
unit_cmp_counters (const void *a, const void *b)
{
  uintptr_t x = (uintptr_t) (*(const struct unit *const *) a)->counters;
  uintptr_t y = (uintptr_t) (*(const struct unit *const *) b)->counters;
  return x < y ? -1 : x > y;
}

/* Write the forked child's DSPROF_CHUNK_UNITS chunk at OFF, of SIZE bytes whose
   first HEAD are the records (N units, records of RECORDS bytes), into BUF (of
   sizeof (struct dsprof_units_chunk) + RECORDS bytes), and map every unit's
   counters from it.  ORDER holds the N units, sorted here by the address of
   their counters: the counters get file space in that order, so that units
   whose arrays follow each other in memory (those of one executable or library
   mostly do) follow each other in the file too and are mapped with one mmap.
   Return 0 or an errno value.  */

static int
units_put_all (uint64_t off, uint64_t size, uint64_t head, size_t n,
               uint64_t records, struct unit **order, unsigned char *buf)
{
  size_t k = 0;
  for (size_t i = 0; i < nunits; i++)
    if (unit_ok (&units[i]) && !units[i].thread)
      order[k++] = &units[i];
  qsort (order, n, sizeof *order, unit_cmp_counters);
  uint64_t at = off + head;
  for (k = 0; k < n; k++)
    {
      order[k]->at = at;
      at += unit_bytes (order[k]);
    }

  /* The records, in registration order, written at once.  The space was just
     allocated and reads as zeros: the padding and the counters need no
     writing.  */
  struct dsprof_units_chunk h;
  memset (&h, 0, sizeof h);
  h.chunk.kind = DSPROF_CHUNK_UNITS;
  h.chunk.size = size;
  h.nunits = (uint32_t) n;
  h.records_size = records;
  memcpy (buf, &h, sizeof h);
  size_t pos = sizeof h;
  for (size_t i = 0; i < nunits; i++)
    {
      const struct unit *u = &units[i];
      if (!unit_ok (u) || u->thread)
        continue;
      struct dsprof_unit_chunk ch;
      unit_describe (u, unit_record_size (u), u->at, &ch);
      memcpy (buf + pos, &ch, sizeof ch);
      memcpy (buf + pos + sizeof ch, u->meta, u->meta_size);
      memset (buf + pos + sizeof ch + u->meta_size, 0,
              ch.chunk.size - sizeof ch - u->meta_size);
      pos += ch.chunk.size;
    }
  int err = dsprof_writer_write (off, buf, pos);

  /* The counters, one mapping per run of units adjacent in memory, each unit
     listed for the SIGBUS handler on its own.  */
  for (k = 0; k < n && !err; )
    {
      size_t e = k + 1;
      uint64_t bytes = unit_bytes (order[k]);
      while (e < n
             && (uintptr_t) order[e - 1]->counters + unit_bytes (order[e - 1])
                == (uintptr_t) order[e]->counters)
        bytes += unit_bytes (order[e++]);
      if (bytes && !dsprof_writer_map (order[k]->at, bytes, order[k]->counters, 0))
        err = errno;
      for (; !err && k < e; k++)
        if (unit_bytes (order[k]))
          dsprof_writer_track (order[k]->counters, unit_bytes (order[k]));
      k = e;
    }
  return err;
}

/* In a forked child, after the writer started the child's file: give every unit
   zero counters, mapped over its counters in place of the parent's.  All of
   them go in one DSPROF_CHUNK_UNITS chunk, written with one write and allocated
   but for the counters, which are a hole, allocated page by page as the child
   first counts in them: a child of a big program costs its units' metadata
   (not a page each) and what it touches, and a few system calls in all.  The
   child is single-threaded here.  */

void
dsprof_units_fork_child (void)
{
  pthread_mutex_init (&units_lock, NULL);
  size_t n = 0;
  uint64_t records = 0, bytes = 0;
  for (size_t i = 0; i < nunits; i++)
    if (unit_ok (&units[i]) && !units[i].thread)
      {
        n++;
        records += unit_record_size (&units[i]);
        bytes += unit_bytes (&units[i]);
      }
    else if (!unit_ok (&units[i]))
      dsprof_writer_set_truncated ();
  /* Units counted in shards: a chunk each (no counters of their own).  */
  for (size_t i = 0; i < nunits; i++)
    if (unit_ok (&units[i]) && units[i].thread)
      unit_record (&units[i]);
  if (!n)
    return;

  uint64_t head = dsprof_round_page (sizeof (struct dsprof_units_chunk) + records);
  struct unit **order = malloc (n * sizeof *order);
  unsigned char *buf = malloc (sizeof (struct dsprof_units_chunk) + records);
  uint64_t off = dsprof_writer_begin_sparse (head + bytes, head);
  int err = off ? 0 : -1;
  if (!err && (!order || !buf))
    err = ENOMEM;
  if (!err)
    err = units_put_all (off, head + bytes, head, n, records, order, buf);
  if (err > 0)
    dsprof_writer_abort (err);
  else if (!err)
    dsprof_writer_commit (off, head + bytes);
  free (order);
  free (buf);

  /* No file, or the chunk failed: the counters must not stay the parent's.  */
  for (size_t i = 0; i < nunits; i++)
    {
      struct unit *u = &units[i];
      if (err && u->mapped)
        unit_detach (u);
      u->mapped = !err && unit_ok (u) && unit_bytes (u);
    }
}
