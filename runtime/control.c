/* control.c - the control page: the switch of event recording that `dsprof
   ctl` turns while the program runs (include/dsprof-format.h, section 2a).

   __dsprof_events_on, which every event function loads at its entry, is the
   first word of a page of its own; once the profile exists, that page is the
   profile's control page mapped MAP_SHARED over it, so a write to the file
   is what the program reads next.  */

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* The whole page, so that nothing else shares it (an executable's copy of it
   too: a copy relocation copies the symbol's size).  Nonzero until
   recorder_init decides (recorder.c).  */
DSPROF_API int __dsprof_events_on[DSPROF_PAGE / sizeof (int)]
  __attribute__ ((aligned (DSPROF_PAGE))) = { 1 };

void
dsprof_control_set (int on)
{
  __atomic_store_n (&__dsprof_events_on[0], on, __ATOMIC_RELAXED);
}

int
dsprof_control_on (void)
{
  return __atomic_load_n (&__dsprof_events_on[0], __ATOMIC_RELAXED);
}

/* Whether the flag's page is the program's own page to map over.  */

static int
control_mappable (void)
{
  return ((uintptr_t) __dsprof_events_on & (DSPROF_PAGE - 1)) == 0;
}

int
dsprof_control_write (int fd, uint64_t offset)
{
  /* The first page: the chunk's head (mapped 0 until dsprof_control_map has
     mapped it); the second: the flag as it is now.  */
  unsigned char page[DSPROF_PAGE];
  memset (page, 0, sizeof page);
  struct dsprof_control_chunk *c = (struct dsprof_control_chunk *) page;
  c->chunk.kind = DSPROF_CHUNK_CONTROL;
  c->chunk.size = 2 * DSPROF_PAGE;
  int on = dsprof_control_on () != 0;
  c->events_at_start = (uint32_t) on;
  errno = 0;
  if (pwrite (fd, page, sizeof page, (off_t) offset) != (ssize_t) sizeof page)
    return errno ? errno : EIO;
  memset (page, 0, sizeof page);
  memcpy (page, &on, sizeof on);
  if (pwrite (fd, page, sizeof page, (off_t) (offset + DSPROF_PAGE))
      != (ssize_t) sizeof page)
    return errno ? errno : EIO;
  return 0;
}

void
dsprof_control_map (uint64_t offset)
{
  if (!control_mappable ()
      || !dsprof_writer_map (offset + DSPROF_PAGE, DSPROF_PAGE, __dsprof_events_on, 1))
    return;
  /* Else ctl says the process cannot be switched.  */
  uint32_t mapped = 1;
  dsprof_writer_write (offset + offsetof (struct dsprof_control_chunk, mapped),
                       &mapped, sizeof mapped);
}
