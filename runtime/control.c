/* control.c - the control page: the switch of event recording that `dsprof
   ctl` turns while the program runs (include/dsprof-format.h, section 2a).

   __dsprof_events_on, which every event function loads at its entry, is the
   first word of a page of its own; once the profile exists, that page is the
   profile's control page mapped MAP_SHARED over it, so a write to the file
   is what the program reads next.  */

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
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
dsprof_control_map (int fd, uint64_t offset)
{
  if (!control_mappable ())
    return;
  /* Mapped elsewhere, then moved over the page (as dsprof_writer_map does):
     the flag's page is never left unmapped.  */
  void *p = mmap (NULL, DSPROF_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                  (off_t) (offset + DSPROF_PAGE));
  if (p == MAP_FAILED)
    return;
  void *q = mremap (p, DSPROF_PAGE, DSPROF_PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
                    __dsprof_events_on);
  if (q == MAP_FAILED)
    {
      munmap (p, DSPROF_PAGE);
      return;
    }
  dsprof_writer_track (q, DSPROF_PAGE);
  uint32_t mapped = 1;
  if (pwrite (fd, &mapped, sizeof mapped,
              (off_t) (offset + offsetof (struct dsprof_control_chunk, mapped)))
      != (ssize_t) sizeof mapped)
    return;   /* ctl then says the process cannot be switched */
}
