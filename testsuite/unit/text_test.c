/* text_test.c - report/render/text.c, the writers of every output format, checked against
   independent readers written here: a strict JSON string parser that accepts only
   well-formed UTF-8 (RFC 8259 §7 and §8.1), an RFC 4180 field reader, a UTF-8
   decoder from the code point ranges; then cutting at a character boundary, the
   time units, and a record value too long for its buffer.  */

#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "text.h"

/* ---- independent readers --------------------------------------------------------- */

/* The length of the UTF-8 sequence at P (AVAIL bytes) by decoding it: the code
   point must need that many bytes, not be a surrogate, not pass U+10FFFF.  0 when
   none starts there or when P is ASCII.  */

static int
ref_utf8_len (const unsigned char *p, size_t avail)
{
  int n = p[0] >= 0xf0 && p[0] < 0xf8 ? 4 : p[0] >= 0xe0 && p[0] < 0xf0 ? 3
          : p[0] >= 0xc0 && p[0] < 0xe0 ? 2 : 0;
  if (!n || (size_t) n > avail)
    return 0;
  uint32_t cp = p[0] & (0x7f >> n);
  for (int i = 1; i < n; i++)
    {
      if ((p[i] & 0xc0) != 0x80)
        return 0;
      cp = cp << 6 | (p[i] & 0x3f);
    }
  static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
  if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

/* Append code point CP to OUT as UTF-8.  */

static void
put_cp (unsigned char **out, uint32_t cp)
{
  unsigned char *o = *out;
  if (cp < 0x80)
    *o++ = (unsigned char) cp;
  else if (cp < 0x800)
    {
      *o++ = (unsigned char) (0xc0 | cp >> 6);
      *o++ = (unsigned char) (0x80 | (cp & 0x3f));
    }
  else if (cp < 0x10000)
    {
      *o++ = (unsigned char) (0xe0 | cp >> 12);
      *o++ = (unsigned char) (0x80 | (cp >> 6 & 0x3f));
      *o++ = (unsigned char) (0x80 | (cp & 0x3f));
    }
  else
    {
      *o++ = (unsigned char) (0xf0 | cp >> 18);
      *o++ = (unsigned char) (0x80 | (cp >> 12 & 0x3f));
      *o++ = (unsigned char) (0x80 | (cp >> 6 & 0x3f));
      *o++ = (unsigned char) (0x80 | (cp & 0x3f));
    }
  *out = o;
}

static int
hex4 (const unsigned char *p, uint32_t *v)
{
  *v = 0;
  for (int i = 0; i < 4; i++)
    {
      int c = p[i];
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0)
        return 0;
      *v = *v << 4 | (uint32_t) d;
    }
  return 1;
}

/* Parse the JSON string that is all of S (LEN bytes) strictly: quotes around it,
   no raw control character, only JSON's escapes, paired surrogates, raw bytes
   well-formed UTF-8.  Write its value as UTF-8 to OUT (room for LEN bytes) and
   its length to *OUTLEN.  Return false when S is not such a string.  */

static bool
json_parse_string (const unsigned char *s, size_t len, unsigned char *out,
                   size_t *outlen)
{
  if (len < 2 || s[0] != '"' || s[len - 1] != '"')
    return false;
  const unsigned char *p = s + 1, *end = s + len - 1;
  unsigned char *o = out;
  while (p < end)
    {
      if (*p == '"' || *p < 0x20)
        return false;
      if (*p >= 0x80)
        {
          int n = ref_utf8_len (p, (size_t) (end - p));
          if (!n)
            return false;
          memcpy (o, p, (size_t) n);
          o += n;
          p += n;
          continue;
        }
      if (*p != '\\')
        {
          *o++ = *p++;
          continue;
        }
      if (++p == end)
        return false;
      const char *simple = strchr ("\"\\/bfnrt", *p);
      if (*p && simple)
        {
          *o++ = (unsigned char) "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
          p++;
          continue;
        }
      uint32_t cp, lo;
      if (*p != 'u' || end - p < 5 || !hex4 (p + 1, &cp))
        return false;
      p += 5;
      if (cp >= 0xdc00 && cp <= 0xdfff)
        return false;
      if (cp >= 0xd800 && cp <= 0xdbff)
        {
          if (end - p < 6 || p[0] != '\\' || p[1] != 'u' || !hex4 (p + 2, &lo)
              || lo < 0xdc00 || lo > 0xdfff)
            return false;
          p += 6;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        }
      put_cp (&o, cp);
    }
  *outlen = (size_t) (o - out);
  return true;
}

/* What WRITE writes for S (LEN bytes), in a malloc'ed NUL-terminated buffer.  */

static char *
written_json (const char *s, size_t len, size_t *n)
{
  char *text = NULL;
  FILE *f = open_memstream (&text, n);
  text_json_n (f, s, len);
  fclose (f);
  return text;
}

/* The value S should have in JSON: S with each byte not part of a well-formed
   sequence replaced by U+FFFD.  */

static size_t
expected_json_value (const unsigned char *s, size_t len, unsigned char *out)
{
  unsigned char *o = out;
  for (size_t i = 0; i < len;)
    {
      int n = s[i] >= 0x80 ? ref_utf8_len (s + i, len - i) : 1;
      if (n)
        {
          memcpy (o, s + i, (size_t) n);
          o += n;
          i += (size_t) n;
        }
      else
        {
          put_cp (&o, 0xfffd);
          i++;
        }
    }
  return (size_t) (o - out);
}

static void
check_json (const unsigned char *s, size_t len)
{
  size_t n, got_len;
  char *text = written_json ((const char *) s, len, &n);
  unsigned char *got = malloc (n + 1), *want = malloc (3 * len + 1);
  bool ok = json_parse_string ((unsigned char *) text, n, got, &got_len);
  CU_ASSERT (ok);
  if (ok)
    {
      size_t want_len = expected_json_value (s, len, want);
      CU_ASSERT (got_len == want_len && !memcmp (got, want, want_len));
    }
  free (got);
  free (want);
  free (text);
}

/* ---- tests ----------------------------------------------------------------------- */

/* text_utf8_len agrees with decoding for every lead and second byte, with
   continuation bytes after, and with each tail cut short.  */

static void
test_text_utf8_len (void)
{
  unsigned char p[4];
  for (unsigned a = 0; a < 256; a++)
    for (unsigned b = 0; b < 256; b++)
      {
        p[0] = (unsigned char) a, p[1] = (unsigned char) b, p[2] = 0x80, p[3] = 0xbf;
        for (size_t avail = 0; avail <= 4; avail++)
          if (text_utf8_len (p, avail) != (avail ? ref_utf8_len (p, avail) : 0))
            {
              CU_FAIL ("text_utf8_len differs from decoding");
              return;
            }
      }
  CU_PASS ("all agree");
}

/* Every byte value alone, and after and before an ASCII letter and a valid
   sequence, is a strict UTF-8 JSON string with the expected value.  */

static void
test_text_json_bytes (void)
{
  for (unsigned c = 0; c < 256; c++)
    {
      unsigned char one[1] = { (unsigned char) c };
      check_json (one, 1);
      unsigned char ctx[6] = { 'a', (unsigned char) c, 0xc3, 0xa9, (unsigned char) c,
                               'z' };
      check_json (ctx, sizeof ctx);
    }
  /* Well-formed sequences of each length pass through unchanged.  */
  const char *valid = "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf";
  size_t n;
  char *text = written_json (valid, strlen (valid), &n);
  CU_ASSERT_STRING_EQUAL (text, "\"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\"");
  free (text);
  /* A stray byte, a surrogate, an overlong form, a cut sequence: U+FFFD each.  */
  const char *bad = "\xff\xed\xa0\x80\xc0\xaf\xe2\x82";
  text = written_json (bad, strlen (bad), &n);
  CU_ASSERT_STRING_EQUAL (text, "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
  free (text);
  text = written_json ("q\"b\\\n\x7f", 6, &n);
  CU_ASSERT_STRING_EQUAL (text, "\"q\\\"b\\\\\\u000a\\u007f\"");
  free (text);
  /* A NUL inside the bytes given.  */
  text = written_json ("a\0b", 3, &n);
  CU_ASSERT_STRING_EQUAL (text, "\"a\\u0000b\"");
  free (text);
}

/* Random byte strings, biased towards bytes that start and continue UTF-8.  */

static void
test_text_json_random (void)
{
  srand (20261123);
  unsigned char s[64];
  for (int t = 0; t < 20000; t++)
    {
      size_t len = (size_t) (rand () % (int) sizeof s);
      for (size_t i = 0; i < len; i++)
        {
          int k = rand () % 4;
          s[i] = (unsigned char) (k == 0 ? rand () % 256 : k == 1 ? 0x80 + rand () % 64
                                  : k == 2 ? 0xc0 + rand () % 64 : 0x20 + rand () % 96);
        }
      check_json (s, len);
    }
}

/* Read one RFC 4180 record of fields from P into FIELDS; return the count.  */

static int
csv_read (const char **p, char fields[][64], int max)
{
  int n = 0;
  for (;;)
    {
      char *o = fields[n];
      if (**p == '"')
        {
          for ((*p)++; !(**p == '"' && (*p)[1] != '"'); (*p)++)
            {
              if (!**p)
                return -1;
              if (**p == '"')
                (*p)++;
              *o++ = **p;
            }
          (*p)++;
        }
      else
        while (**p && **p != ',' && **p != '\n' && **p != '"' && **p != '\r')
          *o++ = *(*p)++;
      *o = '\0';
      n++;
      if (**p == ',' && n < max)
        {
          (*p)++;
          continue;
        }
      if (**p != '\n')
        return -1;
      (*p)++;
      return n;
    }
}

/* Random fields of commas, quotes, line ends and blanks, written as records,
   read back equal; plain fields stay unquoted.  */

static void
test_text_csv_roundtrip (void)
{
  static const char alphabet[] = "ab,\"\n\r \xc3\xa9;";
  srand (4180);
  char fields[4][64];
  for (int t = 0; t < 5000; t++)
    {
      int nf = 1 + rand () % 4;
      for (int f = 0; f < nf; f++)
        {
          int len = rand () % 12;
          for (int i = 0; i < len; i++)
            fields[f][i] = alphabet[rand () % (int) (sizeof alphabet - 1)];
          fields[f][len] = '\0';
        }
      char *text = NULL;
      size_t size;
      FILE *m = open_memstream (&text, &size);
      for (int f = 0; f < nf; f++)
        {
          if (f)
            putc (',', m);
          text_csv (m, fields[f]);
        }
      putc ('\n', m);
      fclose (m);
      char back[4][64];
      const char *p = text;
      int got = csv_read (&p, back, 4);
      CU_ASSERT_EQUAL (got, nf);
      for (int f = 0; f < nf && f < got; f++)
        CU_ASSERT_STRING_EQUAL (back[f], fields[f]);
      CU_ASSERT_EQUAL (*p, '\0');
      free (text);
    }
  char *text = NULL;
  size_t size;
  FILE *m = open_memstream (&text, &size);
  text_csv (m, "plain \xc3\xa9 text");
  putc ('|', m);
  text_csv (m, " lead");
  putc ('|', m);
  text_csv (m, "trail ");
  putc ('|', m);
  text_csv (m, "");
  fclose (m);
  CU_ASSERT_STRING_EQUAL (text, "plain \xc3\xa9 text|\" lead\"|\"trail \"|");
  free (text);
}

/* Cuts fall between characters, never inside a well-formed sequence; characters
   are counted the same way.  */

static void
test_text_utf8_cut (void)
{
  const char *s = "a\xe2\x82\xac" "b";   /* a, euro sign, b */
  static const size_t want[] = { 0, 1, 1, 1, 4, 5, 5 };
  for (size_t max = 0; max < 7; max++)
    CU_ASSERT_EQUAL (text_utf8_cut (s, 5, max), want[max]);
  /* Bytes of no well-formed sequence are characters of their own.  */
  CU_ASSERT_EQUAL (text_utf8_cut ("\xff\xfe", 2, 1), 1);
  CU_ASSERT_EQUAL (text_utf8_cut ("a\xe2\x82", 3, 2), 2);
  CU_ASSERT_EQUAL (text_utf8_cut ("\xf0\x9f\x98\x80", 4, 3), 0);
  CU_ASSERT_EQUAL (text_utf8_chars (s, 5), 3);
  CU_ASSERT_EQUAL (text_utf8_chars ("\xff\xfe\xe2\x82", 4), 4);
  CU_ASSERT_EQUAL (text_utf8_chars ("", 0), 0);
  /* Random strings: every cut is at most MAX and leaves whole sequences.  */
  srand (8);
  unsigned char r[32];
  for (int t = 0; t < 5000; t++)
    {
      for (size_t i = 0; i < sizeof r; i++)
        r[i] = (unsigned char) (rand () % 3 ? 0x80 + rand () % 128 : rand () % 128);
      size_t max = (size_t) (rand () % 40);
      size_t n = text_utf8_cut ((char *) r, sizeof r, max);
      CU_ASSERT (n <= max && n <= sizeof r);
      size_t i = 0;
      while (i < n)
        {
          int k = ref_utf8_len (r + i, sizeof r - i);
          i += k ? (size_t) k : 1;
        }
      CU_ASSERT_EQUAL (i, n);
      /* and it is the longest such cut.  */
      if (n < sizeof r)
        {
          int k = ref_utf8_len (r + n, sizeof r - n);
          CU_ASSERT (n + (k ? (size_t) k : 1) > max);
        }
    }
}

/* A text longer than the buffer is cut before a character and ends in "...".  */

static void
test_text_value_cut (void)
{
  struct ev_value v;
  memset (&v, 0, sizeof v);
  v.type = DSPROF_DIM_STR;
  v.s = "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac";
  v.len = 9;
  char buf[8];
  CU_ASSERT_STRING_EQUAL (ev_format_value (&v, buf, sizeof buf), "\xe2\x82\xac...");
  char big[16];
  CU_ASSERT_STRING_EQUAL (ev_format_value (&v, big, sizeof big), v.s);
  v.truncated = true;
  CU_ASSERT_STRING_EQUAL (ev_format_value (&v, big, sizeof big),
                          "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac...");
  CU_ASSERT_STRING_EQUAL (ev_format_value (&v, buf, 4), "...");
}

static void
test_text_time_units (void)
{
  CU_ASSERT_STRING_EQUAL (text_unit_for (0)->name, "ns");
  CU_ASSERT_STRING_EQUAL (text_unit_for (9999)->name, "ns");
  CU_ASSERT_STRING_EQUAL (text_unit_for (10000)->name, "us");
  CU_ASSERT_STRING_EQUAL (text_unit_for (9999999)->name, "us");
  CU_ASSERT_STRING_EQUAL (text_unit_for (10000000)->name, "ms");
  CU_ASSERT_STRING_EQUAL (text_unit_for (10000000000u)->name, "s");
  CU_ASSERT_STRING_EQUAL (text_unit_for (UINT64_MAX)->name, "s");
  CU_ASSERT_STRING_EQUAL (text_unit_named ("ms")->name, "ms");
  CU_ASSERT_PTR_NULL (text_unit_named ("min"));
  CU_ASSERT_PTR_NULL (text_unit_pick ("m", 5));
  CU_ASSERT_STRING_EQUAL (text_unit_pick (NULL, 50000)->name, "us");
  CU_ASSERT_STRING_EQUAL (text_unit_pick ("s", 5)->name, "s");
  char buf[32];
  CU_ASSERT_STRING_EQUAL (text_time (buf, sizeof buf, 1234567, text_unit_named ("ns")),
                          "1234567");
  CU_ASSERT_STRING_EQUAL (text_time (buf, sizeof buf, 1234567, text_unit_named ("ms")),
                          "1.235");
  CU_ASSERT_STRING_EQUAL (text_time (buf, sizeof buf, 5, text_unit_named ("s")),
                          "0.000");
  CU_ASSERT_STRING_EQUAL (text_duration (buf, sizeof buf, 12345), "12.345 us");
  CU_ASSERT_STRING_EQUAL (text_duration (buf, sizeof buf, 42), "42 ns");
}

/* What W writes for S.  */

static char *
written (void (*w) (FILE *, const char *), const char *s)
{
  char *text = NULL;
  size_t size;
  FILE *m = open_memstream (&text, &size);
  w (m, s);
  fclose (m);
  return text;
}

static void
test_text_html_dot_value (void)
{
  struct { void (*w) (FILE *, const char *); const char *in, *out; } cases[] = {
    { text_html, "<a href=\"x\">&'\n\t\x01\x7f\xc3\xa9\xff",
      "&lt;a href=&quot;x&quot;&gt;&amp;&#39;\n\t\\x01\\x7f\xc3\xa9\\xff" },
    { text_dot, "say \"hi\"\\\n\xe2\x82\xac\xe2\x82", "say \\\"hi\\\"\\\\\\n\xe2\x82\xac\\\\xe2\\\\x82" },
    { text_value, "plain\xc3\xa9", "plain\xc3\xa9" },
    { text_value, "", "\"\"" },
    { text_value, "a=b", "\"a=b\"" },
    { text_value, "two words\n\t\"\\\x01", "\"two words\\n\\t\\\"\\\\\\x01\"" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      char *got = written (cases[i].w, cases[i].in);
      CU_ASSERT_STRING_EQUAL (got, cases[i].out);
      free (got);
    }
}

/* Whether TEXT (LEN bytes) is valid UTF-8 that holds no control character:
   no C0 but newline, no DEL, no C1 (U+0080 to U+009F).  */

static bool
terminal_safe (const char *text, size_t len)
{
  const unsigned char *p = (const unsigned char *) text;
  for (size_t i = 0; i < len;)
    {
      if (p[i] < 0x80)
        {
          if ((p[i] < ' ' && p[i] != '\n') || p[i] == 0x7f)
            return false;
          i++;
          continue;
        }
      int n = ref_utf8_len (p + i, len - i);
      if (!n || (p[i] == 0xc2 && p[i + 1] < 0xa0))
        return false;
      i += (size_t) n;
    }
  return true;
}

/* text_plain, text_value and text_dot of every two-byte and three-byte string
   (the second of three bytes from a sample) are safe for a terminal; the C1
   controls escaped byte by byte; text_shown is S itself only when it is safe.  */

static void
test_text_plain_bytes (void)
{
  static const unsigned char mids[] = { 0x80, 0x9b, 0x9f, 0xa0, 0xbf, 'a', 0x1b };
  void (*writers[]) (FILE *, const char *) = { text_plain, text_value, text_dot };
  char s[4];
  for (unsigned a = 1; a < 256; a++)
    for (size_t m = 0; m < sizeof mids; m++)
      for (unsigned b = 0; b < 256; b++)
        {
          s[0] = (char) a;
          s[1] = (char) mids[m];
          s[2] = (char) b;
          s[3] = '\0';
          for (size_t w = 0; w < 3; w++)
            {
              char *got = written (writers[w], s);
              CU_ASSERT (terminal_safe (got, strlen (got)));
              free (got);
            }
          const char *shown = text_shown (s);
          CU_ASSERT ((shown == s) == terminal_safe (s, strlen (s)) || strchr (s, '\n'));
          CU_ASSERT (terminal_safe (shown, strlen (shown)));
        }
  struct { void (*w) (FILE *, const char *); const char *in, *out; } cases[] = {
    { text_plain, "\x1b]0;t\x07 ok", "\\x1b]0;t\\x07 ok" },
    { text_plain, "\xc2\x9b" "31m \x9b \xc2\xa0 \xe2\x82\xac", "\\xc2\\x9b" "31m \\x9b \xc2\xa0 \xe2\x82\xac" },
    { text_plain, "a\nb\tc \\ \"q\"", "a\\nb\\tc \\ \"q\"" },
    { text_value, "\xc2\x85", "\"\\xc2\\x85\"" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      char *got = written (cases[i].w, cases[i].in);
      CU_ASSERT_STRING_EQUAL (got, cases[i].out);
      free (got);
    }
}

void
text_test_register (void)
{
  CU_pSuite s = CU_add_suite ("text", NULL, NULL);
  CU_add_test (s, "utf8_len agrees with decoding", test_text_utf8_len);
  CU_add_test (s, "JSON of every byte value is strict UTF-8", test_text_json_bytes);
  CU_add_test (s, "JSON of random bytes is strict UTF-8", test_text_json_random);
  CU_add_test (s, "CSV fields read back equal", test_text_csv_roundtrip);
  CU_add_test (s, "cuts at a character boundary, counts characters", test_text_utf8_cut);
  CU_add_test (s, "a long value is cut before a character", test_text_value_cut);
  CU_add_test (s, "time units chosen and formatted", test_text_time_units);
  CU_add_test (s, "HTML, dot and record values escaped", test_text_html_dot_value);
  CU_add_test (s, "terminal text of every byte holds no control", test_text_plain_bytes);
}
