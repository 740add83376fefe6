/* strmax.c - strings longer than the 64 bytes dsprof once kept, under the
   DSPROF_STRMAX test.sh sets.

     strmax rows    query (sql) with two 200-byte statements that differ only
                    from byte 151 on, then the first again; query with 2,000
                    bytes of 'q'; echo (s) returning its 2,000-byte string;
                    tagged () adding those 2,000 bytes with dsprof_dim_str;
                    shown (b) of a struct whose formatter writes 3,000 'f's
     strmax utf8    text (s) with: "abcdefg" then a 2-byte character; "abcdef"
                    then a 3-byte and a 4-byte one; "abcde" then a 3-byte one
                    (8 bytes, whole); "abcdefg" then Latin-1 0xe9 and "xyz";
                    "abcdefg" then two stray continuation bytes 0x80; shown (b)
                    whose formatter writes "abcdefg" then a 2-byte character
     strmax max     text (s) with 70,000 bytes of 'm'
     strmax many N  echo (s) N times with 1,000 bytes of 'n' (then its number
                    in 4 digits): Starts and Finishes with long strings across
                    many chunk ends

   Prints the number of calls.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dsprof.h>

struct blob
{
  const char *text;
};

DSPROF_EVENT int
query (const char *sql)
{
  return sql[0] != 0;
}

DSPROF_EVENT const char *
echo (const char *s)
{
  return s;
}

DSPROF_EVENT int
text (const char *s)
{
  return s[0] != 0;
}

DSPROF_EVENT int
shown (struct blob *b)
{
  return b->text[0] != 0;
}

static const char *extra;

DSPROF_EVENT int
tagged (void)
{
  dsprof_dim_str ("extra", extra);
  return 1;
}

/* The formatter of shown's dim: the blob's text, cut to SIZE - 1 bytes.  */
static size_t
format_blob (const void *p, char *buf, size_t size)
{
  const struct blob *b = p;
  size_t n = strlen (b->text);
  snprintf (buf, size, "%s", b->text);
  return n;
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

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  long calls = 0;
  dsprof_set_formatter ("b", format_blob);
  if (strcmp (mode, "rows") == 0)
    {
      char *a = repeat ('s', 200), *b = repeat ('s', 200);
      memcpy (a, "SELECT ", 7);
      memcpy (b, "SELECT ", 7);
      a[150] = 'A';
      b[150] = 'B';
      calls += query (a) + query (b) + query (a);
      char *q = repeat ('q', 2000);
      calls += query (q);
      calls += echo (q) == q;
      extra = q;
      calls += tagged ();
      char *fs = repeat ('f', 3000);
      struct blob f = { fs };
      calls += shown (&f);
      free (a);
      free (b);
      free (q);
      free (fs);
    }
  else if (strcmp (mode, "utf8") == 0)
    {
      static const char *const s[] = {
        "abcdefg\xc3\xa9",              /* é at 7..8: cut at 7 */
        "abcdef\xe2\x82\xac",           /* € at 6..8: cut at 6 */
        "abcdef\xf0\x9f\x98\x80",       /* U+1F600 at 6..9: cut at 6 */
        "abcde\xe2\x82\xac",            /* € at 5..7: 8 bytes, whole */
        "abcdefg\xe9xyz",               /* Latin-1: cut at 8 */
        "abcdefg\x80\x80",              /* no sequence: cut at 8 */
      };
      for (size_t i = 0; i < sizeof s / sizeof *s; i++)
        calls += text (s[i]);
      struct blob u = { "abcdefg\xc3\xa9" };
      calls += shown (&u);
    }
  else if (strcmp (mode, "long") == 0)
    {
      /* Statements longer than any fixed buffer of the report's, differing
         only near their end.  */
      char *a = repeat ('s', 5000), *b = repeat ('s', 5000);
      a[4500] = 'A';
      b[4500] = 'B';
      calls += query (a) + query (b) + query (a);
      free (a);
      free (b);
    }
  else if (strcmp (mode, "max") == 0)
    {
      char *m = repeat ('m', 70000);
      calls += text (m);
      free (m);
    }
  else if (strcmp (mode, "many") == 0 && argc > 2)
    {
      long n = atol (argv[2]);
      char *s = repeat ('n', 1004);
      for (long i = 0; i < n; i++)
        {
          snprintf (s + 1000, 5, "%04ld", i % 10000);
          calls += echo (s) == s;
        }
      free (s);
    }
  else
    {
      fprintf (stderr, "usage: strmax rows|utf8|max|many N\n");
      return 1;
    }
  printf ("%ld\n", calls);
  return 0;
}
