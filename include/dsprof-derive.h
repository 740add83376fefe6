/* dsprof-derive.h - dimensions computed by your own code, for
   `dsprof report --derive LIB.so` and `dsprof shell --derive LIB.so`.

   A derive library is a shared object that defines dsprof_derive.  dsprof calls
   it for every dimension a query names that the record does not carry itself.
   A library may not redefine a built-in derived dimension (depth, parent, ...,
   outer:D, prev:D: `dsprof dims --help' lists them): a value for one of
   their names is an error.  It writes the value as text into BUF (SIZE bytes) and
   returns BUF (or any string that lives until the next call), or returns NULL if
   it does not define DIM: the record then has no value (an empty one in reports).

   The record accessors below are provided by dsprof itself; the library calls
   them and is linked without -ldsprof:

     cc -shared -fPIC -o type.so type.c

   A record's parent is still open when the record is seen: its Start dimensions
   (and those added so far) are there, its result is not.  Children are complete.

   Example (examples/derive/type.c): the node kind of a formatted `subject`,
   "Num(3)" -> "Num".  */

#ifndef DSPROF_DERIVE_H
#define DSPROF_DERIVE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dsprof_record;

/* Every accessor takes NULL for R (what dsprof_record_parent returns for a
   top-level record, dsprof_record_child for an index past the last) and
   answers as for a record with nothing: NULL, 0.  */

/* The text of dimension DIM of R (recorded, derived by dsprof, or by the
   library itself), in BUF; NULL if R has none.  */
const char *dsprof_record_dim (const struct dsprof_record *r, const char *dim,
                               char *buf, size_t size);

/* The enclosing record, or NULL for a top-level one.  */
const struct dsprof_record *dsprof_record_parent (const struct dsprof_record *r);

/* The direct descendants, in completion order.  */
unsigned dsprof_record_nchildren (const struct dsprof_record *r);
const struct dsprof_record *dsprof_record_child (const struct dsprof_record *r,
                                                 unsigned i);

/* The record's duration in nanoseconds, as recorded.  */
unsigned long long dsprof_record_ns (const struct dsprof_record *r);

/* Defined by the library.  */
typedef const char *dsprof_derive_fn (const struct dsprof_record *r,
                                      const char *dim, char *buf, size_t size);
dsprof_derive_fn dsprof_derive;

#ifdef __cplusplus
}
#endif

#endif /* DSPROF_DERIVE_H */
