/* threads.c - what the runtime knows of the threads that run counted code.

   With update=single (dsprof-format.h, section 1) two threads that increment
   the same counter at once may lose one of the increments, and nothing in the
   counts shows it.  So each counted function that calls others tests the
   thread-local __dsprof_seen_v1 at entry (a load and a branch not taken;
   plugin/threads.cc), and the first time a thread gets there it calls
   __dsprof_seen_thread_v1, which counts the thread into the header's
   single_threads.  The report warns when that is more than one
   (docs/contract.md §3).  */

#include "internal.h"

DSPROF_API __thread int __dsprof_seen_v1
  __attribute__ ((tls_model ("initial-exec")));

/* Threads of this process seen so far, and the header they are stored in:
   set by the writer when it makes the file (a unit may run before).  */
static uint64_t seen_threads;
static struct dsprof_file_header *seen_header;

/* Store N in H's single_threads unless it holds more already (two threads
   arriving at once may store out of order).  */

static inline DSPROF_GENERAL_REGS void
store_max (struct dsprof_file_header *h, uint64_t n)
{
  uint64_t old = __atomic_load_n (&h->single_threads, __ATOMIC_RELAXED);
  while (old < n
         && !__atomic_compare_exchange_n (&h->single_threads, &old, n, 1,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
}

/* It preserves every register (internal.h) by touching only general ones and
   calling nothing: the caller's vector registers are never saved.  */

DSPROF_API DSPROF_PRESERVES_ALL DSPROF_GENERAL_REGS void
__dsprof_seen_thread_v1 (void)
{
  if (__dsprof_seen_v1)
    return;
  __dsprof_seen_v1 = 1;
  uint64_t n = __atomic_add_fetch (&seen_threads, 1, __ATOMIC_RELAXED);
  struct dsprof_file_header *h = __atomic_load_n (&seen_header, __ATOMIC_ACQUIRE);
  if (h)
    store_max (h, n);
}

void
dsprof_threads_header_init (struct dsprof_file_header *h)
{
  __atomic_store_n (&seen_header, h, __ATOMIC_RELEASE);
  store_max (h, __atomic_load_n (&seen_threads, __ATOMIC_RELAXED));
}

void
dsprof_threads_fork_child (void)
{
  /* The child has one thread, the one that forked, which has run counted
     code if its flag is set; its file is yet to be made.  */
  __atomic_store_n (&seen_header, NULL, __ATOMIC_RELAXED);
  __atomic_store_n (&seen_threads, __dsprof_seen_v1 ? 1 : 0, __ATOMIC_RELAXED);
}
