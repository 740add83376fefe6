/* repeat.c - strings recorded again and again, which the profile stores once
   per chunk (dsprof-format.h, section 4), for test.sh.

     repeat size same|new N L   take (s) N times with an L-byte string: the
                                same one, or one that differs from the
                                previous call's (its first bytes count calls)
     repeat values T            prints the values of seq () (below), one
                                "EVENT VALUE" line each, then runs seq () in
                                T threads at once

   seq () records long strings repeated, near-identical ones (one byte
   different at the start, the end, in the part cut off at DSPROF_STRMAX or
   in the part kept), a string cut and the same text whole, short strings
   (below DSPROF_STR_REF_MIN, at it, empty, NULL), a string after a thousand
   others may have evicted it from the recorder's table, thousands of
   repeats interleaved with other long strings across many chunk ends, and
   the same string as a parameter and a result, by dsprof_dim_str and as a
   formatter's text.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dsprof.h>

static volatile unsigned long sink;
static int printing;

struct blob
{
  const char *text;
};

DSPROF_EVENT void
take (const char *s)
{
  sink += s ? (unsigned char) s[0] : 0;
}

DSPROF_EVENT const char *
give (const char *s)
{
  return s;
}

DSPROF_EVENT int
shown (struct blob *b)
{
  return b->text[0] != 0;
}

static size_t
format_blob (const void *p, char *buf, size_t size)
{
  const struct blob *b = p;
  snprintf (buf, size, "%s", b->text);
  return strlen (b->text);
}

/* Record S as EVENT (take, give, note, shown), or print "EVENT S".  */
static void
use (const char *event, const char *s)
{
  if (printing)
    {
      printf ("%s %s\n", event, s ? s : "(null)");
      return;
    }
  if (strcmp (event, "take") == 0)
    take (s);
  else if (strcmp (event, "give") == 0)
    sink += give (s) == s;
  else if (strcmp (event, "note") == 0)
    {
      dsprof_id id = dsprof_start ("note");
      dsprof_dim_str ("text", s);
      dsprof_finish (id);
    }
  else
    {
      struct blob b = { s };
      sink += shown (&b);
    }
}

/* A string of N bytes C, NUL-terminated.  */
static char *
repeat (char c, size_t n)
{
  char *s = malloc (n + 1);
  if (!s)
    exit (2);
  memset (s, c, n);
  s[n] = 0;
  return s;
}

static void *
seq (void *arg)
{
  (void) arg;
  char *a = repeat ('a', 200), *t = repeat ('t', 1500), *f = repeat ('f', 1500);
  char *e = repeat ('t', 1024), *o = repeat ('o', 300);
  for (int i = 0; i < 3; i++)
    use ("take", a);
  a[0] = 'b';
  use ("take", a);
  a[0] = 'a';
  a[199] = 'z';
  use ("take", a);
  a[199] = 'a';
  use ("take", a);
  /* One byte different past DSPROF_STRMAX (1,024): the same value.  */
  use ("take", t);
  t[1400] = 'u';
  use ("take", t);
  t[1400] = 't';
  t[1023] = 'u';
  use ("take", t);
  t[1023] = 't';
  use ("take", t);
  /* The 1,024 bytes of T that are kept, whole: not T cut.  */
  use ("take", e);
  use ("take", t);
  use ("take", e);
  static const char *const shorts[] = { "abc", "abc", "abc", "abcdefg", "abcdefg",
                                        "abcdefgh", "abcdefgh", "abcdefgh", "",
                                        "", NULL, "abcdefgh" };
  for (size_t i = 0; i < sizeof shorts / sizeof *shorts; i++)
    use ("take", shorts[i]);
  /* A thousand others in between.  */
  char other[65];
  for (int i = 0; i < 1000; i++)
    {
      snprintf (other, sizeof other, "other-%05d-%052d", i, i);
      use ("take", other);
    }
  use ("take", a);
  /* Across many chunk ends.  */
  for (int i = 0; i < 3000; i++)
    {
      use ("take", a);
      snprintf (o, 12, "%011d", i);
      o[11] = 'o';
      use ("take", o);
    }
  use ("give", a);
  use ("give", t);
  use ("give", a);
  use ("note", a);
  use ("note", t);
  use ("shown", a);
  use ("shown", f);
  use ("shown", f);
  use ("take", a);
  free (a);
  free (t);
  free (f);
  free (e);
  free (o);
  return NULL;
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  dsprof_set_formatter ("b", format_blob);
  if (strcmp (mode, "size") == 0 && argc == 5)
    {
      int same = strcmp (argv[2], "same") == 0;
      long n = atol (argv[3]);
      char *s = repeat ('x', (size_t) atol (argv[4]));
      for (long i = 0; i < n; i++)
        {
          if (!same)
            for (int k = 0; k < 5; k++)
              s[k] = (char) ('0' + ((i >> (6 * k)) & 63));
          take (s);
        }
      free (s);
      return 0;
    }
  if (strcmp (mode, "values") == 0 && argc == 3)
    {
      int n = atoi (argv[2]);
      printing = 1;
      seq (NULL);
      fflush (stdout);
      printing = 0;
      pthread_t th[16];
      for (int i = 0; i < n && i < 16; i++)
        if (pthread_create (&th[i], NULL, seq, NULL))
          return 2;
      for (int i = 0; i < n && i < 16; i++)
        pthread_join (th[i], NULL);
      return 0;
    }
  fprintf (stderr, "usage: repeat size same|new N L | repeat values T\n");
  return 1;
}
