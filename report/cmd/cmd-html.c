/* cmd-html.c - `dsprof html` (docs/contract.md §5.8): the profile as one
   self-contained HTML page.  Its options and the choice of what the page
   shows; the models are page.h's (model/page.c), the page html.h's
   (render/html-page.c, which tells what it holds).  */

#include <errno.h>
#include <getopt.h>
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
      if (looks_like_profile (s))
        return usage_error ("html", "--dims: '%s' is a profile, not a "
                            "dimension (an existing file, or a name with "
                            "a '/' or a \".data\")", s);
      if (check_dim ("html", s))
        return EXIT_USAGE;
      q->dims[q->ndims++] = s;
      if (!comma)
        break;
    }
  return 0;
}

/* The page of query Q over the profiles of ARGV[optind ..] (compared with
   the NBASES BASES with --diff) to OUTPUT: its models (page.h), then the
   page (html.h).  */

static int
html_run (int argc, char **argv, const char *output, const struct query *q,
          long nlines, uint64_t max_records, char **bases, int nbases)
{
  struct pf_set set, base;
  memset (&base, 0, sizeof base);
  int rc = nbases ? diff_load_side (nbases, bases, &base) : 0;
  if (!rc && !(rc = load_profiles (argc - optind, argv + optind, &set)))
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

/* run_html with SUMS, room for the --sum dimensions of ARGV.  */

static int
html_main (int argc, char **argv, const char **sums, char **bases)
{
  static const struct option longopts[] = {
    { "output", required_argument, NULL, 'o' },
    { "dims", required_argument, NULL, 'd' },
    { "top", required_argument, NULL, 't' },
    { "lines", required_argument, NULL, 'l' },
    { "records", required_argument, NULL, 'n' },
    { "raw", no_argument, NULL, 'r' },
    { "sum", required_argument, NULL, 's' },
    { "diff", required_argument, NULL, 'D' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  const char *output = NULL;
  char *dims = NULL;
  int nbases = 0;
  long top = 100, nlines = 25, max_records = 4000;
  bool raw = false;
  int c, nsums = 0;
  opterr = 0;
  while ((c = getopt_long (argc, argv, ":o:h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'o': output = optarg; break;
      case 'd': dims = optarg; break;
      case 't':
        if (!parse_count (optarg, &top))
          return usage_error ("html", "--top wants a number, not '%s'", optarg);
        break;
      case 'l':
        if (!parse_count (optarg, &nlines))
          return usage_error ("html", "--lines wants a number, not '%s'", optarg);
        break;
      case 'n':
        if (!parse_count (optarg, &max_records))
          return usage_error ("html", "--records wants a number, not '%s'", optarg);
        break;
      case 'r': raw = true; break;
      case 's':
        if (!*optarg)
          return usage_error ("html", "--sum wants a dimension name");
        if (check_dim ("html", optarg))
          return EXIT_USAGE;
        sums[nsums++] = optarg;
        break;
      case 'D': bases[nbases++] = optarg; break;
      case 'h': return print_help (&cmd_html);
      default: return option_error ("html", c, argv);
      }

  struct query q;
  char *dimcopy;
  int rc = html_query (dims, raw, top, sums, nsums, &q, &dimcopy);
  if (!rc)
    rc = html_run (argc, argv, output, &q, nlines, (uint64_t) max_records,
                   bases, nbases);
  free (q.dims);
  free (dimcopy);
  return rc;
}

static int
run_html (int argc, char **argv)
{
  const char **sums = XCNEWVEC (const char *, argc + 1);
  char **bases = XCNEWVEC (char *, argc + 1);
  int rc = html_main (argc, argv, sums, bases);
  free (sums);
  free (bases);
  return rc;
}

const struct command cmd_html = {
  "html", "the profile as one self-contained HTML page", run_html,
  "usage: dsprof html [-o FILE] [--dims D1,D2...] [OPTIONS] [PROFILE...]\n\n"
  "Write one HTML page (styles, script and SVG inline; nothing is fetched):\n"
  "a summary linking to each view, an icicle graph of the record tree (one box\n"
  "per record, or per name path when there are more than --records records;\n"
  "click a box to zoom, search the names, hover for a box's dimensions and\n"
  "times), the hottest source lines with their text, the dimension report\n"
  "along D1,D2... (default: name) as sortable tables, the call graph, the\n"
  "coverage summary and the source view with line and branch counts.  Views\n"
  "that would be empty are left out (a counters-only profile: coverage first).\n\n"
  "  -o, --output FILE   write to FILE instead of standard output\n"
  "      --dims D1,D2... the dimensions of the report tables\n"
  "      --top N         at most N rows per table (default 100, 0: all)\n"
  "      --lines N       the N hottest source lines (default 25)\n"
  "      --records N     one box per record up to N records (default 4000),\n"
  "                      else one per name path\n"
  "      --raw           report times as recorded, without deducting the\n"
  "                      recorder's measured cost per event\n"
  "      --sum D         a column Sum(D) in the tables, as `dsprof report --sum`\n"
  "                      (repeatable)\n"
  "      --diff BASE     compare with BASE (a profile or a directory of them;\n"
  "                      repeatable, a group), as `dsprof diff BASE PROFILE...`:\n"
  "                      the tables with both sides and the change, the icicle\n"
  "                      graph by name path coloured by the change (red slower,\n"
  "                      blue faster), the changed source lines instead of the\n"
  "                      hottest\n"
};
