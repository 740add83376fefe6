/* cmd-html.c - `dsprof html` (docs/contract.md §5.8): the profile as one
   self-contained HTML page.  Its options and the choice of what the page
   shows; the models are page.h's (model/page.c), the page html.h's
   (render/html-page.c, which tells what it holds).  */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "cmd.h"
#include "diff.h"
#include "html.h"
#include "page.h"

static bool
parse_count (const char *arg, long *n)
{
  char *end;
  errno = 0;
  *n = strtol (arg, &end, 10);
  return !errno && !*end && *n >= 0 && end != arg;
}

struct html_opts
{
  const char *output, *dims;
  long top, nlines, max_records;
  bool raw;
  struct opt_list sums, bases;
};

/* The query of --dims DIMS (NULL: name), --raw, --top and the NSUMS --sum
   dimensions SUMS into *Q, the dimension names in *DIMCOPY (free both
   Q->dims and *DIMCOPY).  Return 0 or EXIT_USAGE after the message.  */

static int
html_query (const char *dims, bool raw, long top, const char **sums, int nsums,
            struct query *q, char **dimcopy)
{
  memset (q, 0, sizeof *q);
  q->raw = raw;
  q->top = top;
  q->nsums = nsums;
  q->sums = sums;
  *dimcopy = xstrdup (dims ? dims : "name");
  q->dims = XCNEWVEC (const char *, strlen (*dimcopy) + 2);
  for (char *s = *dimcopy, *comma;; s = comma + 1)
    {
      comma = strchr (s, ',');
      if (comma)
        *comma = '\0';
      if (!*s)
        return usage_error ("html", "--dims wants D1,D2,... without empty names, "
                            "not '%s'", dims);
      if (check_dim_option ("html", "--dims", s))
        return EXIT_USAGE;
      q->dims[q->ndims++] = s;
      if (!comma)
        break;
    }
  return 0;
}

/* The page of query Q over the profiles ARGV[0 .. ARGC) (compared with
   the NBASES BASES with --diff) to OUTPUT: its models (page.h), then the
   page (html.h).  */

static int
html_run (int argc, char **argv, const char *output, const struct query *q,
          long nlines, uint64_t max_records, char **bases, int nbases)
{
  struct pf_set set, base;
  memset (&base, 0, sizeof base);
  int rc = nbases ? diff_load_side (nbases, bases, &base) : 0;
  if (!rc && !(rc = load_profiles (argc, argv, &set)))
    {
      struct output out;
      if (!(rc = output_open (&out, "html", output, 0)))
        {
          struct page_models m;
          rc = page_build (&set, nbases ? &base : NULL, q, max_records, &m);
          html_page (out.f, &set, nbases ? &base : NULL, q, nlines, max_records,
                     &m);
          rc = output_finish (&out, rc);
          page_free (&m);
        }
      pf_free (&set);
    }
  pf_free (&base);
  return rc;
}


/* Set FIELD (a long) to ARG, the count option OPT of command CMD wants.  */

static int
set_count (const char *cmd, const char *opt, char *arg, void *field)
{
  if (!parse_count (arg, field))
    return usage_error (cmd, "%s wants a number, not '%s'", opt, arg);
  return 0;
}

static int
set_top (const char *cmd, char *arg, void *field)
{
  return set_count (cmd, "--top", arg, field);
}

static int
set_lines (const char *cmd, char *arg, void *field)
{
  return set_count (cmd, "--lines", arg, field);
}

static int
set_records (const char *cmd, char *arg, void *field)
{
  return set_count (cmd, "--records", arg, field);
}

static int
set_sum (const char *cmd, char *arg, void *field)
{
  if (!*arg)
    return usage_error (cmd, "--sum wants a dimension name");
  if (check_dim (cmd, arg))
    return EXIT_USAGE;
  opt_list_add (field, arg);
  return 0;
}

static const struct opt html_opts[] = {
  { .name = "output", .letter = 'o', .arg = "FILE", .kind = OPT_STRING,
    .off = offsetof (struct html_opts, output),
    .help = "write to FILE instead of standard output" },
  { .name = "dims", .arg = "D1,D2...", .kind = OPT_STRING,
    .off = offsetof (struct html_opts, dims),
    .help = "the dimensions of the report tables" },
  { .name = "top", .arg = "N", .kind = OPT_FUNC, .set = set_top,
    .off = offsetof (struct html_opts, top),
    .help = "at most N rows per table (default 100, 0: all)" },
  { .name = "lines", .arg = "N", .kind = OPT_FUNC, .set = set_lines,
    .off = offsetof (struct html_opts, nlines),
    .help = "the N hottest source lines (default 25)" },
  { .name = "records", .arg = "N", .kind = OPT_FUNC, .set = set_records,
    .off = offsetof (struct html_opts, max_records),
    .help = "one box per record up to N records (default 4000),\n"
            "else one per name path" },
  { .name = "raw", .kind = OPT_FLAG, .off = offsetof (struct html_opts, raw),
    .help = "report times as recorded, without deducting the\n"
            "recorder's measured cost per event" },
  DEDUCED_OPT,
  { .name = "sum", .arg = "D", .kind = OPT_FUNC, .set = set_sum,
    .off = offsetof (struct html_opts, sums),
    .help = "a column Sum(D) in the tables, as `dsprof report --sum`\n"
            "(repeatable)" },
  { .name = "diff", .arg = "BASE", .kind = OPT_LIST,
    .off = offsetof (struct html_opts, bases),
    .help = "compare with BASE (a profile or a directory of them;\n"
            "repeatable, a group), as `dsprof diff BASE PROFILE...`:\n"
            "the tables with both sides and the change, the icicle\n"
            "graph by name path coloured by the change (red slower,\n"
            "blue faster), the changed source lines instead of the\n"
            "hottest" },
  { 0 }
};

/* run_html with the options O, the profiles ARGV[0 .. ARGC).  */

static int
html_main (const struct html_opts *o, int argc, char **argv)
{
  const char *dims = o->dims;
  char **bases = o->bases.v;
  int nbases = o->bases.n;
  struct query q;
  char *dimcopy;
  int rc = html_query (dims, o->raw, o->top, (const char **) o->sums.v, o->sums.n,
                       &q, &dimcopy);
  if (!rc)
    rc = html_run (argc, argv, o->output, &q, o->nlines,
                   (uint64_t) o->max_records, bases, nbases);
  free (q.dims);
  free (dimcopy);
  return rc;
}

static int
run_html (int argc, char **argv)
{
  struct html_opts o = { .top = 100, .nlines = 25, .max_records = 4000 };
  struct opt_operands ops;
  int rc = opt_parse (&cmd_html.cli, argc, argv, &o, &ops);
  if (!rc)
    rc = html_main (&o, ops.n, ops.v);
  free (o.sums.v);
  free (o.bases.v);
  free (ops.v);
  return rc == OPT_HELP ? 0 : rc;
}

const struct command cmd_html = {
  .summary = "the profile as one self-contained HTML page",
  .run = run_html,
  .cli = {
    .name = "html", .opts = html_opts,
    .usage =
  "usage: dsprof html [-o FILE] [--dims D1,D2...] [OPTIONS] [PROFILE...]\n\n"
  "Write one HTML page (styles, script and SVG inline; nothing is fetched): a\n"
  "summary linking to each view, an icicle graph of the record tree (one box\n"
  "per record, or per name path when there are more than --records records;\n"
  "click a box to zoom, search the names, hover for a box's dimensions and\n"
  "times), with op records the opcodes and the opcode pairs and sequences of 3\n"
  "and 4 (prev:name name, seq3:name, seq4:name, most frequent first), the\n"
  "hottest source lines with their text, the dimension report along D1,D2...\n"
  "(default: name) as sortable tables, the call graph, the coverage summary and\n"
  "the source view with line and branch counts.  Views that would be empty are\n"
  "left out (a counters-only profile: coverage first).\n\n"
  }
};
