/* threads.c - what the runtime knows of the threads that run counted code.

   With update=single (dsprof-format.h, section 1) two threads that increment
   the same counter at once may lose one of the increments, and nothing in the
   counts shows it.  So each counted function that calls others tests the
   thread-local __dsprof_seen_v1 at entry (a load and a branch not taken;
   plugin/threads.cc), and the first time a thread gets there it calls
   __dsprof_seen_thread_v1, which counts the thread into the header's
   single_threads.  The report warns when that is more than one
   (docs/contract.md §3).  */

#ifndef _GNU_SOURCE
# define _GNU_SOURCE            /* mremap */
#endif

#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>

DSPROF_API __thread int __dsprof_seen_v1
  __attribute__ ((tls_model ("initial-exec")));

/* Threads of this process seen so far, and the header they are stored in:
   set by the writer when it makes the file (a unit may run before).  */
static uint64_t seen_threads;
static struct dsprof_file_header *seen_header;

/* Store N in H's single_threads unless it holds more already (two threads
   arriving at once may store out of order).  */

static inline DSPROF_GENERAL_REGS void
store_max (struct dsprof_file_header *h, uint64_t n)
{
  uint64_t old = __atomic_load_n (&h->single_threads, __ATOMIC_RELAXED);
  while (old < n
         && !__atomic_compare_exchange_n (&h->single_threads, &old, n, 1,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
}

/* It preserves every register (internal.h) by touching only general ones and
   calling nothing: the caller's vector registers are never saved.  */

DSPROF_API DSPROF_PRESERVES_ALL DSPROF_GENERAL_REGS void
__dsprof_seen_thread_v1 (void)
{
  if (__dsprof_seen_v1)
    return;
  __dsprof_seen_v1 = 1;
  uint64_t n = __atomic_add_fetch (&seen_threads, 1, __ATOMIC_RELAXED);
  struct dsprof_file_header *h = __atomic_load_n (&seen_header, __ATOMIC_ACQUIRE);
  if (h)
    store_max (h, n);
}

/* update=thread: the threads that have counted in a shard not their own,
   with the owner (0: none has), whose increments may be lost too
   (shard_shared).  */
static uint64_t shared_threads;

void
dsprof_threads_header_init (struct dsprof_file_header *h)
{
  __atomic_store_n (&seen_header, h, __ATOMIC_RELEASE);
  store_max (h, __atomic_load_n (&seen_threads, __ATOMIC_RELAXED));
  store_max (h, __atomic_load_n (&shared_threads, __ATOMIC_RELAXED));
}

void
dsprof_threads_fork_child (void)
{
  /* The child has one thread, the one that forked, which has run counted
     code if its flag is set; its file is yet to be made.  */
  __atomic_store_n (&seen_header, NULL, __ATOMIC_RELAXED);
  __atomic_store_n (&seen_threads, __dsprof_seen_v1 ? 1 : 0, __ATOMIC_RELAXED);
}

/* Per-thread counter shards (update=thread, dsprof-format.h section 2b).

   A thread's first counted function finds its pointer NULL and calls the
   runtime: __dsprof_shard_unit_v1 for a unit that keeps its place in the
   shard in a thread-local cache of its own, __dsprof_shard_thread_v1 for one
   that reads __dsprof_shard_v1.  Either takes a shard off the free list or
   adds a DSPROF_CHUNK_SHARD chunk to the profile (a hole but for its first
   page) and maps it.  A key destructor puts the shard back on the free list
   when the thread ends, and clears the thread's pointers (the caches, found
   at the offsets from the thread pointer the runtime has seen them at: the
   same in every thread, for local-exec variables), so that code the thread
   runs after it takes a shard again: the next thread adds its counts to
   those already there, which the reader sums anyway.  If the file cannot
   take a shard, the thread counts into anonymous memory (the profile says
   it is truncated).  */

DSPROF_API __thread uint64_t *__dsprof_shard_v1
  __attribute__ ((tls_model ("initial-exec")));

struct shard
{
  uint64_t *base;
  struct shard *next;           /* on all_shards */
  int free;
  uint32_t end;                 /* counters [0, END) are mapped */
  uint32_t resv;                /* counters [0, RESV) are reserved */
};

/* The key's value in a thread that counts in another thread's shard.  */
static struct shard no_shard;

/* The counter space the units have taken, in whole pages: every shard maps
   it (dsprof_shards_grow).  Still the sink's end: no unit counted in shards
   has registered.  */
static uint32_t space_end = DSPROF_SHARD_SINK;

/* The thread's cold stack, which the runtime's first calls in a thread run
   on (dsprof_call_saving_all below): its top (NULL until made), and whether
   a call is on it.  */
#define COLD_STACK_BYTES 65536
#define COLD_STACK_STR "65536"
DSPROF_HIDDEN __thread struct
{
  char *top;
  long busy;
} dsprof_cold __attribute__ ((tls_model ("initial-exec")));

static struct shard *all_shards;
static pthread_mutex_t shards_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t shard_key;
static pthread_once_t shard_key_once = PTHREAD_ONCE_INIT;
/* Under a finite RLIMIT_AS, the counters a shard reserves past the units'
   (a unit that registers later, a library loaded with dlopen, takes them
   first, then the address space right past them if it is free).  */
#define SHARD_HEADROOM (DSPROF_SHARD_SINK / 8)

/* The units' caches: their offsets from the thread pointer, sorted, and
   for a cache of two pointers (__dsprof_shard_unit_v2) the second's offset
   and its unit's sink, the second's value at the thread's start (and
   end).  */
struct cache_slot
{
  intptr_t off;
  intptr_t load;                /* the second's offset, if any */
  uint64_t *sink;
};
static struct cache_slot *cache_offs;
static size_t ncache_offs, maxcache_offs;

/* The units' sinks (__dsprof_register_unit_thread_v2), for a forked child
   to give them a chunk of its own file.  */
struct sink
{
  uint64_t *counters;
  uint32_t first, n;
};
static struct sink *sinks;
static size_t nsinks, maxsinks;

/* Caches given their unit's sink because it had not registered yet (its
   code ran before its constructor, from a preinit function): cleared when
   it registers, in the registering thread (dsprof_shards_registered);
   dropped when their thread ends.  */
struct early
{
  char *tp;                     /* the thread's pointer */
  uint64_t **cache;
  uint64_t *counters;
};
static struct early *early;
static size_t nearly, maxearly;

/* When there is no memory at all, the thread shares this: its increments
   may be lost and are not in the profile.  */
static uint64_t last_resort[DSPROF_SHARD_COUNTERS];

/* The thread pointer, where only caches have offsets from it (x86-64);
   elsewhere there are none.  */

static char *
thread_pointer (void)
{
#if defined(__x86_64__) && defined(__LP64__)
  return __builtin_thread_pointer ();
#else
  return NULL;
#endif
}

/* The array OLD of *MAX elements of ELT bytes, in pages of its own, made
   room for twice as many (at least MIN): the array, *MAX updated; NULL
   without memory (OLD is left as it was).  */

static void *
pages_grow (void *old, size_t *max, size_t elt, size_t min)
{
  size_t n = *max ? 2 * *max : min;
  size_t was = dsprof_round_page (*max * elt), bytes = dsprof_round_page (n * elt);
  void *p = old ? mremap (old, was, bytes, MREMAP_MAYMOVE)
                : mmap (NULL, bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  *max = bytes / elt;
  return p;
}

static struct dsprof_pool shard_pool;

static void
shard_release (void *arg)
{
  struct shard *s = arg;
  pthread_mutex_lock (&shards_lock);
  if (s != &no_shard)
    s->free = 1;
  char *tp = thread_pointer ();
  for (size_t i = 0; i < ncache_offs; i++)
    {
      *(uint64_t **) (tp + cache_offs[i].off) = NULL;
      if (cache_offs[i].load)
        *(uint64_t **) (tp + cache_offs[i].load) = cache_offs[i].sink;
    }
  size_t n = 0;
  for (size_t i = 0; i < nearly; i++)
    if (early[i].tp != tp)
      early[n++] = early[i];
  nearly = n;
  pthread_mutex_unlock (&shards_lock);
  __dsprof_shard_v1 = NULL;
  if (dsprof_cold.top && !dsprof_cold.busy)
    {
      munmap (dsprof_cold.top - COLD_STACK_BYTES, COLD_STACK_BYTES);
      dsprof_cold.top = NULL;
    }
}

static void
shard_key_init (void)
{
  pthread_key_create (&shard_key, shard_release);
}

/* Write the pages of the N counters at AT that are not all zeros at file
   offset OFF on.  0 or an errno value.  */

static int
write_nonzero (uint64_t off, const uint64_t *at, uint32_t n)
{
  for (uint32_t i = 0; i < n; i += DSPROF_COUNTERS_PER_PAGE)
    {
      uint32_t k = 0;
      while (k < DSPROF_COUNTERS_PER_PAGE && !at[i + k])
        k++;
      int err = k == DSPROF_COUNTERS_PER_PAGE
                ? 0 : dsprof_writer_write (off + (uint64_t) i * 8, at + i,
                                           DSPROF_PAGE);
      if (err)
        return err;
    }
  return 0;
}

/* Map the N counters at AT (whole pages), counters FIRST.. of a shard or a
   unit's sink, from a new chunk of the profile, a hole but for its first
   page and, if KEEP, the pages of AT that hold counts already; if the file
   cannot have them, anonymous memory (zeros: the profile says it is
   truncated) unless KEEP, which leaves AT as it is.  0 if AT is mapped
   from the file, 1 if it is not, -1 if it is not even mapped (not KEEP).  */

static int
chunk_map (uint64_t *at, uint32_t first, uint32_t n, int keep)
{
  size_t bytes = (size_t) n * sizeof (uint64_t);
  uint64_t size = DSPROF_PAGE + bytes;
  uint64_t off = dsprof_writer_begin_sparse (size, DSPROF_PAGE);
  if (off)
    {
      struct dsprof_shard_chunk ch;
      memset (&ch, 0, sizeof ch);
      ch.chunk.kind = DSPROF_CHUNK_SHARD;
      ch.chunk.size = size;
      ch.ncounters = n;
      ch.first = first;
      int err = dsprof_writer_write (off, &ch, sizeof ch);
      if (!err && keep)
        err = write_nonzero (off + DSPROF_PAGE, at, n);
      if (!err && dsprof_writer_map (off + DSPROF_PAGE, bytes, at, 1))
        {
          dsprof_writer_commit (off, size);
          return 0;
        }
      dsprof_writer_abort (err ? err : errno);
    }
  else
    dsprof_writer_set_truncated ();
  if (keep)
    return 1;
  return mmap (at, bytes, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0)
         == MAP_FAILED ? -1 : 1;
}

/* Map counters [FROM, TO) (whole pages) of the shard at BASE from a new
   chunk of the profile (chunk_map); anonymous memory if the file cannot
   have them (the profile says it is truncated).  0, or -1 if even that
   fails.  */

static int
segment_map (uint64_t *base, uint32_t from, uint32_t to)
{
  return chunk_map (base + from, from, to - from, 0) < 0 ? -1 : 0;
}

/* The counters of address space a new shard reserves: the whole counter
   space, which costs nothing, unless RLIMIT_AS is finite, where each
   thread's reservation would count against the program's limit: then the
   units' counters so far and SHARD_HEADROOM.  */

static uint32_t
shard_reserve (void)
{
  struct rlimit rl;
  if (getrlimit (RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return DSPROF_SHARD_COUNTERS;
  uint64_t n = (uint64_t) space_end + SHARD_HEADROOM;
  return n < DSPROF_SHARD_COUNTERS ? (uint32_t) n : DSPROF_SHARD_COUNTERS;
}

/* A new shard of RESV counters at FIXED (or anywhere, if NULL): RESV
   reserved, the sink in anonymous memory, the units' counters so far in
   the profile (segment_map); the rest is mapped as units take it.  NULL if
   there is no memory for it.  */

static uint64_t *
shard_map (void *fixed, uint32_t resv)
{
  size_t bytes = (size_t) resv * sizeof (uint64_t);
  uint64_t *p = mmap (fixed, bytes, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
                      | (fixed ? MAP_FIXED : 0), -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  if (mmap (p, DSPROF_SHARD_SINK * sizeof (uint64_t), PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0)
      == MAP_FAILED
      || (space_end > DSPROF_SHARD_SINK
          && segment_map (p, DSPROF_SHARD_SINK, space_end) < 0))
    {
      if (!fixed)
        munmap (p, bytes);
      return NULL;
    }
  return p;
}

/* Reserve S's counters up to END, right past those it has: 0, or -1 if
   that address space is not free (or there is none).  */

static int
shard_extend (struct shard *s, uint32_t end)
{
  if (end <= s->resv)
    return 0;
  char *want = (char *) (s->base + s->resv);
  size_t bytes = (size_t) (end - s->resv) * sizeof (uint64_t);
  char *p = mmap (want, bytes, PROT_NONE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
                  | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED)
    return -1;
  if (p != want)                /* a kernel before 4.17: a hint */
    {
      munmap (p, bytes);
      return -1;
    }
  s->resv = end;
  return 0;
}

/* The units have taken the counter space up to END: every shard maps it.
   0, or -1 if a shard could not (the unit that asks has no room).  */

int
dsprof_shards_grow (uint32_t end)
{
  end = (uint32_t) dsprof_round_page ((uint64_t) end * sizeof (uint64_t))
        / sizeof (uint64_t);
  int ok = 0;
  pthread_mutex_lock (&shards_lock);
  for (struct shard *s = all_shards; s; s = s->next)
    if (s->end < end)
      {
        if (shard_extend (s, end) < 0 || segment_map (s->base, s->end, end) < 0)
          ok = -1;
        else
          s->end = end;
      }
  if (!ok && end > space_end)
    __atomic_store_n (&space_end, end, __ATOMIC_RELEASE);
  pthread_mutex_unlock (&shards_lock);
  if (ok < 0 && shard_reserve () < DSPROF_SHARD_COUNTERS)
    dsprof_warn ("no address space past a thread's counter shard for a new "
                 "unit (RLIMIT_AS is set): its counts are not recorded");
  return ok;
}

/* A new shard, on ALL_SHARDS (SHARDS_LOCK held); NULL if there is no
   memory for it.  */

static struct shard *
shard_new (void)
{
  uint32_t resv = shard_reserve ();
  uint64_t *base = shard_map (NULL, resv);
  if (!base)
    return NULL;
  struct shard *s = dsprof_pool_alloc (&shard_pool, sizeof *s);
  if (!s)
    {
      munmap (base, (size_t) resv * sizeof (uint64_t));
      return NULL;
    }
  s->resv = resv;
  s->base = base;
  s->free = 0;
  s->end = space_end;
  s->next = all_shards;
  all_shards = s;
  return s;
}

/* For a thread that cannot have a shard of its own (no memory: RLIMIT_AS,
   say): another thread's, whose counts the profile has, the two threads'
   increments of one counter at once possibly lost, which the profile says
   (single_threads); the last resort if there is none, whose counts are
   lost (the profile says it is truncated).  A warning either way.
   SHARDS_LOCK held.  */

static uint64_t *
shard_shared (void)
{
  int err = errno;
  if (!all_shards)
    {
      dsprof_writer_set_truncated ();
      dsprof_warn ("no memory for a thread's counter shard (%s): its counts "
                   "are lost", strerror (err));
      return last_resort;
    }
  uint64_t n = __atomic_load_n (&shared_threads, __ATOMIC_RELAXED);
  __atomic_store_n (&shared_threads, n ? n + 1 : 2, __ATOMIC_RELAXED);
  struct dsprof_file_header *h = __atomic_load_n (&seen_header, __ATOMIC_ACQUIRE);
  if (h)
    store_max (h, n ? n + 1 : 2);
  dsprof_warn ("no memory for a thread's counter shard (%s): it counts in "
               "another thread's, and increments of the two may be lost",
               strerror (err));
  return all_shards->base;
}

/* The calling thread's shard, taken now if it has none.  The callers block
   signals: a handler's counted code would otherwise come here again, and
   wait for the lock its thread holds.  */

static uint64_t *
shard_base (void)
{
  if (__dsprof_shard_v1)
    return __dsprof_shard_v1;
  int saved_errno = errno;
  pthread_once (&shard_key_once, shard_key_init);
  pthread_mutex_lock (&shards_lock);
  struct shard *s = all_shards;
  while (s && !s->free)
    s = s->next;
  if (s)
    s->free = 0;
  else
    s = shard_new ();
  uint64_t *base = s ? s->base : shard_shared ();
  pthread_mutex_unlock (&shards_lock);
  pthread_setspecific (shard_key, s ? s : &no_shard);
  __dsprof_shard_v1 = base;
  errno = saved_errno;
  return base;
}

/* Add OFF to the caches' offsets if it is not there, with LOAD, the
   offset of its second pointer (0: none), which starts out at SINK
   (SHARDS_LOCK held); 0 if there is no memory for it.  */

static int
cache_off_add (intptr_t off, intptr_t load, uint64_t *sink)
{
  size_t lo = 0, hi = ncache_offs;
  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      if (cache_offs[mid].off < off)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < ncache_offs && cache_offs[lo].off == off)
    return 1;
  if (ncache_offs == maxcache_offs)
    {
      struct cache_slot *v = pages_grow (cache_offs, &maxcache_offs,
                                         sizeof *v, 64);
      if (!v)
        return 0;
      cache_offs = v;
    }
  memmove (cache_offs + lo + 1, cache_offs + lo,
           (ncache_offs - lo) * sizeof *cache_offs);
  cache_offs[lo] = (struct cache_slot) { off, load, sink };
  ncache_offs++;
  return 1;
}

/* Add the cache of the thread at TP to the early ones (SHARDS_LOCK held);
   0 if there is no memory for it.  */

static int
early_add (char *tp, uint64_t **cache, uint64_t *counters)
{
  if (nearly == maxearly)
    {
      struct early *v = pages_grow (early, &maxearly, sizeof *v, 8);
      if (!v)
        return 0;
      early = v;
    }
  early[nearly++] = (struct early) { tp, cache, counters };
  return 1;
}

/* The place of the unit whose counters array is COUNTERS in the calling
   thread's shard, kept in the thread's cache *CACHE too, which is never
   NULL afterwards, and in *LOAD if not NULL: the code that calls this tests
   *CACHE at the entry of the functions that a thread may enter first, and
   only loads *LOAD (*CACHE if there is none) in the others
   (plugin/threads.cc).  Before the unit registered (its index, in
   COUNTERS[0], is 0: code that a preinit function calls) the thread counts
   into the unit's sink (*LOAD's value while *CACHE is NULL) or without one
   into the last resort's, and no file is made, until the unit registers
   (dsprof_shards_registered).  Without memory for the runtime's lists the
   thread counts into the last resort.  */

static uint64_t *
shard_unit (uint64_t *counters, uint64_t **cache, uint64_t **load)
{
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, &old);
  char *tp = thread_pointer ();
  uint64_t *sink = load ? *load : NULL;
  uint64_t index = __atomic_load_n (&counters[0], __ATOMIC_ACQUIRE);
  uint64_t *place = index ? shard_base () + index : sink ? sink : last_resort;
  pthread_mutex_lock (&shards_lock);
  if (index ? !cache_off_add ((char *) cache - tp,
                              load ? (char *) load - tp : 0, sink)
            : !early_add (tp, cache, counters))
    place = last_resort + index;
  *cache = place;
  if (load)
    *load = place;
  pthread_mutex_unlock (&shards_lock);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  return place;
}

DSPROF_HIDDEN uint64_t *
dsprof_shard_unit (uint64_t *counters, uint64_t **cache)
{
  return shard_unit (counters, cache, NULL);
}

DSPROF_HIDDEN uint64_t *
dsprof_shard_unit_2 (uint64_t *counters, uint64_t **cache, uint64_t **load)
{
  return shard_unit (counters, cache, load);
}

/* The unit whose counters array is COUNTERS, of N counters, registered with
   __dsprof_register_unit_thread_v2 at index FIRST: its sink, the N
   counters from COUNTERS' second page on, is mapped from a chunk of the
   profile, with the counts it holds already, so that what lands there is
   counted too.  */

void
dsprof_shards_sink (uint64_t *counters, uint32_t first, uint32_t n)
{
  pthread_mutex_lock (&shards_lock);
  struct sink *v = nsinks < maxsinks ? sinks
                   : pages_grow (sinks, &maxsinks, sizeof *v, 16);
  if (v)
    sinks = v;
  if (nsinks < maxsinks)
    sinks[nsinks++] = (struct sink) { counters, first, n };
  pthread_mutex_unlock (&shards_lock);
  if (chunk_map (counters + DSPROF_COUNTERS_PER_PAGE, first, n, 1) != 0)
    dsprof_warn ("cannot record the counts of a unit's sink: %s",
                 strerror (errno));
}

/* The registering thread's caches given the sink of the unit whose counters
   array is COUNTERS are cleared: its next counted function takes its place.
   (The unit's code is not running in that thread: it registers from a
   constructor.  Another thread's keep the sink, until it ends.)  */

void
dsprof_shards_registered (uint64_t *counters)
{
  char *tp = thread_pointer ();
  pthread_mutex_lock (&shards_lock);
  size_t n = 0;
  for (size_t i = 0; i < nearly; i++)
    if (early[i].counters != counters)
      early[n++] = early[i];
    else if (early[i].tp == tp)
      *early[i].cache = NULL;
  nearly = n;
  pthread_mutex_unlock (&shards_lock);
}

#if defined(__x86_64__) && defined(__LP64__)
/* The runtime calls of instrumented code (plugin/threads.cc) are asm
   statements that let the caller keep every register as it is: the entry
   points below save all the general registers and the vector and x87 state
   (XSAVE, or FXSAVE where the system has no XSAVE), call the C function
   whose address they put in %rax with the arguments the caller pushed (up
   to three), and restore everything but %rax, the result.  dsprof_call_saving_all
   aligns the stack for the call itself: a caller that calls nothing else
   need not keep it aligned.  XSAVE saves the x87, SSE, AVX and AVX-512
   state (mask 0xff, the first 2,688 bytes of its standard layout).  */
__asm__ (
"	.text\n"
"	.local	dsprof_xsave_area\n"
"	.comm	dsprof_xsave_area, 4, 4\n"
"	.p2align 4\n"
"	.globl	dsprof_call_saving_all\n"
"	.hidden	dsprof_call_saving_all\n"
"	.type	dsprof_call_saving_all, @function\n"
"dsprof_call_saving_all:\n"
"	.cfi_startproc\n"
"	push	%rbp\n"
"	.cfi_def_cfa_offset 16\n"
"	.cfi_offset %rbp, -16\n"
"	mov	%rsp, %rbp\n"
"	.cfi_def_cfa_register %rbp\n"
"	push	%rbx\n"
"	.cfi_offset %rbx, -24\n"
"	push	%rcx\n"
"	push	%rdx\n"
"	push	%rsi\n"
"	push	%rdi\n"
"	push	%r8\n"
"	push	%r9\n"
"	push	%r10\n"
"	push	%r11\n"
"	push	%rax\n"
"	push	$0\n"                       /* -88(%rbp): 1 once on the cold stack */
/* The thread's cold stack (COLD_STACK_BYTES, made on its first call), if
   no call of the thread is on it already: a signal handler that is the
   thread's first counted code may run on a small alternate stack, which
   the save area and the C code's calls would overflow.  Else (no memory,
   or a handler that interrupted a call) the stack it is on.  */
"	mov	dsprof_cold@gottpoff(%rip), %rcx\n"
"	cmpq	$0, %fs:8(%rcx)\n"
"	jne	2f\n"
"	mov	%fs:(%rcx), %rax\n"
"	test	%rax, %rax\n"
"	jnz	1f\n"
"	mov	$9, %eax\n"                /* mmap */
"	xor	%edi, %edi\n"
"	mov	$" COLD_STACK_STR ", %esi\n"
"	mov	$3, %edx\n"                /* PROT_READ | PROT_WRITE */
"	mov	$0x4022, %r10d\n"          /* MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE */
"	mov	$-1, %r8\n"
"	xor	%r9d, %r9d\n"
"	syscall\n"
"	cmp	$-4095, %rax\n"
"	jae	2f\n"
"	mov	dsprof_cold@gottpoff(%rip), %rcx\n"
"	add	$" COLD_STACK_STR ", %rax\n"
"	mov	%rax, %fs:(%rcx)\n"
"1:	movq	$1, %fs:8(%rcx)\n"
"	movq	$1, -88(%rbp)\n"
"	mov	%rax, %rsp\n"
/* The save area's size, bit 0 set for XSAVE: found once.  */
"2:\n"
"	mov	dsprof_xsave_area(%rip), %eax\n"
"	test	%eax, %eax\n"
"	jnz	2f\n"
"	mov	$1, %eax\n"
"	cpuid\n"
"	mov	$512, %eax\n"
"	bt	$27, %ecx\n"
"	jnc	1f\n"
"	mov	$13, %eax\n"
"	xor	%ecx, %ecx\n"
"	cpuid\n"
"	mov	$2688, %eax\n"
"	cmp	%eax, %ebx\n"
"	cmovb	%ebx, %eax\n"
"	or	$1, %eax\n"
"1:	mov	%eax, dsprof_xsave_area(%rip)\n"
"2:	mov	%eax, %ebx\n"
"	and	$-2, %eax\n"
"	sub	%rax, %rsp\n"
"	and	$-64, %rsp\n"
"	test	$1, %bl\n"
"	jz	3f\n"
"	xor	%eax, %eax\n"
"	mov	%rax, 512(%rsp)\n"
"	mov	%rax, 520(%rsp)\n"
"	mov	%rax, 528(%rsp)\n"
"	mov	%rax, 536(%rsp)\n"
"	mov	%rax, 544(%rsp)\n"
"	mov	%rax, 552(%rsp)\n"
"	mov	%rax, 560(%rsp)\n"
"	mov	%rax, 568(%rsp)\n"
"	mov	$0xff, %eax\n"
"	xor	%edx, %edx\n"
"	xsave	(%rsp)\n"
"	jmp	4f\n"
"3:	fxsave	(%rsp)\n"
"4:	mov	16(%rbp), %rdi\n"
"	mov	24(%rbp), %rsi\n"
"	mov	32(%rbp), %rdx\n"
"	call	*-80(%rbp)\n"
"	mov	%rax, -80(%rbp)\n"
"	test	$1, %bl\n"
"	jz	5f\n"
"	mov	$0xff, %eax\n"
"	xor	%edx, %edx\n"
"	xrstor	(%rsp)\n"
"	jmp	6f\n"
"5:	fxrstor	(%rsp)\n"
/* Off the cold stack, if on it: it is free again.  */
"6:	cmpq	$0, -88(%rbp)\n"
"	je	7f\n"
"	mov	dsprof_cold@gottpoff(%rip), %rcx\n"
"	movq	$0, %fs:8(%rcx)\n"
"7:	lea	-80(%rbp), %rsp\n"
"	pop	%rax\n"
"	pop	%r11\n"
"	pop	%r10\n"
"	pop	%r9\n"
"	pop	%r8\n"
"	pop	%rdi\n"
"	pop	%rsi\n"
"	pop	%rdx\n"
"	pop	%rcx\n"
"	pop	%rbx\n"
"	pop	%rbp\n"
"	.cfi_def_cfa %rsp, 8\n"
"	ret\n"
"	.cfi_endproc\n"
"	.size	dsprof_call_saving_all, .-dsprof_call_saving_all\n"
"	.p2align 4\n"
"	.globl	__dsprof_shard_thread_v1\n"
"	.type	__dsprof_shard_thread_v1, @function\n"
"__dsprof_shard_thread_v1:\n"
"	.cfi_startproc\n"
"	lea	dsprof_shard_thread(%rip), %rax\n"
"	jmp	dsprof_call_saving_all\n"
"	.cfi_endproc\n"
"	.size	__dsprof_shard_thread_v1, .-__dsprof_shard_thread_v1\n"
"	.p2align 4\n"
"	.globl	__dsprof_shard_unit_v1\n"
"	.type	__dsprof_shard_unit_v1, @function\n"
"__dsprof_shard_unit_v1:\n"
"	.cfi_startproc\n"
"	lea	dsprof_shard_unit(%rip), %rax\n"
"	jmp	dsprof_call_saving_all\n"
"	.cfi_endproc\n"
"	.size	__dsprof_shard_unit_v1, .-__dsprof_shard_unit_v1\n"
"	.p2align 4\n"
"	.globl	__dsprof_shard_unit_v2\n"
"	.type	__dsprof_shard_unit_v2, @function\n"
"__dsprof_shard_unit_v2:\n"
"	.cfi_startproc\n"
"	lea	dsprof_shard_unit_2(%rip), %rax\n"
"	jmp	dsprof_call_saving_all\n"
"	.cfi_endproc\n"
"	.size	__dsprof_shard_unit_v2, .-__dsprof_shard_unit_v2\n"
);

#define SHARD_THREAD dsprof_shard_thread
#else
#define SHARD_THREAD __dsprof_shard_thread_v1
#endif

/* The calling thread's shard, for code that adds its unit's index.  */

uint64_t *
SHARD_THREAD (void)
{
  if (__dsprof_shard_v1)
    return __dsprof_shard_v1;
  /* Before any unit registered (code that a preinit function calls) every
     unit's place is the sink, and the runtime is not set up to make a
     file.  */
  if (__atomic_load_n (&space_end, __ATOMIC_ACQUIRE) == DSPROF_SHARD_SINK)
    return last_resort;
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, &old);
  uint64_t *base = shard_base ();
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  return base;
}

void
dsprof_shards_fork_child (void)
{
  pthread_mutex_init (&shards_lock, NULL);
  struct shard *mine = NULL;
  for (struct shard *s = all_shards, *next; s; s = next)
    {
      next = s->next;
      if (s->base == __dsprof_shard_v1 && __dsprof_shard_v1)
        mine = s;
      else
        munmap (s->base, (size_t) s->resv * sizeof (uint64_t));
    }
  all_shards = mine;
  size_t n = 0;
  for (size_t i = 0; i < nearly; i++)
    if (early[i].tp == thread_pointer ())
      early[n++] = early[i];
  nearly = n;
  for (size_t i = 0; i < nsinks; i++)
    chunk_map (sinks[i].counters + DSPROF_COUNTERS_PER_PAGE, sinks[i].first,
               sinks[i].n, 0);
  if (mine)
    {
      mine->next = NULL;
      mine->free = 0;
      /* Failing that, the parent's counts stay under the thread's feet
         (they are not the child's file's).  */
      if (shard_map (mine->base, mine->resv))
        mine->end = space_end;
    }
}
