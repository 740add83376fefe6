/* listing.c - the text listings over event records (listing.h): `dsprof
   records` and `dsprof trace` (docs/contract.md §5.6), written as the events
   are decoded, and `dsprof dims`'s counts (§5.3, dimcount.h).  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "listing.h"
#include "text.h"

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
  if (!rec_passes (c->q, r))
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

int
records_print (struct pf_set *set, const struct query *q, FILE *out)
{
  struct records_ctx c = { .q = q, .out = out };
  rec_carry_filters (&c.carry, q);
  int rc = pf_walk_streams (set, NULL, print_record, NULL, &c, EV_KEEP_CHILDREN);
  if (!rc)
    agg_carry_note (&c.carry);
  free (c.carry.names);
  return rc;
}

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

int
trace_print (struct pf_set *set, const struct query *q, FILE *out)
{
  struct trace_ctx c = { .q = q, .out = out };
  rec_carry_filters (&c.carry, q);
  int rc = pf_walk_streams (set, trace_event, NULL, trace_begin, &c,
                            EV_KEEP_CHILDREN);
  trace_begin (NULL, NULL, &c);
  for (uint32_t i = 0; !rc && i < set->nprocs; i++)
    trace_switches (&set->procs[i], out);
  if (!rc)
    agg_carry_note (&c.carry);
  free (c.carry.names);
  free (c.stack);
  return rc;
}

/* ---- dsprof dims --------------------------------------------------------------- */

void
dims_print (const struct dim_counts *d, FILE *out)
{
  for (size_t i = 0; i < d->n; i++)
    fprintf (out, "%s %" PRIu64 "\n", text_shown (d->v[i]->name), d->v[i]->n);
}
