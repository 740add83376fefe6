/* lifecycle.c - the runtime's life in its process: start, fork and exit, in
   one place, as LTTng-UST and libgcov (libgcov-interface.c) keep theirs.

   The other files each own their state and say how to lock it, reset it in a
   forked child, or close it at exit; this file alone knows the order, and
   calls them.  None of them calls this file: the writer, which makes the
   files, is given at start-up (dsprof_writer_setup) the two things it needs
   from above, how to fill the fields of a new header that other modules own
   and the fork child handler a raw clone's child runs (dsprof_writer_adopt).

   Start  (a constructor, before the units' own, priority 99): register the
          fork handlers, then let the writer make files.
   Fork   prepare: take every lock in the lock order, and keep the forking
          thread's heap state for its child (recorder.c);
          parent:  release them in reverse;
          child:   the threads' count anew, the writer's new file (held
                   open), every unit's chunks and the thread's shard in it,
                   the file closed, then the sites', the names' and the
                   recorder's locks and streams made anew.
   Exit   (a destructor): the exiting thread's open events closed, the
          clock's CPU times, then the stop time (the writer).

   Lock order: the units lock (units.c), the writer lock (writer.c), the
   sites lock (sites.c), the names lock (strings.c).  */

#include <errno.h>
#include <pthread.h>

#include "internal.h"

const char dsprof_lifecycle_linked;

static void
lifecycle_prepare (void)
{
  /* In the lock order, so that the child finds the registry, the writer, the
     sites and the names consistent and not locked by a thread it does not
     have.  */
  dsprof_units_lock ();
  dsprof_writer_lock ();
  dsprof_sites_lock ();
  dsprof_strings_lock ();
  dsprof_recorder_fork_prepare ();
}

static void
lifecycle_parent (void)
{
  dsprof_recorder_fork_parent ();
  dsprof_strings_unlock ();
  dsprof_sites_unlock ();
  dsprof_writer_unlock ();
  dsprof_units_unlock ();
}

/* In a forked child, or in a raw clone's before it adds an event chunk
   (dsprof_writer_adopt).  */

static void
lifecycle_child (void)
{
  int saved_errno = errno;
  dsprof_threads_fork_child ();     /* before the file, whose header
                                       counts them */
  dsprof_writer_fork_child ();
  dsprof_units_fork_child ();
  dsprof_shards_fork_child ();      /* after the units' chunks */
  dsprof_writer_fork_done ();
  dsprof_sites_fork_child ();
  dsprof_strings_fork_child ();
  dsprof_recorder_fork_child ();
  errno = saved_errno;
}

/* The fields of a new header that the writer does not own: the clock's and
   the recorder's, before anyone can see the file; the threads' counter once
   it is this process's header.  */

static const struct dsprof_writer_owner owner = {
  .header_init = dsprof_recorder_header_init,
  .header_taken = dsprof_threads_header_init,
  .fork_child = lifecycle_child,
};

/* Priority 98: before the units' constructors (99, plugin/metadata.cc), whose
   registration makes the file.  */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wprio-ctor-dtor"
__attribute__ ((constructor (98))) static void
lifecycle_start (void)
{
  int saved_errno = errno;
  int err = pthread_atfork (lifecycle_prepare, lifecycle_parent,
                            lifecycle_child);
  dsprof_writer_setup (&owner, err);
  errno = saved_errno;
}
#pragma GCC diagnostic pop

/* At normal exit (return from main, exit()); a process that ends any other
   way leaves the stop time 0.  */

__attribute__ ((destructor)) static void
lifecycle_exit (void)
{
  int saved_errno = errno;
  dsprof_recorder_exit ();
  struct dsprof_file_header *hdr = dsprof_writer_own_header ();
  if (hdr)
    dsprof_clock_exit_times (hdr);
  dsprof_writer_exit ();
  errno = saved_errno;
}
