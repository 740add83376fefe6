/* files.h - the files dsprof opens other than through a profile's mapping:
   inputs it reads whole (sources, a profile before it is mapped) and the outputs
   every command writes (-o FILE, annotate's listings, merge's profile).

   Inputs: only a regular file is read.  Its kind is looked up with stat before
   it is opened, and it is opened with O_NONBLOCK and checked again with fstat,
   so a fifo is never waited on and a device never read, even one swapped in
   between.

   Outputs: only a regular file is replaced, never through a symbolic link.  The
   target is checked with lstat; the output is written to a new file beside it
   (PATH.XXXXXX, created with O_EXCL, so nothing is followed), given mode 0666
   minus the umask, and renamed over the target only once it is complete and
   closed without error: a failed write leaves the old file as it was.  rename
   replaces a directory entry and never follows a link, so a target swapped for a
   link after the check is replaced, not written through.  --append opens the
   target itself with O_NOFOLLOW and checks it with fstat.  */

#ifndef DSPROF_FILES_H
#define DSPROF_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* What a file of MODE is, as a message says it ("a directory", "a fifo", ...);
   NULL for a regular file.  */
const char *file_kind (mode_t mode);

/* Open PATH to read if it is a regular file: a descriptor, its status in *ST.
   -1 with errno set if it cannot be opened; -1 with errno 0 and *KIND set (see
   file_kind) if it is not a regular file, which is then never opened.  */
int open_regular (const char *path, struct stat *st, const char **kind);

/* Whether the regular file PATH starts with dsprof's magic: 1 if it does, 0 if
   it does not (shorter, or other bytes), -1 if it cannot be opened and read as
   a regular file.  */
int profile_magic (const char *path);

/* The contents of the regular file PATH (*SIZE bytes, not NUL-terminated; free
   it).  NULL with *PROBLEM set (a static message) if it cannot be read or is
   not a regular file.  */
char *read_regular (const char *path, size_t *size, const char **problem);

/* An output of command CMD.  */
struct output
{
  FILE *f;                       /* stdout, the new file, or the target
                                    (--append) */
  const char *cmd;
  const char *path;              /* the target; NULL for standard output */
  char *tmp;                     /* the new file, renamed over PATH at the end */
  struct output *next;           /* the outputs open, for output_unlink_all */
};

enum
{
  OUTPUT_APPEND = 1,             /* add to PATH (a regular file or none) */
  OUTPUT_PROFILE = 2             /* replace PATH only if it is a dsprof profile */
};

/* Open the output PATH of command CMD (standard output for NULL or "-") with
   FLAGS (OUTPUT_*).  Return 0, or EXIT_DATA after a message
   "dsprof CMD: 'PATH': problem" if PATH exists and is not a regular file (a
   profile for OUTPUT_PROFILE), is a symbolic link, or cannot be written.  */
int output_open (struct output *o, const char *cmd, const char *path,
                 unsigned flags);

/* Finish O: check for write errors and put the new file in place.  Return 0,
   or EXIT_DATA after a message (the target then stays as it was).  */
int output_close (struct output *o);

/* Give O up: its new file is removed, the target stays as it was.  */
void output_discard (struct output *o);

/* End O after a command's work that returned RC: output_close if RC is 0, else
   output_discard.  Return RC, or output_close's.  */
int output_finish (struct output *o, int rc);

/* Check OUT (standard output, or a file then closed) for write errors; return 0
   or EXIT_DATA after a message naming PATH.  */
int close_output (const char *cmd, const char *path, FILE *out);

/* A scratch file, read and written by this process only and gone once closed
   (or the process ends): created in $TMPDIR, else /tmp, and unlinked at once.
   Return NULL with errno set if it cannot be made.  */
FILE *scratch_file (void);

/* Remove the new file of every open output; async-signal-safe, for a fatal
   signal.  */
void output_unlink_all (void);

#endif /* DSPROF_FILES_H */
