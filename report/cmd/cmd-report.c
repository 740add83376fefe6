/* cmd-report.c - the commands `dsprof report` (docs/contract.md §5.3) and the
   interactive `dsprof shell` (§5.5): their options and operands; the report
   is built by model.c and written by render/report-view.c, in the format
   render/formats.c names.  */

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "libiberty.h"
#include "cmd.h"
#include "derive.h"
#include "model.h"

/* ---- the report ------------------------------------------------------------ */

int
run_report (struct pf_set *set, const struct query *q, FILE *out)
{
  struct rpt_model m;
  int rc = rpt_build (set, q, &m);
  if (rc)
    return rc;
  struct rpt_printer p = {
    .q = q, .m = &m, .unit = text_unit_pick (q->unit, m.total_ns),
    .notes = notes_new (), .out = out
  };
  format_find ("report", q->format)->report (&p);
  notes_free (p.notes);
  rpt_free (&m);
  return 0;
}

/* report's operands: profiles and dimensions, into Q and PROFILES.  */

static int
report_operands (const struct opt_operands *ops, struct query *q,
                 struct opt_list *profiles)
{
  for (int i = 0; i < ops->n; i++)
    {
      char *arg = ops->v[i];
      if (i >= ops->dashdash || looks_like_profile (arg))
        opt_list_add (profiles, arg);
      else if (check_dim ("report", arg))
        return EXIT_USAGE;
      else
        q->dims[q->ndims++] = arg;
    }
  return 0;
}

static const struct opt report_opts[] = {
  QUERY_OPTS (0),
  { 0 }
};

/* The report of Q over PROFILES to standard output.  */

static int
report_main (struct query *q, struct opt_list *profiles)
{
  int rc = 0;
  if (q->ndims == 0)
    q->dims[q->ndims++] = "name";
  if (q->derive)
    rc = derive_load (q->derive);
  struct pf_set set;
  if (!rc && !(rc = load_profiles (profiles->n, profiles->v, &set)))
    {
      pf_warn_no_dispatch (&set);
      rc = run_report (&set, q, stdout);
      if (!rc)
        rc = close_output ("report", NULL, stdout);
      pf_free (&set);
    }
  return rc;
}

static int
run_report_cmd (int argc, char **argv)
{
  struct query q;
  query_init (&q, argc);
  q.dims = XCNEWVEC (const char *, argc + 1);
  struct opt_list profiles = { 0, NULL };
  struct opt_operands ops;
  int rc = opt_parse (&cmd_report.cli, argc, argv, &q, &ops);
  if (!rc)
    rc = report_operands (&ops, &q, &profiles);
  if (!rc)
    rc = report_main (&q, &profiles);
  query_free_filters (&q);
  free (q.dims);
  free (profiles.v);
  free (ops.v);
  return rc == OPT_HELP ? 0 : rc;
}

const struct command cmd_report = {
  .summary = "dimension report: Total/Self/Desc time and Count",
  .run = run_report_cmd,
  .cli = {
    .name = "report", .opts = report_opts,
    .usage =
  "usage: dsprof report [DIM...] [OPTIONS] [PROFILE...]\n\n"
  "The domain-specific profile: records bucketed by DIM (default: name), then\n"
  "nested by each further DIM (`By D2 for v1:`).  Columns: Total (the time of\n"
  "the bucket's records and everything they demanded, each instant once),\n"
  "Self (their own time), Desc (Total - Self), Count, each with its share of\n"
  "the profiled time (Count: of the records).  Rows by Total, then Count, then\n"
  "value; values over 25 characters become [n] footnotes.  An argument that\n"
  "names an existing file, holds a '/' or a \".data\" is a profile (`--` makes\n"
  "the rest profiles).  Dimensions: recorded ones (`dsprof dims` lists them)\n"
  "and the derived ones below.\n\n",
    .after_fn = agg_derived_help
  }
};

/* ---- dsprof shell -------------------------------------------------------------- */

#define SHELL_HELP \
  "Commands:\n" \
  "  DIM [DIM...]         the report along these dimensions\n" \
  "  where DIM=VALUE      add a filter (also DIM!=VALUE); `where` lists them,\n" \
  "                       `where clear` removes them\n" \
  "  unit ns|us|ms|s|auto time unit\n" \
  "  top N|all            rows per table\n" \
  "  raw on|off           deduct the recorder's cost or not\n" \
  "  format text|csv|json\n" \
  "  sum D|off            a column summing the numbers of D (replaces --sum)\n" \
  "  dims                 the dimensions present\n" \
  "  help, quit (or end of input)\n"
static const char shell_help[] = SHELL_HELP;

/* Free the shell's filters (their dims and values) and FILTERS itself.  */

static void
free_filters (struct agg_filter *filters, int n)
{
  for (int i = 0; i < n; i++)
    {
      free ((char *) filters[i].dim);
      free ((char *) filters[i].value);
    }
  free (filters);
}

static char *
read_line (bool tty)
{
  if (tty)
    {
      char *l = readline ("dsprof> ");
      if (l && *l)
        add_history (l);
      return l;
    }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = getline (&line, &cap, stdin);
  if (n < 0)
    {
      free (line);
      return NULL;
    }
  if (n && line[n - 1] == '\n')
    line[n - 1] = '\0';
  return line;
}

/* The shell's state: its settings as a query without dimensions, its filters
   (values owned), the profiles.  */
struct shell
{
  struct query q;
  struct agg_filter *filters;
  int nfilters;
  char *sum;                     /* the `sum D` setting's D */
  struct pf_set set;
};

/* `where` with WORDS[1 .. N): list, clear or add filters.  */

static void
shell_where (struct shell *sh, char **words, int n)
{
  if (n == 1)
    {
      if (!sh->nfilters)
        puts ("no filters");
      for (int i = 0; i < sh->nfilters; i++)
        {
          fputs ("where ", stdout);
          text_plain (stdout, sh->filters[i].dim);
          fputs (sh->filters[i].negate ? "!=" : "=", stdout);
          text_plain (stdout, sh->filters[i].value);
          putchar ('\n');
        }
    }
  else if (!strcmp (words[1], "clear"))
    {
      free_filters (sh->filters, sh->nfilters);
      sh->filters = NULL;
      sh->nfilters = 0;
    }
  else
    for (int i = 1; i < n; i++)
      {
        struct agg_filter f;
        if (!parse_filter (words[i], &f))
          printf ("where wants DIM=VALUE or DIM!=VALUE, not '%s'\n", words[i]);
        else if (!dim_name_ok (f.dim))
          {
            printf ("%s, not '%s'\n", agg_dim_usage (f.dim), f.dim);
            free ((char *) f.dim);
          }
        else
          {
            f.value = xstrdup (f.value);
            sh->filters = XRESIZEVEC (struct agg_filter, sh->filters,
                                      sh->nfilters + 1);
            sh->filters[sh->nfilters++] = f;
          }
      }
}

/* A setting, WORDS[0] WORDS[1]: unit, top, raw or format.  Return whether it
   was one.  */

static bool
shell_setting (struct query *q, char **words)
{
  if (!strcmp (words[0], "unit"))
    {
      if (!strcmp (words[1], "auto"))
        q->unit = NULL;
      else if (text_unit_pick (words[1], 0))
        q->unit = text_unit_pick (words[1], 0)->name;
      else
        printf ("unit must be ns, us, ms, s or auto\n");
    }
  else if (!strcmp (words[0], "top"))
    q->top = !strcmp (words[1], "all") ? 0 : atol (words[1]);
  else if (!strcmp (words[0], "raw"))
    q->raw = !strcmp (words[1], "on");
  else if (!strcmp (words[0], "format") && format_find ("shell", words[1]))
    q->format = format_find ("shell", words[1])->name;
  else
    return false;
  return true;
}

/* Run the shell command WORDS[0 .. N).  Return 0, EXIT_DATA, or -1 to quit.  */

static int
shell_command (struct shell *sh, char **words, int n)
{
  struct query r = sh->q;
  r.filters = sh->filters;
  r.nfilters = sh->nfilters;
  if (n == 0)
    return 0;
  if (!strcmp (words[0], "quit") || !strcmp (words[0], "exit"))
    return -1;
  if (!strcmp (words[0], "help"))
    fputs (shell_help, stdout);
  else if (!strcmp (words[0], "where"))
    shell_where (sh, words, n);
  else if (n == 2 && shell_setting (&sh->q, words))
    ;
  else if (n == 2 && !strcmp (words[0], "sum"))
    {
      /* q.sums has room for one at least (query_init).  */
      bool off = !strcmp (words[1], "off");
      if (!off && !dim_name_ok (words[1]))
        printf ("%s, not '%s'\n", agg_dim_usage (words[1]), words[1]);
      else
        {
          free (sh->sum);
          sh->sum = off ? NULL : xstrdup (words[1]);
          sh->q.sums[0] = sh->sum;
          sh->q.nsums = !off;
        }
    }
  else if (!strcmp (words[0], "dims") && n == 1)
    return print_dims (&sh->set, &r, stdout);
  else
    {
      for (int i = 0; i < n; i++)
        if (!dim_name_ok (words[i]))
          {
            printf ("%s, not '%s'\n", agg_dim_usage (words[i]), words[i]);
            return 0;
          }
      r.ndims = n;
      r.dims = (const char **) words;
      return run_report (&sh->set, &r, stdout);
    }
  return 0;
}

/* Read and run the shell's commands until quit or the end of the input.
   Return 0 or EXIT_DATA.  */

static int
shell_loop (struct shell *sh)
{
  bool tty = isatty (0) && isatty (1);
  if (tty)
    printf ("dsprof shell: %u profile%s; `help` lists the commands.\n",
            sh->set.nprocs, sh->set.nprocs == 1 ? "" : "s");
  char *line;
  int rc = 0;
  while (!rc && (line = read_line (tty)))
    {
      char *words[64];
      int n = 0;
      for (char *w = strtok (line, " \t"); w && n < 64; w = strtok (NULL, " \t"))
        words[n++] = w;
      rc = shell_command (sh, words, n);
      fflush (stdout);
      free (line);
    }
  return rc < 0 ? 0 : rc;
}

static const struct opt shell_opts[] = {
  QUERY_OPTS (offsetof (struct shell, q)),
  { 0 }
};

/* The shell over the profiles PROFILES[0 .. N), its settings SH's.  */

static int
shell_main (struct shell *sh, int n, char **profiles)
{
  /* --where filters are the shell's first `where`s.  */
  int rc;
  sh->filters = sh->q.filters;
  sh->nfilters = sh->q.nfilters;
  for (int i = 0; i < sh->nfilters; i++)
    sh->filters[i].value = xstrdup (sh->filters[i].value);
  if ((sh->q.derive && (rc = derive_load (sh->q.derive)))
      || (rc = load_profiles (n, profiles, &sh->set)))
    return rc;
  rc = shell_loop (sh);
  pf_free (&sh->set);
  return rc ? rc : close_output ("shell", NULL, stdout);
}

static int
run_shell (int argc, char **argv)
{
  struct shell sh;
  memset (&sh, 0, sizeof sh);
  query_init (&sh.q, argc);
  struct opt_operands ops;
  int rc = opt_parse (&cmd_shell.cli, argc, argv, &sh, &ops);
  if (rc)
    query_free_filters (&sh.q);
  else
    {
      rc = shell_main (&sh, ops.n, ops.v);
      free_filters (sh.filters, sh.nfilters);
      free (sh.q.sums);
      free (sh.sum);
    }
  free (ops.v);
  return rc == OPT_HELP ? 0 : rc;
}

const struct command cmd_shell = {
  .summary = "interactive dimension reports", .run = run_shell,
  .cli = {
    .name = "shell", .opts = shell_opts,
    .usage =
  "usage: dsprof shell [OPTIONS] [PROFILE...]\n\n"
  "Read commands, one per line, from a terminal (with line editing and\n"
  "history) or from piped input, and print reports:\n\n"
  SHELL_HELP
  "\nOptions: report's, the settings the shell starts with.\n\n",
    .after_fn = agg_derived_help
  }
};
