/* hostile.c: a client's queries that hold terminal control sequences, for
   report-escapes: an OSC title change (ESC ] 0 ; ... BEL), an OSC 52
   clipboard write, a CSI colour change, the 8-bit CSI byte (0x9b) alone and
   as the UTF-8 encoding of U+009B, a newline and a carriage return; the event
   type holds an escape too, and the source file's name (given by the case)
   another.  */

#include <dsprof.h>

DSPROF_EVENT_TYPE ("Query\033[2J") int
query (const char *sql)
{
  int n = 0;
  for (const char *p = sql; *p; p++)
    n += *p == ';';
  return n;
}

int
main (void)
{
  static const char *const sqls[] = {
    "\033]0;owned\007 select 1",
    "\033]52;c;ZWNobyBwd25lZA==\007",
    "\033[31mred\033[0m",
    "\23331m eight-bit CSI",
    "\302\23331m C1 as UTF-8",
    "two\nlines\rback",
    "plain query",
  };
  int n = 0;
  for (int round = 0; round < 3; round++)
    for (unsigned i = 0; i < sizeof sqls / sizeof sqls[0]; i++)
      n += query (sqls[i]);
  return n == 0;
}
