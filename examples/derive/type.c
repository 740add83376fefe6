/* type.c - a derive library for `dsprof report --derive`: the dimension `type`,
   the node kind of a record's formatted `subject` ("Mul(Num(4),Num(5))" -> "Mul"),
   and `root`, the subject of the record's top-level ancestor.

     cc -shared -fPIC -I/path/to/dsprof/include -o type.so type.c
     dsprof report name type --derive ./type.so  */

#include <string.h>

#include <dsprof-derive.h>

const char *
dsprof_derive (const struct dsprof_record *r, const char *dim, char *buf,
               size_t size)
{
  if (strcmp (dim, "type") == 0)
    {
      const char *s = dsprof_record_dim (r, "subject", buf, size);
      if (!s)
        return NULL;
      if (s != buf)
        {
          strncpy (buf, s, size - 1);
          buf[size - 1] = '\0';
        }
      buf[strcspn (buf, "(")] = '\0';
      return buf;
    }
  if (strcmp (dim, "root") == 0)
    {
      while (dsprof_record_parent (r))
        r = dsprof_record_parent (r);
      return dsprof_record_dim (r, "subject", buf, size);
    }
  return NULL;
}
