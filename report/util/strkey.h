/* strkey.h - libiberty htab callbacks for entries keyed by a string: any
   struct whose first member is its key, a `char *' or `const char *'
   (hashed and compared by its text).  */

#ifndef DSPROF_STRKEY_H
#define DSPROF_STRKEY_H

#include "libiberty.h"
#include "hashtab.h"

hashval_t strkey_hash (const void *entry);
int strkey_eq (const void *a, const void *b);

#endif /* DSPROF_STRKEY_H */
