/* cmd-events.c - the commands over event records: `dsprof records` and
   `dsprof trace` (docs/contract.md §5.6), `dsprof dims` (§5.3).  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "cmd.h"

/* Options of records, trace and dims: --where, --help.  */

static const struct opt where_opts[] = {
  WHERE_OPT (0, "only records whose DIM is VALUE; DIM!=VALUE: whose DIM\n"
                "is not VALUE (repeatable; all hold)"),
  { 0 }
};

static const struct opt trace_opts[] = {
  WHERE_OPT (0, "only events whose DIM is VALUE; DIM!=VALUE: whose DIM\n"
                "is not VALUE (repeatable)"),
  { 0 }
};

static const struct opt dims_opts[] = {
  WHERE_OPT (0, "count only the records whose DIM is VALUE; DIM!=VALUE:\n"
                "whose DIM is not VALUE"),
  { 0 }
};

/* Parse the options of CMD into Q, its operands (the profiles) into *OPS.
   Return 0 (*HELP after --help) or EXIT_USAGE.  */

static int
parse_where_opts (const struct command *cmd, int argc, char **argv,
                  struct query *q, bool *help, struct opt_operands *ops)
{
  memset (q, 0, sizeof *q);
  q->filters = XCNEWVEC (struct agg_filter, argc + 1);
  int rc = opt_parse (&cmd->cli, argc, argv, q, ops);
  *help = rc == OPT_HELP;
  return *help ? 0 : rc;
}

/* Look for Q's --where dimensions in C.  */

static void
carry_filters (struct agg_carry *c, const struct query *q)
{
  for (int i = 0; i < q->nfilters; i++)
    agg_carry_want (c, q->filters[i].dim);
}

static void
free_filters (struct query *q)
{
  for (int i = 0; i < q->nfilters; i++)
    free ((char *) q->filters[i].dim);
  free (q->filters);
}

static bool
record_passes (const struct query *q, const struct ev_record *r)
{
  char buf[EV_VALUE_SIZE];
  for (int i = 0; i < q->nfilters; i++)
    {
      const char *t = agg_dim_text (r, q->filters[i].dim, buf, sizeof buf);
      if ((strcmp (t ? t : "", q->filters[i].value) == 0) == q->filters[i].negate)
        return false;
    }
  return true;
}

static void
put_dim (FILE *out, const struct ev_dim *d)
{
  char buf[EV_VALUE_SIZE];
  fprintf (out, " %s=", text_shown (d->name));
  text_value (out, ev_format_value (&d->v, buf, sizeof buf));
}

/* ---- dsprof records ------------------------------------------------------------ */

struct records_ctx
{
  const struct query *q;
  FILE *out;
  uint64_t n;
  struct agg_carry carry;
};

/* The number of R's dimensions recorded at Start.  */

static uint32_t
start_dims (const struct ev_record *r)
{
  uint32_t n = r->site ? 5 + r->site->ndims : 3;
  return n < r->ndims ? n : r->ndims;
}

static int
print_record (struct ev_record *r, void *arg)
{
  struct records_ctx *c = arg;
  r->seq = ++c->n;
  agg_carry_record (&c->carry, r);
  if (!record_passes (c->q, r))
    return 0;
  fprintf (c->out, "#%" PRIu64 " %" PRIu64 "ns", r->seq, r->end_ns - r->start_ns);
  /* Start's dims, the result, the added ones, complete.  */
  uint32_t ns = start_dims (r);
  for (uint32_t i = 0; i < ns; i++)
    put_dim (c->out, &r->dims[i]);
  for (uint32_t i = ns; i < r->ndims; i++)
    if (!strcmp (r->dims[i].name, "result"))
      put_dim (c->out, &r->dims[i]);
  for (uint32_t i = ns; i < r->ndims; i++)
    if (strcmp (r->dims[i].name, "result") && strcmp (r->dims[i].name, "complete"))
      put_dim (c->out, &r->dims[i]);
  for (uint32_t i = ns; i < r->ndims; i++)
    if (!strcmp (r->dims[i].name, "complete"))
      put_dim (c->out, &r->dims[i]);
  if (r->nchildren)
    {
      fputs (" ->", c->out);
      for (uint32_t i = 0; i < r->nchildren; i++)
        fprintf (c->out, " #%" PRIu64, r->children[i]->seq);
    }
  putc ('\n', c->out);
  return 0;
}

static int
run_records (int argc, char **argv)
{
  struct query q;
  bool help;
  struct opt_operands ops;
  int rc = parse_where_opts (&cmd_records, argc, argv, &q, &help, &ops);
  struct pf_set set;
  if (!rc && !help && !(rc = load_profiles (ops.n, ops.v, &set)))
    {
      struct records_ctx c = { &q, stdout, 0, { 0, 0, NULL, 0 } };
      carry_filters (&c.carry, &q);
      rc = pf_walk_streams (&set, NULL, print_record, NULL, &c,
                            EV_KEEP_CHILDREN);
      if (!rc)
        agg_carry_note (&c.carry);
      free (c.carry.names);
      pf_free (&set);
      if (!rc)
        rc = close_output ("records", NULL, stdout);
    }
  free_filters (&q);
  free (ops.v);
  return rc;
}

const struct command cmd_records = {
  .summary = "profile records, one per line",
  .run = run_records,
  .cli = {
    .name = "records", .opts = where_opts,
    .usage =
  "usage: dsprof records [--where DIM=VALUE|DIM!=VALUE]... [PROFILE...]\n\n"
  "Print one line per profile record (a Start/Finish pair), innermost first:\n"
  "  #N DURATIONns dim=value ... [-> #a #b ...]\n"
  "N numbers every record in completion order (filtered output has gaps);\n"
  "the dimensions are Start's (event, name, file, line, thread, parameters),\n"
  "result, those added during the event, and complete; `-> #a #b` names the\n"
  "direct descendants.  A value that is empty or holds blanks, quotes, `=`,\n"
  "`\\` or control characters is quoted with C escapes.\n\n"
  }
};

/* ---- dsprof trace -------------------------------------------------------------- */

struct kv
{
  char *name, *value;
};

struct open_event
{
  struct kv *kv;
  uint32_t n;
  uint32_t nstart;               /* of them Start's */
};

struct trace_ctx
{
  const struct query *q;
  FILE *out;
  struct open_event *stack;
  uint32_t depth, size;
  struct agg_carry carry;        /* of the --where dims, over the events */
};

static void
kv_push (struct open_event *o, const char *name, const char *value)
{
  o->kv = XRESIZEVEC (struct kv, o->kv, o->n + 1);
  o->kv[o->n].name = xstrdup (name);
  o->kv[o->n].value = xstrdup (value);
  o->n++;
}

static void
open_event_free (struct open_event *o)
{
  for (uint32_t i = 0; i < o->n; i++)
    {
      free (o->kv[i].name);
      free (o->kv[i].value);
    }
  free (o->kv);
  o->kv = NULL;
  o->n = 0;
}

/* The value of dimension NAME on O, or NULL.  */

static const char *
kv_find (const struct open_event *o, const char *name)
{
  for (uint32_t k = 0; k < o->n; k++)
    if (!strcmp (o->kv[k].name, name))
      return o->kv[k].value;
  return NULL;
}

/* Whether O, the innermost open event of C, passes C's filters; every filter
   is tested, so that C's carry sees each dimension the event carries.  An
   outer:D is D on the nearest enclosing open event that has it, as for
   records (agg_outer_value).  */

static bool
event_passes (struct trace_ctx *c, const struct open_event *o)
{
  const struct query *q = c->q;
  bool pass = true;
  for (int i = 0; i < q->nfilters; i++)
    {
      const char *dim = q->filters[i].dim, *outer = agg_outer_dim (dim);
      const char *v = kv_find (o, dim);
      for (size_t k = (size_t) (o - c->stack); !v && outer && k-- > 0;)
        v = kv_find (&c->stack[k], outer);
      if (v)
        agg_carry_seen (&c->carry, dim);
      if ((strcmp (v ? v : "", q->filters[i].value) == 0) == q->filters[i].negate)
        pass = false;
    }
  return pass;
}

static void
trace_begin (const struct pf_process *p, const struct ev_stream *s, void *arg)
{
  (void) p, (void) s;
  struct trace_ctx *c = arg;
  while (c->depth)
    open_event_free (&c->stack[--c->depth]);
}

static int
trace_event (const struct ev_event *e, void *arg)
{
  struct trace_ctx *c = arg;
  char buf[EV_VALUE_SIZE];
  if (e->kind == EV_START)
    {
      if (c->depth == c->size)
        {
          c->size = c->size ? 2 * c->size : 64;
          c->stack = XRESIZEVEC (struct open_event, c->stack, c->size);
        }
      struct open_event *o = &c->stack[c->depth++];
      memset (o, 0, sizeof *o);
      for (uint32_t i = 0; i < e->ndims; i++)
        kv_push (o, e->dims[i].name,
                 ev_format_value (&e->dims[i].v, buf, sizeof buf));
      o->nstart = o->n;
      c->carry.records++;
      if (!event_passes (c, o))
        return 0;
      fprintf (c->out, "%" PRIu64 "ns t%u Start", e->ns, e->thread);
      for (uint32_t i = 0; i < o->n; i++)
        {
          fprintf (c->out, " %s=", text_shown (o->kv[i].name));
          text_value (c->out, o->kv[i].value);
        }
      putc ('\n', c->out);
      return 0;
    }
  if (c->depth == 0)
    return 0;
  struct open_event *o = &c->stack[c->depth - 1];
  if (e->kind == EV_DIM)
    {
      for (uint32_t i = 0; i < e->ndims; i++)
        kv_push (o, e->dims[i].name,
                 ev_format_value (&e->dims[i].v, buf, sizeof buf));
      return 0;
    }
  /* Finish or Abandon: the event's type and name, result, added dims.  */
  /* Shown: event, name, the result, the added dims, complete.  */
  uint32_t nstart = o->nstart, nadded = o->n;
  for (uint32_t i = 0; i < e->ndims; i++)
    kv_push (o, e->dims[i].name, ev_format_value (&e->dims[i].v, buf, sizeof buf));
  kv_push (o, "complete", e->kind == EV_FINISH ? "true" : "false");
  if (event_passes (c, o))
    {
      fprintf (c->out, "%" PRIu64 "ns t%u %s", e->ns, e->thread,
               e->kind == EV_FINISH ? "Finish" : "Abandon");
      for (uint32_t i = 0; i < nstart; i++)
        if (!strcmp (o->kv[i].name, "event") || !strcmp (o->kv[i].name, "name"))
          {
            fprintf (c->out, " %s=", text_shown (o->kv[i].name));
            text_value (c->out, o->kv[i].value);
          }
      for (uint32_t pass = 0; pass < 3; pass++)
        {
          uint32_t from = pass == 0 ? nadded : pass == 1 ? nstart : o->n - 1;
          uint32_t to = pass == 0 ? o->n - 1 : pass == 1 ? nadded : o->n;
          for (uint32_t i = from; i < to; i++)
            {
              fprintf (c->out, " %s=", text_shown (o->kv[i].name));
              text_value (c->out, o->kv[i].value);
            }
        }
      putc ('\n', c->out);
    }
  open_event_free (o);
  c->depth--;
  return 0;
}

/* The switches `dsprof ctl` logged in P (dsprof-format.h, section 2a), after
   the streams: "Tns events off pid=N", "Tns events on pid=N".  */

static void
trace_switches (const struct pf_process *p, FILE *out)
{
  for (uint32_t k = 0; k < p->nswitches; k++)
    {
      const struct dsprof_switch *w = &p->switches[k];
      uint64_t at = w->mono_ns > p->header.start_mono_ns
                    ? w->mono_ns - p->header.start_mono_ns : 0;
      fprintf (out, "%" PRIu64 "ns events %s pid=%" PRId64 "\n", at,
               w->on ? "on" : "off", p->header.pid);
    }
}

static int
run_trace (int argc, char **argv)
{
  struct query q;
  bool help;
  struct opt_operands ops;
  int rc = parse_where_opts (&cmd_trace, argc, argv, &q, &help, &ops);
  struct pf_set set;
  if (!rc && !help && !(rc = load_profiles (ops.n, ops.v, &set)))
    {
      struct trace_ctx c = { &q, stdout, NULL, 0, 0, { 0, 0, NULL, 0 } };
      carry_filters (&c.carry, &q);
      rc = pf_walk_streams (&set, trace_event, NULL, trace_begin, &c,
                            EV_KEEP_CHILDREN);
      trace_begin (NULL, NULL, &c);
      for (uint32_t i = 0; !rc && i < set.nprocs; i++)
        trace_switches (&set.procs[i], stdout);
      if (!rc)
        agg_carry_note (&c.carry);
      free (c.carry.names);
      free (c.stack);
      pf_free (&set);
      if (!rc)
        rc = close_output ("trace", NULL, stdout);
    }
  free_filters (&q);
  free (ops.v);
  return rc;
}

const struct command cmd_trace = {
  .summary = "the event stream, one Start or Finish per line",
  .run = run_trace,
  .cli = {
    .name = "trace", .opts = trace_opts,
    .usage =
  "usage: dsprof trace [--where DIM=VALUE|DIM!=VALUE]... [PROFILE...]\n\n"
  "Print every event of every thread, in each thread's order:\n"
  "  TIMEns tTHREAD Start dim=value ...\n"
  "  TIMEns tTHREAD Finish event=T name=N [result=R] [added dims] complete=true\n"
  "`Abandon` instead of `Finish` marks an event closed by repair (longjmp,\n"
  "thread or process end, mismatched finish).  TIME is nanoseconds since the\n"
  "process started.  --where tests the event's dimensions so far (Start's, and\n"
  "at Finish the added ones too).\n\n"
  }
};

/* ---- dsprof dims --------------------------------------------------------------- */

struct dim_count
{
  char *name;
  uint64_t n;
};

static hashval_t
dim_count_hash (const void *p)
{
  return htab_hash_string (((const struct dim_count *) p)->name);
}

static int
dim_count_eq (const void *p, const void *q)
{
  return !strcmp (((const struct dim_count *) p)->name,
                  ((const struct dim_count *) q)->name);
}

static void
dim_count_free (void *p)
{
  free (((struct dim_count *) p)->name);
  free (p);
}

/* The names of the dimensions a record carries are mostly the same few
   pointers (its site's, the derived ones'): a small cache by address saves
   hashing each name of each record.  */
#define DIMS_CACHE 64

struct dims_ctx
{
  const struct query *q;
  htab_t counts;
  uint64_t records;
  struct agg_carry carry;
  struct
  {
    const char *name;
    struct dim_count *d;
  } cache[DIMS_CACHE];
};

static void
count_dim (struct dims_ctx *c, const char *name)
{
  size_t h = ((uintptr_t) name >> 3) % DIMS_CACHE;
  if (c->cache[h].name == name && !strcmp (c->cache[h].d->name, name))
    {
      c->cache[h].d->n++;
      return;
    }
  struct dim_count key = { (char *) name, 0 };
  void **slot = htab_find_slot (c->counts, &key, INSERT);
  if (!*slot)
    {
      struct dim_count *d = XNEW (struct dim_count);
      d->name = xstrdup (name);
      d->n = 0;
      *slot = d;
    }
  c->cache[h].name = name;
  c->cache[h].d = *slot;
  c->cache[h].d->n++;
}

static int
dims_record (struct ev_record *r, void *arg)
{
  struct dims_ctx *c = arg;
  agg_carry_record (&c->carry, r);
  if (!record_passes (c->q, r))
    return 0;
  c->records++;
  for (uint32_t i = 0; i < r->ndims; i++)
    count_dim (c, r->dims[i].name);
  for (size_t i = 0; i < agg_nderived_dims; i++)
    if (!ev_record_dim (r, agg_derived_dims[i])
        && agg_dim_present (r, agg_derived_dims[i]))
      count_dim (c, agg_derived_dims[i]);
  return 0;
}

static int
collect_counts (void **slot, void *arg)
{
  struct dim_count ***p = arg;
  *(*p)++ = *slot;
  return 1;
}

static int
cmp_dim_count (const void *a, const void *b)
{
  const struct dim_count *x = *(const struct dim_count *const *) a;
  const struct dim_count *y = *(const struct dim_count *const *) b;
  if (x->n != y->n)
    return x->n > y->n ? -1 : 1;
  return strcmp (x->name, y->name);
}

int
print_dims (struct pf_set *set, const struct query *q, FILE *out)
{
  struct dims_ctx c;
  memset (&c, 0, sizeof c);
  c.q = q;
  c.counts = htab_create_alloc (32, dim_count_hash, dim_count_eq, dim_count_free,
                                xcalloc, free);
  carry_filters (&c.carry, q);
  int rc = pf_walk_streams (set, NULL, dims_record, NULL, &c, EV_KEEP_CHILDREN);
  if (!rc)
    {
      agg_carry_note (&c.carry);
      size_t n = htab_elements (c.counts);
      struct dim_count **v = XNEWVEC (struct dim_count *, n + 1), **p = v;
      htab_traverse (c.counts, collect_counts, &p);
      qsort (v, n, sizeof *v, cmp_dim_count);
      for (size_t i = 0; i < n; i++)
        fprintf (out, "%s %" PRIu64 "\n", text_shown (v[i]->name), v[i]->n);
      free (v);
    }
  free (c.carry.names);
  htab_delete (c.counts);
  return rc;
}

static int
run_dims (int argc, char **argv)
{
  struct query q;
  bool help;
  struct opt_operands ops;
  int rc = parse_where_opts (&cmd_dims, argc, argv, &q, &help, &ops);
  struct pf_set set;
  if (!rc && !help && !(rc = load_profiles (ops.n, ops.v, &set)))
    {
      rc = print_dims (&set, &q, stdout);
      if (!rc)
        rc = close_output ("dims", NULL, stdout);
      pf_free (&set);
    }
  free_filters (&q);
  free (ops.v);
  return rc;
}

const struct command cmd_dims = {
  .summary = "the dimensions present, with record counts",
  .run = run_dims,
  .cli = {
    .name = "dims", .opts = dims_opts,
    .usage =
  "usage: dsprof dims [--where DIM=VALUE|DIM!=VALUE]... [PROFILE...]\n\n"
  "List every dimension the records carry, recorded or derived (depth, parent,\n"
  "location, depends-on, children, site), as `DIM COUNT` (the number of\n"
  "records with a value for it), most common first.\n\n"
  }
};
