/* cmd-report.c - the dimension report `dsprof report` (docs/contract.md §5.3), the
   interactive `dsprof shell` (§5.5) and user-derived dimensions (§5.4).  */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "libiberty.h"
#include "hashtab.h"
#include "cmd.h"
#include "derive.h"
#include "model.h"

/* What a report without records says: where records come from.  */
static const char no_records[] =
  "\nNo profile records.  Records are the calls of events: functions marked\n"
  "__attribute__((dsprof_event)), every function with\n"
  "-fplugin-arg-dsprof-functions=all, the opcodes of a bytecode VM with\n"
  "-fplugin-arg-dsprof-dispatch=FUNC, what a selection file's event, call and\n"
  "dispatch lines name (-fplugin-arg-dsprof-select=FILE), dsprof_start; the\n"
  "counts are in `dsprof lines'.\n";

/* ---- the report ------------------------------------------------------------------ */

static void
put_time (FILE *out, int width, uint64_t ns, const struct text_unit *u)
{
  char buf[32];
  fprintf (out, "%*s", width, text_time (buf, sizeof buf, ns, u));
}

static double
pct (uint64_t part, uint64_t whole)
{
  return whole ? 100.0 * (double) part / (double) whole : 0.0;
}

/* Values too long or multi-line for a table get numbered footnotes.  */
struct notes
{
  htab_t index;                  /* value -> number (1-based) */
  const char **values;
  uint32_t n;
};

struct note
{
  const char *value;
  uint32_t number;
};

static hashval_t
note_hash (const void *p)
{
  return htab_hash_string (((const struct note *) p)->value);
}

static int
note_eq (const void *p, const void *q)
{
  return !strcmp (((const struct note *) p)->value, ((const struct note *) q)->value);
}

struct notes *
notes_new (void)
{
  struct notes *ns = XCNEW (struct notes);
  ns->index = htab_create_alloc (16, note_hash, note_eq, free, xcalloc, free);
  return ns;
}

void
notes_print (const struct notes *ns, FILE *out)
{
  if (!ns->n)
    return;
  fputc ('\n', out);
  for (uint32_t i = 0; i < ns->n; i++)
    {
      fprintf (out, "[%u] ", i + 1);
      text_plain (out, ns->values[i]);
      putc ('\n', out);
    }
}

void
notes_free (struct notes *ns)
{
  htab_delete (ns->index);
  free (ns->values);
  free (ns);
}

const char *
notes_shown (struct notes *ns, const char *value, char *buf)
{
  if (text_utf8_chars (value, strlen (value)) <= 25 && !strchr (value, '\n'))
    return value;
  struct note key = { value, 0 };
  void **slot = htab_find_slot (ns->index, &key, INSERT);
  if (!*slot)
    {
      struct note *n = XNEW (struct note);
      n->value = value;
      n->number = ++ns->n;
      *slot = n;
      ns->values = XRESIZEVEC (const char *, ns->values, ns->n);
      ns->values[ns->n - 1] = value;
    }
  sprintf (buf, "[%u]", ((struct note *) *slot)->number);
  return buf;
}

void
table_title (FILE *out, struct notes *ns, const char *dim, int level,
             const char **path)
{
  fputs ("\nBy ", out);
  text_plain (out, dim);
  if (level)
    fputs (" for ", out);
  for (int i = 0; i < level; i++)
    {
      char buf[32];
      fputs (i == 0 ? "" : i + 1 == level ? " and " : ", ", out);
      text_plain (out, notes_shown (ns, path[i], buf));
    }
}

struct printer
{
  const struct query *q;
  const struct rpt_model *m;
  const struct text_unit *unit;
  struct notes *notes;
  FILE *out;
};

/* The width of the text column of --sum dimension D: "Sum(D)", at least 12.  */

static int
sum_width (const char *d)
{
  size_t n = strlen (d) + 5;
  return n < 12 ? 12 : n > 64 ? 64 : (int) n;
}

static void
text_row (struct printer *p, const struct rpt_row *r)
{
  char buf[32];
  uint64_t profiled = p->m->profiled_ns;
  put_time (p->out, 10, r->total_ns, p->unit);
  fprintf (p->out, " %6.1f ", pct (r->total_ns, profiled));
  put_time (p->out, 10, r->self_ns, p->unit);
  fprintf (p->out, " %6.1f ", pct (r->self_ns, profiled));
  put_time (p->out, 10, r->desc_ns, p->unit);
  fprintf (p->out, " %6.1f %8" PRIu64 " %6.1f", pct (r->desc_ns, profiled),
           r->count, pct (r->count, p->m->records));
  for (int k = 0; k < p->m->nsums; k++)
    {
      char sum[64];
      fprintf (p->out, " %*s", sum_width (p->m->sums[k]),
               agg_sum_text (&r->sums[k], sum, sizeof sum));
    }
  fputs ("  ", p->out);
  text_plain (p->out, notes_shown (p->notes, r->value, buf));
  putc ('\n', p->out);
}

/* Table T under the rows PATH: "By D:" or "By D for v1 and v2:", then its
   shown rows.  */

static void
text_table (const struct rpt_table *t, const char **path, void *arg)
{
  struct printer *p = arg;
  table_title (p->out, p->notes, p->q->dims[t->level], t->level, path);
  fprintf (p->out, ":\n\n %9s %6s %10s %6s %10s %6s %8s %6s", "Total",
           "Total%", "Self", "Self%", "Desc", "Desc%", "Count", "Count%");
  for (int k = 0; k < p->m->nsums; k++)
    {
      fprintf (p->out, " %*sSum(", sum_width (p->m->sums[k]) - 5
               - (int) strlen (p->m->sums[k]), "");
      text_plain (p->out, p->m->sums[k]);
      putc (')', p->out);
    }
  fputs ("  Value\n", p->out);
  uint32_t k = rpt_shown (t, p->q->top);
  for (uint32_t j = 0; j < k; j++)
    text_row (p, &t->rows[j]);
}

static void
print_text (struct printer *p)
{
  const struct rpt_model *m = p->m;
  fprintf (p->out, "Total time: ");
  put_time (p->out, 0, m->total_ns, p->unit);
  fprintf (p->out, " %s\nProfiled time: ", p->unit->name);
  put_time (p->out, 0, m->profiled_ns, p->unit);
  fprintf (p->out, " %s (%.1f%%)\nProfile records: %" PRIu64 "\n", p->unit->name,
           pct (m->profiled_ns, m->total_ns), m->records);
  char share[256];
  fprintf (p->out, "Instrumentation: %s\n",
           agg_share_line (&m->share, m->total_ns, share, sizeof share));
  const char *clamp = agg_clamp_line (&m->share, share, sizeof share);
  if (clamp)
    fprintf (p->out, "Deduction: %s\n", clamp);
  if (pf_cpu_line (&m->cpu, 1e6, 3, "ms", share, sizeof share))
    fprintf (p->out, "CPU time: %s\n", share);
  if (m->off_intervals)
    {
      fprintf (p->out, "Events off: ");
      put_time (p->out, 0, m->off_ns, p->unit);
      fprintf (p->out, " %s in %u interval%s (dsprof ctl, DSPROF_EVENTS)\n",
               p->unit->name, m->off_intervals, m->off_intervals > 1 ? "s" : "");
    }
  if (m->records == 0)
    {
      if (p->q->nfilters)
        fprintf (p->out, "\nNo profile records pass the --where filters.\n");
      else
        fputs (no_records, p->out);
      return;
    }
  const char **path = XCNEWVEC (const char *, m->ndims + 1);
  for (int level = 0; level < m->ndims; level++)
    rpt_each_table (m, level, p->q->top, path, text_table, p);
  free (path);
  notes_print (p->notes, p->out);
}

/* The shown rows of table T under the rows PATH, one CSV line each.  */

static void
csv_table (const struct rpt_table *t, const char **path, void *arg)
{
  struct printer *p = arg;
  uint64_t profiled = p->m->profiled_ns;
  uint32_t k = rpt_shown (t, p->q->top);
  for (uint32_t i = 0; i < k; i++)
    {
      const struct rpt_row *r = &t->rows[i];
      fprintf (p->out, "%d", t->level + 1);
      for (int d = 0; d < p->m->ndims; d++)
        {
          putc (',', p->out);
          if (d <= t->level)
            text_csv (p->out, d < t->level ? path[d] : r->value);
        }
      fprintf (p->out, ",%" PRIu64 ",%.2f,%" PRIu64 ",%.2f,%" PRIu64 ",%.2f,%"
               PRIu64 ",%.2f", r->total_ns, pct (r->total_ns, profiled),
               r->self_ns, pct (r->self_ns, profiled), r->desc_ns,
               pct (r->desc_ns, profiled), r->count, pct (r->count, p->m->records));
      for (int k = 0; k < p->m->nsums; k++)
        {
          char sum[64];
          putc (',', p->out);
          text_csv (p->out, agg_sum_text (&r->sums[k], sum, sizeof sum));
        }
      putc ('\n', p->out);
    }
}

static void
print_csv (struct printer *p)
{
  fputs ("level", p->out);
  for (int d = 0; d < p->m->ndims; d++)
    {
      putc (',', p->out);
      text_csv (p->out, p->m->dims[d]);
    }
  fputs (",total_ns,total_pct,self_ns,self_pct,desc_ns,desc_pct,count,count_pct",
         p->out);
  for (int k = 0; k < p->m->nsums; k++)
    {
      char *h = concat ("sum(", p->m->sums[k], ")", NULL);
      putc (',', p->out);
      text_csv (p->out, h);
      free (h);
    }
  putc ('\n', p->out);
  /* Level by level, as the text tables.  */
  const char **path = XCNEWVEC (const char *, p->m->ndims + 1);
  for (int level = 0; level < p->m->ndims; level++)
    rpt_each_table (p->m, level, p->q->top, path, csv_table, p);
  free (path);
}

void
json_sums (FILE *out, const struct agg_sum *sums, int nsums)
{
  for (int k = 0; k < nsums; k++)
    {
      char sum[64];
      fputs (k ? "," : ",\"sums\":[", out);
      fputs (agg_sum_finite (&sums[k]) ? agg_sum_text (&sums[k], sum, sizeof sum)
             : "null", out);
    }
  if (nsums)
    putc (']', out);
}

static void
json_rows (struct printer *p, const struct rpt_table *t)
{
  fputs ("[", p->out);
  uint32_t k = rpt_shown (t, p->q->top);
  for (uint32_t i = 0; i < k; i++)
    {
      const struct rpt_row *r = &t->rows[i];
      fprintf (p->out, "%s{\"dim\":", i ? "," : "");
      text_json (p->out, p->m->dims[t->level]);
      fputs (",\"value\":", p->out);
      text_json (p->out, r->value);
      fprintf (p->out, ",\"total_ns\":%" PRIu64 ",\"self_ns\":%" PRIu64
               ",\"desc_ns\":%" PRIu64 ",\"count\":%" PRIu64, r->total_ns,
               r->self_ns, r->desc_ns, r->count);
      if (r->clamped)
        fprintf (p->out, ",\"clamped\":%" PRIu64, r->clamped);
      json_sums (p->out, r->sums, p->m->nsums);
      if (r->sub && r->sub->nrows)
        {
          fputs (",\"rows\":", p->out);
          json_rows (p, r->sub);
        }
      fputs ("}", p->out);
    }
  fputs ("]", p->out);
}

static void
print_json (struct printer *p)
{
  const struct agg_share *s = &p->m->share;
  fprintf (p->out, "{\"total_ns\":%" PRIu64 ",\"profiled_ns\":%" PRIu64
           ",\"records\":%" PRIu64 ",\"instrumentation\":{\"cost_ns\":%.0f,"
           "\"events\":%" PRIu64 ",\"measured_threads\":%u,\"threads\":%u,"
           "\"failed\":%s,\"clamped_records\":%" PRIu64 ",\"clamped_ns\":%.0f},"
           "\"dims\":[", p->m->total_ns, p->m->profiled_ns, p->m->records,
           s->cost_ns, s->events, s->measured, s->streams,
           agg_share_failed (s, p->m->total_ns) ? "true" : "false",
           s->clamped, s->clamped_ns);
  for (int d = 0; d < p->m->ndims; d++)
    {
      if (d)
        putc (',', p->out);
      text_json (p->out, p->m->dims[d]);
    }
  for (int k = 0; k < p->m->nsums; k++)
    {
      fputs (k ? "," : "],\"sums\":[", p->out);
      text_json (p->out, p->m->sums[k]);
    }
  fputs ("]", p->out);
  const struct pf_cpu *c = &p->m->cpu;
  if (c->procs)
    fprintf (p->out, ",\"cpu\":{\"run_ns\":%" PRIu64 ",\"cpu_ns\":%" PRIu64
             ",\"run_delay_ns\":%" PRIu64 ",\"run_delay_threads\":%" PRIu64 "}",
             c->run_ns, c->cpu_ns, c->delay_ns, c->delay_threads);
  fputs (",\"rows\":", p->out);
  json_rows (p, p->m->top);
  fputs ("}\n", p->out);
}

int
run_report (struct pf_set *set, const struct query *q, FILE *out)
{
  struct rpt_model m;
  int rc = rpt_build (set, q, &m);
  if (rc)
    return rc;
  struct printer p;
  memset (&p, 0, sizeof p);
  p.q = q;
  p.m = &m;
  p.unit = text_unit_pick (q->unit, m.total_ns);
  p.out = out;
  p.notes = notes_new ();
  if (!strcmp (q->format, "csv"))
    print_csv (&p);
  else if (!strcmp (q->format, "json"))
    print_json (&p);
  else
    print_text (&p);
  notes_free (p.notes);
  rpt_free (&m);
  return 0;
}

/* Parse the options of `report`, `shell` and `diff` into Q.  */

void
query_init (struct query *q, int argc)
{
  memset (q, 0, sizeof *q);
  q->format = "text";
  q->filters = XCNEWVEC (struct agg_filter, argc + 1);
  q->sums = XCNEWVEC (const char *, argc + 1);
}

void
query_free_filters (struct query *q)
{
  for (int i = 0; i < q->nfilters; i++)
    free ((char *) q->filters[i].dim);
  free (q->filters);
  free (q->sums);
}

static const struct option report_longopts[] = {
  { "where", required_argument, NULL, 'w' },
  { "unit", required_argument, NULL, 'u' },
  { "top", required_argument, NULL, 't' },
  { "format", required_argument, NULL, 'f' },
  { "raw", no_argument, NULL, 'r' },
  { "derive", required_argument, NULL, 'd' },
  { "sum", required_argument, NULL, 's' },
  { "profile", required_argument, NULL, 'p' },
  { "help", no_argument, NULL, 'h' },
  { NULL, 0, NULL, 0 }
};

/* Whether getopt's return C is one of X's options.  */

static bool
extra_option (const struct query_cmd *x, int c)
{
  if (!x || c == ':' || c == '?')
    return false;
  if (x->shortopts && c < 256 && strchr (x->shortopts, c))
    return true;
  for (const struct option *o = x->longopts; o && o->name; o++)
    if (o->val == c)
      return true;
  return false;
}

/* Handle report's option C (getopt's return) into Q for command CMD.  */

static int
report_option (const char *cmd, int c, char **argv, struct query *q, bool *help)
{
  switch (c)
    {
    case 'w':
      if (!parse_filter (optarg, &q->filters[q->nfilters++]))
        return usage_error (cmd, "--where wants DIM=VALUE or DIM!=VALUE, not '%s'",
                            optarg);
      return check_dim (cmd, q->filters[q->nfilters - 1].dim);
    case 'u':
      if (!text_unit_pick (optarg, 0))
        return usage_error (cmd, "--unit must be ns, us, ms or s, not '%s'", optarg);
      q->unit = optarg;
      return 0;
    case 't':
      {
        char *end;
        errno = 0;
        q->top = strtol (optarg, &end, 10);
        if (errno || *end || q->top <= 0)
          return usage_error (cmd, "--top wants a positive number, not '%s'",
                              optarg);
      }
      return 0;
    case 'f':
      if (strcmp (optarg, "text") && strcmp (optarg, "csv")
          && strcmp (optarg, "json"))
        return usage_error (cmd, "--format must be text, csv or json, not '%s'",
                            optarg);
      q->format = optarg;
      return 0;
    case 'r':
      q->raw = true;
      return 0;
    case 'd':
      q->derive = optarg;
      return 0;
    case 's':
      if (!*optarg)
        return usage_error (cmd, "--sum wants a dimension name");
      if (check_dim (cmd, optarg))
        return EXIT_USAGE;
      q->sums[q->nsums++] = optarg;
      return 0;
    case 'p':
      /* Profiles, for the shell: collected by the caller.  */
      return 0;
    case 'h':
      *help = true;
      return 0;
    default:
      return option_error (cmd, c, argv);
    }
}

/* Parse the options of ARGV[1 .. ARGC) into Q (and X's), up to the first
   operand (getopt's "+"): optind is then its index.  */

static int
parse_report_opts (const char *cmd, int argc, char **argv, struct query *q,
                   const struct query_cmd *x, bool *help)
{
  size_t nreport = sizeof report_longopts / sizeof report_longopts[0] - 1;
  size_t nextra = 0;
  while (x && x->longopts && x->longopts[nextra].name)
    nextra++;
  struct option *longopts = XNEWVEC (struct option, nreport + nextra + 1);
  memcpy (longopts, report_longopts, nreport * sizeof *longopts);
  if (nextra)
    memcpy (longopts + nreport, x->longopts, nextra * sizeof *longopts);
  memset (&longopts[nreport + nextra], 0, sizeof *longopts);
  char *shortopts = concat ("+:w:u:t:f:s:p:h", x && x->shortopts ? x->shortopts : "",
                            NULL);
  int c, rc = 0;
  opterr = 0;
  optind = 1;
  while (!rc && !*help
         && (c = getopt_long (argc, argv, shortopts, longopts, NULL)) != -1)
    rc = extra_option (x, c) ? x->option (c, optarg, x->arg)
         : report_option (cmd, c, argv, q, help);
  free (longopts);
  free (shortopts);
  return rc;
}

int
query_parse (const struct query_cmd *x, int argc, char **argv, struct query *q,
             bool *help)
{
  bool dashdash = false;
  int rc = 0;
  /* getopt stops at the first operand ("+"); hand it over and go on.  After
     `--` (getopt ends there too) every argument is an operand.  */
  int i = 1;
  while (!rc && !*help && i < argc)
    {
      if (!dashdash)
        {
          int sub_argc = argc - i + 1;
          char **sub = argv + i - 1;
          rc = parse_report_opts (x->name, sub_argc, sub, q, x, help);
          i += optind - 1;
          dashdash = optind > 1 && !strcmp (sub[optind - 1], "--");
          if (rc || *help || i >= argc)
            break;
        }
      rc = x->operand (argv[i], dashdash, x->arg);
      i++;
    }
  return rc;
}

/* report's operands: profiles and dimensions.  */
struct report_args
{
  struct query *q;
  const char **profiles;
  int nprofiles;
};

static int
report_operand (char *arg, bool dashdash, void *p)
{
  struct report_args *a = p;
  if (dashdash || looks_like_profile (arg))
    a->profiles[a->nprofiles++] = arg;
  else if (check_dim ("report", arg))
    return EXIT_USAGE;
  else
    a->q->dims[a->q->ndims++] = arg;
  return 0;
}

static int
run_report_cmd (int argc, char **argv)
{
  struct query q;
  query_init (&q, argc);
  q.dims = XCNEWVEC (const char *, argc + 1);
  struct report_args a = { &q, XCNEWVEC (const char *, argc + 1), 0 };
  struct query_cmd x = { "report", NULL, NULL, NULL, report_operand, &a };
  bool help = false;
  int rc = query_parse (&x, argc, argv, &q, &help);
  if (!rc && help)
    rc = print_help (&cmd_report);
  else if (!rc)
    {
      if (q.ndims == 0)
        q.dims[q.ndims++] = "name";
      if (q.derive)
        rc = derive_load (q.derive);
      struct pf_set set;
      if (!rc && !(rc = load_profiles (a.nprofiles, (char **) a.profiles, &set)))
        {
          pf_warn_no_dispatch (&set);
          rc = run_report (&set, &q, stdout);
          if (!rc)
            rc = close_output ("report", NULL, stdout);
          pf_free (&set);
        }
    }
  query_free_filters (&q);
  free (q.dims);
  free (a.profiles);
  return rc;
}

const struct command cmd_report = {
  "report", "dimension report: Total/Self/Desc time and Count", run_report_cmd,
  "usage: dsprof report [DIM...] [OPTIONS] [PROFILE...]\n\n"
  "The domain-specific profile: records bucketed by DIM (default: name), then\n"
  "nested by each further DIM (`By D2 for v1:`).  Columns: Total (the time of\n"
  "the bucket's records and everything they demanded, each instant once),\n"
  "Self (their own time), Desc (Total - Self), Count, each with its share of\n"
  "the profiled time (Count: of the records).  Rows by Total, then Count, then\n"
  "value; values over 25 characters become [n] footnotes.  An argument that\n"
  "names an existing file, holds a '/' or a \".data\" is a profile (`--` makes\n"
  "the rest profiles).\n"
  "Dimensions: recorded ones (`dsprof dims` lists them) and the derived depth,\n"
  "parent, location, depends-on, children, site, and outer:D, D's value on the\n"
  "nearest enclosing record that carries D (none: the empty value).\n\n"
  "  --where DIM=VALUE    only records whose DIM is VALUE (repeatable; all hold)\n"
  "  --where DIM!=VALUE   only records whose DIM is not VALUE\n"
  "  --unit ns|us|ms|s    time unit (default: one that suits the largest figure)\n"
  "  --top N              at most N rows per table\n"
  "  --format text|csv|json\n"
  "  --raw                times as recorded, without deducting the recorder's\n"
  "                       measured cost per event\n"
  "  --derive LIB.so      dimensions computed by a library (dsprof-derive.h)\n"
  "  --sum D              a column Sum(D): the sum of D over each row's records,\n"
  "                       of those whose D is a number (an integer, a double, a\n"
  "                       bool as 0 or 1); repeatable, one column each\n"
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
            printf ("outer:D wants a dimension D, not '%s'\n", f.dim);
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
  else if (!strcmp (words[0], "format")
           && (!strcmp (words[1], "text") || !strcmp (words[1], "csv")
               || !strcmp (words[1], "json")))
    q->format = !strcmp (words[1], "csv") ? "csv"
                : !strcmp (words[1], "json") ? "json" : "text";
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
        printf ("outer:D wants a dimension D, not '%s'\n", words[1]);
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
            printf ("outer:D wants a dimension D, not '%s'\n", words[i]);
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

static int
run_shell (int argc, char **argv)
{
  struct shell sh;
  memset (&sh, 0, sizeof sh);
  query_init (&sh.q, argc);
  bool help = false;
  int rc = parse_report_opts ("shell", argc, argv, &sh.q, NULL, &help);
  if (rc || help)
    {
      query_free_filters (&sh.q);
      return rc ? rc : print_help (&cmd_shell);
    }
  /* --where filters are the shell's first `where`s.  */
  sh.filters = sh.q.filters;
  sh.nfilters = sh.q.nfilters;
  for (int i = 0; i < sh.nfilters; i++)
    sh.filters[i].value = xstrdup (sh.filters[i].value);
  if ((sh.q.derive && (rc = derive_load (sh.q.derive)))
      || (rc = load_profiles (argc - optind, argv + optind, &sh.set)))
    {
      free_filters (sh.filters, sh.nfilters);
      free (sh.q.sums);
      return rc;
    }
  rc = shell_loop (&sh);
  free_filters (sh.filters, sh.nfilters);
  free (sh.q.sums);
  free (sh.sum);
  pf_free (&sh.set);
  return rc ? rc : close_output ("shell", NULL, stdout);
}

const struct command cmd_shell = {
  "shell", "interactive dimension reports", run_shell,
  "usage: dsprof shell [OPTIONS] [PROFILE...]\n\n"
  "Read commands, one per line, from a terminal (with line editing and\n"
  "history) or from piped input, and print reports:\n\n"
  SHELL_HELP
  "\nOptions: report's (--where, --unit, --top, --format, --raw, --derive, --sum),\n"
  "the settings the shell starts with.\n"
};
