/* text.h - how the dsprof command writes a profile's text into each output format:
   the one place that knows JSON, CSV, HTML, GraphViz dot and record-value quoting,
   UTF-8 boundaries, and time units (docs/contract.md §5).

   A profile's strings are bytes as the program recorded them: any byte value,
   valid UTF-8 or not.  Every writer here takes such bytes and writes text that its
   format accepts:

     text_json     a JSON string, always valid UTF-8: a well-formed multi-byte
                   sequence passes through, each byte that is not part of one
                   becomes U+FFFD (written \ufffd), '"' and '\' are escaped, control
                   characters (< 0x20 and 0x7f) are \u00XX
     text_csv      a CSV field (RFC 4180): quoted, '"' doubled, when it holds ',',
                   '"', CR or LF, or begins or ends with a blank (which readers
                   that trim would lose)
     text_html     HTML text or attribute value: & < > " ' as references, newline
                   and tab as they are, other control characters and each byte not
                   part of valid UTF-8 as the text \xHH
     text_dot      the inside of a GraphViz dot string: '"' and '\' escaped,
                   newline as \n, each other character text_plain escapes as
                   the text \xHH
     text_plain    text for a terminal, as every text listing prints a
                   profile's strings (names, values, files, types): as it is,
                   but each control character (C0, DEL, and C1, U+0080 to
                   U+009F) and each byte not part of valid UTF-8 as a C escape
                   (\n \t \xHH), so that no recorded string moves the
                   cursor, retitles the window or writes the clipboard (an
                   ESC or CSI sequence)
     text_value    a record value as `records` and `trace` show it: bare when it
                   is not empty and holds no blank, '"', '=', '\' or character
                   text_plain escapes, else quoted: '"' and '\' escaped and the
                   rest as text_plain writes it  */

#ifndef DSPROF_TEXT_H
#define DSPROF_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- UTF-8 ------------------------------------------------------------------------ */

/* The length (2 to 4) of the well-formed multi-byte UTF-8 sequence at P, of which
   at most AVAIL bytes may be read, or 0 when none starts there (an ASCII byte
   included).  Overlong forms, surrogates and code points past U+10FFFF are not
   well formed.  */
int text_utf8_len (const unsigned char *p, size_t avail);

/* The largest N <= MAX such that the first N bytes of S (LEN bytes) do not end
   inside a well-formed multi-byte sequence: where to cut S to at most MAX bytes.  */
size_t text_utf8_cut (const char *s, size_t len, size_t max);

/* The number of characters of S (LEN bytes): a well-formed multi-byte sequence is
   one, as is each other byte.  */
size_t text_utf8_chars (const char *s, size_t len);

/* ---- writers (see above) ---------------------------------------------------------- */

void text_json (FILE *out, const char *s);
void text_json_n (FILE *out, const char *s, size_t len);
void text_csv (FILE *out, const char *s);
void text_html (FILE *out, const char *s);
void text_html_n (FILE *out, const char *s, size_t len);
void text_dot (FILE *out, const char *s);
void text_plain (FILE *out, const char *s);
void text_plain_n (FILE *out, const char *s, size_t len);
void text_value (FILE *out, const char *s);

/* Whether text_plain writes S as it is.  */
bool text_plain_safe (const char *s);

/* S as text_plain writes it, for a printf's %s: S itself when text_plain writes
   it as it is, else an escaped copy that lasts until the eighth call after.  */
const char *text_shown (const char *s);

/* ---- time units ------------------------------------------------------------------- */

struct text_unit
{
  const char *name;              /* ns, us, ms, s */
  double ns;                     /* nanoseconds in one */
};

/* The unit called NAME, or NULL.  */
const struct text_unit *text_unit_named (const char *name);

/* The readable unit for times up to LARGEST ns: the largest unit of which
   LARGEST is at least ten.  */
const struct text_unit *text_unit_for (uint64_t largest);

/* NAME's unit, or text_unit_for (LARGEST) when NAME is NULL; NULL when NAME names
   no unit.  */
const struct text_unit *text_unit_pick (const char *name, uint64_t largest);

/* NS in unit U into BUF (SIZE bytes): whole nanoseconds, or three decimals.
   Return BUF.  */
const char *text_time (char *buf, size_t size, uint64_t ns, const struct text_unit *u);

/* NS in its readable unit, with the unit's name ("1.500 ms").  Return BUF.  */
const char *text_duration (char *buf, size_t size, uint64_t ns);

#endif /* DSPROF_TEXT_H */
