/* formats.c - the output formats of the commands (formats.h).  */

#include <stdio.h>
#include <string.h>

#include "exit.h"
#include "formats.h"
#include "lines.h"

static const struct out_format formats[] = {
  { .name = "text", .commands = "report shell diff summary",
    .report = rpt_print_text, .diff = diff_print_text, .summary = summary_text },
  { .name = "csv", .commands = "report shell diff summary",
    .report = rpt_print_csv, .diff = diff_print_csv, .summary = summary_csv },
  { .name = "json", .commands = "report shell diff summary",
    .report = rpt_print_json, .diff = diff_print_json, .summary = summary_json },
};
#define NFORMATS (sizeof formats / sizeof formats[0])

/* Whether F is for command CMD.  */

static bool
accepts (const struct out_format *f, const char *cmd)
{
  size_t n = strlen (cmd);
  for (const char *s = strstr (f->commands, cmd); s; s = strstr (s + 1, cmd))
    if ((s == f->commands || s[-1] == ' ') && (!s[n] || s[n] == ' '))
      return true;
  return false;
}

const struct out_format *
format_find (const char *cmd, const char *name)
{
  for (size_t i = 0; i < NFORMATS; i++)
    if (!strcmp (formats[i].name, name) && accepts (&formats[i], cmd))
      return &formats[i];
  return NULL;
}

/* The names of CMD's formats into BUF (SIZE bytes), SEP between them and LAST
   before the last: "text, csv or json".  */

static char *
names (const char *cmd, const char *sep, const char *last, char *buf, size_t size)
{
  size_t n = 0, k = 0, len = 0;
  for (size_t i = 0; i < NFORMATS; i++)
    n += accepts (&formats[i], cmd);
  buf[0] = '\0';
  for (size_t i = 0; i < NFORMATS; i++)
    if (accepts (&formats[i], cmd))
      {
        const char *before = k == 0 ? "" : k + 1 == n ? last : sep;
        k++;
        if (len < size)
          len += (size_t) snprintf (buf + len, size - len, "%s%s", before,
                                    formats[i].name);
      }
  return buf;
}

const char *
format_names (const char *cmd)
{
  static char buf[256];
  return names (cmd, "|", "|", buf, sizeof buf);
}

int
format_set (const char *cmd, char *arg, void *field)
{
  char list[256];
  if (!format_find (cmd, arg))
    return usage_error (cmd, "--format must be %s, not '%s'",
                        names (cmd, ", ", " or ", list, sizeof list), arg);
  *(const char **) field = arg;
  return 0;
}
