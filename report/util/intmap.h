/* intmap.h - a map from 64-bit integer keys to 64-bit values, for the report's
   per-record tables (the dimension report's buckets below an open record, the
   call graph's values and arcs).

   Most of these maps hold a few keys, so the first INTMAP_SMALL entries are a
   list searched in order; past it libiberty's htab indexes every entry.  The
   entries lie in chunks that never move (INTMAP_SMALL of them, then as many
   again, then doubling), in the order of their insertion, so the htab can point
   at them and intmap_at reads them in that order.  Every key, 0 and UINT64_MAX
   included, is a key like any other.

   A zeroed struct intmap is an empty map.  Nothing points into the struct
   itself, so a map may be moved or swapped by copying the struct.  */

#ifndef DSPROF_INTMAP_H
#define DSPROF_INTMAP_H

#include <stdint.h>

#include "libiberty.h"
#include "hashtab.h"

#define INTMAP_SMALL 8

/* A map that held more entries than this gives its memory back when emptied,
   so that a pool of maps stays as large as what it holds now.  */
#define INTMAP_KEEP 1024

struct intmap_entry
{
  uint64_t key, val;
};

struct intmap
{
  struct intmap_entry *small;    /* entries [0, INTMAP_SMALL) */
  struct intmap_entry **more;    /* more[c]: entries [S << c, S << (c + 1)),
                                    S = INTMAP_SMALL */
  htab_t tab;                    /* NULL until a map first outgrows small */
  uint32_t n;                    /* entries */
  uint32_t nmore;                /* chunks allocated in more */
};

uint64_t *intmap_slot_hashed (struct intmap *m, uint64_t key);

/* The value of KEY, 0 if KEY is new: the caller sets it.  */

static inline uint64_t *
intmap_slot (struct intmap *m, uint64_t key)
{
  if (m->n < INTMAP_SMALL)
    {
      for (uint32_t i = 0; i < m->n; i++)
        if (m->small[i].key == key)
          return &m->small[i].val;
      if (!m->small)
        m->small = XNEWVEC (struct intmap_entry, INTMAP_SMALL);
      struct intmap_entry *e = &m->small[m->n++];
      e->key = key;
      e->val = 0;
      return &e->val;
    }
  return intmap_slot_hashed (m, key);
}

/* Entry I (< m->n) in the order of insertion.  */

static inline struct intmap_entry *
intmap_at (const struct intmap *m, uint32_t i)
{
  if (i < INTMAP_SMALL)
    return &m->small[i];
  uint32_t c = 31 - (uint32_t) __builtin_clz (i / INTMAP_SMALL);
  return &m->more[c][i - ((uint32_t) INTMAP_SMALL << c)];
}

/* intmap_clear of a map that outgrew its small list (out of line).  */
void intmap_clear_indexed (struct intmap *m);

/* Empty M; it keeps its memory unless it held more than INTMAP_KEEP entries.
   Inline for a small map, as most are (a report empties one a record).  */

static inline void
intmap_clear (struct intmap *m)
{
  if (m->n > INTMAP_SMALL)
    intmap_clear_indexed (m);
  m->n = 0;
}

/* Free M's memory: M is then an empty map.  */
void intmap_free (struct intmap *m);

#endif /* DSPROF_INTMAP_H */
