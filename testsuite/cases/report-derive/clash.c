/* clash.c - a derive library that defines `mine' and `depth', the name of a
   built-in derived dimension (docs/contract.md §5.4): asked for depth, dsprof
   stops with an error rather than let either value win.  */

#include <stdio.h>
#include <string.h>

#include "dsprof-derive.h"

const char *
dsprof_derive (const struct dsprof_record *r, const char *dim, char *buf,
               size_t size)
{
  (void) r;
  if (strcmp (dim, "mine") != 0 && strcmp (dim, "depth") != 0)
    return NULL;
  snprintf (buf, size, "%s-by-library", dim);
  return buf;
}
