/* progress.c - progress of a long read on a terminal (progress.h).  */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "text.h"

static struct
{
  bool on;                       /* wanted, stderr a terminal */
  uint64_t start_ns, delay_ns;   /* monotonic; how long before showing */
  const char *path;              /* the first profile expected */
  unsigned nfiles;               /* profiles expected */
  uint64_t total;                /* their bytes of events: one pass */
  uint64_t done;                 /* bytes read in this pass */
  uint64_t next_check;           /* when DONE reaches it, read the clock */
  int shown;                     /* the percentage shown, -1: none */
  int width;                     /* of the line shown */
} pg = { .shown = -1 };

static uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

void
progress_want (void)
{
  if (!isatty (STDERR_FILENO))
    return;
  pg.on = true;
  pg.start_ns = now_ns ();
  pg.delay_ns = 1000000000u;
  const char *d = getenv ("DSPROF_PROGRESS_DELAY");
  char *end;
  double s = d && *d ? strtod (d, &end) : -1;
  if (d && *d && !*end && s >= 0 && s < 1e6)
    pg.delay_ns = (uint64_t) (s * 1e9);
}

void
progress_off (void)
{
  progress_end ();
  pg.on = false;
}

void
progress_expect (const char *path, uint64_t bytes)
{
  if (!pg.on)
    return;
  if (!pg.path || strcmp (pg.path, path))
    pg.nfiles++;
  if (!pg.path)
    pg.path = path;
  pg.total += bytes;
}

/* Show P %, if not already shown.  */

static void
show (int p)
{
  if (p == pg.shown)
    return;
  char what[32];
  const char *name = pg.path ? text_shown (pg.path) : "";
  if (pg.nfiles > 1)
    {
      snprintf (what, sizeof what, "%u profiles", pg.nfiles);
      name = what;
    }
  int n = fprintf (stderr, "\rdsprof: reading %s: %d %%", name, p);
  if (n - 1 > pg.width)
    pg.width = n - 1;
  pg.shown = p;
}

void
progress_add (uint64_t bytes)
{
  if (!pg.on || !pg.total)
    return;
  pg.done += bytes;
  if (pg.done >= pg.total)
    {
      /* A pass ended: clear, and count the next from 0.  */
      progress_end ();
      pg.done = pg.next_check = 0;
      return;
    }
  if (pg.done < pg.next_check)
    return;
  pg.next_check = pg.done + pg.total / 512 + 1;
  if (now_ns () - pg.start_ns >= pg.delay_ns)
    show ((int) (100 * pg.done / pg.total));
}

void
progress_end (void)
{
  if (pg.shown < 0)
    return;
  fprintf (stderr, "\r%*s\r", pg.width, "");
  pg.shown = -1;
}
