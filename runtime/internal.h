/* internal.h - what the runtime's files share; not installed.

   The runtime is split by role, as libgcov is:
     lifecycle.c  start, fork and exit: the one owner of their order, which
                  calls each module's own prepare, reset and exit functions
     units.c      the registration entry points and the registry of units
     threads.c    the threads that run counted code, their counter shards
     dimread.c    the dimensions computed from the program's data (dims=
                  NAME=EXPR of a selection file), read fault-safe
     recorder.c   the event hooks (their hot path), the event API of
                  dsprof.h, the per-thread event streams and their repairs
     sample.c     the sampler of the threads' CPU time (DSPROF_SAMPLE): its
                  setting, signal and per-thread clocks (perf task clocks,
                  or POSIX CPU-time timers), and their cost measured
     cost.c       the recorder's own cost measured in the run: sampled calls
                  and the op probe, a state machine (cost.h: its state, and
                  its sampled-call steps inline in the hooks)
     strings.c    the text the streams carry: the program's strings read
                  fault-safe, formatters, interned names (strval.h: the
                  encoding of string values, inline in the hooks)
     sites.c      the event sites units register: their global ids, lookup
     clock.c      the clock events are timed by: TSC or CLOCK_MONOTONIC
     control.c    the switch of event recording, mapped from the profile
     writer.c     the profile writer: the file, its chunks; it only writes
     util.c       the warning, the environment's switches, signal handlers'
                  installation and chaining, the pages of small records

   Who calls whom (a call of a function another file defines; acyclic, each
   file calls only files below it on this list):
     lifecycle.c  -> units recorder threads writer sites strings clock
     dimread.c    -> recorder strings
     units.c      -> recorder threads writer util
     recorder.c   -> sample cost sites strings clock control writer util
     sample.c     -> util
     threads.c    -> writer util
     writer.c     -> strings control util
     sites.c      -> strings
     cost.c       -> clock
     strings.c    -> util
     clock.c, control.c, util.c: none
   The writer is given two things from above at start-up, by lifecycle.c
   (struct dsprof_writer_owner): how to fill the fields of a new header that
   other modules own, and the fork child handler that a raw clone's child
   runs before it adds a chunk.  The runtime's SIGBUS handler is the
   writer's, and it calls strings.c's fault function first.  Check the
   graph: `nm` of the objects (docs/architecture.md).

   Lock order (lifecycle.c takes them so before fork): the units lock
   (units.c), the writer lock (writer.c), the sites lock (sites.c), the
   names lock (strings.c).  */

#ifndef DSPROF_INTERNAL_H
#define DSPROF_INTERNAL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "dsprof-format.h"
#include "dsprof.h"

/* Everything not marked DSPROF_API stays inside the library even if it is built
   without -fvisibility=hidden.  */
#define DSPROF_HIDDEN __attribute__ ((visibility ("hidden")))

#define likely(x) __builtin_expect (!!(x), 1)
#define unlikely(x) __builtin_expect (!!(x), 0)

/* lifecycle.c: start, fork and exit, which nothing calls (its constructor
   and destructor run them).  Every object of the runtime refers to this
   byte, so that a program linked with libdsprof.a, which takes only the
   objects it refers to, has lifecycle.o whatever else it takes.  */
DSPROF_HIDDEN extern const char dsprof_lifecycle_linked;
static const char *const dsprof_lifecycle_link __attribute__ ((used))
  = &dsprof_lifecycle_linked;

/* Environment.
   DSPROF_OUT         the profile's name; every "%p" is replaced by the pid of the
                      process that writes it (a forked child's own); ignored by a
                      set-user-ID or set-group-ID program.
   DSPROF_PARENT_PID  set by the runtime, for the processes it starts: the pid of
                      the process that writes the profile under its base name.  A
                      process started by exec from a profiled process (fork+exec of
                      another instrumented program, or of itself) finds it set to
                      another pid and writes <name>.<pid> instead, so it does not
                      replace the profile of the process that started it.  (A
                      program exec'd in a process that wrote a profile already
                      writes <name>.<pid>.exec<k>: see writer.c.)  */
#define DSPROF_ENV_OUT "DSPROF_OUT"
#define DSPROF_ENV_PARENT_PID "DSPROF_PARENT_PID"
#define DSPROF_ENV_ACCUMULATE "DSPROF_ACCUMULATE"
#define DSPROF_DEFAULT_OUT "dsprof.data"

/* The compiler-runtime ABI of dsprof-format.h, section 1.  */
DSPROF_API void __dsprof_register_unit_v1 (uint64_t *counters, uint32_t ncounters,
                                           const char *meta, uint32_t meta_size,
                                           uint32_t *sites, uint32_t nsites);
DSPROF_API void __dsprof_unregister_unit_v1 (uint64_t *counters, uint32_t *sites);
DSPROF_API void __dsprof_enter_v2 (uint32_t *site, const uint64_t *vals, void *cfa);
DSPROF_API void __dsprof_exit_v1 (uint32_t *site, uint64_t result, void *cfa);
/* The first word of a page of its own (control.c).  */
DSPROF_API extern int __dsprof_events_on[DSPROF_PAGE / sizeof (int)];

/* control.c: the switch of event recording (dsprof-format.h, section 2a).
   set, on        store and load the flag
   write          write the control chunk (two pages) at OFFSET of the new
                  profile FD, the flag as it is now; 0 or an errno
   page           the flag's page, for the writer to map the chunk's second
                  page over once it has taken the file (best effort:
                  `mapped` says); NULL if the page is not the flag's alone  */
DSPROF_HIDDEN void dsprof_control_set (int on);
DSPROF_HIDDEN int dsprof_control_on (void);
DSPROF_HIDDEN int dsprof_control_write (int fd, uint64_t offset);
DSPROF_HIDDEN void *dsprof_control_page (void);
DSPROF_API void __dsprof_op_v1 (uint32_t *dispatch, uint32_t index, void *cfa);
DSPROF_API void __dsprof_op_begin_v1 (void *cfa);
DSPROF_API void __dsprof_op_end_v1 (void *cfa);
DSPROF_API extern __thread int __dsprof_seen_v1;
/* The call instrumented code makes once per thread, on a cold path at a
   function's entry, saves every register it uses (the plugin declares it so,
   plugin/threads.cc): the caller keeps its arguments where they are, and
   its fast path costs the test alone.  */
#if defined(__x86_64__) || defined(__i386__)
# define DSPROF_PRESERVES_ALL __attribute__ ((no_caller_saved_registers))
# define DSPROF_GENERAL_REGS __attribute__ ((target ("general-regs-only")))
#else
# define DSPROF_PRESERVES_ALL
# define DSPROF_GENERAL_REGS
#endif
DSPROF_API DSPROF_PRESERVES_ALL DSPROF_GENERAL_REGS void
__dsprof_seen_thread_v1 (void);
/* update=thread (dsprof-format.h, section 2b).  */
DSPROF_API void __dsprof_register_unit_thread_v1 (uint64_t *counters,
                                                  uint32_t ncounters,
                                                  const char *meta,
                                                  uint32_t meta_size,
                                                  uint32_t *sites,
                                                  uint32_t nsites);
DSPROF_API extern __thread uint64_t *__dsprof_shard_v1;
/* On x86-64 these two save every register they use, vector ones too
   (threads.c): the plugin calls them from asm statements.  */
DSPROF_API uint64_t *__dsprof_shard_thread_v1 (void);
DSPROF_API uint64_t *__dsprof_shard_unit_v1 (uint64_t *counters,
                                             uint64_t **cache);
DSPROF_HIDDEN uint64_t *dsprof_shard_thread (void);
DSPROF_HIDDEN uint64_t *dsprof_shard_unit (uint64_t *counters, uint64_t **cache);
/* The same for a cache of two pointers, LOAD starting out at the unit's
   sink (include/dsprof-format.h, section 2b).  */
DSPROF_API uint64_t *__dsprof_shard_unit_v2 (uint64_t *counters,
                                             uint64_t **cache,
                                             uint64_t **load);
DSPROF_HIDDEN uint64_t *dsprof_shard_unit_2 (uint64_t *counters,
                                             uint64_t **cache,
                                             uint64_t **load);
DSPROF_API void __dsprof_register_unit_thread_v2 (uint64_t *counters,
                                                  uint32_t ncounters,
                                                  const char *meta,
                                                  uint32_t meta_size,
                                                  uint32_t *sites,
                                                  uint32_t nsites);
/* Pages the runtime's small records are cut from (util.c): a pool, its
   caller's lock held.  */
struct dsprof_pool
{
  char *next, *end;
};
DSPROF_HIDDEN void *dsprof_pool_alloc (struct dsprof_pool *pool, size_t size);
/* A unit registered with __dsprof_register_unit_thread_v2 at index FIRST:
   its sink of N counters is mapped from the profile.  */
DSPROF_HIDDEN void dsprof_shards_sink (uint64_t *counters, uint32_t first,
                                       uint32_t n);
/* The units have taken the threads' counter space up to END: every shard
   maps it; 0, or -1 if one could not.  */
DSPROF_HIDDEN int dsprof_shards_grow (uint32_t end);
/* The unit whose counters array is COUNTERS has registered (its index is
   in COUNTERS[0]): the thread's caches given its sink before are cleared.  */
DSPROF_HIDDEN void dsprof_shards_registered (uint64_t *counters);

static inline uint64_t
dsprof_round_page (uint64_t n)
{
  return (n + DSPROF_PAGE - 1) & ~(uint64_t) (DSPROF_PAGE - 1);
}

/* DSPROF_STRMAX: the bytes of a string dimension's value the recorder keeps,
   then "..." (a decimal number from DSPROF_STR_MIN to the format's bound
   DSPROF_STR_MAX; DSPROF_STR_DEFAULT if unset, empty or anything else, with a
   warning).  Read once, by strings.c at the recorder's start-up, before any
   site is registered: the room events reserve depends on it
   (MAX_STR_VALUE).  */
#define DSPROF_ENV_STRMAX "DSPROF_STRMAX"
#define DSPROF_STR_DEFAULT 1024u
#define DSPROF_STR_MIN 8u
DSPROF_HIDDEN extern uint32_t dsprof_str_limit;

/* The limit in force.  Relaxed: set under the recorder's pthread_once, which
   every caller has been through (as for events_on, recorder.c); it never
   changes after.  */
static inline uint32_t
dsprof_str_max (void)
{
  return __atomic_load_n (&dsprof_str_limit, __ATOMIC_RELAXED);
}

/* The largest event but for its string values: op, delta, ids, one non-string
   value; and the most a string value takes (dsprof-format.h, section 4): a
   PTR's marker, a head of at most 3 bytes (DSPROF_STR_MAX < 2^20), the kept
   bytes, and the byte past them that the recorder reads into the stream to
   tell whether the string is longer (strval.h, put_str).  */
#define MAX_FIXED_EVENT 64u
#define MAX_STR_VALUE (10u + dsprof_str_max ())

/* sample.c: the sampler of the threads' CPU time (docs/contract.md §4.4,
   "Sampled times").
   init           read DSPROF_SAMPLE and DSPROF_SAMPLER; if they ask for
                  samples, install HANDLER for its signal (SIGURG)
   on             whether threads are to be sampled: asked for, and no
                  thread's clock has failed to start
   thread_start   start the calling thread's clock, into *S; 0, or -1
                  (and no more sampling: `on' is false from then on)
   thread_stop    stop it
   fork_child     in a forked child: close the perf clocks it inherited
   weight         in HANDLER, for the thread's sampler S (NULL: none): the
                  CPU time in ns a signal of its clock stands for, and into
                  *COST the part of it the sampling cost; 0 for any other
                  SIGURG, which it passes on to the disposition HANDLER
                  replaced
   in_recorder    in HANDLER, whether the thread was in the recorder's code
                  that runs outside its busy flag (DSPROF_RECORDER_TEXT)
   clock          the thread's CPU time now, where S is a perf clock; 0
   take           the CPU time since FROM (clock's, before a stretch of the
                  recorder's work) that no sample of S has weighed: taken
                  out of the next one's weight, for the recorder's  */
struct dsprof_sampler
{
  int fd;                    /* the perf task clock; -1: the timer */
  uint64_t id;               /* its event's id (PERF_EVENT_IOC_ID) */
  uint64_t last_ns;          /* the thread's CPU time at its last sample */
  uint64_t rand;             /* xorshift state of the perf clock's periods */
  timer_t timer;             /* the POSIX CPU-time timer, with no perf clock */
};
DSPROF_HIDDEN void dsprof_sample_init (void (*handler) (int, siginfo_t *,
                                                        void *));
DSPROF_HIDDEN int dsprof_sample_on (void);
DSPROF_HIDDEN int dsprof_sample_thread_start (struct dsprof_sampler *s);
DSPROF_HIDDEN void dsprof_sample_thread_stop (struct dsprof_sampler *s);
DSPROF_HIDDEN void dsprof_sample_fork_child (void);
DSPROF_HIDDEN uint64_t dsprof_sample_weight (struct dsprof_sampler *s, int sig,
                                             siginfo_t *si, void *ctx,
                                             uint64_t *cost);
DSPROF_HIDDEN int dsprof_sample_in_recorder (void *ctx);
DSPROF_HIDDEN uint64_t dsprof_sample_clock (const struct dsprof_sampler *s);
DSPROF_HIDDEN uint64_t dsprof_sample_take (struct dsprof_sampler *s,
                                           uint64_t from);
/* The section of the recorder's functions that run partly outside its busy
   flag (the hooks' entry points and the cost sampling around their calls):
   a sample there is the recorder's, not the program's.  */
#define DSPROF_RECORDER_TEXT __attribute__ ((section ("dsprof_text")))

/* clock.c: the clock events are timed by.
   init           choose the clock (once, from the recorder's start-up)
   calibrate      measure its rate against CLOCK_MONOTONIC, 2 ms
   header_init    fill the clock fields of a new profile's header
   exit_times     at normal exit: the header's CPU time and run-queue waits  */
DSPROF_HIDDEN extern int dsprof_clock_tsc;
DSPROF_HIDDEN void dsprof_clock_init (void);
DSPROF_HIDDEN void dsprof_clock_calibrate (void);
DSPROF_HIDDEN void dsprof_clock_header_init (struct dsprof_file_header *h);
DSPROF_HIDDEN void dsprof_clock_exit_times (struct dsprof_file_header *h);

/* Whether events are timed by the TSC.  Relaxed: dsprof_clock_init sets it
   under the recorder's pthread_once, which orders it before every thread that
   reads the clock; it never changes after.  */
static inline int
dsprof_clock_tsc_p (void)
{
  return __atomic_load_n (&dsprof_clock_tsc, __ATOMIC_RELAXED);
}

/* The time now on CLOCK, in nanoseconds.  */
static inline uint64_t
dsprof_clock_ns (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static inline uint64_t
dsprof_mono_ns (void)
{
  return dsprof_clock_ns (CLOCK_MONOTONIC);
}

/* The time now, in the clock's ticks: inline, the hooks read it per event.  */
static inline uint64_t
dsprof_ticks (void)
{
#if defined(__x86_64__) || defined(__i386__)
  if (likely (dsprof_clock_tsc_p ()))
    return __builtin_ia32_rdtsc ();
#endif
  return dsprof_mono_ns ();
}

/* sites.c: the event sites of the registered units, by global id (id 0 is
   none).  A site's global id is published in its unit's site word only once
   the site is in the table, both with release stores, so a hook that reads a
   nonzero id with an acquire load finds its site.  */
struct dsprof_site
{
  uint32_t ndims;            /* parameter dims, without the result */
  uint8_t result;            /* DSPROF_DIM_* of the result */
  uint8_t *types;            /* ndims DSPROF_DIM_* */
  uint32_t *dim_names;       /* ndims name ids, for formatters */
  uint32_t max_size;         /* the largest ENTER this site can write */
};

/* Global id -> site.  Grown under the sites lock; an old array is never freed,
   for hooks read it without the lock.  */
DSPROF_HIDDEN extern struct dsprof_site **dsprof_sites;

/* The site whose id the hook read from its site word (acquire, so the site's
   entry is there).  The array pointer is loaded with acquire: it may have been
   replaced by a larger copy since, whose contents the copying thread wrote.
   The entry itself needs no more than relaxed: the id's acquire load ordered
   its store before us.  */
static inline struct dsprof_site *
dsprof_site (uint32_t id)
{
  struct dsprof_site **table = __atomic_load_n (&dsprof_sites, __ATOMIC_ACQUIRE);
  return __atomic_load_n (&table[id], __ATOMIC_RELAXED);
}

/* The global id in a unit's site word SITE_WORD, 0 if it has none yet: the
   acquire load pairs with dsprof_sites_add's release store of it.  */
static inline uint32_t
dsprof_site_id (const uint32_t *site_word)
{
  return __atomic_load_n (site_word, __ATOMIC_ACQUIRE);
}

/* sites.c, continued.
   add            give a unit's NSITES sites (described by the DSPROF_TAG_SITE
                  records of META) their global ids in SITE_IDS; return the
                  first id, 0 if memory ran out
   add_scratch    a site for the recorder's own measurement: its id, 0 if memory
                  ran out; not counted, so the next unit's sites reuse the id
   lock, unlock   the sites lock, around fork (unlock: in the parent)
   fork_child     make the sites lock anew in a forked or raw clone'd child  */
DSPROF_HIDDEN uint32_t dsprof_sites_add (const char *meta, uint32_t meta_size,
                                         uint32_t *site_ids, uint32_t nsites);
DSPROF_HIDDEN uint32_t dsprof_sites_add_scratch (struct dsprof_site *site);
DSPROF_HIDDEN void dsprof_sites_lock (void);
DSPROF_HIDDEN void dsprof_sites_unlock (void);
DSPROF_HIDDEN void dsprof_sites_fork_child (void);

/* strings.c: the text the streams carry.
   init           read DSPROF_STRMAX (the recorder's start-up, once)
   intern         the id of name S (a dimension name or a manual event type),
                  interned on first use; 0 if memory ran out
   name           the text of an interned name's id
   lock, unlock   the names lock, around fork (unlock: in the parent)
   fork_child     make the names lock anew in a forked or raw clone'd child
   fault          in a SIGSEGV or SIGBUS handler: if the fault SI is the
                  calling thread's reading a string of the program, go back to
                  the reader (does not return); else return
   The encoding of string values, inline in the recorder: strval.h.  */
DSPROF_HIDDEN void dsprof_strings_init (void);
DSPROF_HIDDEN uint32_t dsprof_strings_intern (const char *s);
DSPROF_HIDDEN const char *dsprof_strings_name (uint32_t id);
DSPROF_HIDDEN void dsprof_strings_lock (void);
DSPROF_HIDDEN void dsprof_strings_unlock (void);
DSPROF_HIDDEN void dsprof_strings_fork_child (void);
DSPROF_HIDDEN void dsprof_strings_fault (const siginfo_t *si);
/* Copy at most N bytes of the program's string S to BUF, up to and with its
   NUL, stopping where S becomes unreadable; return how many.  */
DSPROF_HIDDEN size_t dsprof_read_string (char *buf, const char *s, size_t n);
/* Copy the N bytes at the program's address SRC to BUF, a fault there caught
   (as a string dimension's bytes are read); 1, or 0 if one is unreadable.
   dimread.c reads the program's data with it.  */
DSPROF_HIDDEN int dsprof_read_bytes (void *buf, uintptr_t src, size_t n);
/* The formatters of dsprof_set_formatter, by dimension name id: grown under
   the names lock, an old array never freed.  */
typedef size_t (*dsprof_formatter) (const void *p, char *buf, size_t size);
DSPROF_HIDDEN extern dsprof_formatter *dsprof_formatters;
DSPROF_HIDDEN extern uint32_t dsprof_formatters_size;

/* writer.c: the profile writer, one per process.

   Chunks are added with a reserve/commit protocol, so that the header's `end` only
   ever advances over complete chunks:

     uint64_t off = dsprof_writer_begin (size);   reserves [off, off + size) on disk
     if (off == 0)                                and takes the writer lock
       give up: the file is missing or full, already reported
     dsprof_writer_write (off + k, buf, len)      fill the chunk
     dsprof_writer_map (off + k, len, addr, 1)    map part of it into memory
     dsprof_writer_commit (off, size)             publish it, release the lock
   or, if filling or mapping failed,
     dsprof_writer_abort (err)                    report, release the lock

   The first chunk creates the file.  Once anything failed the writer adds no more
   chunks in this process (the header says DSPROF_FLAG_TRUNCATED); a forked child
   starts over with a file of its own.  */
DSPROF_HIDDEN uint64_t dsprof_writer_begin (uint64_t size);
/* The same, but only the chunk's first RESERVE bytes are allocated on disk; the
   rest is a hole whose pages are allocated when first written (a forked child's
   counters: its profile costs what it touches).  Should the disk be full then,
   the SIGBUS handler gives the page anonymous memory, as for a truncated file.  */
DSPROF_HIDDEN uint64_t dsprof_writer_begin_sparse (uint64_t size, uint64_t reserve);
DSPROF_HIDDEN int dsprof_writer_write (uint64_t offset, const void *buf,
                                       size_t size);
DSPROF_HIDDEN void *dsprof_writer_map (uint64_t offset, size_t size, void *fixed,
                                       int track);
/* List [ADDR, ADDR + SIZE), part of a mapping dsprof_writer_map made without
   TRACK, for the SIGBUS handler (several units mapped at once are listed one by
   one, so that each can be forgotten with its unit).  */
DSPROF_HIDDEN void dsprof_writer_track (void *addr, size_t size);
DSPROF_HIDDEN void dsprof_writer_commit (uint64_t offset, uint64_t size);
DSPROF_HIDDEN void dsprof_writer_abort (int err);

/* In a child made by a raw clone (), which ran no fork handler, do what the
   fork child handler does (a profile of its own); else nothing.  Called before
   a thread adds an event chunk.  */
DSPROF_HIDDEN void dsprof_writer_adopt (void);

/* What the writer needs of its owner (lifecycle.c), given once at start-up
   with dsprof_writer_setup (ERR: the fork handlers could not be registered,
   and the writer makes no file; before the call it makes none yet):
   header_init    fill the fields of new header H that other modules own (the
                  clock's, the recorder's), before anyone can see the file
   header_taken   H has become this process's header (the threads' count)
   fork_child     the fork child handler, for dsprof_writer_adopt  */
struct dsprof_writer_owner
{
  void (*header_init) (struct dsprof_file_header *h);
  void (*header_taken) (struct dsprof_file_header *h);
  void (*fork_child) (void);
};
DSPROF_HIDDEN void dsprof_writer_setup (const struct dsprof_writer_owner *owner,
                                        int err);

/* writer.c, for lifecycle.c.
   lock, unlock   the writer lock, around fork (unlock: in the parent)
   fork_child     in a forked child: the lock made anew, the child's own file
                  made and held open for the units' chunks ...
   fork_done      ... which they have added: the file closed
   own_header     this process's own header, NULL if none (a vfork'd child)
   exit           at normal exit: the stop time stored, the file checked  */
DSPROF_HIDDEN void dsprof_writer_lock (void);
DSPROF_HIDDEN void dsprof_writer_unlock (void);
DSPROF_HIDDEN void dsprof_writer_fork_child (void);
DSPROF_HIDDEN void dsprof_writer_fork_done (void);
DSPROF_HIDDEN struct dsprof_file_header *dsprof_writer_own_header (void);
DSPROF_HIDDEN void dsprof_writer_exit (void);

/* The mapping dsprof_writer_map made at ADDR is going away with its unit
   (dlclose): the writer's SIGBUS handler no longer takes faults there for its
   own (a truncated profile, see writer.c).  */
DSPROF_HIDDEN void dsprof_writer_forget (void *addr);

/* util.c: what every file may use.

   Make HANDLER (SA_SIGINFO, on the alternate stack if any) the disposition of
   signal SIG, and *OLD the one it replaced.  */
DSPROF_HIDDEN void dsprof_signal_install (int sig,
                                          void (*handler) (int, siginfo_t *,
                                                           void *),
                                          struct sigaction *old);

/* Pass signal SIG, which is not the runtime's, to OLD, the disposition the
   runtime's handler replaced, as if that handler had never been there.  */
DSPROF_HIDDEN void dsprof_signal_chain (int sig, const struct sigaction *old,
                                        siginfo_t *si, void *ctx);

/* Print "dsprof: " and the message to stderr, at most once per process (a forked
   child inherits the parent's "already warned").  */
DSPROF_HIDDEN void dsprof_warn (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));
/* The same, async-signal-safe, for a signal handler: the strings of PARTS
   (up to a NULL) as one line, "dsprof: " included.  */
DSPROF_HIDDEN void dsprof_warn_parts (const char *const *parts);

/* The environment variable NAME as a switch: 1 for 1, on, yes or true, 0 for 0,
   off, no or false (in any case), DFLT if it is unset or empty; for anything
   else DFLT and a warning.  (Only DSPROF_EVENTS is one, hence the warning's
   words.)  */
DSPROF_HIDDEN int dsprof_env_flag (const char *name, int dflt);

/* The profile's header, for the fields updated while the program runs; the file
   is created if this process has none yet.  NULL if it could not be.  */
DSPROF_HIDDEN struct dsprof_file_header *dsprof_writer_header (void);
/* The same, but NULL rather than creating the file.  */
DSPROF_HIDDEN struct dsprof_file_header *dsprof_writer_header_if_open (void);

/* Record that the profile lacks something (DSPROF_FLAG_TRUNCATED): in the header,
   or in the header to come if the file does not exist yet.  */
DSPROF_HIDDEN void dsprof_writer_set_truncated (void);

/* threads.c: the threads that ran code counted with update=single.
   header_init    put their number in a new file's header
   fork_child     count anew in a forked child, before its file is made  */
DSPROF_HIDDEN void dsprof_threads_header_init (struct dsprof_file_header *h);
DSPROF_HIDDEN void dsprof_threads_fork_child (void);
/* The calling thread's shard, in a forked child (units.c calls it after the
   units' chunks): a new one of the child's file at the same address, the
   parent's others unmapped.  */
DSPROF_HIDDEN void dsprof_shards_fork_child (void);

/* units.c: its part of the fork handlers (lifecycle.c).  */
DSPROF_HIDDEN void dsprof_units_lock (void);
DSPROF_HIDDEN void dsprof_units_unlock (void);
DSPROF_HIDDEN void dsprof_units_fork_child (void);

/* recorder.c: what the units and lifecycle.c tell the event recorder.
   add_sites      a unit registers: give its NSITES sites (described by the
                  DSPROF_TAG_SITE records of META) their global ids in SITE_IDS
   exit           normal exit, before the writer stores the stop time
   fork_prepare   before fork, every lock held: keep the forking thread's
                  heap state for the child
   fork_parent    after fork, in the parent
   fork_child     in a forked child (or a raw clone's), after the writer and
                  the units started the child's file and the sites' and the
                  names' locks were made anew
   measure        the cost of one Start/Finish pair, in picoseconds (on a
                  scratch stream: the calling thread's own stream is untouched);
                  also calibrates the caller's part of a hook call, which the
                  threads' cost trailers carry (dsprof-format.h, section 4)
   header_init    fill the clock fields of a new file's header  */
DSPROF_HIDDEN uint32_t dsprof_recorder_add_sites (const char *meta,
                                                  uint32_t meta_size,
                                                  uint32_t *site_ids,
                                                  uint32_t nsites);
DSPROF_HIDDEN void dsprof_recorder_header_init (struct dsprof_file_header *h);
DSPROF_HIDDEN void dsprof_recorder_fork_prepare (void);
DSPROF_HIDDEN void dsprof_recorder_fork_parent (void);
DSPROF_HIDDEN void dsprof_recorder_exit (void);
DSPROF_HIDDEN void dsprof_recorder_fork_child (void);
DSPROF_HIDDEN uint64_t dsprof_recorder_measure (void);
/* recorder.c: whether the calling thread's innermost open record of a
   live frame is at CFA (dimread.c adds its dimensions to that one).  */
DSPROF_HIDDEN int dsprof_recorder_open_at (uintptr_t cfa);
/* recorder.c: dsprof_dim_* for dimread.c: dimension DIM, whose interned
   id is ID (0: interned there), of type TYPE (DSPROF_DIM_*), value V.  */
DSPROF_HIDDEN void dsprof_recorder_dim (const char *dim, uint32_t id, int type,
                                        uint64_t v);
/* dimread.c: the dimensions a selection file's expressions compute
   (docs/select.md), evaluated from the program's data: PROG (the plugin's
   description, dimread.c) over the words ROOTS, each a DIM of the innermost
   open event, if that is the record at CFA (the hook's); IDS, one word a
   dimension in the unit, caches their names' ids (0 until known).  */
DSPROF_API void __dsprof_dims_v1 (const unsigned char *prog,
                                  const uint64_t *roots, void *cfa,
                                  uint32_t *ids);

#endif /* DSPROF_INTERNAL_H */
