/* cmd-report.c - the dimension report `dsprof report` (docs/contract.md §5.3), the
   interactive `dsprof shell` (§5.5) and user-derived dimensions (§5.4).  */

#include <dlfcn.h>
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
#include "dsprof-derive.h"

/* ---- user-derived dimensions ---------------------------------------------------- */

/* The accessors of dsprof-derive.h, exported to the --derive library.  A
   struct dsprof_record is an ev_record.  */

#define REC(r) ((const struct ev_record *) (r))

const char *
dsprof_record_dim (const struct dsprof_record *r, const char *dim, char *buf,
                   size_t size)
{
  return agg_dim_text (REC (r), dim, buf, size);
}

const struct dsprof_record *
dsprof_record_parent (const struct dsprof_record *r)
{
  return (const struct dsprof_record *) REC (r)->parent;
}

unsigned
dsprof_record_nchildren (const struct dsprof_record *r)
{
  return REC (r)->nchildren;
}

const struct dsprof_record *
dsprof_record_child (const struct dsprof_record *r, unsigned i)
{
  return i < REC (r)->nchildren
           ? (const struct dsprof_record *) REC (r)->children[i] : NULL;
}

unsigned long long
dsprof_record_ns (const struct dsprof_record *r)
{
  return REC (r)->end_ns - REC (r)->start_ns;
}

static dsprof_derive_fn *user_derive;

static const char *
derive_hook (const struct ev_record *r, const char *dim, char *buf, size_t size)
{
  return user_derive ((const struct dsprof_record *) r, dim, buf, size);
}

int
derive_load (const char *path)
{
  /* dlopen searches the library path for a bare name; a path is meant.  */
  char *p = strchr (path, '/') ? xstrdup (path) : concat ("./", path, NULL);
  void *h = dlopen (p, RTLD_NOW | RTLD_LOCAL);
  free (p);
  if (!h)
    {
      fprintf (stderr, "dsprof: --derive %s: %s\n", path, dlerror ());
      return EXIT_USAGE;
    }
  user_derive = (dsprof_derive_fn *) dlsym (h, "dsprof_derive");
  if (!user_derive)
    {
      fprintf (stderr, "dsprof: --derive %s: the library defines no "
               "dsprof_derive function (see dsprof-derive.h)\n", path);
      return EXIT_USAGE;
    }
  agg_set_derive (derive_hook);
  return 0;
}

/* ---- the report ------------------------------------------------------------------ */

struct report_ctx
{
  struct agg *agg;
  const struct query *q;
  uint64_t last_ns;              /* of the current process */
};

static void
report_begin (const struct pf_process *p, const struct ev_stream *s, void *arg)
{
  (void) s;
  struct report_ctx *c = arg;
  agg_begin_stream (c->agg, c->q->raw ? 0 : p->header.pair_overhead_ps);
}

static int
report_record (struct ev_record *r, void *arg)
{
  struct report_ctx *c = arg;
  if (r->end_ns > c->last_ns)
    c->last_ns = r->end_ns;
  return agg_record (r, c->agg);
}

/* Rows of the report in order: for each bucket its sorted children.  */
struct tree
{
  const struct agg *agg;
  uint32_t n;
  uint32_t *first, *count;       /* children of bucket b: kids[first[b] ..] */
  uint32_t *kids;
};

static const struct agg *sort_agg;

static int
cmp_bucket (const void *a, const void *b)
{
  const struct agg_bucket *x = agg_bucket (sort_agg, *(const uint32_t *) a);
  const struct agg_bucket *y = agg_bucket (sort_agg, *(const uint32_t *) b);
  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (x->value, y->value);
}

static void
tree_build (struct tree *t, const struct agg *a)
{
  t->agg = a;
  t->n = agg_nbuckets (a);
  t->first = XCNEWVEC (uint32_t, t->n + 2);
  t->count = XCNEWVEC (uint32_t, t->n + 2);
  t->kids = XNEWVEC (uint32_t, t->n + 1);
  for (uint32_t b = 1; b <= t->n; b++)
    t->count[agg_bucket (a, b)->parent]++;
  uint32_t at = 0;
  for (uint32_t b = 0; b <= t->n; b++)
    {
      t->first[b] = at;
      at += t->count[b];
      t->count[b] = 0;
    }
  for (uint32_t b = 1; b <= t->n; b++)
    {
      uint32_t p = agg_bucket (a, b)->parent;
      t->kids[t->first[p] + t->count[p]++] = b;
    }
  sort_agg = a;
  for (uint32_t b = 0; b <= t->n; b++)
    qsort (t->kids + t->first[b], t->count[b], sizeof *t->kids, cmp_bucket);
}

static void
tree_free (struct tree *t)
{
  free (t->first);
  free (t->count);
  free (t->kids);
}

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

/* VALUE as shown in a table: itself, or "[n]".  BUF holds at least 16 bytes.  */

static const char *
shown (struct notes *ns, const char *value, char *buf)
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

struct printer
{
  const struct query *q;
  const struct agg *agg;
  struct tree tree;
  const struct text_unit *unit;
  uint64_t profiled, records;
  struct notes notes;
  FILE *out;
};

static uint32_t
shown_count (const struct printer *p, uint32_t b)
{
  uint32_t n = p->tree.count[b];
  return p->q->top > 0 && (uint32_t) p->q->top < n ? (uint32_t) p->q->top : n;
}

static void
text_row (struct printer *p, const struct agg_bucket *b)
{
  char buf[32];
  uint64_t desc = b->total_ns > b->self_ns ? b->total_ns - b->self_ns : 0;
  put_time (p->out, 10, b->total_ns, p->unit);
  fprintf (p->out, " %6.1f ", pct (b->total_ns, p->profiled));
  put_time (p->out, 10, b->self_ns, p->unit);
  fprintf (p->out, " %6.1f ", pct (b->self_ns, p->profiled));
  put_time (p->out, 10, desc, p->unit);
  fprintf (p->out, " %6.1f %8" PRIu64 " %6.1f  %s\n", pct (desc, p->profiled),
           b->count, pct (b->count, p->records), shown (&p->notes, b->value, buf));
}

/* The title of the table of bucket B's children: "By D:" or "By D for v1 and v2:".  */

static void
text_title (struct printer *p, uint32_t b)
{
  const struct agg_bucket *bk = b ? agg_bucket (p->agg, b) : NULL;
  uint32_t level = bk ? bk->level + 1 : 0;
  fprintf (p->out, "\nBy %s", p->q->dims[level]);
  if (bk)
    {
      const char **path = XNEWVEC (const char *, level);
      for (uint32_t i = level; i > 0; i--, b = agg_bucket (p->agg, b)->parent)
        path[i - 1] = agg_bucket (p->agg, b)->value;
      fputs (" for ", p->out);
      for (uint32_t i = 0; i < level; i++)
        {
          char buf[32];
          fprintf (p->out, "%s%s", i == 0 ? "" : i + 1 == level ? " and " : ", ",
                   shown (&p->notes, path[i], buf));
        }
      free (path);
    }
  fprintf (p->out, ":\n\n %9s %6s %10s %6s %10s %6s %8s %6s  %s\n", "Total",
           "Total%", "Self", "Self%", "Desc", "Desc%", "Count", "Count%", "Value");
}

/* The shown buckets at LEVEL (0-based) under B, in report order, into V.  */

static void
at_level (struct printer *p, uint32_t b, uint32_t level, uint32_t **v, size_t *n)
{
  uint32_t k = shown_count (p, b);
  for (uint32_t i = 0; i < k; i++)
    {
      uint32_t c = p->tree.kids[p->tree.first[b] + i];
      if (agg_bucket (p->agg, c)->level == level)
        {
          *v = XRESIZEVEC (uint32_t, *v, *n + 1);
          (*v)[(*n)++] = c;
        }
      else
        at_level (p, c, level, v, n);
    }
}

static void
print_text (struct printer *p, uint64_t total_run)
{
  fprintf (p->out, "Total time: ");
  put_time (p->out, 0, total_run, p->unit);
  fprintf (p->out, " %s\nProfiled time: ", p->unit->name);
  put_time (p->out, 0, p->profiled, p->unit);
  fprintf (p->out, " %s (%.1f%%)\nProfile records: %" PRIu64 "\n", p->unit->name,
           pct (p->profiled, total_run), p->records);
  if (p->records == 0)
    {
      fprintf (p->out, "\nNo profile records%s.\n",
               p->q->nfilters ? " pass the --where filters" : "");
      return;
    }
  for (int level = 0; level < p->q->ndims; level++)
    {
      uint32_t *parents = NULL;
      size_t np = 0;
      if (level == 0)
        {
          parents = XNEWVEC (uint32_t, 1);
          parents[np++] = 0;
        }
      else
        at_level (p, 0, (uint32_t) level - 1, &parents, &np);
      for (size_t i = 0; i < np; i++)
        {
          text_title (p, parents[i]);
          uint32_t k = shown_count (p, parents[i]);
          for (uint32_t j = 0; j < k; j++)
            text_row (p, agg_bucket (p->agg,
                                     p->tree.kids[p->tree.first[parents[i]] + j]));
        }
      free (parents);
    }
  if (p->notes.n)
    {
      fputc ('\n', p->out);
      for (uint32_t i = 0; i < p->notes.n; i++)
        fprintf (p->out, "[%u] %s\n", i + 1, p->notes.values[i]);
    }
}

static void
csv_rows (struct printer *p, uint32_t b, const char **path)
{
  uint32_t k = shown_count (p, b);
  for (uint32_t i = 0; i < k; i++)
    {
      const struct agg_bucket *c = agg_bucket (p->agg,
                                               p->tree.kids[p->tree.first[b] + i]);
      path[c->level] = c->value;
      fprintf (p->out, "%u", c->level + 1);
      for (int d = 0; d < p->q->ndims; d++)
        {
          putc (',', p->out);
          if ((uint32_t) d <= c->level)
            text_csv (p->out, path[d]);
        }
      uint64_t desc = c->total_ns > c->self_ns ? c->total_ns - c->self_ns : 0;
      fprintf (p->out, ",%" PRIu64 ",%.2f,%" PRIu64 ",%.2f,%" PRIu64 ",%.2f,%"
               PRIu64 ",%.2f\n", c->total_ns, pct (c->total_ns, p->profiled),
               c->self_ns, pct (c->self_ns, p->profiled), desc,
               pct (desc, p->profiled), c->count, pct (c->count, p->records));
    }
}

static void
print_csv (struct printer *p)
{
  fputs ("level", p->out);
  for (int d = 0; d < p->q->ndims; d++)
    {
      putc (',', p->out);
      text_csv (p->out, p->q->dims[d]);
    }
  fputs (",total_ns,total_pct,self_ns,self_pct,desc_ns,desc_pct,count,count_pct\n",
         p->out);
  const char **path = XCNEWVEC (const char *, p->q->ndims + 1);
  /* Level by level, as the text tables.  */
  for (int level = 0; level < p->q->ndims; level++)
    {
      uint32_t *parents = NULL;
      size_t np = 0;
      if (level == 0)
        {
          parents = XNEWVEC (uint32_t, 1);
          parents[np++] = 0;
        }
      else
        at_level (p, 0, (uint32_t) level - 1, &parents, &np);
      for (size_t i = 0; i < np; i++)
        {
          for (uint32_t b = parents[i]; b; b = agg_bucket (p->agg, b)->parent)
            path[agg_bucket (p->agg, b)->level] = agg_bucket (p->agg, b)->value;
          csv_rows (p, parents[i], path);
        }
      free (parents);
    }
  free (path);
}

static void
json_rows (struct printer *p, uint32_t b)
{
  fputs ("[", p->out);
  uint32_t k = shown_count (p, b);
  for (uint32_t i = 0; i < k; i++)
    {
      uint32_t id = p->tree.kids[p->tree.first[b] + i];
      const struct agg_bucket *c = agg_bucket (p->agg, id);
      uint64_t desc = c->total_ns > c->self_ns ? c->total_ns - c->self_ns : 0;
      fprintf (p->out, "%s{\"dim\":", i ? "," : "");
      text_json (p->out, p->q->dims[c->level]);
      fputs (",\"value\":", p->out);
      text_json (p->out, c->value);
      fprintf (p->out, ",\"total_ns\":%" PRIu64 ",\"self_ns\":%" PRIu64
               ",\"desc_ns\":%" PRIu64 ",\"count\":%" PRIu64, c->total_ns,
               c->self_ns, desc, c->count);
      if (p->tree.count[id])
        {
          fputs (",\"rows\":", p->out);
          json_rows (p, id);
        }
      fputs ("}", p->out);
    }
  fputs ("]", p->out);
}

static void
print_json (struct printer *p, uint64_t total_run)
{
  fprintf (p->out, "{\"total_ns\":%" PRIu64 ",\"profiled_ns\":%" PRIu64
           ",\"records\":%" PRIu64 ",\"dims\":[", total_run, p->profiled,
           p->records);
  for (int d = 0; d < p->q->ndims; d++)
    {
      if (d)
        putc (',', p->out);
      text_json (p->out, p->q->dims[d]);
    }
  fputs ("],\"rows\":", p->out);
  json_rows (p, 0);
  fputs ("}\n", p->out);
}

int
run_report (struct pf_set *set, const struct query *q, FILE *out)
{
  struct report_ctx c = { agg_new (q->ndims, q->dims, q->nfilters, q->filters),
                          q, 0 };
  uint64_t total_run = 0;
  int rc = 0;
  ev_keep_children (agg_needs_children (c.agg));
  for (uint32_t i = 0; i < set->nprocs && !rc; i++)
    {
      /* One process at a time, for its run time.  */
      struct pf_set one = *set;
      one.procs = &set->procs[i];
      one.nprocs = 1;
      c.last_ns = 0;
      rc = walk_streams (&one, NULL, report_record, report_begin, &c);
      total_run += pf_run_ns (&set->procs[i], c.last_ns);
    }
  if (!rc)
    {
      agg_note_uncarried (c.agg);
      struct printer p;
      memset (&p, 0, sizeof p);
      p.q = q;
      p.agg = c.agg;
      p.profiled = agg_profiled_ns (c.agg);
      p.records = agg_records (c.agg);
      if (total_run < p.profiled)
        total_run = p.profiled;
      p.unit = text_unit_pick (q->unit, total_run);
      p.out = out;
      p.notes.index = htab_create_alloc (16, note_hash, note_eq, free, xcalloc,
                                         free);
      tree_build (&p.tree, c.agg);
      if (!strcmp (q->format, "csv"))
        print_csv (&p);
      else if (!strcmp (q->format, "json"))
        print_json (&p, total_run);
      else
        print_text (&p, total_run);
      tree_free (&p.tree);
      htab_delete (p.notes.index);
      free (p.notes.values);
    }
  ev_keep_children (true);
  agg_free (c.agg);
  return rc;
}

/* Parse the options of `report` (and of a shell line) into Q.  */

static int
parse_report_opts (const char *cmd, int argc, char **argv, struct query *q,
                   bool *help)
{
  static const struct option longopts[] = {
    { "where", required_argument, NULL, 'w' },
    { "unit", required_argument, NULL, 'u' },
    { "top", required_argument, NULL, 't' },
    { "format", required_argument, NULL, 'f' },
    { "raw", no_argument, NULL, 'r' },
    { "derive", required_argument, NULL, 'd' },
    { "profile", required_argument, NULL, 'p' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long (argc, argv, "+:w:u:t:f:p:h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'w':
        if (!parse_filter (optarg, &q->filters[q->nfilters++]))
          return usage_error (cmd, "--where wants DIM=VALUE or DIM!=VALUE, not '%s'",
                              optarg);
        break;
      case 'u':
        if (!text_unit_pick (optarg, 0))
          return usage_error (cmd, "--unit must be ns, us, ms or s, not '%s'", optarg);
        q->unit = optarg;
        break;
      case 't':
        {
          char *end;
          errno = 0;
          q->top = strtol (optarg, &end, 10);
          if (errno || *end || q->top <= 0)
            return usage_error (cmd, "--top wants a positive number, not '%s'",
                                optarg);
        }
        break;
      case 'f':
        if (strcmp (optarg, "text") && strcmp (optarg, "csv")
            && strcmp (optarg, "json"))
          return usage_error (cmd, "--format must be text, csv or json, not '%s'",
                              optarg);
        q->format = optarg;
        break;
      case 'r': q->raw = true; break;
      case 'd': q->derive = optarg; break;
      case 'p':
        /* Profiles, for the shell: collected by the caller.  */
        break;
      case 'h':
        *help = true;
        return 0;
      default:
        return option_error (cmd, c, argv);
      }
  return 0;
}

static int
run_report_cmd (int argc, char **argv)
{
  struct query q;
  memset (&q, 0, sizeof q);
  q.format = "text";
  q.filters = XCNEWVEC (struct agg_filter, argc + 1);
  q.dims = XCNEWVEC (const char *, argc + 1);
  const char **profiles = XCNEWVEC (const char *, argc + 1);
  int nprofiles = 0;
  bool help = false, dashdash = false;
  int rc = 0;
  /* getopt stops at the first operand ("+"); collect operands and go on.  */
  int i = 1;
  while (!rc && !help && i < argc)
    {
      int sub_argc = argc - i + 1;
      char **sub = argv + i - 1;
      rc = parse_report_opts ("report", sub_argc, sub, &q, &help);
      i += optind - 1;
      if (rc || help || i >= argc)
        break;
      if (!strcmp (argv[i], "--"))
        dashdash = true;
      else if (dashdash || looks_like_profile (argv[i]))
        profiles[nprofiles++] = argv[i];
      else
        q.dims[q.ndims++] = argv[i];
      i++;
    }
  if (!rc && help)
    rc = print_help (&cmd_report);
  else if (!rc)
    {
      if (q.ndims == 0)
        q.dims[q.ndims++] = "name";
      if (q.derive)
        rc = derive_load (q.derive);
      struct pf_set set;
      if (!rc && !(rc = load_profiles (nprofiles, (char **) profiles, &set)))
        {
          rc = run_report (&set, &q, stdout);
          if (!rc)
            rc = close_output ("report", NULL, stdout);
          pf_free (&set);
        }
    }
  for (int k = 0; k < q.nfilters; k++)
    free ((char *) q.filters[k].dim);
  free (q.filters);
  free (q.dims);
  free (profiles);
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
  "parent, location, depends-on, children, site.\n\n"
  "  --where DIM=VALUE    only records whose DIM is VALUE (repeatable; all hold)\n"
  "  --where DIM!=VALUE   only records whose DIM is not VALUE\n"
  "  --unit ns|us|ms|s    time unit (default: one that suits the largest figure)\n"
  "  --top N              at most N rows per table\n"
  "  --format text|csv|json\n"
  "  --raw                times as recorded, without deducting the recorder's\n"
  "                       measured cost per event\n"
  "  --derive LIB.so      dimensions computed by a library (dsprof-derive.h)\n"
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

static int
run_shell (int argc, char **argv)
{
  struct query q;
  memset (&q, 0, sizeof q);
  q.format = "text";
  q.filters = XCNEWVEC (struct agg_filter, argc + 1);
  bool help = false;
  int rc = parse_report_opts ("shell", argc, argv, &q, &help);
  if (rc || help)
    {
      for (int i = 0; i < q.nfilters; i++)
        free ((char *) q.filters[i].dim);
      free (q.filters);
      return rc ? rc : print_help (&cmd_shell);
    }
  /* --where filters are the shell's first `where`s.  */
  struct agg_filter *filters = q.filters;
  int nfilters = q.nfilters;
  for (int i = 0; i < nfilters; i++)
    filters[i].value = xstrdup (filters[i].value);
  struct pf_set set;
  if ((q.derive && (rc = derive_load (q.derive)))
      || (rc = load_profiles (argc - optind, argv + optind, &set)))
    {
      free_filters (filters, nfilters);
      return rc;
    }
  bool tty = isatty (0) && isatty (1);
  if (tty)
    printf ("dsprof shell: %u profile%s; `help` lists the commands.\n",
            set.nprocs, set.nprocs == 1 ? "" : "s");
  char *line;
  while ((line = read_line (tty)))
    {
      char *words[64];
      int n = 0;
      for (char *w = strtok (line, " \t"); w && n < 64; w = strtok (NULL, " \t"))
        words[n++] = w;
      if (n == 0)
        ;
      else if (!strcmp (words[0], "quit") || !strcmp (words[0], "exit"))
        {
          free (line);
          break;
        }
      else if (!strcmp (words[0], "help"))
        fputs (shell_help, stdout);
      else if (!strcmp (words[0], "where"))
        {
          if (n == 1)
            {
              if (!nfilters)
                puts ("no filters");
              for (int i = 0; i < nfilters; i++)
                printf ("where %s%s=%s\n", filters[i].dim,
                        filters[i].negate ? "!" : "", filters[i].value);
            }
          else if (!strcmp (words[1], "clear"))
            {
              free_filters (filters, nfilters);
              filters = NULL;
              nfilters = 0;
            }
          else
            for (int i = 1; i < n; i++)
              {
                struct agg_filter f;
                if (!parse_filter (words[i], &f))
                  printf ("where wants DIM=VALUE or DIM!=VALUE, not '%s'\n",
                          words[i]);
                else
                  {
                    f.value = xstrdup (f.value);
                    filters = XRESIZEVEC (struct agg_filter, filters, nfilters + 1);
                    filters[nfilters++] = f;
                  }
              }
        }
      else if (!strcmp (words[0], "unit") && n == 2)
        {
          if (!strcmp (words[1], "auto"))
            q.unit = NULL;
          else if (text_unit_pick (words[1], 0))
            q.unit = text_unit_pick (words[1], 0)->name;
          else
            printf ("unit must be ns, us, ms, s or auto\n");
        }
      else if (!strcmp (words[0], "top") && n == 2)
        q.top = !strcmp (words[1], "all") ? 0 : atol (words[1]);
      else if (!strcmp (words[0], "raw") && n == 2)
        q.raw = !strcmp (words[1], "on");
      else if (!strcmp (words[0], "format") && n == 2
               && (!strcmp (words[1], "text") || !strcmp (words[1], "csv")
                   || !strcmp (words[1], "json")))
        q.format = !strcmp (words[1], "csv") ? "csv"
                   : !strcmp (words[1], "json") ? "json" : "text";
      else if (!strcmp (words[0], "dims") && n == 1)
        {
          struct query d = q;
          d.filters = filters;
          d.nfilters = nfilters;
          rc = print_dims (&set, &d, stdout);
        }
      else
        {
          struct query r = q;
          r.ndims = n;
          r.dims = (const char **) words;
          r.filters = filters;
          r.nfilters = nfilters;
          rc = run_report (&set, &r, stdout);
        }
      fflush (stdout);
      free (line);
      if (rc)
        break;
    }
  free_filters (filters, nfilters);
  pf_free (&set);
  return rc ? rc : close_output ("shell", NULL, stdout);
}

const struct command cmd_shell = {
  "shell", "interactive dimension reports", run_shell,
  "usage: dsprof shell [OPTIONS] [PROFILE...]\n\n"
  "Read commands, one per line, from a terminal (with line editing and\n"
  "history) or from piped input, and print reports:\n\n"
  SHELL_HELP
  "\nOptions: report's (--where, --unit, --top, --format, --raw, --derive),\n"
  "the settings the shell starts with.\n"
};
