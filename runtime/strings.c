/* strings.c - the text the event streams carry: the program's strings read
   without faulting, the dimensions' formatters, and the interned names
   (dimension names, manual event types) that NAME ops define.

   A string value goes into the stream with a head (its length and truncated
   bit), or, if the thread's current chunk defined the same text before, as a
   reference to it (dsprof-format.h, section 4): the table of recent strings,
   struct dsprof_strtab, is part of the thread's state (recorder.c), reset with
   each new chunk, and the text compared with is the chunk's own, still
   mapped.

   This file calls nothing of the recorder's: util.c's signal handling for its
   SIGSEGV handler, the format's encoders, and the writer's SIGBUS handler
   calls dsprof_strings_fault.  Interning takes the names lock (lifecycle.c's
   lock order: after the sites lock, which sites.c holds while it interns).  */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- names: dimension names and manual event types, interned ---------------- */

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

/* ---- formatters ---------------------------------------------------------------- */

typedef size_t (*formatter) (const void *p, char *buf, size_t size);

/* formatters[id] for dimension name id; grown like `names`.  */
static formatter *formatters;
static uint32_t formatters_size;

static formatter
formatter_for (uint32_t name_id)
{
  formatter *f = __atomic_load_n (&formatters, __ATOMIC_ACQUIRE);
  if (!f || name_id >= __atomic_load_n (&formatters_size, __ATOMIC_ACQUIRE))
    return NULL;
  return __atomic_load_n (&f[name_id], __ATOMIC_RELAXED);
}

DSPROF_API void
dsprof_set_formatter (const char *dim, size_t (*fmt) (const void *, char *, size_t))
{
  if (!dim)
    return;
  uint32_t id = dsprof_strings_intern (dim);
  if (!id)
    return;
  pthread_mutex_lock (&names_lock);
  if (id >= formatters_size)
    {
      uint32_t nsize = formatters_size ? formatters_size : 64;
      while (nsize <= id)
        nsize *= 2;
      formatter *nf = calloc (nsize, sizeof *nf);
      if (nf)
        {
          if (formatters)
            memcpy (nf, formatters, formatters_size * sizeof *nf);
          __atomic_store_n (&formatters, nf, __ATOMIC_RELEASE);
          __atomic_store_n (&formatters_size, nsize, __ATOMIC_RELEASE);
        }
    }
  if (id < formatters_size)
    __atomic_store_n (&formatters[id], fmt, __ATOMIC_RELAXED);
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

static size_t
read_string (char *buf, const char *s, size_t n)
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

/* The bytes of the N > LIMIT bytes at S to keep when a string is cut at
   LIMIT: LIMIT, or fewer so as not to split a UTF-8 character.  The cut moves
   back to the lead byte of a sequence only where the bytes are one: S[LIMIT]
   continues it (10xxxxxx), and its lead byte, at most 3 bytes before LIMIT
   with only continuation bytes after it, starts a sequence longer than what
   is kept of it.  Other bytes (Latin-1, binary) are cut at LIMIT.  */

static size_t
utf8_cut (const unsigned char *s, size_t limit)
{
  if ((s[limit] & 0xc0) != 0x80)
    return limit;
  size_t i = limit;
  while (i > 0 && limit - i < 3 && (s[i - 1] & 0xc0) == 0x80)
    i--;
  if (i == 0)
    return limit;
  unsigned c = s[i - 1];
  size_t need = c >= 0xc2 && c <= 0xdf ? 2
                : c >= 0xe0 && c <= 0xef ? 3
                : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  return need > limit - (i - 1) ? i - 1 : limit;
}

/* put_head for a head of more than one byte: out of line, the hooks' strings
   are mostly short.  */

static __attribute__ ((noinline)) unsigned char *
put_long_head (unsigned char *p, size_t len, int truncated, uint64_t head)
{
  size_t h = 1;
  for (uint64_t x = head >> 7; x; x >>= 7)
    h++;
  memmove (p + h, p + 1, len);
  dsprof_encode_str_head (p, len, truncated);
  return p + h + len;
}

/* Finish the STR value at P whose LEN bytes of text are at P + 1 already,
   where a head of one byte leaves them: encode its head, moving the text
   after it if the head takes more (LEN of 63 bytes or more).  Return the
   value's end.  */

static inline unsigned char *
put_head (unsigned char *p, size_t len, int truncated)
{
  uint64_t head = ((uint64_t) len << 1 | (truncated != 0)) + 1;
  if (unlikely (head >= 0x80))
    return put_long_head (p, len, truncated, head);
  *p = (unsigned char) head;
  return p + 1 + len;
}

/* The hash of the N >= 8 bytes of text at S that picks a string's set and
   key bits, a word at a time: all of them up to 128 bytes, else 16 words spread
   over them, the first and the last among them, so that a long string costs
   what a short one does.  Only a hint: put_defined compares the bytes.  */

static inline uint64_t
str_hash (const unsigned char *s, size_t n)
{
  const uint64_t k = 0x9e3779b97f4a7c15u;
  uint64_t h = n * k, w;
  /* (h ^ w) * k carries every bit of w up to the top bits, which pick the
     set.  */
  if (n > 128)
    {
      size_t step = (n - 8) / 15;
      for (size_t i = 0; i < 15; i++)
        {
          memcpy (&w, s + i * step, 8);
          h = (h ^ w) * k;
        }
      memcpy (&w, s + n - 8, 8);
      return (h ^ w) * k;
    }
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    {
      memcpy (&w, s + i, 8);
      h = (h ^ w) * k;
    }
  if (i < n)
    {
      memcpy (&w, s + n - 8, 8);   /* the last 8, some hashed already */
      h = (h ^ w) * k;
    }
  return h;
}

/* Whether the LEN >= 8 bytes of text at Q and at S are the same.  Up to 16
   bytes as two words, overlapping: no call.  */

static inline int
same_text (const unsigned char *q, const unsigned char *s, size_t len)
{
  if (len > 16)
    return memcmp (q, s, len) == 0;
  uint64_t a, b, c, d;
  memcpy (&a, q, 8);
  memcpy (&b, s, 8);
  memcpy (&c, q + len - 8, 8);
  memcpy (&d, s + len - 8, 8);
  return a == b && c == d;
}

/* Finish the STR value at P whose LEN bytes of text are at P + 1 already,
   TRUNCATED or not, as put_head does, if it defines a string of the chunk
   (dsprof-format.h, section 4) and the thread's table does not find the
   same value (length, truncated bit and text, byte for byte) among those
   the chunk defined before; if it does, a reference to that one instead.  A
   string not found takes the first slot of its set, whose string moves to
   the second (one evicted from the table is written in full again when it
   comes back).  The copy compared with lies in the current chunk, still
   mapped: a new chunk starts with no strings (reserve), as readers read
   each chunk alone.  Return the value's end.  */

static unsigned char *
put_defined (struct dsprof_strtab *t, unsigned char *p, size_t len,
             int truncated)
{
  _Static_assert (DSPROF_STR_SETS == 128, "the set is the hash's top 7 bits");
  _Static_assert (DSPROF_STR_MAX < 1u << 17, "a key holds len << 1 | truncated");
  uint64_t h = str_hash (p + 1, len);
  struct dsprof_str_slot *set = t->slots[h >> (64 - 7)];
  uint32_t lt = (uint32_t) len << 1 | (truncated != 0);
  uint32_t key = lt << 14 | (uint32_t) (h >> 43 & 0x3fff);
  /* The bytes of the head, which the key's LT determines.  */
  size_t n = 1 + (lt + 1 >= 0x80) + (lt + 1 >= 0x4000);
  /* A slot's value lies before P, and is as long as this one if its key is
     KEY: the bytes compared are in the chunk.  */
  for (int w = 0; w < 2; w++)
    if (set[w].off && set[w].key == key
        && same_text (t->base + set[w].off - 1 + n, p + 1, len))
      return dsprof_encode_str_ref (p, set[w].k);
  set[1] = set[0];
  set[0].off = (uint32_t) (p - t->base) + 1;
  set[0].k = t->n++;
  set[0].key = key;
  return put_head (p, len, truncated);
}

/* put_head, or put_defined for a text long enough to define a string.  */

static inline unsigned char *
put_text (struct dsprof_strtab *t, unsigned char *p, size_t len, int truncated)
{
  if (len < DSPROF_STR_REF_MIN)
    return put_head (p, len, truncated);
  return put_defined (t, p, len, truncated);
}

/* put_head for the LEN bytes at P + 1 read of a text, kept whole if LEN is
   within LIMIT, else cut there (utf8_cut) and marked truncated; or a
   reference (put_text).  */

static inline unsigned char *
put_kept (struct dsprof_strtab *t, unsigned char *p, size_t len, size_t limit)
{
  int truncated = len > limit;
  if (truncated)
    len = utf8_cut (p + 1, limit);
  return put_text (t, p, len, truncated);
}

/* Encode the program's string S as a STR value at P: at most BOUND bytes of
   it (the parameter that bounds it, README "Annotating events"), up to its
   NUL, DSPROF_STRMAX of them (cut by utf8_cut) and "..." if it is longer;
   what could be read of it and "..." if it becomes unreadable,
   "(unreadable)" if none of it can be.

   The bytes are read straight into the stream, after a one-byte head (no
   buffer on the stack, whatever DSPROF_STRMAX is): at most DSPROF_STRMAX + 1
   of them, the one past the limit telling a longer string.  The room the
   event reserved covers them (MAX_STR_VALUE); nothing is published before
   the event is whole.  */

unsigned char *
dsprof_put_str (struct dsprof_strtab *t, unsigned char *p, const char *s,
                uint64_t bound)
{
  if (!s)
    return dsprof_encode_uleb (p, 0);
  size_t limit = dsprof_str_max ();
  char *buf = (char *) p + 1;
  size_t want = bound <= limit ? (size_t) bound : limit + 1;
  size_t got = read_string (buf, s, want);
  size_t len = got && !buf[got - 1] ? got - 1 : got;
  if (len == got && got < want)
    {
      /* Unreadable from byte GOT on.  */
      if (got == 0)
        {
          static const char unreadable[] = "(unreadable)";
          memcpy (buf, unreadable, sizeof unreadable - 1);
          return put_text (t, p, sizeof unreadable - 1, 0);
        }
      return put_text (t, p, got, 1);
    }
  /* The NUL, the bound, or more than the limit.  */
  return put_kept (t, p, len, limit);
}

/* Encode value V of TYPE for dimension NAME_ID.  */

unsigned char *
dsprof_put_value (struct dsprof_strtab *t, unsigned char *p, int type,
                  uint64_t v, uint32_t name_id)
{
  switch (type)
    {
    case DSPROF_DIM_STR:
      return dsprof_put_str (t, p, (const char *) (uintptr_t) v, UINT64_MAX);
    case DSPROF_DIM_PTR:
      {
        formatter f = name_id ? formatter_for (name_id) : NULL;
        if (f && v)
          {
            /* The formatter writes straight into the stream, as put_str
               reads: after the text marker and a one-byte head, at most
               DSPROF_STRMAX + 2 bytes with its NUL (MAX_STR_VALUE).  */
            size_t limit = dsprof_str_max (), size = limit + 2;
            *p++ = 1;
            char *buf = (char *) p + 1;
            size_t n = f ((const void *) (uintptr_t) v, buf, size);
            if (n >= size)
              n = size - 1;
            return put_kept (t, p, strnlen (buf, n), limit);
          }
        return dsprof_encode_number (p, type, v);
      }
    default:
      return dsprof_encode_number (p, type, v);
    }
}

