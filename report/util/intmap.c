/* intmap.c - a map from 64-bit integer keys to 64-bit values (see intmap.h).  */

#include <stdlib.h>
#include <string.h>

#include "intmap.h"

/* Fibonacci hashing: the key's bits spread over the upper half, which is the
   hash.  Computed once per lookup and given to htab_find_slot_with_hash; the
   htab calls intmap_hash only when it grows.  */

static inline hashval_t
key_hash (uint64_t key)
{
  return (hashval_t) ((key * 0x9e3779b97f4a7c15ull) >> 32);
}

static hashval_t
intmap_hash (const void *p)
{
  return key_hash (((const struct intmap_entry *) p)->key);
}

/* P an entry in the table, Q the entry looked for (only its key is read).  */

static int
intmap_eq (const void *p, const void *q)
{
  return ((const struct intmap_entry *) p)->key
         == ((const struct intmap_entry *) q)->key;
}

/* Put entry E, whose key is not in M's table, in it.  */

static void
tab_insert (struct intmap *m, struct intmap_entry *e)
{
  void **slot = htab_find_slot_with_hash (m->tab, e, key_hash (e->key), INSERT);
  *slot = e;
}

uint64_t *
intmap_slot_hashed (struct intmap *m, uint64_t key)
{
  if (m->n == INTMAP_SMALL)
    {
      /* The list is full: look in it, then index it.  The table is empty here,
         new or emptied by intmap_clear.  */
      for (uint32_t i = 0; i < INTMAP_SMALL; i++)
        if (m->small[i].key == key)
          return &m->small[i].val;
      if (!m->tab)
        m->tab = htab_create_alloc (4 * INTMAP_SMALL, intmap_hash, intmap_eq,
                                    NULL, xcalloc, free);
      for (uint32_t i = 0; i < INTMAP_SMALL; i++)
        tab_insert (m, &m->small[i]);
    }
  struct intmap_entry probe = { key, 0 };
  void **slot = htab_find_slot_with_hash (m->tab, &probe, key_hash (key), INSERT);
  if (*slot)
    return &((struct intmap_entry *) *slot)->val;

  /* A new entry, at index n: chunk c begins at S << c and holds S << c.  The
     slot stays valid: nothing below touches the table.  */
  uint32_t c = 31 - (uint32_t) __builtin_clz (m->n / INTMAP_SMALL);
  if (c == m->nmore)
    {
      m->more = XRESIZEVEC (struct intmap_entry *, m->more, c + 1);
      m->more[c] = XNEWVEC (struct intmap_entry, (size_t) INTMAP_SMALL << c);
      m->nmore = c + 1;
    }
  struct intmap_entry *e = &m->more[c][m->n - ((uint32_t) INTMAP_SMALL << c)];
  e->key = key;
  e->val = 0;
  m->n++;
  *slot = e;
  return &e->val;
}

void
intmap_clear_indexed (struct intmap *m)
{
  if (m->n > INTMAP_KEEP)
    intmap_free (m);
  else
    htab_empty (m->tab);
  m->n = 0;
}

void
intmap_free (struct intmap *m)
{
  free (m->small);
  for (uint32_t c = 0; c < m->nmore; c++)
    free (m->more[c]);
  free (m->more);
  if (m->tab)
    htab_delete (m->tab);
  memset (m, 0, sizeof *m);
}
