/* nulls.c - report-derive's library that hands the accessors of
   dsprof-derive.h the NULLs they return: the parent of a top-level record
   (it walks past the root) and a child past the last.  Its dimension
   `nulls` is what they answer for NULL, which is the same for every record:
   "none,0,0,null" (no dimension, no children, 0 ns, no child).  */
#include <stdio.h>
#include <string.h>
#include <dsprof-derive.h>

const char *
dsprof_derive (const struct dsprof_record *r, const char *dim, char *buf,
               size_t size)
{
  if (strcmp (dim, "nulls") != 0)
    return NULL;
  const struct dsprof_record *past = r;
  for (int i = 0; i < 100; i++)
    past = dsprof_record_parent (past);
  const struct dsprof_record *none
    = dsprof_record_child (r, dsprof_record_nchildren (r));
  char tmp[64];
  const char *name = dsprof_record_dim (past, "name", tmp, sizeof tmp);
  const char *child = dsprof_record_dim (none, "name", tmp, sizeof tmp);
  snprintf (buf, size, "%s,%u,%llu,%s", name ? name : "none",
            dsprof_record_nchildren (past) + dsprof_record_nchildren (none),
            dsprof_record_ns (past) + dsprof_record_ns (none),
            child || dsprof_record_child (past, 0) ? "child" : "null");
  return buf;
}
