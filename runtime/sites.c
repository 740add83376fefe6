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

/* Read one dimension of a site record at C: its name into *NAME and *LEN,
   its values if it is an enum (skipped); return its DSPROF_DIM_* type.  */

static int
parse_dim (struct dsprof_cursor *c, const char **name, size_t *len)
{
  *len = dsprof_read_str (c, name);
  int type = (int) dsprof_read_uleb (c);
  if (type == DSPROF_DIM_ENUM)
    {
      uint64_t n = dsprof_read_uleb (c);
      for (uint64_t i = 0; i < n && !c->err; i++)
        {
          const char *s;
          dsprof_read_uleb (c);
          dsprof_read_str (c, &s);
        }
    }
  return type;
}

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

/* Read the NDIMS dimensions of a site record at R into SITE, whose arrays
   TYPES and DIM_NAMES have room for them; the last is the result.  */

static void
read_dims (struct dsprof_cursor *r, uint64_t ndims, struct dsprof_site *site,
           uint8_t *types, uint32_t *dim_names)
{
  site->max_size = MAX_FIXED_EVENT;
  for (uint64_t i = 0; i < ndims && !r->err; i++)
    {
      const char *name;
      size_t nlen;
      int type = parse_dim (r, &name, &nlen);
      if (i == ndims - 1)
        {
          site->result = type;     /* the last dim is "result" */
          break;
        }
      char buf[256];
      snprintf (buf, sizeof buf, "%.*s", (int) nlen, name);
      types[i] = type;
      dim_names[i] = dsprof_recorder_intern (buf);
      site->max_size += type == DSPROF_DIM_STR || type == DSPROF_DIM_PTR
                          ? MAX_STR_VALUE : 10;
    }
  site->ndims = (uint32_t) ndims - 1;
  site->types = types;
  site->dim_names = dim_names;
}

/* The site of the DSPROF_TAG_SITE record at R, of a unit with NUNIT_SITES
   sites, and its index in the unit in *INDEX; NULL if the record is bad or
   memory ran out.  */

static struct dsprof_site *
site_from_record (struct dsprof_cursor *r, uint32_t nunit_sites,
                  uint64_t *index)
{
  const char *s;
  *index = dsprof_read_uleb (r);
  dsprof_read_str (r, &s);               /* event type */
  dsprof_read_str (r, &s);               /* function */
  dsprof_read_uleb (r);                  /* file */
  dsprof_read_uleb (r);                  /* line */
  uint64_t ndims = dsprof_read_uleb (r);
  if (r->err || *index >= nunit_sites || ndims == 0 || ndims > 1024)
    return NULL;
  struct dsprof_site *site = calloc (1, sizeof *site);
  uint8_t *types = calloc (ndims, 1);
  uint32_t *dim_names = calloc (ndims, sizeof *dim_names);
  if (site && types && dim_names)
    {
      read_dims (r, ndims, site, types, dim_names);
      if (!r->err)
        return site;
    }
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

  struct dsprof_cursor c = { (const unsigned char *) meta,
                             (const unsigned char *) meta + meta_size, 0 };
  const char *s;
  dsprof_read_uleb (&c);
  dsprof_read_str (&c, &s);
  dsprof_read_str (&c, &s);
  while (!c.err && c.p < c.end)
    {
      uint64_t tag = dsprof_read_uleb (&c);
      uint64_t len = dsprof_read_uleb (&c);
      if (c.err || len > (uint64_t) (c.end - c.p))
        break;
      struct dsprof_cursor r = { c.p, c.p + len, 0 };
      c.p += len;
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
