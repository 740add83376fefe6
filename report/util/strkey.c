/* strkey.c - htab callbacks for entries keyed by their first member, a
   string (strkey.h).  */

#include <string.h>

#include "strkey.h"

/* The key of ENTRY: the string its first member points to.  */

static const char *
key (const void *entry)
{
  return *(const char *const *) entry;
}

hashval_t
strkey_hash (const void *entry)
{
  return htab_hash_string (key (entry));
}

int
strkey_eq (const void *a, const void *b)
{
  return !strcmp (key (a), key (b));
}
