/* bytes.c - an event whose string dimension holds every byte value and the
   malformed UTF-8 sequences: word (s) is called with the bytes 1..255 in
   chunks of 60 (the runtime records 64 at most), then with a stray byte pair,
   a cut sequence, an encoded surrogate, an overlong '/', a 5-byte lead, and a
   well-formed "café €" for contrast.  All inside one event of a function
   named with 'x' and 150 'é' (301 bytes), too long for its box in html's
   icicle graph, whose label is then cut.  Prints the number of calls (11).  */
#include <stdio.h>
#include <string.h>

#include <dsprof.h>

DSPROF_EVENT int
word (const char *s)
{
  return (int) strlen (s);
}

DSPROF_EVENT static int
xéééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé (void)
{
  char chunk[61];
  int calls = 0;
  for (int c = 1; c < 256; c += 60)
    {
      int n = 0;
      for (int k = c; k < c + 60 && k < 256; k++)
        chunk[n++] = (char) k;
      chunk[n] = '\0';
      word (chunk);
      calls++;
    }
  static const char *const bad[] = {
    "\xff\xfe bytes", "cut \xe2\x82", "surrogate \xed\xa0\x80", "overlong \xc0\xaf",
    "five \xf8\x88\x80\x80\x80", "caf\xc3\xa9 \xe2\x82\xac",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      word (bad[i]);
      calls++;
    }
  return calls;
}

int
main (void)
{
  printf ("%d\n", xéééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé ());
  return 0;
}
