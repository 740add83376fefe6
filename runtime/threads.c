/* threads.c - what the runtime knows of the threads that run counted code.

   With update=single (dsprof-format.h, section 1) two threads that increment
   the same counter at once may lose one of the increments, and nothing in the
   counts shows it.  So each counted function that calls others tests the
   thread-local __dsprof_seen_v1 at entry (a load and a branch not taken;
   plugin/threads.cc), and the first time a thread gets there it calls
   __dsprof_seen_thread_v1, which counts the thread into the header's
   single_threads.  The report warns when that is more than one
   (docs/contract.md §3).  */

#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

void
dsprof_threads_header_init (struct dsprof_file_header *h)
{
  __atomic_store_n (&seen_header, h, __ATOMIC_RELEASE);
  store_max (h, __atomic_load_n (&seen_threads, __ATOMIC_RELAXED));
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

   A thread's first counted function finds __dsprof_shard_v1 NULL and calls
   __dsprof_shard_thread_v1, which takes a shard off the free list or adds a
   DSPROF_CHUNK_SHARD chunk to the profile (a hole but for its first page) and
   maps it.  A key destructor puts the shard back on the free list when the
   thread ends: the next thread adds its counts to those already there, which
   the reader sums anyway.  If the file cannot take a shard, the thread counts
   into anonymous memory (the profile says it is truncated).  */

DSPROF_API __thread uint64_t *__dsprof_shard_v1
  __attribute__ ((tls_model ("initial-exec")));

struct shard
{
  uint64_t *base;
  struct shard *next;           /* on all_shards */
  int free;
};

static struct shard *all_shards;
static pthread_mutex_t shards_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t shard_key;
static pthread_once_t shard_key_once = PTHREAD_ONCE_INIT;
#define SHARD_BYTES ((size_t) DSPROF_SHARD_COUNTERS * sizeof (uint64_t))

static void
shard_release (void *arg)
{
  struct shard *s = arg;
  pthread_mutex_lock (&shards_lock);
  s->free = 1;
  pthread_mutex_unlock (&shards_lock);
  __dsprof_shard_v1 = NULL;
}

static void
shard_key_init (void)
{
  pthread_key_create (&shard_key, shard_release);
}

/* Map a new shard of the profile at FIXED (or anywhere, if NULL); anonymous
   memory if the file cannot have it.  NULL only if even that fails.  */

static uint64_t *
shard_map (void *fixed)
{
  uint64_t size = DSPROF_PAGE + SHARD_BYTES;
  uint64_t off = dsprof_writer_begin_sparse (size, DSPROF_PAGE);
  if (off)
    {
      struct dsprof_shard_chunk ch;
      memset (&ch, 0, sizeof ch);
      ch.chunk.kind = DSPROF_CHUNK_SHARD;
      ch.chunk.size = size;
      ch.ncounters = DSPROF_SHARD_COUNTERS;
      int err = dsprof_writer_write (off, &ch, sizeof ch);
      void *p = err ? NULL : dsprof_writer_map (off + DSPROF_PAGE, SHARD_BYTES,
                                                fixed, 1);
      if (p)
        {
          dsprof_writer_commit (off, size);
          return p;
        }
      dsprof_writer_abort (err ? err : errno);
    }
  else
    dsprof_writer_set_truncated ();
  void *p = mmap (fixed, SHARD_BYTES, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
                  | (fixed ? MAP_FIXED : 0), -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

DSPROF_API uint64_t *
__dsprof_shard_thread_v1 (void)
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
  uint64_t *base = s ? s->base : shard_map (NULL);
  if (!s && base && (s = malloc (sizeof *s)))
    {
      s->base = base;
      s->free = 0;
      s->next = all_shards;
      all_shards = s;
    }
  pthread_mutex_unlock (&shards_lock);
  if (!base)
    {
      /* No memory at all: the thread shares the last resort, whose
         increments may be lost and are not in the profile.  */
      static uint64_t last_resort[DSPROF_SHARD_COUNTERS];
      base = last_resort;
    }
  if (s)
    pthread_setspecific (shard_key, s);
  __dsprof_shard_v1 = base;
  errno = saved_errno;
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
        {
          munmap (s->base, SHARD_BYTES);
          free (s);
        }
    }
  all_shards = mine;
  if (mine)
    {
      mine->next = NULL;
      mine->free = 0;
      /* Failing that, the parent's counts stay under the thread's feet
         (they are not the child's file's).  */
      shard_map (mine->base);
    }
}
