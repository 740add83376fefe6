/* dsprof.c - the `dsprof` command: dispatch to a subcommand, and what the
   subcommands share (cmd.h).  */

#include <stdlib.h>
#include <string.h>

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
    fprintf (out, "  %-10s %s\n", commands[i]->cli.name, commands[i]->summary);
  fprintf (out, "\n`dsprof COMMAND --help` describes a command.  Exit status: 0 "
           "success, 1 usage error,\n2 unreadable or corrupt profile "
           "(or unwritable output), 3 diff --fail-above exceeded.\n");
}

/* `dsprof help --man`: the OPTIONS section of docs/dsprof.1, each command's
   options from its table.  */

static int
man_options (FILE *out)
{
  fputs (".SH OPTIONS\n"
         "Every command takes \\fB\\-\\-help\\fR (\\fB\\-h\\fR).  An option that takes an\n"
         "argument takes it as the next argument or after \\fB=\\fR; options\n"
         "may come anywhere before \\fB\\-\\-\\fR.\n", out);
  for (size_t i = 0; i < NCOMMANDS; i++)
    {
      bool any = false;
      for (const struct opt *o = commands[i]->cli.opts; o->name && !any; o++)
        any = o->help != NULL;
      if (!any)
        continue;
      fprintf (out, ".SS %s\n", commands[i]->cli.name);
      opt_man (&commands[i]->cli, out);
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      main_help (stderr);
      return EXIT_USAGE;
    }
  if (argc == 3 && !strcmp (argv[1], "help") && !strcmp (argv[2], "--man"))
    return man_options (stdout);
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
    if (!strcmp (argv[1], commands[i]->cli.name))
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
print_help (const struct command *c)
{
  opt_help (&c->cli, stdout);
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
