/* export-chrome.c - `dsprof export --format chrome` (docs/contract.md §5.8):
   Chrome trace-event JSON, a B event at every Start, an E event at every
   Finish (or repair), per process and thread; args are the record's
   dimensions.  Written as the events are decoded.  */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "aggregate.h"
#include "exit.h"
#include "files.h"
#include "profile.h"
#include "query.h"
#include "text.h"
#include "export.h"

struct chrome
{
  FILE *out;
  int64_t pid;
  uint64_t offset_ns;            /* of this process's start after the first's */
  struct added_stack open;       /* per open event: the dims added */
};

static void
put_ts (FILE *out, uint64_t ns)
{
  fprintf (out, "%" PRIu64 ".%03u", ns / 1000, (unsigned) (ns % 1000));
}

/* Append "name":"value" for dimension D to the memory stream F.  */

static void
put_arg (FILE *f, const struct ev_dim *d, bool comma)
{
  char buf[EV_VALUE_SIZE];
  if (comma)
    putc (',', f);
  text_json (f, d->name);
  putc (':', f);
  text_json (f, ev_format_value (&d->v, buf, sizeof buf));
}

static int
chrome_event (const struct ev_event *e, void *arg)
{
  struct chrome *c = arg;
  FILE *out = c->out;
  if (e->kind == EV_DIM)
    {
      if (!c->open.depth)
        return 0;
      struct added *o = &c->open.open[c->open.depth - 1];
      char *text = NULL;
      size_t size = 0;
      FILE *f = open_memstream (&text, &size);
      if (!f)
        return EXIT_DATA;
      if (o->bytes)
        fwrite (o->bytes, 1, o->len, f);
      for (uint32_t i = 0; i < e->ndims; i++)
        /* E's own "complete" member says how the event ended.  */
        if (!added_before (o, e->dims[i].name)
            && strcmp (e->dims[i].name, "complete") != 0)
          {
            put_arg (f, &e->dims[i], true);
            added_name (o, e->dims[i].name);
          }
      fclose (f);
      free (o->bytes);
      o->bytes = text;
      o->len = size;
      return 0;
    }
  if (e->kind == EV_START)
    {
      added_push (&c->open);
      size_t len;
      const char *name = ev_name_of_dims (e->dims, e->ndims, e->type, &len);
      fputs (",\n{\"ph\":\"B\",\"name\":", out);
      text_json_n (out, name, len);
      fputs (",\"cat\":", out);
      text_json (out, e->type);
      fputs (",\"ts\":", out);
      put_ts (out, c->offset_ns + e->ns);
      fprintf (out, ",\"pid\":%" PRId64 ",\"tid\":%u,\"args\":{", c->pid, e->thread);
      for (uint32_t i = 0; i < e->ndims; i++)
        put_arg (out, &e->dims[i], i > 0);
      fputs ("}}", out);
      return 0;
    }
  /* Finish or repair: the result, the added dims, complete.  */
  fputs (",\n{\"ph\":\"E\",\"ts\":", out);
  put_ts (out, c->offset_ns + e->ns);
  fprintf (out, ",\"pid\":%" PRId64 ",\"tid\":%u,\"args\":{", c->pid, e->thread);
  struct added *o = c->open.depth ? &c->open.open[--c->open.depth] : NULL;
  bool comma = false;
  for (uint32_t i = 0; i < e->ndims; i++)
    if (!o || !added_before (o, e->dims[i].name))
      {
        put_arg (out, &e->dims[i], comma);
        comma = true;
      }
  if (o && o->len)
    {
      /* Stored with a leading comma.  */
      fwrite (o->bytes + !comma, 1, o->len - !comma, out);
      comma = true;
    }
  if (o)
    added_free (o);
  fprintf (out, "%s\"complete\":\"%s\"}}", comma ? "," : "",
           e->kind == EV_FINISH ? "true" : "false");
  return 0;
}

int
export_chrome (const struct export_input *in, FILE *out)
{
  struct pf_set *set = in->set;
  uint64_t first = first_start (set);
  struct chrome c;
  memset (&c, 0, sizeof c);
  c.out = out;
  fputs ("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"dsprof\"},"
         "\"traceEvents\":[", out);
  int rc = 0;
  for (uint32_t i = 0; i < set->nprocs && !rc; i++)
    {
      const struct pf_process *p = &set->procs[i];
      c.pid = process_pid (set, i);
      c.offset_ns = p->header.start_ns - first;
      /* Every event after this first one of each process starts with a comma.  */
      fprintf (out, "%s\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRId64
               ",\"tid\":0,\"args\":{\"name\":", i ? "," : "", c.pid);
      text_json (out, p->header.exe);
      fputs ("}}", out);
      for (uint32_t k = 0; k < p->nstreams && !rc; k++)
        {
          fprintf (out, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRId64
                   ",\"tid\":%u,\"args\":{\"name\":\"thread %u\"}}", c.pid,
                   p->streams[k].thread, p->streams[k].thread);
          rc = pf_decode_stream (p, &p->streams[k], chrome_event, NULL, &c,
                                 EV_KEEP_CHILDREN);
          added_clear (&c.open);
        }
    }
  fputs ("\n]}\n", out);
  free (c.open.open);
  return rc;
}
