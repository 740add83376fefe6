/* cmd-ctl.c - `dsprof ctl PROFILE events on|off`: switch event recording in
   the running process that writes PROFILE (docs/contract.md §5.11), through
   the profile's control page (include/dsprof-format.h, section 2a).  */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"

static uint64_t
mono_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static int
ctl_pwrite (int fd, const void *buf, size_t size, uint64_t off)
{
  return pwrite (fd, buf, size, (off_t) off) == (ssize_t) size ? 0 : -1;
}

/* Switch the flag of the control chunk at OFF of FD (locked) to ON and log
   the switch, as section 2a orders it.  Return 0, 1 if it was ON already, or
   -1 with errno (ENOSPC: the log is full).  */

static int
switch_events (int fd, uint64_t off, uint32_t on, uint64_t *at)
{
  struct dsprof_control_chunk c;
  int flag;
  if (pread (fd, &c, sizeof c, (off_t) off) != (ssize_t) sizeof c
      || pread (fd, &flag, sizeof flag, (off_t) (off + DSPROF_PAGE))
         != (ssize_t) sizeof flag)
    return -1;
  if ((flag != 0) == (on != 0))
    return 1;
  if (c.nswitches >= DSPROF_CONTROL_MAX_SWITCHES)
    {
      errno = ENOSPC;
      return -1;
    }
  struct dsprof_switch w = { 0, on, 0 };
  int value = (int) on;
  if (!on)
    {
      /* A call that read the flag before the store starts its record just
         after: the interval logged begins once those have.  */
      if (ctl_pwrite (fd, &value, sizeof value, off + DSPROF_PAGE))
        return -1;
      struct timespec ms = { 0, 1000000 };
      nanosleep (&ms, NULL);
    }
  w.mono_ns = mono_ns ();
  uint32_t n = c.nswitches + 1;
  if (ctl_pwrite (fd, &w, sizeof w, off + sizeof c + c.nswitches * sizeof w)
      || ctl_pwrite (fd, &n, sizeof n,
                     off + offsetof (struct dsprof_control_chunk, nswitches)))
    return -1;
  if (on && ctl_pwrite (fd, &value, sizeof value, off + DSPROF_PAGE))
    return -1;
  *at = w.mono_ns;
  return 0;
}

/* Check that P's process can be switched; return 0 or EXIT_DATA after the
   message.  */

static int
check_process (const struct pf_process *p)
{
  if (!p->control_offset)
    {
      fprintf (stderr, "dsprof ctl: %s: the profile has no control page (written "
               "by an older runtime, by merge, or accumulated by DSPROF_ACCUMULATE): "
               "nothing to switch\n", p->path);
      return EXIT_DATA;
    }
  enum pf_state state = pf_process_state (p);
  if (state != PF_RUNNING)
    {
      fprintf (stderr, "dsprof ctl: %s: process %" PRId64 " %s: nothing to "
               "switch\n", p->path, p->header.pid, pf_state_text (state));
      return EXIT_DATA;
    }
  if (!p->control_mapped)
    {
      fprintf (stderr, "dsprof ctl: %s: process %" PRId64 " does not map its "
               "control page: events cannot be switched\n", p->path,
               p->header.pid);
      return EXIT_DATA;
    }
  return 0;
}

/* Open PATH, whose profile SET holds, to switch it: the file read, also
   through a symbolic link (the one the user named), READ its identity then
   (NULL: unknown).  Return the descriptor, locked, or -1 after the message.  */

static int
ctl_open (const char *path, const struct stat *read)
{
  struct stat st;
  int fd = open (path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 || fstat (fd, &st) != 0)
    fprintf (stderr, "dsprof ctl: %s: %s\n", path, strerror (errno));
  else if (!read || st.st_dev != read->st_dev || st.st_ino != read->st_ino)
    fprintf (stderr, "dsprof ctl: %s: the file was replaced while it was read\n",
             path);
  else if (flock (fd, LOCK_EX) != 0)
    fprintf (stderr, "dsprof ctl: %s: %s\n", path, strerror (errno));
  else
    return fd;
  if (fd >= 0)
    close (fd);
  return -1;
}

static int
ctl_events (const char *path, uint32_t on)
{
  struct pf_set set;
  struct stat read;
  memset (&set, 0, sizeof set);
  bool known = stat (path, &read) == 0;
  if (pf_add (&set, path) < 0)
    {
      pf_free (&set);
      return EXIT_DATA;
    }
  const struct pf_process *p = &set.procs[0];
  int rc = check_process (p);
  int fd = rc ? -1 : ctl_open (path, known ? &read : NULL);
  uint64_t at = 0;
  rc = rc ? rc : fd < 0 ? EXIT_DATA : 0;
  int r = rc ? 0 : switch_events (fd, p->control_offset, on, &at);
  if (r < 0)
    {
      fprintf (stderr, "dsprof ctl: %s: %s\n", path,
               errno == ENOSPC ? "the control page's log of switches is full"
               : strerror (errno));
      rc = EXIT_DATA;
    }
  else if (!rc && r)
    printf ("events already %s in process %" PRId64 "\n", on ? "on" : "off",
            p->header.pid);
  else if (!rc)
    printf ("events %s in process %" PRId64 " at %.6f s\n", on ? "on" : "off",
            p->header.pid, (double) (at - p->header.start_mono_ns) / 1e9);
  if (fd >= 0)
    close (fd);
  pf_free (&set);
  return rc ? rc : close_output ("ctl", NULL, stdout);
}

static const struct opt ctl_opts[] = {
  { 0 }
};

/* ctl's operands ARGV[0 .. ARGC): PROFILE events on|off.  */

static int
ctl_main (void *opts, int argc, char **argv)
{
  (void) opts;
  if (argc != 3 || strcmp (argv[1], "events")
      || (strcmp (argv[2], "on") && strcmp (argv[2], "off")))
    return usage_error ("ctl", "want PROFILE events on|off");
  return ctl_events (argv[0], !strcmp (argv[2], "on"));
}

static int
run_ctl (int argc, char **argv)
{
  return opt_run (&cmd_ctl.cli, argc, argv, NULL, ctl_main);
}

const struct command cmd_ctl = {
  .summary = "switch event recording of a running program",
  .run = run_ctl,
  .cli = {
    .name = "ctl", .opts = ctl_opts,
    .usage =
  "usage: dsprof ctl PROFILE events on|off\n\n"
  "Switch event recording on or off in the running process that writes\n"
  "PROFILE, at once (its next event function reads the switch from the\n"
  "profile's control page).  Events already started keep their Finish.  The\n"
  "switch is logged in the profile: `dsprof info`, `report` and `trace` show\n"
  "the intervals events were off.  Counters are never switched.  A process\n"
  "that is gone (its pid perhaps given to a later process), a copy of a live\n"
  "profile (a file the process does not map), or a file that is not a profile\n"
  "gets a message and status 2, the file unchanged.  A symbolic link switches\n"
  "the profile it names.\n"
  }
};
