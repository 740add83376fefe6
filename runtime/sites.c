/* sites.c - the event sites of the registered units (dsprof-format.h,
   sections 1 and 3): each site's global id and what the hooks need of it, its
   dimensions' types and the room its events take.

   It is a file of its own because it is the one table the hooks share with the
   registration path: units add sites under the sites lock while hooks in other
   threads look them up without it (dsprof_site, internal.h).  A unit's ids are
   contiguous, base + index, so its profile record keeps only the base.

   Invariants: dsprof_sites[1 .. nsites] are the sites of the units registered
   so far (NULL for a site whose record could not be read); an entry is stored
   before its id is published in the unit's site word; an array is never freed
   once published, for a hook may still be reading it.  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct dsprof_site **dsprof_sites;   /* global id -> site; id 0 unused */
static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t nsites, sites_size;

/* Make `dsprof_sites` hold at least NEED entries; false if memory ran out.
   Called with the sites lock held.  */

static int
grow_sites (uint32_t need)
{
  if (need <= sites_size)
    return 1;
  uint32_t nsize = sites_size ? 2 * sites_size : 256;
  while (nsize < need)
    nsize *= 2;
  struct dsprof_site **ns = calloc (nsize, sizeof *ns);
  if (!ns)
    return 0;
  if (dsprof_sites)
    memcpy (ns, dsprof_sites, (nsites + 1) * sizeof *ns);
  /* Hooks read the array without the lock: never free an old one.  */
  __atomic_store_n (&dsprof_sites, ns, __ATOMIC_RELEASE);
  sites_size = nsize;
  return 1;
}

/* Read the dims of the site record REC into SITE, whose arrays TYPES and
   DIM_NAMES have room for them; the last is the result.  Return 0, or -1 if
   one is malformed.  */

static int
read_dims (struct dsprof_site_rec *rec, struct dsprof_site *site,
           uint8_t *types, uint32_t *dim_names)
{
  site->max_size = MAX_FIXED_EVENT;
  for (uint64_t i = 0; i < rec->ndims; i++)
    {
      struct dsprof_site_dim d;
      if (dsprof_site_next_dim (&rec->dims, &d) < 0)
        return -1;
      if (i == rec->ndims - 1)
        {
          site->result = d.type;     /* the last dim is "result" */
          break;
        }
      char buf[256];
      snprintf (buf, sizeof buf, "%.*s", (int) d.name_len, d.name);
      types[i] = d.type;
      dim_names[i] = dsprof_strings_intern (buf);
      site->max_size += d.type == DSPROF_DIM_STR || d.type == DSPROF_DIM_PTR
                          ? MAX_STR_VALUE : 10;
    }
  site->ndims = (uint32_t) rec->ndims - 1;
  site->types = types;
  site->dim_names = dim_names;
  return 0;
}

/* The site of the DSPROF_TAG_SITE record BODY, of a unit with NUNIT_SITES
   sites, and its index in the unit in *INDEX; NULL if the record is bad or
   memory ran out.  */

static struct dsprof_site *
site_from_record (struct dsprof_cursor *body, uint32_t nunit_sites,
                  uint64_t *index)
{
  struct dsprof_site_rec rec;
  if (dsprof_site_read (body, &rec) < 0 || rec.index >= nunit_sites
      || rec.ndims > 1024)
    return NULL;
  *index = rec.index;
  struct dsprof_site *site = calloc (1, sizeof *site);
  uint8_t *types = calloc (rec.ndims, 1);
  uint32_t *dim_names = calloc (rec.ndims, sizeof *dim_names);
  if (site && types && dim_names && read_dims (&rec, site, types, dim_names) == 0)
    return site;
  free (site), free (types), free (dim_names);
  return NULL;
}

/* Give the NUNIT_SITES sites of a unit whose metadata is META global ids in
   SITE_IDS; return the first.  */

DSPROF_HIDDEN uint32_t
dsprof_sites_add (const char *meta, uint32_t meta_size,
                  uint32_t *site_ids, uint32_t nunit_sites)
{
  pthread_mutex_lock (&sites_lock);
  if (!grow_sites (nsites + nunit_sites + 1))
    {
      pthread_mutex_unlock (&sites_lock);
      return 0;
    }
  uint32_t base = nsites + 1;
  nsites += nunit_sites;
  /* Keep the lock while storing: a concurrent registration may copy the array.  */

  struct dsprof_meta m;
  struct dsprof_cursor r;
  uint64_t tag;
  dsprof_meta_open (&m, meta, meta_size);
  while (dsprof_meta_next (&m, &tag, &r) > 0)
    {
      if (tag != DSPROF_TAG_SITE)
        continue;
      uint64_t index;
      struct dsprof_site *site = site_from_record (&r, nunit_sites, &index);
      if (!site)
        continue;
      /* The entry first, then the id that leads a hook to it (internal.h).  */
      __atomic_store_n (&dsprof_sites[base + index], site, __ATOMIC_RELEASE);
      __atomic_store_n (&site_ids[index], base + (uint32_t) index,
                        __ATOMIC_RELEASE);
    }
  pthread_mutex_unlock (&sites_lock);
  return base;
}

DSPROF_HIDDEN uint32_t
dsprof_sites_add_scratch (struct dsprof_site *site)
{
  pthread_mutex_lock (&sites_lock);
  int room = grow_sites (nsites + 2);
  uint32_t id = room ? nsites + 1 : 0;
  if (room)
    __atomic_store_n (&dsprof_sites[id], site, __ATOMIC_RELEASE);
  pthread_mutex_unlock (&sites_lock);
  return id;
}

DSPROF_HIDDEN void
dsprof_sites_lock (void)
{
  pthread_mutex_lock (&sites_lock);
}

DSPROF_HIDDEN void
dsprof_sites_unlock (void)
{
  pthread_mutex_unlock (&sites_lock);
}

DSPROF_HIDDEN void
dsprof_sites_fork_child (void)
{
  pthread_mutex_init (&sites_lock, NULL);
}
