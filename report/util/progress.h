/* progress.h - progress of a long read on a terminal (docs/contract.md §5).

   A command that reads whole profiles (report, html, export, merge, diff)
   calls progress_want when it starts; pf_add tells how many bytes of events
   each profile holds (progress_expect), the stream decoder how many it has
   read (progress_add, once per chunk).  Once the command has run for a second
   (DSPROF_PROGRESS_DELAY seconds: the tests' setting) and while a pass over
   the events is under way, stderr shows "dsprof: reading NAME: 42 %" on one
   line rewritten with \r, cleared when the pass ends (a command may read the
   events more than once: each pass counts from 0 %) and when the command
   ends.  Nothing at all when stderr is not a terminal, so that scripts, pipes
   and files get the same bytes as without progress.  */

#ifndef DSPROF_PROGRESS_H
#define DSPROF_PROGRESS_H

#include <stdint.h>

/* The command wants progress shown (if stderr is a terminal).  */
void progress_want (void);

/* No progress for this command after all (its output streams to the terminal
   as it reads).  */
void progress_off (void);

/* Profile PATH holds BYTES of events (once per process read from it).  */
void progress_expect (const char *path, uint64_t bytes);

/* BYTES more of events read: cheap, the clock is read only every 1/512 of
   the bytes expected.  */
void progress_add (uint64_t bytes);

/* Clear the progress line, if shown (before a message, at the end).  */
void progress_end (void);

#endif /* DSPROF_PROGRESS_H */
