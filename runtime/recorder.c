/* recorder.c - the event recorder: the hooks the plugin inserts into annotated
   functions, the event API of dsprof.h, and the per-thread event streams
   (dsprof-format.h, section 4), with their repairs (events a longjmp or a
   thread's end left open).  The clock it reads is clock.c's, the sites it
   looks events up in are sites.c's; the string values it writes are encoded
   by strval.h and read by strings.c; its own cost is measured by cost.c,
   whose countdown is the one word of it on the hooks' fast path, its state
   the cold end of the thread's (struct dsprof_cost).  Fork and exit reach it
   through lifecycle.c.

   Hot path: __dsprof_enter_v2 / __dsprof_exit_v1 read the clock, encode the
   event into the calling thread's current chunk (a page range of the profile file
   mapped into memory) and publish the chunk's `used` count.  No lock, no system
   call; a chunk is allocated (under the writer lock) when the current one is
   full.

   Invariants of a thread's state (struct thread):
   - pos <= limit <= the end of the mapped chunk; `limit` leaves room for the
     largest single event, so an event is encoded without bounds checks once
     `reserve` has returned.  exit_stop is where the room before `limit` ends
     for the largest Finish (EXIT_ROOM), set with `limit` (set_limit): the
     Finish hook compares one pointer.
   - open[0 .. depth) are the thread's open events, innermost last; each is either
     a hook event (its frame's CFA) or a manual one (cfa == MANUAL_CFA).
   - busy is set while the thread is inside the recorder, so an event that a
     formatter or a signal handler records re-entrantly is dropped (and
     counted), never corrupts the stream.  */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "cost.h"
#include "strval.h"

/* A thread's chunks grow from one page to 1 MB: a thread that records a few
   events takes a page of the file, not a megabyte.  */
#define FIRST_CHUNK_SIZE DSPROF_PAGE
#define MAX_CHUNK_SIZE (1024u * 1024u)
#define MANUAL_CFA UINTPTR_MAX

/* Whether the recorder is set up (the clock calibrated, its cost measured),
   set once by recorder_init; read with events_on_p ().  Always, since `dsprof
   ctl` may switch events on at any time: whether they are recorded now is
   the flag __dsprof_events_on (control.c), which DSPROF_EVENTS sets at start.
   An event function calls the hooks only if the flag is set at its entry, so
   with events off a call costs a load and a branch.  */
static int events_on = -1;
static uint64_t pair_overhead_ps;
/* Events dropped before the profile existed, added to its header when it is
   made (dsprof_recorder_header_init).  */
static uint64_t dropped_before_file;
static pthread_once_t recorder_once = PTHREAD_ONCE_INIT;
static void recorder_init (void);

/* Whether the recorder is set up.  Relaxed: recorder_init sets events_on under
   recorder_once, and every caller has been through pthread_once (&recorder_once)
   first, which orders that store before the load; it never changes after.  */

static inline int
events_on_p (void)
{
  return __atomic_load_n (&events_on, __ATOMIC_RELAXED);
}

/* Calibrate the clock and measure the recorder's cost, once per process that
   records events: when the first unit with event sites registers, or at the
   first event chunk (a program whose only events are manual ones, or whose
   events `dsprof ctl` switched on after DSPROF_EVENTS=0).  */

static void
measure_once (void)
{
  static int measured;
  pthread_once (&recorder_once, recorder_init);
  /* Events switched off (DSPROF_EVENTS=0): at their first chunk once `dsprof
     ctl` switches them on.  */
  if (!dsprof_control_on ()
      || __atomic_exchange_n (&measured, 1, __ATOMIC_RELAXED))
    return;
  dsprof_clock_calibrate ();
  pair_overhead_ps = dsprof_recorder_measure ();
  struct dsprof_file_header *h = dsprof_writer_header ();
  if (h)
    dsprof_recorder_header_init (h);
}

/* Fill the clock fields of a new profile header H (the writer, through
   lifecycle.c's struct dsprof_writer_owner, when it creates a file).  */

DSPROF_HIDDEN void
dsprof_recorder_header_init (struct dsprof_file_header *h)
{
  pthread_once (&recorder_once, recorder_init);
  dsprof_clock_header_init (h);
  h->pair_overhead_ps = pair_overhead_ps;
  if (dsprof_sample_on ())
    h->flags |= DSPROF_FLAG_SAMPLED;
  __atomic_fetch_add (&h->dropped_events,
                      __atomic_exchange_n (&dropped_before_file, 0,
                                           __ATOMIC_RELAXED),
                      __ATOMIC_RELAXED);
}

/* ---- sites ------------------------------------------------------------------- */

/* Give the NSITES sites of a unit whose metadata is META global ids in
   SITE_IDS (sites.c); the first unit with sites calibrates the clock and
   measures the recorder.  */

DSPROF_HIDDEN uint32_t
dsprof_recorder_add_sites (const char *meta, uint32_t meta_size,
                           uint32_t *site_ids, uint32_t nunit_sites)
{
  pthread_once (&recorder_once, recorder_init);
  uint32_t base = dsprof_sites_add (meta, meta_size, site_ids, nunit_sites);
  if (base && nunit_sites)
    measure_once ();
  return base;
}

/* ---- per-thread streams ---------------------------------------------------- */

struct open_event
{
  uintptr_t cfa;             /* the frame's CFA, or MANUAL_CFA */
  uint64_t id;               /* global site id, or manual event id */
};

/* struct thread's smp[]: samples in the program and their ns, in the
   recorder and their ns, as a SAMPLE event holds them.  */
enum { SMP_N, SMP_NS, SMP_REC_N, SMP_REC_NS };

struct thread
{
  unsigned char *pos, *limit;
  unsigned char *exit_stop;  /* pos >= exit_stop: no room for a Finish */
  struct dsprof_events_chunk *chunk;
  unsigned char *chunk_data;
  uint64_t last;             /* ticks of the previous event */
  uint32_t thread_id;        /* 0 until the thread's first event */
  uint32_t seq;              /* of the next chunk */
  uint32_t depth, open_size;
  struct open_event *open;
  unsigned char *defined;    /* defined[name id]: NAME written to this stream */
  uint32_t defined_size;
  uint64_t next_manual;
  uint32_t op_base;          /* the dispatch of the chunk's latest OP or NEXT:
                                a one-byte NEXT's (0: none yet) */
  int busy;
  int dead;                  /* no more space: drop this thread's events */
  struct dsprof_strtab strs;  /* the strings the current chunk defined */
  uint32_t sample_left;      /* hook calls to the next sampled one (cost.c) */
  /* The sampler's (sample.c, DSPROF_SAMPLE): the thread's CPU-time clock,
     whether it runs (the signal handler charges samples only then), whether
     samples wait to be written (the limit is then at pos, so that the next
     event takes the slow path to reserve, which writes them), and the
     samples counted since the last SAMPLE event, by SMP_* (the SAMPLE
     event's order).  The handler adds to them; the recorder takes them with
     an atomic exchange.  */
  struct dsprof_sampler sampler;
  int sampling, sample_due;
  uint64_t smp[4];
  /* Cold: the cost state (cost.c), of sampled calls and the op probe.  */
  struct dsprof_cost cost;
};

/* Enter and leave the recorder on T.  The compiler barriers keep T's stream
   updates between the two: a signal handler that records events runs wholly
   before or after them, or finds T busy.  */

static inline void
busy_on (struct thread *t)
{
  t->busy = 1;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
}

static inline void
busy_off (struct thread *t)
{
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->busy = 0;
}

/* ---- the recorder's own cost (cost.c) ------------------------------------------

   A hook's countdown, T->sample_left, is its one line on the fast path: the
   call that takes it to 0 is sampled, which runs the hook's own CALL again
   between cost.c's clock reads.  A hook re-run through its entry point
   counts as the first call of the new period (it decrements the countdown
   dsprof_cost_begin set); op_sampled's op_run, which does not count down,
   does not.  */

#define cost_sampled(t, hook, call)                                     \
  do                                                                    \
    {                                                                   \
      struct dsprof_cost_mark cost_m_;                                  \
      uint64_t cost_t0_ = dsprof_cost_begin (&(t)->cost, &cost_m_,      \
                                             (t)->last,                 \
                                             &(t)->sample_left);        \
      call;                                                             \
      dsprof_cost_end (&(t)->cost, hook, cost_t0_, &cost_m_, (t)->last); \
    }                                                                   \
  while (0)

/* In hook HOOK (DSPROF_HOOK_*) of thread T, before T is made busy: on a
   sampled call, run the hook's own CALL between cost.c's clock reads and
   return.  */
#define COST_SAMPLE(t, hook, call)                                      \
  do                                                                    \
    if (unlikely (--(t)->sample_left == 0))                             \
      {                                                                 \
        cost_sampled (t, hook, call);                                   \
        return;                                                         \
      }                                                                 \
  while (0)

/* Count an event dropped because its thread was inside the recorder (a signal
   handler or a formatter recording events), or because its site has no id:
   no lock, a signal handler may be counting.  */

static void
count_dropped_async (void)
{
  struct dsprof_file_header *h = dsprof_writer_header_if_open ();
  __atomic_fetch_add (h ? &h->dropped_events : &dropped_before_file, 1,
                      __ATOMIC_RELAXED);
}

static uint32_t nthreads;
static pthread_key_t thread_key;
/* initial-exec: one %fs-relative load, not a __tls_get_addr call (the runtime is
   built -fPIC for libdsprof.so).  */
static __thread struct thread *self __attribute__ ((tls_model ("initial-exec")));

/* The calling thread's table of recent strings, for strval.h.  */
static inline struct dsprof_strtab *
strval_table (void)
{
  return &self->strs;
}

static void thread_exit (void *arg);
static void sample_signal (int sig, siginfo_t *si, void *ctx);

static void
recorder_init (void)
{
  __atomic_store_n (&events_on, 1, __ATOMIC_RELAXED);
  dsprof_control_set (dsprof_env_flag ("DSPROF_EVENTS", 1));
  dsprof_strings_init ();
  dsprof_clock_init ();
  pthread_key_create (&thread_key, thread_exit);
  dsprof_sample_init (sample_signal);
}

/* The header's counters of events the profile lacks or has repaired
   (dsprof-format.h, section 2), each counted where it happens.  The profile
   is created if it does not exist yet (not in a signal handler: there
   count_dropped_async).  */

static void
count_in_header (size_t field)
{
  struct dsprof_file_header *h = dsprof_writer_header ();
  if (!h)
    return;
  __atomic_fetch_add ((uint64_t *) ((char *) h + field), 1, __ATOMIC_RELAXED);
}

/* An event dropped for want of memory or space in the profile.  */
static inline void
count_dropped (void)
{
  count_in_header (offsetof (struct dsprof_file_header, dropped_events));
}

/* A dimension attached when no event was open.  */
static inline void
count_stray (void)
{
  count_in_header (offsetof (struct dsprof_file_header, stray_dims));
}

/* An event closed as incomplete: a longjmp or the thread's end left it open.  */
static inline void
count_repaired (void)
{
  count_in_header (offsetof (struct dsprof_file_header, repaired_events));
}

/* A new thread state, zero, on a page of its own that a child process made
   without the fork handlers (a raw clone ()) sees zeroed (MADV_WIPEONFORK, Linux
   4.14): the child's hooks find no chunk and take the slow path, whose first
   chunk gives the child its own profile (dsprof_writer_adopt), instead of
   writing into the parent's chunk.  A forked child's handler resets the state
   anyway.  NULL if there is no memory.  */

/* LeakSanitizer's own API (weak: absent but in sanitized programs): the heap
   blocks a thread state points to are not leaks.  */
void __lsan_register_root_region (const void *p, size_t size)
  __attribute__ ((weak));
void __lsan_unregister_root_region (const void *p, size_t size)
  __attribute__ ((weak));

static struct thread *
thread_alloc (void)
{
  _Static_assert (sizeof (struct thread) <= DSPROF_PAGE, "thread state fits a page");
  int saved_errno = errno;
  void *p = mmap (NULL, DSPROF_PAGE, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p != MAP_FAILED)
    {
      /* Not the first event sampled: it sets the process up.  */
      struct thread *t = p;
      t->sample_left = dsprof_cost_period (&t->cost);
      madvise (p, DSPROF_PAGE, MADV_WIPEONFORK);
      if (__lsan_register_root_region)
        __lsan_register_root_region (p, DSPROF_PAGE);
    }
  errno = saved_errno;
  return p != MAP_FAILED ? p : NULL;
}

static struct thread *
thread_get (void)
{
  struct thread *t = self;
  if (likely (t != NULL))
    return t;
  pthread_once (&recorder_once, recorder_init);
  if (!dsprof_control_on ())
    return NULL;
  t = thread_alloc ();
  if (!t)
    return NULL;
  self = t;
  pthread_setspecific (thread_key, t);
  return t;
}

static void
publish (struct thread *t)
{
  __atomic_store_n (&t->chunk->used, (uint64_t) (t->pos - t->chunk_data),
                    __ATOMIC_RELEASE);
}

/* The most an EXIT takes: op, delta, and a result that may be a string.  */
#define EXIT_ROOM (MAX_STR_VALUE + 16)

/* Set T's LIMIT, and the exit_stop that goes with it: from there on a Finish
   takes the slow path, which makes room (reserve) for EXIT_ROOM bytes.  A
   stream shorter than that (a chunk made for a smaller event, a dead stream,
   none) has its exit_stop at its start: every Finish takes the slow path.  */

static inline void
set_limit (struct thread *t, unsigned char *limit)
{
  t->limit = limit;
  t->exit_stop = limit && limit - t->chunk_data >= (ptrdiff_t) EXIT_ROOM
                   ? limit - EXIT_ROOM + 1 : t->chunk_data;
}

/* T's stream lost an event for want of space: it ends here.  Nothing more is
   written to it, not even a smaller event that would still fit in the chunk: a
   Start recorded after a dropped Finish would read as nested in the record that
   Finish closed.  The records open in the stream are left open, and readers close
   them as incomplete where the stream ends; every later event is dropped and
   counted.  With LIMIT at POS, every event takes the slow path to reserve ().  */

static void
die (struct thread *t)
{
  t->dead = 1;
  set_limit (t, t->pos);
}

/* Unmap CHUNK (if any), which its thread has done writing: the file keeps
   it, and unmapped it takes neither memory nor one of the process's mappings.  */

static void
unmap_chunk (struct dsprof_events_chunk *chunk)
{
  if (!chunk)
    return;
  dsprof_writer_forget (chunk);
  munmap (chunk, chunk->chunk.size);
}

static inline unsigned char *
put_op (struct thread *t, unsigned char *p, int op, uint64_t now)
{
  *p++ = op;
  return dsprof_encode_uleb (p, now - t->last);
}

/* A thread's CPU-time clock did not start (sample.c said why, and samples
   no more): the profile is not timed by samples, for that thread's records
   would have none.  */

static void
samples_unflag (void)
{
  struct dsprof_file_header *h = dsprof_writer_header ();
  if (h)
    __atomic_and_fetch (&h->flags, ~(uint64_t) DSPROF_FLAG_SAMPLED,
                        __ATOMIC_RELAXED);
}

/* The end of the room of T's current chunk: where reserve set its limit.  */

static inline unsigned char *
chunk_limit (const struct thread *t)
{
  return (unsigned char *) t->chunk + t->chunk->chunk.size - MAX_FIXED_EVENT
         - sizeof (struct dsprof_events_costs);
}

/* Write the samples T's handler counted since the last SAMPLE event, if
   any, and give T back its limit (dsprof-format.h, section 4).  At pos <=
   the limit there is room for MAX_FIXED_EVENT bytes, which a SAMPLE takes at
   most.  T is busy: its handler only adds to the counts meanwhile.  */

static void
samples_flush (struct thread *t)
{
  t->sample_due = 0;
  if (t->dead || !t->chunk)
    return;
  set_limit (t, chunk_limit (t));
  if (t->pos > t->limit)
    return;
  uint64_t v[4];
  for (int i = 0; i < 4; i++)
    v[i] = __atomic_exchange_n (&t->smp[i], 0, __ATOMIC_RELAXED);
  if (!(v[SMP_N] | v[SMP_NS] | v[SMP_REC_N] | v[SMP_REC_NS]))
    return;
  unsigned char *p = put_op (t, t->pos, DSPROF_OP_SAMPLE, t->last);
  for (int i = 0; i < 4; i++)
    p = dsprof_encode_uleb (p, v[i]);
  t->pos = p;
  publish (t);
}

/* The sampler's signal (sample.c, SIGURG): a sample of the thread's CPU
   time.  One taken while the thread runs the recorder (busy, or in its
   code outside the flag) is the recorder's; one in the program waits for
   the thread's next event, whose slow path it forces by setting the limit
   at pos, so that it is charged to the record innermost now.  */

static void
sample_signal (int sig, siginfo_t *si, void *ctx)
{
  struct thread *t = self;
  uint64_t cost;
  uint64_t ns = dsprof_sample_weight (t && t->sampling ? &t->sampler : NULL,
                                      sig, si, ctx, &cost);
  if (!ns || !t || !t->sampling)
    return;
  t->smp[SMP_REC_NS] += cost;   /* the sampler's own */
  if (t->busy || dsprof_sample_in_recorder (ctx))
    {
      t->smp[SMP_REC_N]++;
      t->smp[SMP_REC_NS] += ns;
      return;
    }
  t->smp[SMP_N]++;
  t->smp[SMP_NS] += ns;
  if (t->pos && !t->dead)
    {
      t->sample_due = 1;
      set_limit (t, t->pos);
    }
}

/* Make room for an event of at most N bytes, at time NOW, in T's stream: a new
   chunk (based at NOW) if the current one is full.  Return false (the event is
   dropped) if there is no space.  */

static int
reserve (struct thread *t, uint32_t n, uint64_t now)
{
  if (likely (t->pos && t->pos + n <= t->limit))
    return 1;
  if (t->sample_due)
    {
      samples_flush (t);
      if (t->pos + n <= t->limit)
        return 1;
    }
  if (t->dead)
    return 0;
  uint64_t setup_start = dsprof_ticks ();
  /* A thread's first chunk: in a child made by a raw clone (), whose thread
     state reads as new (thread_alloc), the child's own file first; and its
     CPU-time clock, if samples are asked for.  */
  if (!t->chunk)
    {
      dsprof_writer_adopt ();
      if (!t->sampling && dsprof_sample_on ()
          && !(t->sampling = dsprof_sample_thread_start (&t->sampler) == 0))
        samples_unflag ();
    }
  /* The CPU time of the new chunk's work, most of it the kernel's, where
     the sampler (dsprof_sample_take) would charge it to the next sample.  */
  uint64_t cpu_start = t->sampling ? dsprof_sample_clock (&t->sampler) : 0;
  measure_once ();
  uint64_t size = FIRST_CHUNK_SIZE;
  for (uint32_t k = 0; k < t->seq && size < MAX_CHUNK_SIZE; k++)
    size *= 2;
  while (size < n + sizeof (struct dsprof_events_chunk) + MAX_FIXED_EVENT
                + sizeof (struct dsprof_events_costs))
    size *= 2;
  uint64_t off = dsprof_writer_begin (size);
  if (!off)
    {
      die (t);
      return 0;
    }
  struct dsprof_events_chunk h;
  memset (&h, 0, sizeof h);
  h.chunk.kind = DSPROF_CHUNK_EVENTS;
  h.chunk.size = size;
  /* Threads are numbered in the order they first record an event, not as they
     first call in (a stray dimension or finish records nothing).  */
  if (!t->thread_id)
    t->thread_id = __atomic_add_fetch (&nthreads, 1, __ATOMIC_RELAXED);
  h.thread = t->thread_id;
  h.seq = t->seq;
  h.base_ticks = now;
  h.base_ns = dsprof_mono_ns ();
  void *map;
  if (dsprof_writer_write (off, &h, sizeof h) != 0
      || !(map = dsprof_writer_map (off, size, NULL, 1)))
    {
      dsprof_writer_abort (errno);
      die (t);
      return 0;
    }
  dsprof_writer_commit (off, size);
  unmap_chunk (t->chunk);
  t->seq++;
  t->chunk = map;
  t->chunk_data = (unsigned char *) map + sizeof h;
  t->pos = t->chunk_data;
  /* The chunk's last bytes hold the thread's costs (cost.c).  */
  size_t tr = sizeof (struct dsprof_events_costs);
  set_limit (t, (unsigned char *) map + size - MAX_FIXED_EVENT - tr);
  dsprof_cost_chunk (&t->cost,
                     (struct dsprof_events_costs *) ((char *) map + size - tr),
                     dsprof_ticks () - setup_start);
  t->last = h.base_ticks;
  if (cpu_start)
    __atomic_fetch_add (&t->smp[SMP_REC_NS],
                        dsprof_sample_take (&t->sampler, cpu_start),
                        __ATOMIC_RELAXED);
  /* A new chunk starts with no names defined and no dispatch for a one-byte
     NEXT: readers may read chunks alone.  */
  t->op_base = 0;
  if (t->defined_size)
    memset (t->defined, 0, t->defined_size);
  /* Nor strings (strings.c).  */
  dsprof_strtab_reset (&t->strs, t->chunk_data);
  return t->pos + n <= t->limit;
}

/* Write a NAME op for ID unless this chunk has one; return false if no room.  */

static int
define_name (struct thread *t, uint32_t id)
{
  if (id < t->defined_size && t->defined[id])
    return 1;
  if (id >= t->defined_size)
    {
      uint32_t nsize = t->defined_size ? t->defined_size : 64;
      while (nsize <= id)
        nsize *= 2;
      unsigned char *nd = realloc (t->defined, nsize);
      if (!nd)
        return 0;
      memset (nd + t->defined_size, 0, nsize - t->defined_size);
      t->defined = nd;
      t->defined_size = nsize;
    }
  const char *text = dsprof_strings_name (id);
  size_t len = strlen (text);
  if (!reserve (t, len + 24, dsprof_ticks ()))
    return 0;
  *t->pos++ = DSPROF_OP_NAME;
  t->pos = dsprof_encode_uleb (t->pos, id);
  t->pos = dsprof_encode_uleb (t->pos, len);
  memcpy (t->pos, text, len);
  t->pos += len;
  publish (t);
  t->defined[id] = 1;
  return 1;
}

/* Make room for one more open event.  */

static int
grow_open (struct thread *t)
{
  if (t->depth < t->open_size)
    return 1;
  uint32_t nsize = t->open_size ? 2 * t->open_size : 64;
  struct open_event *no = realloc (t->open, nsize * sizeof *no);
  if (!no)
    return 0;
  t->open = no;
  t->open_size = nsize;
  return 1;
}

static int
push_open (struct thread *t, uintptr_t cfa, uint64_t id)
{
  if (!grow_open (t))
    return 0;
  t->open[t->depth++] = (struct open_event) { cfa, id };
  return 1;
}

/* Record OP, an event's end that carries nothing but its time NOW, in T's
   stream; count it dropped if there is no room.  */

static void
put_close (struct thread *t, int op, uint64_t now)
{
  if (reserve (t, MAX_FIXED_EVENT, now))
    {
      t->pos = put_op (t, t->pos, op, now);
      t->last = now;
      publish (t);
    }
  else
    count_dropped ();
}

/* Close the innermost open event as incomplete.  */

static void
abandon (struct thread *t, uint64_t now)
{
  put_close (t, DSPROF_OP_ABANDON, now);
  t->depth--;
  count_repaired ();
}

/* Close the events above open[I] as incomplete.  */

static void
abandon_above (struct thread *t, uint32_t i, uint64_t now)
{
  while (t->depth > i + 1)
    abandon (t, now);
}

/* The calling thread's alternate signal stack [lo, hi), and whether it runs
   on it now.  */

struct alt_stack
{
  uintptr_t lo, hi;
  int on;
};

static void
get_alt_stack (struct alt_stack *a)
{
  stack_t ss;
  a->lo = a->hi = 0;
  a->on = 0;
  if (sigaltstack (NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE))
    {
      a->lo = (uintptr_t) ss.ss_sp;
      a->hi = a->lo + ss.ss_size;
      a->on = (ss.ss_flags & SS_ONSTACK) != 0;
    }
}

/* Whether the open hook event at the top of T's stack was left by a longjmp,
   seen from a frame whose CFA is CFA: its frame is not above ours.  That
   compares frames of one stack only.  A signal handler on an alternate stack
   (which may lie above the thread's stack) has interrupted the events of the
   thread's stack, not left them; once back on the thread's stack, events still
   open on the alternate one were left by a siglongjmp out of the handler.
   *A is filled on first use (a system call, only when a repair is likely).  */

static int
left_behind (struct thread *t, uintptr_t cfa, struct alt_stack *a, int *have_a)
{
  uintptr_t top = t->open[t->depth - 1].cfa;
  if (top == MANUAL_CFA || top > cfa)
    return 0;
  if (!*have_a)
    {
      get_alt_stack (a);
      *have_a = 1;
    }
  int top_alt = top - a->lo < a->hi - a->lo;
  return top_alt == a->on;
}

/* Close the hook events whose frames are gone: those not above CFA, the frame
   of a call into the recorder (a longjmp left them open, and nothing else has
   noticed yet).  */

static void
abandon_gone (struct thread *t, uintptr_t cfa)
{
  uint64_t now = 0;
  struct alt_stack a;
  int have_a = 0;
  while (t->depth && left_behind (t, cfa, &a, &have_a))
    abandon (t, now ? now : (now = dsprof_ticks ()));
}


/* ---- the hooks ----------------------------------------------------------- */

/* The thread state T (the calling thread's, NULL if it has none yet) for a
   hook whose site word held ID, or NULL: no state (events off, no memory),
   or the event is dropped and counted because the thread is inside the
   recorder or the site has no id (its unit has not registered yet, a
   constructor of another object calling into it before its own ran, or was
   refused).  */

static inline __attribute__ ((always_inline)) struct thread *
hook_thread (struct thread *t, uint32_t id)
{
  if (unlikely (!t))
    {
      t = thread_get ();
      if (!t)
        return NULL;
    }
  if (unlikely (t->busy || !id))
    {
      count_dropped_async ();
      return NULL;
    }
  return t;
}

/* Slow path of a Start: abandoned events to close, or no room.  Return false if
   the event is dropped.  */

static __attribute__ ((noinline)) int
enter_slow (struct thread *t, struct dsprof_site *s, uintptr_t cfa,
            uint64_t *now)
{
  int saved_errno = errno;
  /* A hook event whose frame is not below ours was left by a longjmp.  */
  struct alt_stack a;
  int have_a = 0;
  while (t->depth && left_behind (t, cfa, &a, &have_a))
    abandon (t, *now);
  uint32_t seq = t->seq;
  int ok = reserve (t, s->max_size, *now) && grow_open (t);
  if (!ok)
    count_dropped ();
  else if (t->seq != seq)
    *now = dsprof_ticks ();   /* setting up the chunk is not the event's time */
  errno = saved_errno;
  return ok;
}

/* The plugin's hooks sample their calls out of line, so that the fast
   path keeps its registers: it tail-calls these.  */

static __attribute__ ((noinline)) void DSPROF_RECORDER_TEXT
enter_sampled (struct thread *t, uint32_t *site_word, const uint64_t *vals,
               void *cfa_p)
{
  cost_sampled (t, DSPROF_HOOK_ENTER, __dsprof_enter_v2 (site_word, vals, cfa_p));
}

static __attribute__ ((noinline)) void DSPROF_RECORDER_TEXT
exit_sampled (struct thread *t, uint32_t *site_word, uint64_t result,
              void *cfa_p)
{
  cost_sampled (t, DSPROF_HOOK_EXIT, __dsprof_exit_v1 (site_word, result, cfa_p));
}

DSPROF_API void DSPROF_RECORDER_TEXT
__dsprof_enter_v2 (uint32_t *site_word, const uint64_t *vals, void *cfa_p)
{
  struct thread *t = self;
  uint32_t id = dsprof_site_id (site_word);
  if (!(t = hook_thread (t, id)))
    return;
  if (unlikely (--t->sample_left == 0))
    return enter_sampled (t, site_word, vals, cfa_p);
  busy_on (t);
  /* Read before T's fields: loads after the acquire load are not moved above
     it, so the ones before it would be made again (callgrind, bench/events.c).  */
  struct dsprof_site *s = dsprof_site (id);
  uint64_t now = dsprof_ticks ();
  uintptr_t cfa = (uintptr_t) cfa_p;
  uint32_t depth = t->depth;
  if (unlikely ((depth && t->open[depth - 1].cfa <= cfa)
                || t->pos + s->max_size > t->limit || depth == t->open_size))
    {
      if (!enter_slow (t, s, cfa, &now))
        goto out;
      depth = t->depth;
    }
  unsigned char *p = t->pos;
  *p++ = DSPROF_OP_ENTER;
  p = dsprof_encode_uleb (p, now - t->last);
  p = dsprof_encode_uleb (p, id);
  /* The strings' bounds follow the dims' words (dsprof-format.h, section 1).  */
  const uint64_t *bounds = vals + s->ndims;
  for (uint32_t i = 0; i < s->ndims; i++)
    {
      int type = s->types[i];
      if (likely (type == DSPROF_DIM_UINT || type == DSPROF_DIM_BOOL
                  || type == DSPROF_DIM_ENUM))
        p = dsprof_encode_uleb (p, vals[i]);
      else if (type == DSPROF_DIM_INT)
        p = dsprof_encode_uleb (p, dsprof_zigzag ((int64_t) vals[i]));
      else if (type == DSPROF_DIM_STR)
        p = put_str (p, (const char *) (uintptr_t) vals[i],
                             *bounds++);
      else
        p = put_value (p, type, vals[i], s->dim_names[i]);
    }
  t->open[depth].cfa = cfa;
  t->open[depth].id = id;
  t->depth = depth + 1;
  t->pos = p;
  t->last = now;
  publish (t);
out:
  busy_off (t);
}

/* Slow path of a Finish: not the innermost event, or no room.  Return false if
   the Finish is dropped.  */

static __attribute__ ((noinline)) int
exit_slow (struct thread *t, uint32_t id, uintptr_t cfa, uint64_t now)
{
  int saved_errno = errno;
  /* Our own Start, innermost but for events a longjmp left inside our frame.  */
  uint32_t i = t->depth;
  while (i > 0 && !(t->open[i - 1].id == id && t->open[i - 1].cfa == cfa))
    i--;
  int ok = i > 0;                /* else its Start was dropped, or was before a fork */
  if (ok)
    abandon_above (t, i - 1, now);
  if (ok && !reserve (t, EXIT_ROOM, now))
    {
      t->depth--;
      count_dropped ();
      ok = 0;
    }
  errno = saved_errno;
  return ok;
}

DSPROF_API void DSPROF_RECORDER_TEXT
__dsprof_exit_v1 (uint32_t *site_word, uint64_t result, void *cfa_p)
{
  struct thread *t = self;
  uint32_t id = dsprof_site_id (site_word);
  if (unlikely (!t || t->busy || !id))
    return;
  if (unlikely (--t->sample_left == 0))
    return exit_sampled (t, site_word, result, cfa_p);
  busy_on (t);
  uint64_t now = dsprof_ticks ();
  uintptr_t cfa = (uintptr_t) cfa_p;
  uint32_t depth = t->depth;
  if (unlikely (!depth || t->open[depth - 1].id != id
                || t->open[depth - 1].cfa != cfa
                || t->pos >= t->exit_stop))
    if (!exit_slow (t, id, cfa, now))
      goto out;
  t->depth--;
  unsigned char *p = t->pos;
  *p++ = DSPROF_OP_EXIT;
  /* After T->pos is read, not before: the load of the fast path's check would
     be made again after the acquire load (callgrind, bench/events.c).  */
  struct dsprof_site *s = dsprof_site (id);
  p = dsprof_encode_uleb (p, now - t->last);
  int type = s->result;
  if (type == DSPROF_DIM_INT)
    p = dsprof_encode_uleb (p, dsprof_zigzag ((int64_t) result));
  else if (type != DSPROF_DIM_NONE)
    p = put_value (p, type, result, 0);
  t->pos = p;
  t->last = now;
  publish (t);
out:
  busy_off (t);
}

/* ---- op records: a bytecode VM's dispatch ------------------------------------

   One hook per opcode (dsprof-format.h, sections 1 and 4): the op record open
   at the top of the stack for the calling frame (its CFA, FUNC's CFA - 1)
   ends and the next starts, at one clock read, in one event that takes the
   op byte CASE + K and the time delta when the dispatch is the chunk's latest
   one.  Op records sit on the open-event stack like hook events, so the
   events an opcode's calls record nest inside them, and a longjmp out of
   FUNC leaves them to the same repairs.  Their ids are never looked for (no
   Finish names them): 0.  */

#define OP_ID 0

/* Close the events above the calling frame's op record (at CFA) that a
   longjmp left open: not above CFA and not its own.  */

static void
abandon_below (struct thread *t, uintptr_t cfa, uint64_t now)
{
  struct alt_stack a;
  int have_a = 0;
  while (t->depth && t->open[t->depth - 1].cfa != cfa
         && left_behind (t, cfa, &a, &have_a))
    abandon (t, now);
}

/* Slow path of __dsprof_op_v1: the frame's first opcode, another dispatch
   than the chunk's, a case index beyond one byte, events left behind, or
   no room.  */

static __attribute__ ((noinline)) void
op_slow (struct thread *t, uint32_t base, uint32_t index, uintptr_t cfa,
         uint64_t now)
{
  int saved_errno = errno;
  abandon_below (t, cfa, now);
  int next = t->depth && t->open[t->depth - 1].cfa == cfa;
  uint32_t seq = t->seq;
  if (!reserve (t, MAX_FIXED_EVENT, now) || (!next && !grow_open (t)))
    {
      count_dropped ();
      goto out;
    }
  unsigned char *p = t->pos;
  if (t->seq != seq)
    {
      /* Setting up the chunk is no opcode's time: the frame's record ends
         before it (the chunk's base time) and the next starts after it.  */
      if (next)
        {
          p = put_op (t, p, DSPROF_OP_OP_END, now);
          t->depth--;
          next = 0;
        }
      now = dsprof_ticks ();
    }
  if (next && base == t->op_base && index < DSPROF_OP_CASES)
    p = put_op (t, p, DSPROF_OP_CASE + (int) index, now);
  else
    {
      p = put_op (t, p, next ? DSPROF_OP_NEXT : DSPROF_OP_OP, now);
      p = dsprof_encode_uleb (p, base);
      p = dsprof_encode_uleb (p, index);
      t->op_base = base;
    }
  if (!next)
    t->open[t->depth++] = (struct open_event) { cfa, OP_ID };
  t->pos = p;
  t->last = now;
  publish (t);
out:
  errno = saved_errno;
}

#if defined(__x86_64__) || defined(__i386__)
/* The fast path of __dsprof_op_v1 on T (events on, the TSC the clock): a
   one-byte NEXT of the frame's op record at CFA; return whether it was
   one.  With REPLAY the event is written but not kept (T->pos and T->last
   stay): the op probe's second run of the hook (section 4 of
   dsprof-format.h).  */

static inline __attribute__ ((always_inline)) int
op_next (struct thread *t, uint32_t base, uint32_t index, uintptr_t cfa,
         int replay)
{
  busy_on (t);
  uint32_t depth = t->depth;
  unsigned char *p = t->pos;
  /* The limit leaves room for MAX_FIXED_EVENT bytes; a dead stream's
     limit is its position.  */
  if (likely (depth && t->open[depth - 1].cfa == cfa && p < t->limit
              && base == t->op_base && index < DSPROF_OP_CASES))
    {
      uint64_t now = __builtin_ia32_rdtsc ();
      *p++ = (unsigned char) (DSPROF_OP_CASE + index);
      p = dsprof_encode_uleb (p, now - t->last);
      if (!replay)
        {
          t->pos = p;
          t->last = now;
        }
      publish (t);
      busy_off (t);
      return 1;
    }
  busy_off (t);
  return 0;
}
#endif

/* __dsprof_op_v1 but for its fast path: every case, at the cost of saving
   registers and calls.  */

static __attribute__ ((noinline)) void DSPROF_RECORDER_TEXT
op_hook (uint32_t *dispatch_word, uint32_t index, uintptr_t cfa)
{
  struct thread *t = self;
  uint32_t base = dsprof_site_id (dispatch_word);
  if (!(t = hook_thread (t, base)))
    return;
  busy_on (t);
  op_slow (t, base, index, cfa, dsprof_ticks ());
  busy_off (t);
}

/* What a probe's window does before each of its op calls: the hook's fast
   path once, keeping nothing (the heavy window), or nothing (the light
   one); called alike.  Return whether the replay did the hook's work.  */

static __attribute__ ((noipa)) int DSPROF_RECORDER_TEXT
op_replay (struct thread *t, uint32_t *dispatch_word, uint32_t index,
           void *cfa_p)
{
#if defined(__x86_64__) || defined(__i386__)
  uint32_t base = dsprof_site_id (dispatch_word);
  return likely (!t->busy && base && dsprof_clock_tsc_p ())
         && op_next (t, base, index, (uintptr_t) cfa_p, 1);
#else
  (void) t, (void) dispatch_word, (void) index, (void) cfa_p;
  return 0;
#endif
}

static __attribute__ ((noipa)) int DSPROF_RECORDER_TEXT
op_no_replay (struct thread *t, uint32_t *dispatch_word, uint32_t index,
              void *cfa_p)
{
  (void) t, (void) dispatch_word, (void) index, (void) cfa_p;
  return 0;
}

/* The op hook's work but for the countdown, on T (events on, T not busy,
   the dispatch registered, the TSC the clock: op_sampled's caller checked):
   the call op_sampled makes, whose countdown cost.c has set already.  */

static __attribute__ ((noinline)) void DSPROF_RECORDER_TEXT
op_run (struct thread *t, uint32_t *dispatch_word, uint32_t index, void *cfa_p)
{
#if defined(__x86_64__) || defined(__i386__)
  uint32_t base = dsprof_site_id (dispatch_word);
  if (likely (op_next (t, base, index, (uintptr_t) cfa_p, 0)))
    return;
#else
  (void) t;
#endif
  op_hook (dispatch_word, index, (uintptr_t) cfa_p);
}

/* A sampled op call, or one an op probe routes here (cost.c, 2): around the
   op call, what the probe's window asks for.  No probe under way: until the
   probes have measured the hook, the call is timed in parts (cost_sampled).
   The light and heavy windows make an indirect call before it, which in the
   heavy one replays the hook (op_replay).  */

static __attribute__ ((noinline)) void DSPROF_RECORDER_TEXT
op_sampled (struct thread *t, uint32_t *dispatch_word, uint32_t index,
            void *cfa_p)
{
  struct dsprof_cost *c = &t->cost;
  uint64_t last = t->last;
  int window = dsprof_probe_window (c);
  if (window == DSPROF_PROBE_NONE)
    {
      if (!c->costs.hook[DSPROF_COST_OP_PROBE].calls)
        cost_sampled (t, DSPROF_HOOK_OP, op_run (t, dispatch_word, index, cfa_p));
      else
        {
          op_run (t, dispatch_word, index, cfa_p);
          dsprof_cost_period (c);
        }
    }
  else
    {
      if (window != DSPROF_PROBE_NORMAL)
        {
          /* Before the call, so that a window holds all its replays.  */
          int (*run) (struct thread *, uint32_t *, uint32_t, void *)
            = window == DSPROF_PROBE_HEAVY ? op_replay : op_no_replay;
          __asm__ ("" : "+r" (run));  /* an indirect call either way */
          c->probe.replays += run (t, dispatch_word, index, cfa_p);
        }
      op_run (t, dispatch_word, index, cfa_p);
    }
  t->sample_left = dsprof_probe_next (c, last, t->last);
}

/* The fast path is a leaf function, without a register saved: a one-byte
   NEXT of the frame's op record, where the TSC is the clock; anything else
   goes to op_hook.  A call whose countdown runs out goes to op_sampled.  */

DSPROF_API void DSPROF_RECORDER_TEXT
__dsprof_op_v1 (uint32_t *dispatch_word, uint32_t index, void *cfa_p)
{
  struct thread *t = self;
  uint32_t base = dsprof_site_id (dispatch_word);
  uintptr_t cfa = (uintptr_t) cfa_p;
#if defined(__x86_64__) || defined(__i386__)
  if (likely (t && !t->busy && base && dsprof_clock_tsc_p ()))
    {
      if (unlikely (--t->sample_left == 0))
        return op_sampled (t, dispatch_word, index, cfa_p);
      if (likely (op_next (t, base, index, cfa, 0)))
        return;
    }
#endif
  op_hook (dispatch_word, index, cfa);
}

DSPROF_API void DSPROF_RECORDER_TEXT
__dsprof_op_begin_v1 (void *cfa_p)
{
  struct thread *t = self;
  uintptr_t cfa = (uintptr_t) cfa_p;
  /* Nothing open at or below CFA: nothing a longjmp left behind.  */
  if (likely (!t || t->busy || !t->depth || t->open[t->depth - 1].cfa > cfa))
    return;
  int saved_errno = errno;
  busy_on (t);
  abandon_gone (t, cfa);
  busy_off (t);
  errno = saved_errno;
}

DSPROF_API void DSPROF_RECORDER_TEXT
__dsprof_op_end_v1 (void *cfa_p)
{
  struct thread *t = self;
  if (unlikely (!t || t->busy))
    return;
  int saved_errno = errno;
  busy_on (t);
  uintptr_t cfa = (uintptr_t) cfa_p;
  uint64_t now = dsprof_ticks ();
  abandon_below (t, cfa, now);
  if (t->depth && t->open[t->depth - 1].cfa == cfa)
    {
      put_close (t, DSPROF_OP_OP_END, now);
      t->depth--;
    }
  busy_off (t);
  errno = saved_errno;
}

/* ---- the API of dsprof.h ----------------------------------------------------- */

DSPROF_API dsprof_id
dsprof_start (const char *event_type)
{
  if (!dsprof_control_on ())
    return 0;   /* switched off (control.c); before recorder_init it is on */
  struct thread *t = thread_get ();
  if (!t || t->busy || !event_type)
    {
      if (t && t->busy && event_type)
        count_dropped_async ();
      return 0;
    }
  if (unlikely (--t->sample_left == 0))
    {
      dsprof_id id;
      cost_sampled (t, DSPROF_HOOK_START, id = dsprof_start (event_type));
      return id;
    }
  int saved_errno = errno;
  busy_on (t);
  dsprof_id ret = 0;
  /* The caller's events stay open; those a longjmp left inside them close.  */
  abandon_gone (t, (uintptr_t) __builtin_dwarf_cfa ());
  uint32_t name = dsprof_strings_intern (event_type);
  uint64_t now = dsprof_ticks ();
  uint32_t seq = t->seq;
  /* Room for the name's definition and the Start in one chunk: a new chunk
     starts with no names defined.  */
  if (!name || !reserve (t, strlen (event_type) + 24 + MAX_FIXED_EVENT, now)
      || !define_name (t, name) || !push_open (t, MANUAL_CFA, 0))
    {
      count_dropped ();
      goto out;
    }
  if (t->seq != seq)
    now = dsprof_ticks ();   /* setting up the chunk is not the event's time */
  ret = ++t->next_manual;
  t->open[t->depth - 1].id = ret;
  unsigned char *p = put_op (t, t->pos, DSPROF_OP_START, now);
  t->pos = dsprof_encode_uleb (p, name);
  t->last = now;
  publish (t);
out:
  busy_off (t);
  errno = saved_errno;
  return ret;
}

DSPROF_API void
dsprof_finish (dsprof_id id)
{
  struct thread *t = self;
  if (!t || t->busy || !id)
    return;
  COST_SAMPLE (t, DSPROF_HOOK_FINISH, dsprof_finish (id));
  int saved_errno = errno;
  busy_on (t);
  uint64_t now = dsprof_ticks ();
  uint32_t i = t->depth;
  while (i > 0 && !(t->open[i - 1].cfa == MANUAL_CFA && t->open[i - 1].id == id))
    i--;
  if (i == 0)
    goto out;     /* already closed by a repair, or not this thread's */
  abandon_above (t, i - 1, now);
  t->depth--;
  put_close (t, DSPROF_OP_FINISH, now);
out:
  busy_off (t);
  errno = saved_errno;
}

/* Whether the calling thread records, and its innermost open record of a
   live frame (not one a longjmp left below CFA) is at CFA: the record the
   dimensions computed by dimread.c belong to, which a dropped Start or op
   record leaves to another.  */

DSPROF_HIDDEN int
dsprof_recorder_open_at (uintptr_t cfa)
{
  struct thread *t = self;
  if (!t || t->busy)
    return 0;
  for (uint32_t i = t->depth; i > 0; i--)
    if (t->open[i - 1].cfa >= cfa)
      return t->open[i - 1].cfa == cfa;
  return 0;
}

/* Attach dimension DIM (of id ID, or 0: interned here) of TYPE with value V
   (or string S) to the innermost open event of a frame that is still live;
   CFA is the frame of the dsprof_dim_* call.  */

static void
add_dim_id (const char *dim, uint32_t id, int type, uint64_t v, uintptr_t cfa)
{
  struct thread *t = thread_get ();
  if (!t || t->busy || !dim)
    return;
  COST_SAMPLE (t, DSPROF_HOOK_DIM, add_dim_id (dim, id, type, v, cfa));
  int saved_errno = errno;
  busy_on (t);
  /* Not to an event a longjmp left open: its frame is gone.  */
  abandon_gone (t, cfa);
  if (t->depth == 0)
    {
      count_stray ();
      goto out;
    }
  uint32_t name = id ? id : dsprof_strings_intern (dim);
  uint64_t now = dsprof_ticks ();
  /* Room for the name's definition and the value in one chunk: a new chunk
     starts with no names defined.  */
  if (!name || !reserve (t, strlen (dim) + 24 + MAX_STR_VALUE + 32, now)
      || !define_name (t, name))
    {
      count_dropped ();
      goto out;
    }
  unsigned char *p = put_op (t, t->pos, DSPROF_OP_DIM, now);
  p = dsprof_encode_uleb (p, name);
  p = dsprof_encode_uleb (p, type);
  t->pos = put_value (p, type, v, name);
  t->last = now;
  publish (t);
out:
  busy_off (t);
  errno = saved_errno;
}

static void
add_dim (const char *dim, int type, uint64_t v, uintptr_t cfa)
{
  add_dim_id (dim, 0, type, v, cfa);
}

/* add_dim for dimread.c, with the id of DIM if it has it (else 0).  */

DSPROF_HIDDEN void
dsprof_recorder_dim (const char *dim, uint32_t id, int type, uint64_t v)
{
  add_dim_id (dim, id, type, v, (uintptr_t) __builtin_dwarf_cfa ());
}

DSPROF_API void
dsprof_dim_int (const char *dim, long long v)
{
  add_dim (dim, DSPROF_DIM_INT, (uint64_t) v,
           (uintptr_t) __builtin_dwarf_cfa ());
}

DSPROF_API void
dsprof_dim_uint (const char *dim, unsigned long long v)
{
  add_dim (dim, DSPROF_DIM_UINT, v,
           (uintptr_t) __builtin_dwarf_cfa ());
}

DSPROF_API void
dsprof_dim_double (const char *dim, double v)
{
  uint64_t bits;
  memcpy (&bits, &v, 8);
  add_dim (dim, DSPROF_DIM_DOUBLE, bits,
           (uintptr_t) __builtin_dwarf_cfa ());
}

DSPROF_API void
dsprof_dim_bool (const char *dim, int v)
{
  add_dim (dim, DSPROF_DIM_BOOL, v != 0,
           (uintptr_t) __builtin_dwarf_cfa ());
}

DSPROF_API void
dsprof_dim_str (const char *dim, const char *s)
{
  add_dim (dim, DSPROF_DIM_STR, (uint64_t) (uintptr_t) s,
           (uintptr_t) __builtin_dwarf_cfa ());
}

DSPROF_API void
dsprof_dim_ptr (const char *dim, const void *p)
{
  add_dim (dim, DSPROF_DIM_PTR, (uint64_t) (uintptr_t) p,
           (uintptr_t) __builtin_dwarf_cfa ());
}

/* ---- thread and process ends, fork ------------------------------------------ */

static void
close_all (struct thread *t)
{
  samples_flush (t);
  uint64_t now = dsprof_ticks ();
  while (t->depth)
    abandon (t, now);
}

static void
thread_exit (void *arg)
{
  struct thread *t = arg;
  if (!t || t->busy)
    return;
  busy_on (t);
  if (t->sampling)
    {
      t->sampling = 0;
      dsprof_sample_thread_stop (&t->sampler);
    }
  close_all (t);
  self = NULL;
  unmap_chunk (t->chunk);
  free (t->open);
  free (t->defined);
  if (__lsan_unregister_root_region)
    __lsan_unregister_root_region (t, DSPROF_PAGE);
  munmap (t, DSPROF_PAGE);
}

/* At normal exit (lifecycle.c): close the calling thread's open events.  */

DSPROF_HIDDEN void
dsprof_recorder_exit (void)
{
  struct thread *t = self;
  if (t && !t->busy)
    {
      busy_on (t);
      close_all (t);
      busy_off (t);
    }
  struct dsprof_file_header *h = dsprof_writer_header_if_open ();
  if (h && h->pid == getpid ())
    h->stop_ticks = dsprof_ticks ();
}

/* The forking thread's state, as it was before fork
   (dsprof_recorder_fork_prepare).  */
static struct thread forking;

/* Before fork, every lock held (lifecycle.c): the forking thread's state
   reads as zeros in the child (thread_alloc); keep what it owns on the heap
   for the child to take back.  */

DSPROF_HIDDEN void
dsprof_recorder_fork_prepare (void)
{
  struct thread *t = self;
  if (t)
    forking = *t;
}

DSPROF_HIDDEN void
dsprof_recorder_fork_parent (void)
{
  forking.open = NULL;
  forking.defined = NULL;
}

/* In a forked child (or one made by a raw clone ()), once the child's file
   is made (lifecycle.c): the thread's chunk belongs to the parent's file, and
   its open events were opened by the parent.  Start a new stream in the
   child's file.  */

DSPROF_HIDDEN void
dsprof_recorder_fork_child (void)
{
  struct thread *t = self;
  nthreads = 0;
  dsprof_sample_fork_child ();   /* the parent's threads' clocks */
  if (!t)
    return;
  if (!t->open && !t->defined)
    {
      /* Wiped: take back the heap arrays of the thread state (a forked
         child's; a raw clone's are lost, as its parent's other threads').  */
      t->open = forking.open;
      t->open_size = forking.open_size;
      t->defined = forking.defined;
      t->defined_size = forking.defined_size;
      t->next_manual = forking.next_manual;
    }
  forking.open = NULL;
  forking.defined = NULL;
  t->thread_id = 0;          /* thread 1 at its first event in the child */
  t->pos = NULL;
  t->chunk = NULL;
  t->chunk_data = NULL;
  set_limit (t, NULL);
  t->seq = 0;
  t->depth = 0;
  t->dead = 0;
  t->sample_left = dsprof_cost_fork_child (&t->cost);  /* its own costs */
  /* A child has no clock: its first chunk starts one.  */
  t->sampling = t->sample_due = 0;
  memset (t->smp, 0, sizeof t->smp);
}

/* An event function with two integer dimensions as the plugin makes it
   (dsprof-format.h, section 1), and the same function without its hooks: the
   start-up calibration of the caller's part of a hook call.  */

static __attribute__ ((noipa)) uint64_t
calib_hooked (uint32_t *word, uint64_t a, uint64_t b)
{
  int on = __atomic_load_n (&__dsprof_events_on[0], __ATOMIC_RELAXED);
  void *cfa = __builtin_dwarf_cfa ();
  if (on)
    {
      uint64_t vals[2] = { a, b };
      __dsprof_enter_v2 (word, vals, cfa);
    }
  uint64_t r = a ^ b;
  if (on)
    __dsprof_exit_v1 (word, r, cfa);
  return r;
}

static __attribute__ ((noipa)) uint64_t
calib_plain (uint32_t *word, uint64_t a, uint64_t b)
{
  (void) word;
  return a ^ b;
}

/* The least ticks of ROUNDS rounds of PAIRS calls of FN on T's scratch
   stream; with INSIDE, every hook call is sampled and a round's figure is
   the sampled ticks inside the hooks instead.  */

static uint64_t
calib_rounds (struct thread *t, uint64_t (*fn) (uint32_t *, uint64_t, uint64_t),
              uint32_t *word, int inside, int rounds, int pairs)
{
  uint64_t best = UINT64_MAX;
  t->cost.sample_all = inside;
  for (int r = 0; r < rounds; r++)
    {
      t->pos = t->chunk_data;
      t->sample_left = inside ? 1 : UINT32_MAX;
      memset (&t->cost.costs, 0, sizeof t->cost.costs);
      uint64_t t0 = dsprof_ticks ();
      for (int i = 0; i < pairs; i++)
        fn (word, 12345, (uint64_t) i);
      uint64_t d = dsprof_ticks () - t0;
      if (inside)
        {
          d = 0;
          for (int k = 0; k < DSPROF_NHOOKS; k++)
            d += t->cost.costs.hook[k].before_ticks
                 + t->cost.costs.hook[k].after_ticks;
        }
      if (d < best)
        best = d;
    }
  t->cost.sample_all = 0;
  return best;
}

/* The cost of one Start/Finish pair with two integer dimensions, measured on a
   scratch stream in memory with a scratch site: what reports deduct per record.
   In picoseconds; 0 when events are off.

   The least time of ROUNDS short rounds of PAIRS pairs, each over the same
   stretch of the scratch stream: a round that a context switch, an interrupt or
   a first touch of a page fell into costs more, and the machine being loaded
   makes such rounds more frequent, not the recorder slower.  About 2,000 pairs in
   all, well under a millisecond at start-up.  */

DSPROF_HIDDEN uint64_t
dsprof_recorder_measure (void)
{
  enum { ROUNDS = 16, PAIRS = 128 };
  pthread_once (&recorder_once, recorder_init);
  if (!events_on_p ())
    return 0;
  /* The calling thread may have a stream of its own already (an event from a
     constructor that ran before any unit with sites registered): it is set
     aside while the scratch stream stands in for it.  */
  struct thread *own = self;
  static uint8_t types[2] = { DSPROF_DIM_INT, DSPROF_DIM_INT };
  static uint32_t dim_names[2];
  static struct dsprof_site site = { 2, DSPROF_DIM_INT, types, dim_names,
                              MAX_FIXED_EVENT + 20 };
  uint32_t word = dsprof_sites_add_scratch (&site);
  struct thread scratch;
  memset (&scratch, 0, sizeof scratch);
  /* Room for one round's events: PAIRS Starts and Finishes of at most
     max_size bytes each, the room the Finish hook checks for (EXIT_ROOM),
     plus the event a full stream leaves room for.  */
  size_t size = sizeof (struct dsprof_events_chunk)
                + (size_t) PAIRS * 2 * site.max_size + EXIT_ROOM
                + MAX_FIXED_EVENT + sizeof (struct dsprof_events_costs);
  size = (size + 7) & ~(size_t) 7;       /* the trailer's words aligned */
  unsigned char *mem = calloc (1, size);
  if (!word || !mem)
    {
      free (mem);
      return 0;
    }
  scratch.chunk = (struct dsprof_events_chunk *) mem;
  scratch.cost.trailer = (struct dsprof_events_costs *)
                         (mem + size - sizeof (struct dsprof_events_costs));
  scratch.chunk_data = mem + sizeof (struct dsprof_events_chunk);
  set_limit (&scratch, mem + size - MAX_FIXED_EVENT
                       - sizeof (struct dsprof_events_costs));
  scratch.dead = 1;
  self = &scratch;
  uint64_t vals[2] = { 12345, 678 };
  void *cfa = __builtin_frame_address (0);
  uint64_t best = UINT64_MAX;
  scratch.sample_left = UINT32_MAX;
  for (int r = 0; r < ROUNDS; r++)
    {
      scratch.pos = scratch.chunk_data;
      uint64_t t0 = dsprof_mono_ns ();
      for (int i = 0; i < PAIRS; i++)
        {
          __dsprof_enter_v2 (&word, vals, cfa);
          __dsprof_exit_v1 (&word, 1, cfa);
        }
      uint64_t t1 = dsprof_mono_ns ();
      if (t1 - t0 < best)
        best = t1 - t0;
    }
  /* The clock read a sampled call adds (read_ticks), first: the sampled
     parts below are measured without it.  */
  uint64_t read = dsprof_cost_clock_floor (ROUNDS, PAIRS) / PAIRS;
  dsprof_cost_calibrated (read, 0, 0);
  /* The caller's part: an event function's call, less the same function
     without hooks, less what the hooks measure inside themselves (their
     sampled parts, the extra read already taken out).  */
  uint64_t hooked = calib_rounds (&scratch, calib_hooked, &word, 0, ROUNDS, PAIRS);
  uint64_t plain = calib_rounds (&scratch, calib_plain, &word, 0, ROUNDS, PAIRS);
  uint64_t inside = calib_rounds (&scratch, calib_hooked, &word, 1, ROUNDS, PAIRS);
  uint64_t caller = hooked > plain + inside ? hooked - plain - inside : 0;
  dsprof_cost_calibrated (read, caller, 2 * PAIRS);
  self = own;
  free (scratch.open);
  free (mem);
  return best * 1000 / PAIRS;
}

