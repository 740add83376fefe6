/* strings.c - char * parameters that are not NUL-terminated strings.

     lex (p, end)       a lexer's window [p, end) of a malloc'd buffer
                        holding "let x = 42;" without a NUL: the whole
                        buffer, the token "x", an empty window at the end;
                        then a window whose end lies before p, of a string
                        with a NUL (read up to it)
     take (s, len)      the 100 bytes of a buffer of 'a's without a NUL,
                        then "abcdef" with len 3, then with len -1 (no
                        bound: up to the NUL)
     name (s)           an unbounded string: the last 2 bytes ("ok") of
                        three pages followed by a PROT_NONE page, then the
                        first byte of that page; then the last 602 bytes
                        and the last 9,002 bytes of the three pages (600 and
                        9,000 'z's, then "ok"), more than the default
                        DSPROF_STRMAX of 1,024 bytes and across pages: read
                        up to the limit, or up to the PROT_NONE page under
                        a larger limit

   Prints the sum of the results (119).  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <dsprof.h>

DSPROF_EVENT int
lex (const char *p, const char *end)
{
  return p <= end ? (int) (end - p) : 0;
}

DSPROF_EVENT int
take (const char *s, int len)
{
  return len > 0 && s[0] ? len : 0;
}

DSPROF_EVENT int
name (const char *s)
{
  (void) s;
  return 1;
}

int
main (void)
{
  static const char text[] = "let x = 42;";
  size_t n = sizeof text - 1;
  char *buf = malloc (n);
  memcpy (buf, text, n);
  long sum = lex (buf, buf + n) + lex (buf + 4, buf + 5) + lex (buf + n, buf + n);
  free (buf);
  char nul[] = "with a NUL";
  sum += lex (nul + 5, nul);

  char *as = malloc (100);
  memset (as, 'a', 100);
  static const char abc[] = "abcdef";
  sum += take (as, 100) + take (abc, 3) + take (abc, -1);
  free (as);

  long page = sysconf (_SC_PAGESIZE);
  char *map = mmap (NULL, 4 * page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED || mprotect (map + 3 * page, page, PROT_NONE) != 0)
    return 2;
  char *end = map + 3 * page;
  memset (end - 9002, 'z', 9000);
  memcpy (end - 2, "ok", 2);
  sum += name (end - 2) + name (end);
  sum += name (end - 602) + name (end - 9002);
  printf ("%ld\n", sum);
  return 0;
}
