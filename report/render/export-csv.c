/* export-csv.c - `dsprof export --format csv` (docs/contract.md §5.8): one
   row per record, in two passes over the events.  */

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

/* Rows come in the order records end, each numbered by that order (as `dsprof
   records` numbers them) and naming its parent's number - which is not known
   when the row is written: the parent ends later.  It follows from what is
   known at the parent's Start, K (the Starts before it, every stream's) and
   its depth in its stream (the records open then, all of them after the K
   already ended), and from D, the records below it:

     number = K - depth + D + 1

   so a first pass, which also gathers the columns, notes the D of every record
   with records below it, by K, in a temporary file (sparse: a leaf is 0), and
   the pass writing the rows reads them back in Start order.  Nothing is kept
   in memory per record.  */

#define CSV_WINDOW 65536        /* D values written to the file at once */

struct csv
{
  FILE *out;
  htab_t seen;                   /* dimension names */
  char **cols;
  uint32_t ncols;
  uint64_t started;              /* Starts so far, every stream */
  uint64_t *stack;               /* first pass: the K of each open record;
                                    second: its number */
  uint32_t depth, ssize;
  int64_t pid;
  FILE *descs;                   /* the D of every record, by K */
  uint64_t *window;              /* D of K in [lo, lo + CSV_WINDOW) */
  uint64_t lo;
  bool dirty, failed;
};

static void
csv_push (struct csv *c, uint64_t v)
{
  if (c->depth == c->ssize)
    {
      c->ssize = c->ssize ? 2 * c->ssize : 64;
      c->stack = XRESIZEVEC (uint64_t, c->stack, c->ssize);
    }
  c->stack[c->depth++] = v;
}

/* Write N D values from V at K to the file.  */

static void
csv_put_descs (struct csv *c, uint64_t k, const uint64_t *v, size_t n)
{
  if (fseeko (c->descs, (off_t) (k * sizeof *v), SEEK_SET)
      || fwrite (v, sizeof *v, n, c->descs) != n)
    c->failed = true;
}

static void
csv_flush_window (struct csv *c)
{
  if (c->dirty)
    csv_put_descs (c, c->lo, c->window, CSV_WINDOW);
  memset (c->window, 0, CSV_WINDOW * sizeof *c->window);
  c->dirty = false;
}

static int
csv_number_start (const struct ev_event *e, void *arg)
{
  struct csv *c = arg;
  if (e->kind == EV_START)
    csv_push (c, c->started++);
  return 0;
}

/* First pass: the columns, and the D of each record by its K.  Records end
   nearly in Start order, so their D go to a window of the file moving on with
   the Starts; one that ended long after its Start goes straight to the file.  */

static int
csv_number (struct ev_record *r, void *arg)
{
  struct csv *c = arg;
  for (uint32_t i = 0; i < r->ndims; i++)
    {
      void **slot = htab_find_slot (c->seen, r->dims[i].name, INSERT);
      if (*slot)
        continue;
      *slot = xstrdup (r->dims[i].name);
      c->cols = XRESIZEVEC (char *, c->cols, c->ncols + 1);
      c->cols[c->ncols++] = *slot;
    }
  if (!c->depth)
    return 0;
  uint64_t k = c->stack[--c->depth], d = c->started - k - 1;
  if (!d)
    return 0;
  if (k >= c->lo + CSV_WINDOW)
    {
      csv_flush_window (c);
      c->lo = k - k % CSV_WINDOW;
    }
  if (k >= c->lo)
    {
      c->window[k - c->lo] = d;
      c->dirty = true;
    }
  else
    csv_put_descs (c, k, &d, 1);
  return 0;
}

static void
csv_begin (const struct pf_process *p, const struct ev_stream *s, void *arg)
{
  (void) p;
  (void) s;
  ((struct csv *) arg)->depth = 0;
}

/* The columns in order: event, name, file, line, then the others as first seen,
   then result and complete; thread is a column of its own.  */

static int
col_rank (const char *name)
{
  static const char *const first[] = { "event", "name", "file", "line" };
  for (int i = 0; i < 4; i++)
    if (!strcmp (name, first[i]))
      return i - 10;
  if (!strcmp (name, "result"))
    return 1;
  if (!strcmp (name, "complete"))
    return 2;
  return 0;
}

static void
sort_cols (struct csv *c)
{
  /* Stable: insertion sort by rank.  */
  for (uint32_t i = 1; i < c->ncols; i++)
    {
      char *x = c->cols[i];
      uint32_t k = i;
      while (k > 0 && col_rank (c->cols[k - 1]) > col_rank (x))
        {
          c->cols[k] = c->cols[k - 1];
          k--;
        }
      c->cols[k] = x;
    }
}

/* Second pass: a record's number at its Start, from its D.  */

static int
csv_start (const struct ev_event *e, void *arg)
{
  struct csv *c = arg;
  if (e->kind != EV_START)
    return 0;
  uint64_t d = 0;
  if (fread (&d, sizeof d, 1, c->descs) != 1)
    d = 0;                       /* past the last D written: leaves */
  csv_push (c, c->started++ - c->depth + d + 1);
  return 0;
}

static int
csv_row (struct ev_record *r, void *arg)
{
  struct csv *c = arg;
  if (!c->depth)
    return 0;
  uint64_t number = c->stack[--c->depth];
  FILE *out = c->out;
  fprintf (out, "%" PRIu64 ",%" PRId64 ",%u,%" PRIu64 ",%" PRIu64 ",%u,", number,
           c->pid, r->thread, r->start_ns, r->end_ns - r->start_ns, r->depth);
  if (c->depth)
    fprintf (out, "%" PRIu64, c->stack[c->depth - 1]);
  char buf[EV_VALUE_SIZE];
  for (uint32_t i = 0; i < c->ncols; i++)
    {
      putc (',', out);
      const struct ev_value *v = ev_record_dim (r, c->cols[i]);
      if (v)
        text_csv (out, ev_format_value (v, buf, sizeof buf));
    }
  putc ('\n', out);
  return 0;
}

int
export_csv (const struct export_input *in, FILE *out)
{
  struct pf_set *set = in->set;
  struct csv c;
  memset (&c, 0, sizeof c);
  c.out = out;
  c.seen = htab_create_alloc (32, htab_hash_string, htab_eq_string, free, xcalloc, free);
  c.descs = scratch_file ();
  if (!c.descs)
    {
      fprintf (stderr, "dsprof export: cannot make a temporary file: %s\n",
               strerror (errno));
      htab_delete (c.seen);
      return EXIT_DATA;
    }
  c.window = XCNEWVEC (uint64_t, CSV_WINDOW);
  int rc = pf_walk_streams (set, csv_number_start, csv_number, csv_begin, &c, 0);
  csv_flush_window (&c);
  if (!rc && (c.failed || fflush (c.descs) || fseeko (c.descs, 0, SEEK_SET)))
    {
      fprintf (stderr, "dsprof export: cannot write a temporary file: %s\n",
               strerror (errno));
      rc = EXIT_DATA;
    }
  if (!rc)
    {
      sort_cols (&c);
      fputs ("record,pid,thread,start_ns,duration_ns,depth,parent_record", out);
      for (uint32_t i = 0; i < c.ncols; i++)
        if (strcmp (c.cols[i], "thread"))
          {
            putc (',', out);
            text_csv (out, c.cols[i]);
          }
      putc ('\n', out);
      /* The thread dimension is the thread column.  */
      uint32_t n = 0;
      for (uint32_t i = 0; i < c.ncols; i++)
        if (strcmp (c.cols[i], "thread"))
          c.cols[n++] = c.cols[i];
      c.ncols = n;
    }
  c.started = 0;
  for (uint32_t i = 0; i < set->nprocs && !rc; i++)
    {
      const struct pf_process *p = &set->procs[i];
      c.pid = p->header.pid;
      for (uint32_t k = 0; k < p->nstreams && !rc; k++)
        {
          c.depth = 0;
          rc = pf_decode_stream (p, &p->streams[k], csv_start, csv_row, &c, 0);
        }
    }
  fclose (c.descs);
  free (c.window);
  free (c.cols);
  free (c.stack);
  htab_delete (c.seen);
  return rc;
}
