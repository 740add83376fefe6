/* derive.c - user-derived dimensions (docs/contract.md §5.4): the record
   accessors of dsprof-derive.h, exported to a --derive library, and loading
   the library.  */

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "aggregate.h"
#include "derive.h"
#include "dsprof-derive.h"
#include "events.h"
#include "exit.h"

/* The accessors of dsprof-derive.h, exported to the --derive library.  A
   struct dsprof_record is an ev_record.  */

#define REC(r) ((const struct ev_record *) (r))

/* Each takes the NULL the others return (the parent of a top-level record, a
   child past the last) as a record with nothing: no dimension, parent or
   children, 0 ns.  */

const char *
dsprof_record_dim (const struct dsprof_record *r, const char *dim, char *buf,
                   size_t size)
{
  return r && dim ? agg_dim_text (REC (r), dim, buf, size) : NULL;
}

const struct dsprof_record *
dsprof_record_parent (const struct dsprof_record *r)
{
  return r ? (const struct dsprof_record *) REC (r)->parent : NULL;
}

unsigned
dsprof_record_nchildren (const struct dsprof_record *r)
{
  return r ? REC (r)->nchildren : 0;
}

const struct dsprof_record *
dsprof_record_child (const struct dsprof_record *r, unsigned i)
{
  return r && i < REC (r)->nchildren
           ? (const struct dsprof_record *) REC (r)->children[i] : NULL;
}

unsigned long long
dsprof_record_ns (const struct dsprof_record *r)
{
  return r ? REC (r)->end_ns - REC (r)->start_ns : 0;
}

static dsprof_derive_fn *user_derive;

static const char *
derive_hook (const struct ev_record *r, const char *dim, char *buf, size_t size)
{
  return user_derive ((const struct dsprof_record *) r, dim, buf, size);
}

int
derive_load (const char *path)
{
  /* dlopen searches the library path for a bare name; a path is meant.  */
  char *p = strchr (path, '/') ? xstrdup (path) : concat ("./", path, NULL);
  void *h = dlopen (p, RTLD_NOW | RTLD_LOCAL);
  free (p);
  if (!h)
    {
      fprintf (stderr, "dsprof: --derive %s: %s\n", path, dlerror ());
      return EXIT_USAGE;
    }
  user_derive = (dsprof_derive_fn *) dlsym (h, "dsprof_derive");
  if (!user_derive)
    {
      fprintf (stderr, "dsprof: --derive %s: the library defines no "
               "dsprof_derive function (see dsprof-derive.h)\n", path);
      return EXIT_USAGE;
    }
  agg_set_derive (derive_hook);
  return 0;
}
