/* profile.h - reading dsprof profile files (include/dsprof-format.h).

   pf_open maps one profile file read-only and checks every structure in it before
   anything else looks at it: the header, each chunk's bounds, each unit's
   metadata (against its check word) and counter range, each event chunk.  A
   profile set (struct pf_set) combines several files: units with identical
   metadata are one unit whose counts are summed, while each file stays a process
   of its own with its own event streams.

   Nothing read from a file is trusted: sizes are bounded by the file's length
   before anything is allocated from them.  */

#ifndef DSPROF_PROFILE_H
#define DSPROF_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dsprof-format.h"
#include "events.h"

struct pf_loc
{
  uint32_t file, line;           /* file: index into the unit's files */
};

struct pf_block
{
  uint32_t nlocs;                /* locs[0] is the block's line */
  struct pf_loc *locs;
};

struct pf_function
{
  const char *name;
  uint32_t file, line;           /* of the definition */
  uint32_t first_counter, nblocks;
  struct pf_block *blocks;
  const unsigned char *flow;     /* DSPROF_TAG_FLOW record body, or NULL */
  size_t flow_size;
  const unsigned char *branches; /* DSPROF_TAG_BRANCHES record body, or NULL */
  size_t branches_size;
};

struct pf_unit
{
  const char *source, *compdir;
  uint32_t nfiles;
  const char **files;
  uint32_t nfunctions;
  struct pf_function *functions;
  uint32_t ncounters;
  uint64_t *counts;              /* summed over the profiles holding the unit */
  const unsigned char *meta;     /* identity of the unit */
  uint32_t meta_size;
  uint32_t nsites;
  uint32_t index;                /* in its set's units */
};

/* A segment of a thread's shard: counters [FIRST, FIRST + N) of the
   process's counter space, at file offset OFF.  */
struct pf_segment
{
  uint64_t off, first, n;
};

/* A unit of a process counted in its shards: where its counters are.  */
struct pf_tunit
{
  struct pf_unit *unit;
  uint64_t index;
};

/* A unit as one process holds it: its site ids there.  */
struct pf_unit_sites
{
  uint32_t unit;                 /* the unit's index in the set */
  uint32_t site_base, nsites;
};

struct pf_process
{
  const char *path;
  struct dsprof_file_header header;  /* a copy */
  const unsigned char *map;
  size_t map_size;               /* bytes mapped */
  size_t size;                   /* committed bytes */
  struct ev_sites sites;
  struct ev_clock clock;
  uint32_t nstreams;
  struct ev_stream *streams;     /* by thread number */
  uint64_t events;               /* bytes of event stream, for info */
  uint32_t measured;             /* streams with the recorder's measured costs */
  struct dsprof_events_costs costs;  /* their sums (the caller's part: one
                                    stream's, the same in all) */
  uint64_t setup_ns;             /* its chunks' setups */
  uint32_t nunits;               /* unit chunks in this file */
  struct pf_unit_sites *unit_sites; /* nunits: their site ids */
  uint64_t ncounters;
  uint64_t nblocks;              /* counted blocks of those units */
  uint32_t nshards;              /* update=thread (dsprof-format.h, 2b): */
  struct pf_segment *shards;     /* its shards' chunks */
  uint32_t ntunits;              /* and its units counted in them, summed */
  struct pf_tunit *tunits;       /* once all chunks are read */
  uint64_t control_offset;       /* of its control chunk; 0: none */
  uint32_t control_mapped;       /* the process maps the control page */
  uint32_t events_at_start;      /* the switch of events at start */
  uint32_t nswitches;            /* `dsprof ctl`'s switches, as read */
  struct dsprof_switch *switches;
};

struct pf_set
{
  uint32_t nprocs;
  struct pf_process *procs;
  uint32_t nunits;
  struct pf_unit **units;
  void *unit_index;              /* units by metadata (an htab_t); per set, so
                                    that two sets (dsprof diff's sides) keep
                                    their counts apart */
};

/* Read the profile at PATH into SET.  Return 0, or -1 after printing
   "dsprof: PATH: problem" on stderr.  */
int pf_add (struct pf_set *set, const char *path);

/* pf_add for one of many profiles given (NAME NAME.*): a temporary file of
   a profile being made that holds no profile yet (NAME.tmp<pid>-<k>, empty
   or without the magic number) is skipped with one note on stderr, and 1
   returned.  */
int pf_add_listed (struct pf_set *set, const char *path);

/* The block counts of function F of unit U into OUT (F->nblocks entries).
   Return 0, or -1 with *ERR set (a malformed flow record).  */
int pf_block_counts (const struct pf_unit *u, const struct pf_function *f,
                     uint64_t *out, const char **err);

/* The run time of process P in ns: from start to normal exit, or to its last
   recorded event if it never exited normally (LAST_NS, what the caller saw).  */
uint64_t pf_run_ns (const struct pf_process *p, uint64_t last_ns);

/* Where the run time of processes went (the header's cpu_ns, run_delay_ns
   and run_delay_threads, written at normal exit): summed over the processes
   that recorded them by pf_cpu_add.  */
struct pf_cpu
{
  uint64_t run_ns, cpu_ns, delay_ns, delay_threads;
  uint32_t procs;
};
void pf_cpu_add (struct pf_cpu *c, const struct dsprof_file_header *h);

/* C as one line into BUF, in UNIT (NS_PER_UNIT ns) with DECIMALS decimals
   ("0.120 s of the 1.000 s run (12.0%), 0.880 s not on a CPU; 0.300 s waiting
   for a CPU (1 thread)"), or NULL if no process recorded it (older profiles,
   runs that did not exit normally).  */
const char *pf_cpu_line (const struct pf_cpu *c, double ns_per_unit, int decimals,
                         const char *unit, char *buf, size_t size);

/* Decode stream S of process P (ev_decode_stream) as FLAGS say (EV_KEEP_CHILDREN
   or 0), calling ON_EVENT and ON_RECORD (either may be NULL).  Return 0, a
   callback's non-zero value, or PF_CORRUPT after printing "dsprof: PATH: thread
   N: problem" on stderr.  */
#define PF_CORRUPT 2            /* the commands' EXIT_DATA */
int pf_decode_stream (const struct pf_process *p, const struct ev_stream *s,
                      ev_event_fn on_event, ev_record_fn on_record, void *arg,
                      unsigned flags);

/* pf_decode_stream over every stream of SET as FLAGS say, calling BEGIN (may be
   NULL) before each.  Return 0, a callback's non-zero value, or PF_CORRUPT.  */
int pf_walk_streams (struct pf_set *set, ev_event_fn on_event, ev_record_fn on_record,
                     void (*begin) (const struct pf_process *p,
                                    const struct ev_stream *s, void *arg),
                     void *arg, unsigned flags);

/* Call FN for each interval of P's run in which events were switched off
   (dsprof-format.h, section 2a), in ns since its start, OPEN when it lasts
   to the end of the run (then TO_NS is the run's end as pf_run_ns gives it,
   FROM_NS when unknown).  Return how many.  */
int pf_each_off (const struct pf_process *p,
                 void (*fn) (uint64_t from_ns, uint64_t to_ns, bool open,
                             void *arg),
                 void *arg);

/* What became of the process that wrote P (its header's pid), as far as this
   machine can tell now.  */
enum pf_state
{
  PF_RUNNING,                    /* it runs, and maps P's file */
  PF_EXITED,                     /* it exited normally (stop_mono_ns is set) */
  PF_GONE,                       /* its pid answers no kill (pid, 0), or is a
                                    zombie: killed or crashed */
  PF_REUSED,                     /* its pid names a process started after P
                                    was made (/proc/PID/stat): killed, and the
                                    pid given to another */
  PF_ELSEWHERE                   /* it runs but does not map P's file: a copy
                                    of its profile, or a file it replaced */
};

/* The state of P's process.  A process /proc does not show counts as its
   pid says (running when it answers kill).  */
enum pf_state pf_process_state (const struct pf_process *p);

/* STATE said of a process, after "process N ": "has exited"...  */
const char *pf_state_text (enum pf_state state);

/* If a process of SET ran code counted with update=single in more than one
   thread (dsprof-format.h, the header's single_threads), say once on stderr
   that its counts may be low and how to make them exact.  Every command that
   prints counts calls it (lc_build).  */
void pf_warn_lost_updates (const struct pf_set *set);

/* For each dispatch function the units of SET were compiled to instrument
   (plugin argument dispatch=FUNC) that none of them defines, say so on
   stderr: `report' and `info' call it.  */
void pf_warn_no_dispatch (const struct pf_set *set);

void pf_free (struct pf_set *set);

/* Check the profile image DATA (SIZE bytes) as pf_add does; return NULL if it is
   valid, else a description of the first problem (static or in BUF).  For tests
   and the fuzz harness.  */
const char *pf_check_image (const unsigned char *data, size_t size, char *buf,
                            size_t bufsize);

#endif /* DSPROF_PROFILE_H */
