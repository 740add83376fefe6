/* dsprof.c - the `dsprof` command: dispatch to a subcommand, and what the
   subcommands share (cmd.h).  */

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libiberty.h"
#include "cmd.h"
#include "progress.h"

static const struct command *const commands[] = {
  &cmd_lines, &cmd_annotate, &cmd_summary, &cmd_report, &cmd_dims, &cmd_shell,
  &cmd_records, &cmd_trace, &cmd_info, &cmd_html, &cmd_callgraph, &cmd_dot,
  &cmd_export, &cmd_merge, &cmd_diff, &cmd_top, &cmd_ctl,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Whether command C reads whole profiles and shows its progress on a
   terminal (progress.h).  */

static bool
shows_progress (const struct command *c)
{
  static const struct command *const reading[] = {
    &cmd_report, &cmd_html, &cmd_export, &cmd_merge, &cmd_diff
  };
  for (size_t i = 0; i < sizeof reading / sizeof *reading; i++)
    if (c == reading[i])
      return true;
  return false;
}

static void
main_help (FILE *out)
{
  fprintf (out, "usage: dsprof COMMAND [OPTIONS] [PROFILE...]\n\n"
           "Read dsprof profiles (default ./dsprof.data); several are combined.\n\n"
           "Commands:\n");
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf (out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
  fprintf (out, "\n`dsprof COMMAND --help` describes a command.  Exit status: 0 "
           "success, 1 usage error,\n2 unreadable or corrupt profile "
           "(or unwritable output), 3 diff --fail-above exceeded.\n");
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      main_help (stderr);
      return EXIT_USAGE;
    }
  if (!strcmp (argv[1], "--help") || !strcmp (argv[1], "-h")
      || !strcmp (argv[1], "help"))
    {
      main_help (stdout);
      return 0;
    }
  if (!strcmp (argv[1], "--version"))
    {
      printf ("dsprof profile format %u\n", DSPROF_FORMAT_VERSION);
      return 0;
    }
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (!strcmp (argv[1], commands[i]->name))
      {
        if (shows_progress (commands[i]))
          progress_want ();
        int rc = commands[i]->run (argc - 1, argv + 1);
        progress_end ();
        return rc;
      }
  fprintf (stderr, "dsprof: '%s' is not a dsprof command; see 'dsprof --help'\n",
           argv[1]);
  return EXIT_USAGE;
}

/* ---- shared ------------------------------------------------------------------ */

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

int
option_error (const char *cmd, int c, char **argv)
{
  if (c == ':')
    return usage_error (cmd, "option '%s' needs an argument", argv[optind - 1]);
  return usage_error (cmd, "unknown option '%s'", argv[optind - 1]);
}

bool
looks_like_profile (const char *arg)
{
  return access (arg, F_OK) == 0 || strchr (arg, '/') || strstr (arg, ".data");
}

int
print_help (const struct command *c)
{
  fputs (c->help, stdout);
  if (c == &cmd_report || c == &cmd_shell || c == &cmd_dims)
    agg_derived_help (stdout);
  return 0;
}

int
load_profiles (int argc, char **argv, struct pf_set *set)
{
  memset (set, 0, sizeof *set);
  if (argc == 0)
    return pf_add (set, "dsprof.data") < 0 ? EXIT_DATA : 0;
  for (int i = 0; i < argc; i++)
    if (pf_add_listed (set, argv[i]) < 0)
      {
        pf_free (set);
        return EXIT_DATA;
      }
  if (set->nprocs == 0)
    {
      fprintf (stderr, "dsprof: no profile among the files given\n");
      return EXIT_DATA;
    }
  return 0;
}

bool
parse_filter (char *arg, struct agg_filter *f)
{
  char *eq = strchr (arg, '=');
  if (!eq || eq == arg)
    return false;
  f->negate = eq[-1] == '!';
  f->dim = xstrndup (arg, (size_t) (eq - arg - f->negate));
  f->value = eq + 1;
  return f->dim[0] != '\0';
}

int
check_dim (const char *cmd, const char *name)
{
  const char *usage = agg_dim_usage (name);
  if (usage)
    return usage_error (cmd, "%s, not '%s'", usage, name);
  return 0;
}
