/* events.c - a call-heavy microbenchmark for the cost of dsprof's events
   (scripts/bench.sh, rows "events", "report_speed" and "profile_size").

     events MODE N

   calls one small function N times in a loop (MODE tree: N calls of a recursive
   function, each making 15 calls in a tree of depth 3 below it):

     none   void ev_none (void)                 no dimensions
     int2   void ev_int2 (int a, int b)         two integer dimensions
     str    void ev_str (const char *s)         one string dimension (8 bytes)
     str1000  ev_str with a string of 1,000 bytes (kept whole under the
            default DSPROF_STRMAX), for the cost of long strings: the same
            string every call, which the profile stores once per chunk
     str1000new  ev_str with a 1,000-byte string that differs from the
            previous call's (its first bytes count the calls), stored whole
            every call
     tree   int ev_tree (int depth)             nested records, for report speed
     clock  no call: two reads of the clock the recorder uses (the TSC on x86,
            else CLOCK_MONOTONIC), the least any timed Start/Finish pair costs

   The functions are marked DSPROF_EVENT, so with the plugin every call is a
   Start/Finish pair; without it (plain, -finstrument-functions, -pg for uftrace)
   they are ordinary calls.  noipa keeps GCC from inlining, cloning or removing
   them at any -O level, so each build makes the same N calls.  Prints the sum
   the functions computed, which every build must agree on.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dsprof.h>

static volatile unsigned long sink;

static inline unsigned long
clock_read (void)
{
#if defined(__x86_64__) || defined(__i386__)
  return (unsigned long) __builtin_ia32_rdtsc ();
#else
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (unsigned long) ts.tv_nsec;
#endif
}

DSPROF_EVENT __attribute__ ((noipa)) void
ev_none (void)
{
  sink++;
}

DSPROF_EVENT __attribute__ ((noipa)) void
ev_int2 (int a, int b)
{
  sink += (unsigned) (a ^ b);
}

DSPROF_EVENT __attribute__ ((noipa)) void
ev_str (const char *s)
{
  sink += (unsigned char) s[0];
}

DSPROF_EVENT __attribute__ ((noipa)) int
ev_tree (int depth)
{
  if (depth == 0)
    return 1;
  /* Not `return 1 + ev_tree (...) + ev_tree (...)`, which GCC's tail recursion
     elimination turns into one call and a loop in builds without the plugin.  */
  int a = ev_tree (depth - 1);
  sink += (unsigned) a;
  int b = ev_tree (depth - 1);
  sink += (unsigned) b;
  return 1 + a + b;
}

int
main (int argc, char **argv)
{
  static const char *const names[4] = { "constant", "variable", "addition", "multiply" };
  if (argc != 3)
    {
      fprintf (stderr, "usage: events none|int2|str|str1000|str1000new|tree|clock N\n");
      return 1;
    }
  const char *mode = argv[1];
  long n = atol (argv[2]);
  if (strcmp (mode, "none") == 0)
    for (long i = 0; i < n; i++)
      ev_none ();
  else if (strcmp (mode, "int2") == 0)
    for (long i = 0; i < n; i++)
      ev_int2 ((int) i, (int) (i >> 3));
  else if (strcmp (mode, "str") == 0)
    for (long i = 0; i < n; i++)
      ev_str (names[i & 3]);
  else if (strcmp (mode, "str1000") == 0)
    {
      static char text[1001];
      memset (text, 'x', 1000);
      for (long i = 0; i < n; i++)
        ev_str (text);
    }
  else if (strcmp (mode, "str1000new") == 0)
    {
      static char text[1001];
      memset (text, 'x', 1000);
      for (long i = 0; i < n; i++)
        {
          /* The call number in base 64, in the first five bytes.  */
          for (int k = 0; k < 5; k++)
            text[k] = (char) ('0' + ((i >> (6 * k)) & 63));
          ev_str (text);
        }
    }
  else if (strcmp (mode, "clock") == 0)
    for (long i = 0; i < n; i++)
      {
        sink += clock_read ();
        sink += clock_read ();
      }
  else if (strcmp (mode, "tree") == 0)
    for (long i = 0; i < n; i++)
      sink += (unsigned long) ev_tree (3);
  else
    {
      fprintf (stderr, "events: unknown mode %s\n", mode);
      return 1;
    }
  printf ("%lu\n", (unsigned long) sink);
  return 0;
}
