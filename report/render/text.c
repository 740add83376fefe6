/* text.c - the dsprof command's text writers and time units; text.h says what each
   writes.  */

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* ---- UTF-8 ------------------------------------------------------------------------ */

int
text_utf8_len (const unsigned char *p, size_t avail)
{
  if (avail < 2)
    return 0;
  unsigned c = p[0], lo = 0x80, hi = 0xbf;
  int n;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef)
    {
      n = 3;
      lo = c == 0xe0 ? 0xa0 : lo;      /* not overlong */
      hi = c == 0xed ? 0x9f : hi;      /* not a surrogate */
    }
  else if (c >= 0xf0 && c <= 0xf4)
    {
      n = 4;
      lo = c == 0xf0 ? 0x90 : lo;      /* not overlong */
      hi = c == 0xf4 ? 0x8f : hi;      /* not past U+10FFFF */
    }
  else
    return 0;
  if ((size_t) n > avail || p[1] < lo || p[1] > hi)
    return 0;
  for (int i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xbf)
      return 0;
  return n;
}

size_t
text_utf8_cut (const char *s, size_t len, size_t max)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t i = 0;
  while (i < len)
    {
      int n = text_utf8_len (p + i, len - i);
      size_t step = n ? (size_t) n : 1;
      if (i + step > max)
        break;
      i += step;
    }
  return i;
}

size_t
text_utf8_chars (const char *s, size_t len)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t n = 0;
  for (size_t i = 0; i < len; n++)
    {
      int k = text_utf8_len (p + i, len - i);
      i += k ? (size_t) k : 1;
    }
  return n;
}

/* ---- JSON --------------------------------------------------------------------------- */

void
text_json_n (FILE *out, const char *s, size_t len)
{
  putc ('"', out);
  const unsigned char *p = (const unsigned char *) s, *end = p + len;
  while (p < end)
    {
      unsigned c = *p;
      if (c == '"' || c == '\\')
        fprintf (out, "\\%c", c);
      else if (c < 0x20 || c == 0x7f)
        fprintf (out, "\\u%04x", c);
      else if (c < 0x80)
        putc ((int) c, out);
      else
        {
          int n = text_utf8_len (p, (size_t) (end - p));
          if (n)
            {
              fwrite (p, 1, (size_t) n, out);
              p += n;
              continue;
            }
          fputs ("\\ufffd", out);
        }
      p++;
    }
  putc ('"', out);
}

void
text_json (FILE *out, const char *s)
{
  text_json_n (out, s, strlen (s));
}

/* ---- CSV ---------------------------------------------------------------------------- */

void
text_csv (FILE *out, const char *s)
{
  size_t len = strlen (s);
  if (!strpbrk (s, ",\"\r\n") && (!len || (s[0] != ' ' && s[len - 1] != ' ')))
    {
      fputs (s, out);
      return;
    }
  putc ('"', out);
  for (; *s; s++)
    {
      if (*s == '"')
        putc ('"', out);
      putc (*s, out);
    }
  putc ('"', out);
}

/* ---- HTML --------------------------------------------------------------------------- */

void
text_html_n (FILE *out, const char *s, size_t len)
{
  const unsigned char *p = (const unsigned char *) s, *end = p + len;
  while (p < end)
    {
      unsigned c = *p;
      switch (c)
        {
        case '&': fputs ("&amp;", out); break;
        case '<': fputs ("&lt;", out); break;
        case '>': fputs ("&gt;", out); break;
        case '"': fputs ("&quot;", out); break;
        case '\'': fputs ("&#39;", out); break;
        case '\n': case '\t': putc ((int) c, out); break;
        default:
          if (c >= 0x80)
            {
              int n = text_utf8_len (p, (size_t) (end - p));
              if (n)
                {
                  fwrite (p, 1, (size_t) n, out);
                  p += n;
                  continue;
                }
              fprintf (out, "\\x%02x", c);
            }
          else if (c < ' ' || c == 0x7f)
            fprintf (out, "\\x%02x", c);
          else
            putc ((int) c, out);
        }
      p++;
    }
}

void
text_html (FILE *out, const char *s)
{
  text_html_n (out, s, strlen (s));
}

/* ---- terminal text and record values ---------------------------------------------- */

/* The length of the character at P (AVAIL bytes) that text for a terminal shows as
   it is, or 0 for one it escapes: a control character (C0, DEL, or C1: U+0080 to
   U+009F, which terminals obey as ESC sequences) or a byte that is not part of
   well-formed UTF-8.  */

static int
shown_len (const unsigned char *p, size_t avail)
{
  if (*p < 0x80)
    return *p < ' ' || *p == 0x7f ? 0 : 1;
  int n = text_utf8_len (p, avail);
  return n == 2 && p[0] == 0xc2 && p[1] < 0xa0 ? 0 : n;
}

/* S (LEN bytes) with every character shown_len escapes written as a C escape
   (\n \t, or \xHH per byte); with QUOTED, '"' and '\' escaped too.  */

static void
put_escaped (FILE *out, const char *s, size_t len, bool quoted)
{
  const unsigned char *p = (const unsigned char *) s, *end = p + len;
  while (p < end)
    {
      int n = shown_len (p, (size_t) (end - p));
      if (quoted && (*p == '"' || *p == '\\'))
        fprintf (out, "\\%c", *p);
      else if (n)
        fwrite (p, 1, (size_t) n, out);
      else if (*p == '\n' || *p == '\t')
        fputs (*p == '\n' ? "\\n" : "\\t", out);
      else
        fprintf (out, "\\x%02x", *p);
      p += n ? (size_t) n : 1;
    }
}

void
text_plain_n (FILE *out, const char *s, size_t len)
{
  put_escaped (out, s, len, false);
}

void
text_plain (FILE *out, const char *s)
{
  put_escaped (out, s, strlen (s), false);
}

bool
text_plain_safe (const char *s)
{
  const unsigned char *p = (const unsigned char *) s, *end = p + strlen (s);
  for (int n; p < end; p += n)
    if (!(n = shown_len (p, (size_t) (end - p))))
      return false;
  return true;
}

const char *
text_shown (const char *s)
{
  static char *kept[8];
  static unsigned next;
  if (text_plain_safe (s))
    return s;
  char *buf = NULL;
  size_t size;
  FILE *f = open_memstream (&buf, &size);
  if (!f)
    return "(unprintable)";
  text_plain (f, s);
  if (fclose (f) != 0)
    return "(unprintable)";
  free (kept[next % 8]);
  kept[next++ % 8] = buf;
  return buf;
}

void
text_value (FILE *out, const char *s)
{
  bool quote = *s == '\0' || !text_plain_safe (s);
  for (const unsigned char *p = (const unsigned char *) s; *p && !quote; p++)
    quote = *p == ' ' || *p == '"' || *p == '=' || *p == '\\';
  if (!quote)
    {
      fputs (s, out);
      return;
    }
  putc ('"', out);
  put_escaped (out, s, strlen (s), true);
  putc ('"', out);
}

/* ---- dot ---------------------------------------------------------------------------- */

void
text_dot (FILE *out, const char *s)
{
  const unsigned char *p = (const unsigned char *) s, *end = p + strlen (s);
  while (p < end)
    {
      int n = shown_len (p, (size_t) (end - p));
      if (*p == '"' || *p == '\\')
        fprintf (out, "\\%c", *p);
      else if (*p == '\n')
        fputs ("\\n", out);
      else if (n == 0)
        fprintf (out, "\\\\x%02x", *p);
      else
        fwrite (p, 1, (size_t) n, out);
      p += n ? n : 1;
    }
}

/* ---- time units --------------------------------------------------------------------- */

static const struct text_unit units[] = {
  { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }
};
enum { NUNITS = sizeof units / sizeof units[0] };

const struct text_unit *
text_unit_named (const char *name)
{
  for (size_t i = 0; i < NUNITS; i++)
    if (!strcmp (units[i].name, name))
      return &units[i];
  return NULL;
}

const struct text_unit *
text_unit_for (uint64_t largest)
{
  size_t i = 0;
  while (i + 1 < NUNITS && (double) largest >= 10 * units[i + 1].ns)
    i++;
  return &units[i];
}

const struct text_unit *
text_unit_pick (const char *name, uint64_t largest)
{
  return name ? text_unit_named (name) : text_unit_for (largest);
}

const char *
text_time (char *buf, size_t size, uint64_t ns, const struct text_unit *u)
{
  if (u->ns == 1)
    snprintf (buf, size, "%" PRIu64, ns);
  else
    snprintf (buf, size, "%.3f", (double) ns / u->ns);
  return buf;
}

const char *
text_duration (char *buf, size_t size, uint64_t ns)
{
  const struct text_unit *u = text_unit_for (ns);
  size_t n = strlen (text_time (buf, size, ns, u));
  snprintf (buf + n, size - n, " %s", u->name);
  return buf;
}
