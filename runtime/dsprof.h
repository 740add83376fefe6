/* dsprof.h - the public interface of libdsprof (docs/contract.md §4).

   Annotate the functions whose calls are domain events:

     #include <dsprof.h>

     DSPROF_EVENT int eval_node (struct node *n);          event type "eval_node"
     DSPROF_EVENT_TYPE ("AttrEval") int eval_attr (...);   event type "AttrEval"

   The macros expand to the plugin's attribute only when the compiler knows it (the
   plugin registers it), so annotated code compiles warning-free without the plugin.
   The functions below may be called whether or not the program was built with the
   plugin; link with -ldsprof.

   Basic-block counters need no calls: the plugin emits them and the constructors
   that hand them to the runtime (see dsprof-format.h).  */

#ifndef DSPROF_H
#define DSPROF_H

#include <stddef.h>
#include <stdint.h>

/* Marks the library's exported entry points; the library is built with
   -fvisibility=hidden so that everything else stays internal.  */
#ifndef DSPROF_API
# if defined(__GNUC__)
#  define DSPROF_API __attribute__ ((visibility ("default")))
# else
#  define DSPROF_API
# endif
#endif

/* Lets the declarations below use long long under -std=c89 -pedantic-errors,
   which has no long long of its own but GCC's.  */
#if defined(__GNUC__)
# define DSPROF_EXTENSION __extension__
#else
# define DSPROF_EXTENSION
#endif

#if defined(__has_attribute)
# if __has_attribute(dsprof_event)
#  define DSPROF_EVENT __attribute__ ((dsprof_event))
#  define DSPROF_EVENT_TYPE(T) __attribute__ ((dsprof_event (T)))
# endif
#endif
#ifndef DSPROF_EVENT
# define DSPROF_EVENT
# define DSPROF_EVENT_TYPE(T)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* An open event, as returned by dsprof_start; 0 when nothing was recorded.  */
typedef uint64_t dsprof_id;

/* Attach dimension DIM with a value to the innermost open event of the calling
   thread.  Outside any event the value is dropped (and counted).  */
DSPROF_EXTENSION DSPROF_API void dsprof_dim_int (const char *dim, long long v);
DSPROF_EXTENSION DSPROF_API void dsprof_dim_uint (const char *dim,
                                                  unsigned long long v);
DSPROF_API void dsprof_dim_double (const char *dim, double v);
DSPROF_API void dsprof_dim_bool (const char *dim, int v);
DSPROF_API void dsprof_dim_str (const char *dim, const char *s);
DSPROF_API void dsprof_dim_ptr (const char *dim, const void *p);

/* Open an event of type EVENT_TYPE by hand; close it with dsprof_finish.  Events
   nest last in, first out per thread; a finish of an event that is not the
   innermost one closes the events inside it as incomplete.  */
DSPROF_API dsprof_id dsprof_start (const char *event_type);
DSPROF_API void dsprof_finish (dsprof_id id);

/* Record pointer values of dimension DIM as the text FMT writes for them: FMT is
   called at Start with the pointer P and a buffer BUF of SIZE bytes, and returns the
   length of its text.  */
DSPROF_API void dsprof_set_formatter (const char *dim,
                                      size_t (*fmt) (const void *p, char *buf,
                                                     size_t size));

#ifdef __cplusplus
}
#endif

#endif /* DSPROF_H */
