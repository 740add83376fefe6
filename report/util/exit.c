/* exit.c - the usage error of every command (exit.h).  */

#include <stdarg.h>
#include <stdio.h>

#include "exit.h"

int
usage_error (const char *cmd, const char *fmt, ...)
{
  va_list ap;
  fprintf (stderr, "dsprof %s: ", cmd);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fprintf (stderr, "\n(see 'dsprof %s --help')\n", cmd);
  return EXIT_USAGE;
}
