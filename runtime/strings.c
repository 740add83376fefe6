/* strings.c - the text the event streams carry, out of line: the program's
   strings read without faulting (dsprof_read_string), the dimensions'
   formatters (dsprof_set_formatter), and the interned names (dimension
   names, manual event types) that NAME ops define.  Encoding a value into a
   stream is strval.h's, inline in the recorder.

   A char * dimension need not point at a NUL-terminated string: its bytes
   are read by dsprof_read_string, which a SIGSEGV handler (installed with
   the first read; the writer's SIGBUS handler does the same through
   dsprof_strings_fault) sends back to the reader at the first fault.

   This file calls nothing of the recorder's or the writer's: util.c's signal
   handling only.  Interning takes the names lock (lifecycle.c's lock order:
   after the sites lock, which sites.c holds while it interns).  */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- DSPROF_STRMAX ------------------------------------------------------ */

/* Set once by dsprof_strings_init (internal.h); read with
   dsprof_str_max ().  */
uint32_t dsprof_str_limit = DSPROF_STR_DEFAULT;

/* The bytes of a string the recorder keeps: DSPROF_STRMAX, a decimal number
   from DSPROF_STR_MIN to DSPROF_STR_MAX; unset or empty, the default; anything
   else, the default and a warning.  */

static uint32_t
env_strmax (void)
{
  const char *v = getenv (DSPROF_ENV_STRMAX);
  if (!v || !*v)
    return DSPROF_STR_DEFAULT;
  uint64_t n = 0;
  const char *p = v;
  for (; *p >= '0' && *p <= '9' && n <= DSPROF_STR_MAX; p++)
    n = n * 10 + (uint64_t) (*p - '0');
  if (!*p && n >= DSPROF_STR_MIN && n <= DSPROF_STR_MAX)
    return (uint32_t) n;
  dsprof_warn ("%s='%.64s' is not a number of bytes from %u to %u: strings "
               "keep %u bytes", DSPROF_ENV_STRMAX, v, DSPROF_STR_MIN,
               DSPROF_STR_MAX, DSPROF_STR_DEFAULT);
  return DSPROF_STR_DEFAULT;
}

/* Read DSPROF_STRMAX, once, at the recorder's start-up.  */

void
dsprof_strings_init (void)
{
  __atomic_store_n (&dsprof_str_limit, env_strmax (), __ATOMIC_RELAXED);
}

/* ---- names: dimension names and manual event types, interned ------------ */

static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static const char **names;        /* id -> text; id 0 unused */
static uint32_t nnames, names_size;
static uint32_t *name_hash;       /* open addressing: slot -> id, 0 = empty */
static uint32_t hash_size;

static uint32_t
hash_str (const char *s)
{
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 16777619u;
  return h;
}

/* The id of name S, interned on first use; 0 if memory ran out.  */

uint32_t
dsprof_strings_intern (const char *s)
{
  pthread_mutex_lock (&names_lock);
  uint32_t id = 0;
  if (2 * (nnames + 1) >= hash_size)
    {
      uint32_t nsize = hash_size ? 2 * hash_size : 256;
      uint32_t *nh = calloc (nsize, sizeof *nh);
      if (!nh)
        goto out;
      for (uint32_t i = 1; i <= nnames; i++)
        {
          uint32_t h = hash_str (names[i]) & (nsize - 1);
          while (nh[h])
            h = (h + 1) & (nsize - 1);
          nh[h] = i;
        }
      free (name_hash);
      name_hash = nh;
      hash_size = nsize;
    }
  uint32_t h = hash_str (s) & (hash_size - 1);
  for (; name_hash[h]; h = (h + 1) & (hash_size - 1))
    if (strcmp (names[name_hash[h]], s) == 0)
      {
        id = name_hash[h];
        goto out;
      }
  if (nnames + 2 > names_size)
    {
      /* Readers index `names` without the lock: never free an old array.  */
      uint32_t nsize = names_size ? 2 * names_size : 256;
      const char **nn = calloc (nsize, sizeof *nn);
      if (!nn)
        goto out;
      if (names)
        memcpy (nn, names, (nnames + 1) * sizeof *nn);
      __atomic_store_n (&names, nn, __ATOMIC_RELEASE);
      names_size = nsize;
    }
  char *copy = strdup (s);
  if (!copy)
    goto out;
  id = ++nnames;
  names[id] = copy;
  name_hash[h] = id;
out:
  pthread_mutex_unlock (&names_lock);
  return id;
}

/* The text of name ID, which the caller had interned.  Without the lock:
   an old array is never freed, and ID's entry was stored before the id was
   returned to anyone.  */

const char *
dsprof_strings_name (uint32_t id)
{
  return __atomic_load_n (&names, __ATOMIC_ACQUIRE)[id];
}

/* The names lock, around fork (lifecycle.c); made anew in the child.  */

void
dsprof_strings_lock (void)
{
  pthread_mutex_lock (&names_lock);
}

void
dsprof_strings_unlock (void)
{
  pthread_mutex_unlock (&names_lock);
}

void
dsprof_strings_fork_child (void)
{
  pthread_mutex_init (&names_lock, NULL);
}

/* ---- formatters --------------------------------------------------------- */

/* formatters[id] for dimension name id (internal.h); grown like `names`.  */
dsprof_formatter *dsprof_formatters;
uint32_t dsprof_formatters_size;

DSPROF_API void
dsprof_set_formatter (const char *dim, size_t (*fmt) (const void *, char *, size_t))
{
  if (!dim)
    return;
  uint32_t id = dsprof_strings_intern (dim);
  if (!id)
    return;
  pthread_mutex_lock (&names_lock);
  if (id >= dsprof_formatters_size)
    {
      uint32_t nsize = dsprof_formatters_size ? dsprof_formatters_size : 64;
      while (nsize <= id)
        nsize *= 2;
      dsprof_formatter *nf = calloc (nsize, sizeof *nf);
      if (nf)
        {
          if (dsprof_formatters)
            memcpy (nf, dsprof_formatters, dsprof_formatters_size * sizeof *nf);
          __atomic_store_n (&dsprof_formatters, nf, __ATOMIC_RELEASE);
          __atomic_store_n (&dsprof_formatters_size, nsize, __ATOMIC_RELEASE);
        }
    }
  if (id < dsprof_formatters_size)
    __atomic_store_n (&dsprof_formatters[id], fmt, __ATOMIC_RELAXED);
  pthread_mutex_unlock (&names_lock);
}


/* ---- the program's strings ------------------------------------------------

   A char * dimension need not point at a NUL-terminated string: a lexer's
   (p, end) over a buffer without NUL, a pointer to the last bytes of a mapping,
   a stale pointer.  Its bytes are read by read_string, which stops at the
   first fault: a SIGSEGV handler (installed with the first string read; the
   writer's SIGBUS handler does the same) takes a fault of the calling thread's
   read back to it by __builtin_longjmp, and hands any other fault or signal to
   the disposition it replaced.  A read costs a __builtin_setjmp, no system
   call: `events str` (bench/events.c) ran 387 instructions per call under
   callgrind, 307 when strings were read unguarded (350 since they are read
   straight into the stream, put_str); process_vm_readv on our own pid, which
   needs no handler, costs 1.8 us per call here, 50 events' worth.  */

/* The calling thread's string read in progress: where to go back to on a
   fault in [lo, hi); env is NULL when there is none.  */
struct reading
{
  void **env;                   /* a __builtin_setjmp buffer */
  uintptr_t lo, hi;
};
static __thread struct reading reading __attribute__ ((tls_model ("initial-exec")));
static struct sigaction old_segv;
static pthread_once_t segv_once = PTHREAD_ONCE_INIT;
static int segv_installed;

void
dsprof_strings_fault (const siginfo_t *si)
{
  void **env = reading.env;
  if (!env || !si || si->si_code <= 0
      || (uintptr_t) si->si_addr - reading.lo >= reading.hi - reading.lo)
    return;
  /* The handler's signal stays blocked past a jump out of it: unblock it, as
     returning would have (it was not blocked when the read faulted).  */
  sigset_t set;
  sigemptyset (&set);
  sigaddset (&set, si->si_signo);
  pthread_sigmask (SIG_UNBLOCK, &set, NULL);
  reading.env = NULL;
  __builtin_longjmp (env, 1);
}

static void
strings_segv (int sig, siginfo_t *si, void *ctx)
{
  dsprof_strings_fault (si);
  dsprof_signal_chain (sig, &old_segv, si, ctx);
}

static void
install_segv (void)
{
  dsprof_signal_install (SIGSEGV, strings_segv, &old_segv);
  __atomic_store_n (&segv_installed, 1, __ATOMIC_RELEASE);
}

/* Copy the N bytes at the program's address SRC to BUF as
   dsprof_read_string reads a string, for the dimensions computed from the
   program's data (dimread.c).  Return 1, or 0 if a byte of them is unreadable.  The state
   of a read this one interrupts (a signal handler's hook) is put back.  */

int
dsprof_read_bytes (void *buf, uintptr_t src, size_t n)
{
  if (unlikely (!__atomic_load_n (&segv_installed, __ATOMIC_ACQUIRE)))
    pthread_once (&segv_once, install_segv);
  void **volatile saved_env = reading.env;
  volatile uintptr_t saved_lo = reading.lo, saved_hi = reading.hi;
  void *env[5];
  volatile int ok = 0;
  if (__builtin_setjmp (env))
    goto out;
  reading.env = NULL;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  reading.lo = src;
  reading.hi = src + n;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  reading.env = env;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  memcpy (buf, (const void *) src, n);
  ok = 1;
out:
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  reading.env = NULL;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  reading.lo = saved_lo;
  reading.hi = saved_hi;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  reading.env = saved_env;
  return ok;
}

/* Copy the bytes of the program's string S up to and with its NUL, at most N
   of them, to BUF, as memccpy would (memchr and memcpy, which AddressSanitizer
   checks in a sanitized program).  Return how many were copied.  */

static size_t
copy_string (char *buf, const char *s, size_t n)
{
  const char *nul = memchr (s, 0, n);
  size_t k = nul ? (size_t) (nul - s) + 1 : n;
  memcpy (buf, s, k);
  return k;
}

/* Copy at most N bytes of the program's string S to BUF, up to and with its
   NUL.  Return how many were copied: fewer than N and no NUL where S becomes
   unreadable.  A fault can only come at a page boundary: S's bytes are copied
   page by page (the rest of S's first page, then whole pages), and a fault
   returns the bytes of the pages copied before it.  */

size_t
dsprof_read_string (char *buf, const char *s, size_t n)
{
  if (unlikely (!__atomic_load_n (&segv_installed, __ATOMIC_ACQUIRE)))
    pthread_once (&segv_once, install_segv);
  size_t first = DSPROF_PAGE - ((uintptr_t) s & (DSPROF_PAGE - 1));
  if (first > n)
    first = n;
  volatile size_t done = 0;
  void *env[5];
  if (__builtin_setjmp (env))
    return done;
  reading.lo = (uintptr_t) s;
  reading.hi = (uintptr_t) s + n;
  reading.env = env;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  size_t k = copy_string (buf, s, first);
  /* No NUL in the first page's bytes (K of them, the last not a NUL) and
     more wanted: the next pages.  */
  if (k == first)
    while (k < n && buf[k - 1])
      {
        done = k;
        __atomic_signal_fence (__ATOMIC_SEQ_CST);
        size_t step = n - k < DSPROF_PAGE ? n - k : DSPROF_PAGE;
        k += copy_string (buf + k, s + k, step);
      }
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  reading.env = NULL;
  return k;
}
