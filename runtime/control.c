/* control.c - the control page: the switch of event recording that `dsprof
   ctl` turns while the program runs (include/dsprof-format.h, section 2a).

   __dsprof_events_on, which every event function loads at its entry, is the
   first word of a page of its own; once the profile exists, that page is the
   profile's control page mapped MAP_SHARED over it, so a write to the file
   is what the program reads next.  This file calls no other of the runtime:
   the writer writes the chunk (dsprof_control_write) into a new profile and
   maps it over the page (dsprof_control_page).  */

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
  /* The first page: the chunk's head (mapped 0 until the writer has
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

/* The flag's page, for the writer to map the control chunk's flag page over
   (writer_map_control); NULL if the page is not the flag's alone.  */

void *
dsprof_control_page (void)
{
  return control_mappable () ? __dsprof_events_on : NULL;
}
