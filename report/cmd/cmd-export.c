/* cmd-export.c - profiles for other tools: `dsprof export` (docs/contract.md
   §5.8): its options, the table of formats, and for the format chosen the
   model its renderer takes (export.h), built here and rendered by the
   format's file in render/:

   export --format chrome   Chrome trace-event JSON (export-chrome.c)
   export --format folded   folded stacks (export-folded.c)
   export --format lcov     an lcov tracefile of the line counts (lcov.c)
   export --format cobertura Cobertura XML of the line counts (cobertura.c)
   export --format csv      one row per record (export-csv.c)
   export --format pprof    pprof's profile.proto, gzip-compressed
                            (export-pprof.c)
   export --format perfetto Perfetto's protobuf trace (export-perfetto.c)  */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libiberty.h"
#include "cmd.h"
#include "export.h"
#include "linecount.h"
#include "progress.h"
#include "stacks.h"

/* ---- dsprof export --------------------------------------------------------------- */

/* The pprof export's options: --dim, and the labels (--label, --no-labels:
   NLABELS < 0 all dimensions).  */
struct pprof_opts
{
  const char *dim;
  int nlabels;
  const char **labels;
};

/* The options of the models (each format's uses those of its model).  */
struct export_opts
{
  bool raw;
  const struct pprof_opts *pp;
};

/* The formats: name, --help text, the model its renderer takes, the
   renderer.  A new format touches three code files: this table, export.h
   (its renderer's declaration) and its renderer, render/export-FORMAT.c
   (and a model kind of export.h, built by export_model, if none fits).  */
static const struct export_format
{
  const char *name;
  const char *help;
  enum export_model model;
  export_render *render;
} formats[] = {
  { "chrome",
    "Chrome trace-event JSON (Perfetto UI, chrome://tracing): a B event\n"
    "at each Start and an E event at each Finish, per process (pid) and\n"
    "thread (tid), balanced (an event closed by repair ends with\n"
    "complete false); args are the dimensions: Start's on B, the\n"
    "result, added ones and complete on E.  ts in microseconds since\n"
    "the earliest process started.\n", EXPORT_EVENTS, export_chrome },
  { "folded",
    "folded stacks for flame-graph tools: `a;b;c SELF_NS`, one line\n"
    "per distinct stack of names with its self time, the recorder's\n"
    "cost deducted as in `dsprof report` unless --raw (the lines then\n"
    "add up to the report's Self column; with --raw to the profiled\n"
    "time).  `;` and control characters in a name are written \\xHH.\n",
    EXPORT_STACKS, export_folded },
  { "lcov",
    "an lcov tracefile of the line counts for genhtml: per source file\n"
    "(found as annotate finds it) FN/FNDA for each function's entry\n"
    "count, DA for each line with the largest count of the blocks on it.\n",
    EXPORT_LINES, export_lcov },
  { "cobertura",
    "Cobertura XML (coverage-04.dtd) for CI services (Codecov, GitLab,\n"
    "Jenkins): the lcov export's lines and branches, with its totals\n"
    "and `dsprof summary`'s; the files' common directory is the\n"
    "<source>, a package per directory, a class per file, a method\n"
    "per function; a line with branches has condition-coverage\n"
    "\"PCT% (TAKEN/BRANCHES)\"; rates are 1 when nothing is valid.\n",
    EXPORT_LINES, export_cobertura },
  { "csv",
    "one row per record (RFC 4180): record (its number in `dsprof\n"
    "records`), pid, thread, start_ns (since its process started),\n"
    "duration_ns (as recorded), depth, parent_record (empty at top\n"
    "level), then one column per dimension any record carries.\n",
    EXPORT_EVENTS, export_csv },
  { "pprof",
    "pprof's profile.proto, gzip-compressed (go tool pprof, any\n"
    "pprof reader): a sample per distinct stack of names (of D's\n"
    "values with --dim D) and set of dimensions of its innermost\n"
    "record, which are its labels (integers as numbers); values\n"
    "records (count), self and total (ns, the recorder's cost\n"
    "deducted as in `dsprof report` unless --raw); self is the\n"
    "default, so pprof's flat is the report's Self, cum its Total.\n"
    "Each name is a function at its event site's file and line.\n",
    EXPORT_SAMPLES, export_pprof },
  { "perfetto",
    "Perfetto's native protobuf trace (ui.perfetto.dev,\n"
    "trace_processor): the chrome export's slices, a fifth to a third\n"
    "of its size, written as the events are read (memory does not\n"
    "grow with the records): a track per process and thread (the\n"
    "first thread's tid is the pid), a slice per record, named and\n"
    "categorised as chrome's, at the same ns; a site's file and line\n"
    "are its source location, the other dimensions debug annotations\n"
    "(numbers, booleans and pointers typed).\n", EXPORT_EVENTS,
    export_perfetto },
};
#define NFORMATS (sizeof formats / sizeof *formats)

/* The format named NAME, or NULL.  */

static const struct export_format *
format_named (const char *name)
{
  for (size_t f = 0; f < NFORMATS; f++)
    if (!strcmp (name, formats[f].name))
      return &formats[f];
  return NULL;
}

/* The format names joined by SEP, the last two by LAST, in BUF.  */

static const char *
format_list (char *buf, size_t size, const char *sep, const char *last)
{
  size_t len = 0;
  buf[0] = '\0';
  for (size_t f = 0; f < NFORMATS && len < size; f++)
    len += (size_t) snprintf (buf + len, size - len, "%s%s",
                              !f ? "" : f + 1 < NFORMATS ? sep : last,
                              formats[f].name);
  return buf;
}

/* The model of kind KIND of SET, with the options O, into IN (in *STACKS or
   *LINES).  Return 0, or EXIT_DATA after a message.  */

static int
export_model (struct pf_set *set, enum export_model kind,
              const struct export_opts *o, struct export_input *in,
              struct stacks **stacks, struct lc_model *lines)
{
  int rc = 0;
  memset (in, 0, sizeof *in);
  in->set = set;
  switch (kind)
    {
    case EXPORT_EVENTS:
      break;
    case EXPORT_STACKS:
      in->stacks = *stacks = st_build (set, o->raw, &rc);
      break;
    case EXPORT_SAMPLES:
      in->stacks = *stacks = st_build_samples (set, o->raw, o->pp->dim,
                                               o->pp->nlabels, o->pp->labels,
                                               &rc);
      break;
    case EXPORT_LINES:
      rc = lc_build (set, lines);
      in->lines = lines;
      break;
    }
  return rc;
}

/* Format F of SET, with the options O, to OUT: its model built, then
   rendered.  Return 0 or EXIT_DATA.  */

static int
export_format (const struct export_format *f, struct pf_set *set,
               const struct export_opts *o, FILE *out)
{
  struct export_input in;
  struct stacks *stacks = NULL;
  struct lc_model lines;
  memset (&lines, 0, sizeof lines);
  int rc = export_model (set, f->model, o, &in, &stacks, &lines);
  if (!rc)
    rc = f->render (&in, out);
  st_free (stacks);
  lc_free (&lines);
  return rc;
}

/* --help before the options: the usage with the formats, each format's
   text.  */

static void
export_usage (FILE *out)
{
  char list[256];
  fprintf (out, "usage: dsprof export --format %s\n",
           format_list (list, sizeof list, "|", "|"));
  fputs ("                     [--raw] [--dim D] [--label D]... [--no-labels]\n"
         "                     [-o FILE] [PROFILE...]\n\n", out);
  for (size_t f = 0; f < NFORMATS; f++)
    {
      const char *h = formats[f].help;
      fprintf (out, "  %-10s", formats[f].name);
      for (const char *nl; (nl = strchr (h, '\n')); h = nl + 1)
        fprintf (out, "%s%.*s\n", h == formats[f].help ? "" : "            ",
                 (int) (nl - h), h);
    }
  putc ('\n', out);
}

static int export_run (const char *format, const char *output,
                       const struct export_opts *o, bool labels, int argc,
                       char **argv);

/* export's options.  */
struct export_cli
{
  const char *format, *output;
  struct pprof_opts pp;
  struct export_opts o;
  bool labels;                   /* --label or --no-labels given */
};

static int
set_dim (const char *cmd, char *arg, void *p)
{
  struct export_cli *x = p;
  x->pp.dim = arg;
  return check_dim_option (cmd, "--dim", arg);
}

static int
set_label (const char *cmd, char *arg, void *p)
{
  struct export_cli *x = p;
  if (!*arg)
    return usage_error (cmd, "--label wants a dimension name");
  x->pp.labels = XRESIZEVEC (const char *, x->pp.labels, x->pp.nlabels + 2);
  if (x->pp.nlabels < 0)
    x->pp.nlabels = 0;
  x->pp.labels[x->pp.nlabels++] = arg;
  x->labels = true;
  return 0;
}

static int
set_no_labels (const char *cmd, char *arg, void *p)
{
  (void) cmd, (void) arg;
  struct export_cli *x = p;
  x->pp.nlabels = 0;
  x->labels = true;
  return 0;
}

static const struct opt export_options[] = {
  { .name = "format", .letter = 'f', .arg = "F", .kind = OPT_STRING,
    .off = offsetof (struct export_cli, format),
    .help = "one of the above (required)" },
  { .name = "raw", .kind = OPT_FLAG,
    .off = offsetof (struct export_cli, o) + offsetof (struct export_opts, raw),
    .help = "folded, pprof: times without deducting the recorder's\ncost" },
  DEDUCED_OPT,
  { .name = "dim", .letter = 'd', .arg = "D", .kind = OPT_FUNC, .set = set_dim,
    .help = "pprof: stacks of D's values instead of names" },
  { .name = "label", .letter = 'l', .arg = "D", .kind = OPT_FUNC,
    .set = set_label,
    .help = "pprof: of the dimensions, only D (repeated: each D)\n"
            "as labels: fewer distinct sets, fewer samples" },
  { .name = "no-labels", .kind = OPT_FUNC, .set = set_no_labels,
    .help = "pprof: no labels, a sample per stack" },
  { .name = "output", .letter = 'o', .arg = "FILE", .kind = OPT_STRING,
    .off = offsetof (struct export_cli, output),
    .help = "write to FILE instead of standard output" },
  { 0 }
};

static int
run_export (int argc, char **argv)
{
  struct export_cli x = { .pp = { .nlabels = -1 } };
  x.o.pp = &x.pp;
  struct opt_operands ops;
  int ret = opt_parse (&cmd_export.cli, argc, argv, &x, &ops);
  char list[256];
  if (!ret && !x.format)
    ret = usage_error ("export", "--format %s is needed",
                       format_list (list, sizeof list, ", ", " or "));
  if (!ret)
    ret = export_run (x.format, x.output, &x.o, x.labels, ops.n, ops.v);
  free (x.pp.labels);
  free (ops.v);
  return ret == OPT_HELP ? 0 : ret;
}

/* export with the options parsed: FORMAT, OUTPUT, the options O (LABELS: the
   pprof labels given), the profiles ARGV[0 .. ARGC).  */

static int
export_run (const char *format, const char *output,
            const struct export_opts *o, bool labels, int argc, char **argv)
{
  const struct export_format *f = format_named (format);
  char list[256];
  if (!f)
    return usage_error ("export", "--format wants %s, not '%s'",
                        format_list (list, sizeof list, ", ", " or "), format);
  if ((o->pp->dim || labels) && f->model != EXPORT_SAMPLES)
    return usage_error ("export", "--dim, --label and --no-labels are for --format "
                        "pprof");
  struct pf_set set;
  int rc = load_profiles (argc, argv, &set);
  if (rc)
    return rc;
  struct output out;
  if (!(rc = output_open (&out, "export", output, 0)))
    {
      /* Written as read: no progress line amid it on the terminal.  */
      if (!out.path && isatty (STDOUT_FILENO))
        progress_off ();
      rc = export_format (f, &set, o, out.f);
      rc = output_finish (&out, rc);
    }
  pf_free (&set);
  return rc;
}

/* The usage and the formats are export_usage's, from the table.  */
const struct command cmd_export = {
  .summary = "the profile for other tools (chrome, folded, lcov, cobertura, "
             "csv, pprof, perfetto)",
  .run = run_export,
  .cli = { .name = "export", .usage_fn = export_usage, .opts = export_options }
};
