/* cmd-top.c - `dsprof top`: a live view of a running program's profile
   (docs/contract.md §5.10).

   The profile is readable while its program runs (include/dsprof-format.h,
   section 2: chunks are published by the header's `end`), so each refresh
   reads it again and compares the new snapshot with the one before: the
   changes are those of `dsprof diff` (diff.h), the line counts by
   diff_lines_build and the records by diff_build, measured by Count.  A frame
   is rendered as text once; --batch prints it, the terminal view (ncurses)
   shows its lines.  */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "libiberty.h"
#include "cmd.h"
#include "diff.h"

enum top_view { VIEW_LINES, VIEW_RECORDS, VIEW_BOTH };

/* One process's event streams, decoded in steps from read to read: each read
   decodes only what its program wrote since the one before.  */
struct top_feed
{
  int64_t pid;
  uint64_t start_mono_ns;        /* with the pid, the process */
  uint32_t nres;
  struct ev_resume **res;        /* by stream; NULL once ended */
  const struct ev_sites *sites;  /* given to the decoders */
  struct ev_sites *owned;        /* those, once their snapshot is gone */
  uint64_t last_ns;              /* of its latest record */
  bool ended;                    /* its open records closed: it wrote all */
};

/* Bytes of event stream a read decodes between two looks at the keys.  */
#define TOP_SLICE ((uint64_t) 4 << 20)

/* Rows shown per table in --batch; the terminal shows what fits.  */
#define TOP_ROWS 20

struct top
{
  const char *path;
  double delay;                  /* seconds between refreshes */
  long batch;                    /* frames to print; 0: the terminal view */
  int ngiven;
  const char **given;            /* the dimensions of the command line */
  int ndims;
  const char **dims;             /* those of the records shown */
  int ndim_choices;
  const char **dim_choices;      /* what the `d` key cycles through */
  int dim_choice;                /* -1: the given ones */
  struct pf_set old, cur;        /* the snapshot before and the last one */
  /* The models of their records: tables of T->agg as it was after each
     read (T->agg is theirs, not the models').  */
  struct rpt_model old_rpt, cur_rpt;
  struct agg *agg;               /* every record decoded so far, bucketed */
  uint32_t nfeeds;
  struct top_feed *feeds;        /* the processes' streams, decoded in steps */
  uint32_t nkept;
  struct ev_sites **kept;        /* sites of snapshots gone, which records
                                    still open point into */
  uint64_t decoded;              /* bytes of event stream decoded in all */
  bool behind;                   /* the last read left bytes to decode */
  uint64_t run_shown;            /* the run time the last frame showed */
  bool (*interrupt) (void);      /* a key waits: a read stops between slices */
  bool dims_changed;             /* since the last read */
  struct lc_model old_lc, cur_lc;
  const char **rpt_dims;         /* the dimensions the reports are by */
  unsigned long refreshes;
  enum pf_state *states;         /* of cur's processes, as known before it
                                    was read (a process gone by then has
                                    written all) */
  bool paused;
  enum top_view view;
};

/* ---- reading in steps --------------------------------------------------------- */

static double
now_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* T's query: its dimensions.  */

static void
top_query (const struct top *t, struct query *q)
{
  query_init (q, 0);
  q->ndims = t->ndims;
  q->dims = t->dims;
  q->quiet = true;
}

/* The model of T->agg now into *M (run time TOTAL_RUN ns).  */

static void
snapshot (const struct top *t, uint64_t total_run, struct rpt_model *m)
{
  struct query q;
  top_query (t, &q);
  rpt_of_agg (t->agg, &q, total_run, m);
  query_free_filters (&q);
}

/* Free model M, a snapshot of T->agg.  */

static void
snapshot_free (struct rpt_model *m)
{
  m->agg = NULL;
  rpt_free (m);
}

struct top_walk
{
  struct agg *agg;
  uint64_t *last_ns;
};

static int
top_record (struct ev_record *r, void *arg)
{
  struct top_walk *w = arg;
  if (r->end_ns > *w->last_ns)
    *w->last_ns = r->end_ns;
  return agg_record (r, w->agg);
}

/* The feed of process P, made if new.  */

static struct top_feed *
feed_of (struct top *t, const struct pf_process *p)
{
  for (uint32_t i = 0; i < t->nfeeds; i++)
    if (t->feeds[i].pid == p->header.pid
        && t->feeds[i].start_mono_ns == p->header.start_mono_ns)
      return &t->feeds[i];
  t->feeds = XRESIZEVEC (struct top_feed, t->feeds, t->nfeeds + 1);
  struct top_feed *f = &t->feeds[t->nfeeds++];
  memset (f, 0, sizeof *f);
  f->pid = p->header.pid;
  f->start_mono_ns = p->header.start_mono_ns;
  return f;
}

/* Decode a slice of stream K of P, fed by F; *MORE set if bytes remain.  */

static int
feed_stream (struct top *t, const struct pf_process *p, struct top_feed *f,
             uint32_t k, bool *more)
{
  const struct ev_stream *s = &p->streams[k];
  if (k >= f->nres)
    {
      f->res = XRESIZEVEC (struct ev_resume *, f->res, k + 1);
      for (uint32_t i = f->nres; i <= k; i++)
        f->res[i] = ev_resume_new (p->streams[i].thread,
                                   agg_needs_children (t->agg)
                                   ? EV_KEEP_CHILDREN : 0);
      f->nres = k + 1;
    }
  struct agg_costs deduct;
  agg_costs_of (p, s, false, &deduct);
  agg_begin_stream (t->agg, &deduct, &deduct);
  struct top_walk w = { t->agg, &f->last_ns };
  uint64_t slice = TOP_SLICE, n = 0;
  const char *err = NULL;
  int rc = ev_resume_feed (f->res[k], s, f->sites, &p->clock, top_record, &w,
                           slice, &n, &err);
  t->decoded += n;
  if (n >= slice)
    *more = true;
  if (rc < 0)
    {
      fprintf (stderr, "dsprof: %s: thread %u: %s\n", p->path, s->thread,
               err ? err : "corrupt event stream");
      return EXIT_DATA;
    }
  return rc;
}

/* Decode P's streams as far as T allows; close their open records once P
   wrote all (STATE not running) and all is decoded.  */

static int
feed_process (struct top *t, const struct pf_process *p, enum pf_state state,
              bool *more)
{
  struct top_feed *f = feed_of (t, p);
  if (f->ended)
    return 0;
  /* The sites of a later snapshot know more units (a library loaded); the
     records open keep pointing into those before.  */
  if (f->sites && p->sites.size > f->sites->size)
    {
      struct ev_sites *old = f->owned;
      if (!old)
        {
          old = XNEW (struct ev_sites);
          *old = *f->sites;
          memset ((struct ev_sites *) f->sites, 0, sizeof *f->sites);
        }
      t->kept = XRESIZEVEC (struct ev_sites *, t->kept, t->nkept + 1);
      t->kept[t->nkept++] = old;
      f->owned = NULL;
      f->sites = NULL;
    }
  if (!f->sites)
    f->sites = &p->sites;
  bool left = false;
  int rc = 0;
  uint64_t at = t->decoded;
  for (uint32_t k = 0; k < p->nstreams && !rc; k++)
    rc = feed_stream (t, p, f, k, &left);
  /* Written all: exited or gone; a file its process does not map (it may
     not map it yet: a profile made under a temporary name) once a read
     finds nothing new in it.  */
  bool done = state == PF_EXITED || state == PF_GONE || state == PF_REUSED
              || (state == PF_ELSEWHERE && t->decoded == at);
  if (!rc && !left && done)
    {
      struct top_walk w = { t->agg, &f->last_ns };
      for (uint32_t k = 0; k < f->nres && !rc; k++)
        rc = ev_resume_end (f->res[k], top_record, &w);
      f->nres = 0;
      f->ended = true;
    }
  *more |= left;
  return rc;
}

/* Whether a process of SET may write more (STATES): it runs, or its file
   is not seen mapped (not yet, maybe).  */

static bool
running (const struct pf_set *set, const enum pf_state *states)
{
  for (uint32_t i = 0; i < set->nprocs; i++)
    if (states[i] == PF_RUNNING || states[i] == PF_ELSEWHERE)
      return true;
  return false;
}

/* Decode what T's snapshot SET holds past the last read, in slices, until
   all is decoded, a refresh's interval has passed or a key waits.  */

static int
feed_set (struct top *t, struct pf_set *set, const enum pf_state *states)
{
  uint64_t at = t->decoded;
  double start = now_seconds ();
  bool more = true;
  int rc = 0;
  while (more && !rc)
    {
      more = false;
      for (uint32_t i = 0; i < set->nprocs && !rc; i++)
        rc = feed_process (t, &set->procs[i], states[i], &more);
      /* A read takes half a refresh's interval at most, and gives way to a key;
         once no process runs, it decodes all, for the final state.  */
      if (running (set, states)
          && (now_seconds () - start >= t->delay / 2
              || (t->interrupt && t->interrupt ())))
        break;
    }
  t->behind = more;
  if (getenv ("DSPROF_TOP_DEBUG"))
    fprintf (stderr, "dsprof top: read %lu: decoded %" PRIu64 " bytes of event "
             "stream (%" PRIu64 " in all)%s\n", t->refreshes + 1, t->decoded - at,
             t->decoded, more ? ", more to decode" : "");
  return rc;
}

/* SET is about to be freed: the decoders copy the strings they hold in its
   mappings, and the feeds keep the sites they were given from it.  */

static void
release_set (struct top *t, struct pf_set *set)
{
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      struct pf_process *p = &set->procs[i];
      for (uint32_t k = 0; k < t->nfeeds; k++)
        {
          struct top_feed *f = &t->feeds[k];
          for (uint32_t j = 0; j < f->nres && p->map; j++)
            ev_resume_detach (f->res[j], p->map, p->map + p->map_size);
          if (f->sites != &p->sites)
            continue;
          f->owned = XNEW (struct ev_sites);
          *f->owned = p->sites;
          memset (&p->sites, 0, sizeof p->sites);
          f->sites = f->owned;
        }
    }
}

/* Forget what was decoded, and the records bucketed.  */

static void
feeds_free (struct top *t)
{
  for (uint32_t i = 0; i < t->nfeeds; i++)
    {
      struct top_feed *f = &t->feeds[i];
      for (uint32_t k = 0; k < f->nres; k++)
        ev_resume_end (f->res[k], NULL, NULL);
      free (f->res);
      if (f->owned)
        {
          ev_sites_free (f->owned);
          free (f->owned);
        }
    }
  free (t->feeds);
  t->feeds = NULL;
  t->nfeeds = 0;
  if (t->agg)
    agg_free (t->agg);
  t->agg = NULL;
}

/* The run time of SET's processes as read: each to its exit or its latest
   record.  */

static uint64_t
total_run (struct top *t, struct pf_set *set)
{
  uint64_t run = 0;
  for (uint32_t i = 0; i < set->nprocs; i++)
    run += pf_run_ns (&set->procs[i], feed_of (t, &set->procs[i])->last_ns);
  return run;
}

/* Bucket the records by T's dimensions again: they changed.  Both models
   are of the records as decoded again, so the changes show from the next
   refresh on.  */

static int
rebuild_reports (struct top *t)
{
  feeds_free (t);
  t->agg = agg_new (t->ndims, t->dims, 0, NULL);
  t->rpt_dims = t->dims;
  enum pf_state *states = t->states;
  int rc = t->cur.nprocs ? feed_set (t, &t->cur, states) : 0;
  snapshot_free (&t->old_rpt);
  snapshot_free (&t->cur_rpt);
  uint64_t run = total_run (t, &t->cur);
  snapshot (t, run, &t->old_rpt);
  snapshot (t, run, &t->cur_rpt);
  return rc;
}

/* The state of process P of the snapshot read after T->cur, BEFORE those of
   T->cur's processes before that read (NULL: none).  */

static enum pf_state
state_after (const struct top *t, const enum pf_state *before,
             const struct pf_process *p)
{
  if (p->header.stop_mono_ns)
    return PF_EXITED;
  for (uint32_t i = 0; before && i < t->cur.nprocs; i++)
    {
      const struct dsprof_file_header *h = &t->cur.procs[i].header;
      if (h->pid == p->header.pid && h->start_mono_ns == p->header.start_mono_ns)
        return before[i];
    }
  return pf_process_state (p);
}

/* Read the profile again and decode what it holds past the last read: T->cur
   becomes T->old.  Return 0, or EXIT_DATA after pf_add's message.  */

static int
top_read (struct top *t)
{
  struct pf_set next;
  memset (&next, 0, sizeof next);
  /* The states before the read: a process gone by then has written all.  */
  enum pf_state *before = t->cur.nprocs ? XNEWVEC (enum pf_state, t->cur.nprocs)
                          : NULL;
  for (uint32_t i = 0; i < t->cur.nprocs; i++)
    before[i] = pf_process_state (&t->cur.procs[i]);
  int rc = pf_add (&next, t->path) < 0 ? EXIT_DATA : 0;
  enum pf_state *states = XNEWVEC (enum pf_state, next.nprocs + 1);
  for (uint32_t i = 0; !rc && i < next.nprocs; i++)
    states[i] = state_after (t, before, &next.procs[i]);
  free (before);
  if (!rc && t->rpt_dims != t->dims)
    {
      t->dims_changed = true;
      t->rpt_dims = t->dims;
      feeds_free (t);
      t->agg = agg_new (t->ndims, t->dims, 0, NULL);
    }
  if (!rc)
    rc = feed_set (t, &next, states);
  struct lc_model lc;
  if (!rc)
    rc = lc_build (&next, &lc);
  if (rc)
    {
      release_set (t, &next);
      free (states);
      pf_free (&next);
      return rc;
    }
  snapshot_free (&t->old_rpt);
  lc_free (&t->old_lc);
  release_set (t, &t->old);
  pf_free (&t->old);
  t->old = t->cur;
  t->old_rpt = t->cur_rpt;
  t->old_lc = t->cur_lc;
  t->cur = next;
  snapshot (t, total_run (t, &t->cur), &t->cur_rpt);
  t->cur_lc = lc;
  free (t->states);
  t->states = states;
  if (t->dims_changed)
    {
      /* No change to show until the next refresh: the records were
         bucketed again.  */
      snapshot_free (&t->old_rpt);
      snapshot (t, t->cur_rpt.total_ns, &t->old_rpt);
      t->dims_changed = false;
    }
  t->refreshes++;
  return 0;
}

/* The dimensions the `d` key offers: the intrinsic ones, then the
   parameter dimensions of the profile's sites, each once.  */

static void
add_choice (struct top *t, const char *name)
{
  for (int i = 0; i < t->ndim_choices; i++)
    if (!strcmp (t->dim_choices[i], name))
      return;
  t->dim_choices = XRESIZEVEC (const char *, t->dim_choices, t->ndim_choices + 1);
  t->dim_choices[t->ndim_choices++] = xstrdup (name);
}

static void
collect_choices (struct top *t)
{
  static const char *const intrinsic[] = { "name", "event", "file", "line" };
  for (size_t i = 0; i < sizeof intrinsic / sizeof intrinsic[0]; i++)
    add_choice (t, intrinsic[i]);
  const struct ev_sites *s = &t->cur.procs[0].sites;
  for (uint32_t i = 0; i < s->size; i++)
    if (s->by_id[i])
      for (uint32_t k = 0; k < s->by_id[i]->ndims; k++)
        add_choice (t, s->by_id[i]->dims[k].name);
}

/* ---- one frame, as text ------------------------------------------------------ */

/* How many of T's processes are in STATE.  */

static uint32_t
count_state (const struct top *t, enum pf_state state)
{
  uint32_t n = 0;
  for (uint32_t i = 0; i < t->cur.nprocs; i++)
    n += t->states[i] == state;
  return n;
}

/* What the head line says of a profile of one process in each state.  */
static const char *const state_words[] = {
  [PF_RUNNING] = "running",
  [PF_EXITED] = "exited",
  [PF_GONE] = "process gone (killed or crashed): final state",
  [PF_REUSED] = "process gone (killed or crashed; its pid now names a later "
                "process): final state",
  [PF_ELSEWHERE] = "not written by its process (a copy of its profile?): final state",
};

static void
frame_head (const struct top *t, FILE *out)
{
  const struct pf_process *p = &t->cur.procs[0];
  uint32_t n = t->cur.nprocs, running = count_state (t, PF_RUNNING);
  /* The switch of events as the last switch `dsprof ctl` logged left it.  */
  bool off = n == 1 && p->control_offset
             && !(p->nswitches ? p->switches[p->nswitches - 1].on
                  : p->events_at_start);
  fputs ("dsprof top: ", out);
  text_plain (out, t->path);
  if (n == 1)
    fprintf (out, "  pid %" PRId64 "  %s", p->header.pid, state_words[t->states[0]]);
  else if (running)
    fprintf (out, "  %u processes  running (%u of them)", n, running);
  else
    fprintf (out, "  %u processes  none running (%u exited, %u gone): final state",
             n, count_state (t, PF_EXITED), n - count_state (t, PF_EXITED));
  fprintf (out, "%s  refresh %lu%s\n", off ? "  events off" : "", t->refreshes,
           t->paused ? "  [paused]" : "");
  if (n == 1 && t->states[0] == PF_EXITED)
    fprintf (out, "the process is gone: it exited; final state\n");
}

/* The program's totals: run time so far (since its first process started; the
   models' when none runs), records, event stream and dropped events of every
   process.  */

static void
frame_totals (struct top *t, const struct diff_model *d, FILE *out)
{
  uint64_t run = d->new.total_ns, start = UINT64_MAX, events = 0, dropped = 0;
  for (uint32_t i = 0; i < t->cur.nprocs; i++)
    {
      const struct pf_process *p = &t->cur.procs[i];
      start = p->header.start_mono_ns < start ? p->header.start_mono_ns : start;
      events += p->events;
      dropped += p->header.dropped_events;
    }
  struct timespec now;
  if (count_state (t, PF_RUNNING) && clock_gettime (CLOCK_MONOTONIC, &now) == 0)
    {
      uint64_t ns = (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec;
      if (ns > start)
        run = ns - start;
    }
  /* Never back: a read's clock and the recorded one differ a little.  */
  if (run < t->run_shown)
    run = t->run_shown;
  t->run_shown = run;
  char buf[64];
  fprintf (out, "run time %s  records %" PRIu64 " (+%" PRIu64 ")  event stream %"
           PRIu64 " bytes  dropped events %" PRIu64 "\n",
           text_duration (buf, sizeof buf, run), d->new.records,
           d->new.records - (d->base.records < d->new.records
                             ? d->base.records : d->new.records),
           events, dropped);
}

static int
cmp_count (const void *a, const void *b)
{
  const struct diff_line *x = a, *y = b;
  if (x->new != y->new)
    return x->new > y->new ? -1 : 1;
  int c = strcmp (x->given, y->given);
  return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

/* The lines of model LC counted most in the whole run: the view once no
   process runs, when nothing grows any more.  */

static void
frame_whole_lines (const struct lc_model *lc, long rows, FILE *out)
{
  size_t n = 0;
  for (size_t i = 0; i < lc->nsources; i++)
    n += lc->sources[i]->nlines;
  struct diff_line *v = XNEWVEC (struct diff_line, n + 1);
  n = 0;
  for (size_t i = 0; i < lc->nsources; i++)
    for (uint32_t k = 0; k < lc->sources[i]->nlines; k++)
      if (lc->sources[i]->lines[k].count)
        {
          v[n].given = lc->sources[i]->given;
          v[n].line = lc->sources[i]->lines[k].line;
          v[n].base = 0;
          v[n++].new = lc->sources[i]->lines[k].count;
        }
  qsort (v, n, sizeof *v, cmp_count);
  fprintf (out, "\nLines, hottest of the whole run:\n%12s %14s  %s\n", "",
           "Count", "Line");
  for (size_t i = 0; i < n && (long) i < rows; i++)
    fprintf (out, "%12s %14" PRIu64 "  %s:%u\n", "", v[i].new,
             text_shown (v[i].given), v[i].line);
  if (!n)
    fprintf (out, "%12s\n", "(none)");
  free (v);
}

static void
frame_lines (const struct diff_lines *l, long rows, FILE *out)
{
  fprintf (out, "\nLines, hottest since the last refresh:\n%12s %14s  %s\n",
           "Delta", "Count", "Line");
  long shown = 0;
  for (size_t i = 0; i < l->n && shown < rows; i++)
    if (l->lines[i].new > l->lines[i].base)
      {
        const struct diff_line *x = &l->lines[i];
        fprintf (out, "%12" PRIu64 " %14" PRIu64 "  %s:%u\n", x->new - x->base,
                 x->new, text_shown (x->given), x->line);
        shown++;
      }
  if (!shown)
    fprintf (out, "%12s\n", "(none)");
}

static uint64_t
row_count (const struct rpt_row *r)
{
  return r ? r->count : 0;
}

static uint64_t
row_total (const struct rpt_row *r)
{
  return r ? r->total_ns : 0;
}

/* The rows of table D at indent LEVEL whose Count grew, and their tables.  */

static void
frame_table (const struct diff_table *d, const struct text_unit *u, long rows,
             long *shown, FILE *out)
{
  char a[48], b[48];
  for (uint32_t i = 0; i < d->nrows && *shown < rows; i++)
    {
      const struct diff_row *r = &d->rows[i];
      uint64_t nc = row_count (r->new), bc = row_count (r->base);
      if (nc <= bc)
        continue;
      uint64_t nt = row_total (r->new), bt = row_total (r->base);
      fprintf (out, "%10" PRIu64 " %12s %10" PRIu64 " %12s  %*s%s\n", nc - bc,
               text_time (a, sizeof a, nt > bt ? nt - bt : 0, u), nc,
               text_time (b, sizeof b, nt, u), 2 * d->level, "", text_shown (r->value));
      ++*shown;
      if (r->sub)
        frame_table (r->sub, u, rows, shown, out);
    }
}

static void
frame_records (const struct top *t, const struct diff_model *d, long rows,
               FILE *out)
{
  fprintf (out, "\nRecords finished since the last refresh, by ");
  for (int i = 0; i < t->ndims; i++)
    fprintf (out, "%s%s", i ? ", " : "", text_shown (t->dims[i]));
  const struct text_unit *u = text_unit_for (d->new.total_ns);
  fprintf (out, " (times in %s):\n%10s %12s %10s %12s  %s\n", u->name, "Delta",
           "Total delta", "Count", "Total", "Value");
  long shown = 0;
  if (d->top)
    frame_table (d->top, u, rows, &shown, out);
  if (!shown)
    fprintf (out, "%10s\n", "(none)");
}

/* Render the frame of T's last two snapshots into OUT.  Notes of the models
   go to stderr.  Return 0 or EXIT_DATA.  */

static int
frame (struct top *t, long rows, FILE *out)
{
  if (t->rpt_dims != t->dims)
    {
      int rc = rebuild_reports (t);
      if (rc)
        return rc;
    }
  struct diff_model d;
  struct diff_lines l;
  memset (&d, 0, sizeof d);
  memset (&l, 0, sizeof l);
  d.base = t->old_rpt;
  d.new = t->cur_rpt;
  diff_pair (&d, DIFF_COUNT);
  l.base = t->old_lc;
  l.new = t->cur_lc;
  diff_lines_pair (&l);
  frame_head (t, out);
  frame_totals (t, &d, out);
  if (t->view != VIEW_RECORDS && !count_state (t, PF_RUNNING))
    frame_whole_lines (&t->cur_lc, rows, out);
  else if (t->view != VIEW_RECORDS)
    frame_lines (&l, rows, out);
  if (t->view != VIEW_LINES)
    frame_records (t, &d, rows, out);
  /* The models stay T's.  */
  memset (&d.base, 0, sizeof d.base);
  memset (&d.new, 0, sizeof d.new);
  diff_free (&d);
  memset (&l.base, 0, sizeof l.base);
  memset (&l.new, 0, sizeof l.new);
  diff_lines_free (&l);
  return 0;
}

static void
sleep_seconds (double s)
{
  struct timespec ts;
  ts.tv_sec = (time_t) s;
  ts.tv_nsec = (long) ((s - (double) ts.tv_sec) * 1e9);
  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    ;
}

static int
run_batch (struct top *t)
{
  /* A refresh every interval, whatever its read took.  */
  double next = now_seconds ();
  for (long i = 0; i < t->batch; i++)
    {
      double wait = next - now_seconds ();
      if (i && wait > 0)
        sleep_seconds (wait);
      else
        next = now_seconds ();
      next += t->delay;
      int rc = top_read (t);
      if (!rc)
        {
          if (i)
            putchar ('\n');
          rc = frame (t, TOP_ROWS, stdout);
        }
      if (rc)
        return rc;
      fflush (stdout);
    }
  return close_output ("top", NULL, stdout);
}

/* ---- the terminal view ------------------------------------------------------- */

static volatile sig_atomic_t top_stop;

static void
on_signal (int sig)
{
  (void) sig;
  top_stop = 1;
}

/* Show TEXT's lines on the screen, cut to its size, with the keys below.  */

static void
show (const char *text)
{
  erase ();
  int y = 0;
  for (const char *p = text; *p && y < LINES - 1; y++)
    {
      const char *nl = strchr (p, '\n');
      size_t n = nl ? (size_t) (nl - p) : strlen (p);
      mvaddnstr (y, 0, p, (int) (n < (size_t) COLS ? n : (size_t) COLS));
      p += n + (nl != NULL);
    }
  attron (A_REVERSE);
  mvaddnstr (LINES - 1, 0, " q quit  p pause  l lines  r records  "
             "tab switch view  d next dimension", COLS);
  attroff (A_REVERSE);
  refresh ();
}

/* Render a frame with the models' notes and errors kept off the screen: in
   *ERRS, which the caller prints once the terminal is restored.  */

static int
frame_text (struct top *t, char **text, FILE *errs, bool reread)
{
  size_t size;
  FILE *out = open_memstream (text, &size);
  if (!out)
    return EXIT_DATA;
  fflush (stderr);
  int saved = dup (2);
  dup2 (fileno (errs), 2);
  int rc = reread ? top_read (t) : 0;
  if (!rc)
    rc = frame (t, LINES > 8 ? LINES - 8 : 1, out);
  fflush (stderr);
  dup2 (saved, 2);
  close (saved);
  fclose (out);
  return rc;
}

/* The next dimension of the `d` key.  */

static void
next_dims (struct top *t)
{
  if (!t->ndim_choices)
    return;
  /* Past the one shown now, when it is a single choice.  */
  int k = (t->dim_choice + 1) % t->ndim_choices;
  if (t->ndims == 1 && !strcmp (t->dim_choices[k], t->dims[0]))
    k = (k + 1) % t->ndim_choices;
  t->dim_choice = k;
  t->ndims = 1;
  t->dims = &t->dim_choices[t->dim_choice];
}

/* Act on key C (ERR: none came in time, the next refresh is due).  */

static void
on_key (struct top *t, int c, bool *reread, bool *render)
{
  switch (c)
    {
    case 'q': case 'Q': top_stop = 1; break;
    case 'p': case ' ': t->paused = !t->paused; *render = true; break;
    case 'l': t->view = VIEW_LINES; *render = true; break;
    case 'r': t->view = VIEW_RECORDS; *render = true; break;
    case '\t':
      t->view = t->view == VIEW_LINES ? VIEW_RECORDS : VIEW_LINES;
      *render = true;
      break;
    case 'd': next_dims (t); *render = true; break;
    case KEY_RESIZE: *render = true; break;
    case ERR:
      if (!t->paused)
        *reread = *render = true;
      break;
    default: break;
    }
}

/* Whether a key waits on the terminal.  */

static bool
key_waiting (void)
{
  struct pollfd pfd = { STDIN_FILENO, POLLIN, 0 };
  return poll (&pfd, 1, 0) > 0;
}

static int
run_terminal (struct top *t)
{
  FILE *errs = tmpfile ();
  if (!errs)
    {
      fprintf (stderr, "dsprof top: no temporary file: %s\n", strerror (errno));
      return EXIT_DATA;
    }
  SCREEN *screen = newterm (NULL, stdout, stdin);
  if (!screen)
    {
      fclose (errs);
      fprintf (stderr, "dsprof top: the terminal (TERM=%s) cannot be used; "
               "--batch N prints text\n", getenv ("TERM") ? getenv ("TERM") : "");
      return EXIT_USAGE;
    }
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGHUP, &sa, NULL);
  cbreak ();
  noecho ();
  keypad (stdscr, TRUE);
  curs_set (0);
  t->interrupt = key_waiting;
  int rc = 0;
  /* The first frame is of the snapshot run_top read.  */
  bool reread = !t->cur.nprocs, render = true;
  struct timespec next = { 0, 0 };
  while (!top_stop)
    {
      if (render)
        {
          /* The next refresh an interval after this read began.  */
          struct timespec began;
          clock_gettime (CLOCK_MONOTONIC, &began);
          char *text = NULL;
          rc = frame_text (t, &text, errs, reread);
          if (rc)
            {
              free (text);
              break;
            }
          if (!t->ndim_choices)
            collect_choices (t);
          show (text);
          free (text);
          if (reread || !next.tv_sec)
            {
              next = began;
              next.tv_sec += (time_t) t->delay;
              next.tv_nsec += (long) ((t->delay - (double) (time_t) t->delay) * 1e9);
              if (next.tv_nsec >= 1000000000)
                next.tv_sec++, next.tv_nsec -= 1000000000;
            }
          reread = render = false;
        }
      struct timespec now;
      clock_gettime (CLOCK_MONOTONIC, &now);
      long ms = (long) ((next.tv_sec - now.tv_sec) * 1000
                        + (next.tv_nsec - now.tv_nsec) / 1000000);
      /* Bytes left to decode: the next read at once.  */
      timeout (t->paused ? 1000 : t->behind || ms <= 0 ? 0 : (int) ms);
      on_key (t, getch (), &reread, &render);
    }
  endwin ();
  delscreen (screen);
  /* What the models said while the screen was up: once, now.  */
  rewind (errs);
  char buf[512];
  while (fgets (buf, sizeof buf, errs))
    fputs (buf, stderr);
  fclose (errs);
  return rc;
}

/* ---- the command ------------------------------------------------------------- */

static int
set_delay (const char *cmd, char *arg, void *field)
{
  char *end;
  errno = 0;
  double *delay = field;
  *delay = strtod (arg, &end);
  if (errno || end == arg || *end || !(*delay >= 0.01) || *delay > 86400)
    return usage_error (cmd, "-d wants seconds from 0.01 to 86400, not '%s'",
                        arg);
  return 0;
}

static int
set_batch (const char *cmd, char *arg, void *field)
{
  char *end;
  errno = 0;
  long *batch = field;
  *batch = strtol (arg, &end, 10);
  if (errno || end == arg || *end || *batch < 1)
    return usage_error (cmd, "--batch wants a number of refreshes >= 1, not "
                        "'%s'", arg);
  return 0;
}

static const struct opt top_opts[] = {
  { .name = "delay", .letter = 'd', .arg = "SECONDS", .kind = OPT_FUNC,
    .set = set_delay, .off = offsetof (struct top, delay),
    .help = "between refreshes (default 1)" },
  { .name = "batch", .letter = 'b', .arg = "N", .kind = OPT_FUNC,
    .set = set_batch, .off = offsetof (struct top, batch),
    .help = "print N refreshes as text (both views), no terminal" },
  { 0 }
};

/* top's operands ARGV[0 .. ARGC): a profile and dimensions, into T.  */

static int
top_operands (struct top *t, int argc, char **argv)
{
  for (int i = 0; i < argc; i++)
    if (looks_like_profile (argv[i]))
      {
        if (t->path)
          return usage_error ("top", "one profile at a time: '%s' and '%s'",
                              t->path, argv[i]);
        t->path = argv[i];
      }
    else if (check_dim ("top", argv[i]))
      return EXIT_USAGE;
    else
      t->given[t->ngiven++] = argv[i];
  return 0;
}

/* Parse top's options into T; its operands: a profile and dimensions.
   Return 0, OPT_HELP or EXIT_USAGE.  */

static int
parse_args (struct top *t, int argc, char **argv)
{
  struct opt_operands ops;
  int rc = opt_parse (&cmd_top.cli, argc, argv, t, &ops);
  if (!rc)
    rc = top_operands (t, ops.n, ops.v);
  free (ops.v);
  return rc;
}

/* Free what T holds: the decoders before the sites they point into.  */

static void
top_free (struct top *t)
{
  snapshot_free (&t->old_rpt);
  snapshot_free (&t->cur_rpt);
  feeds_free (t);
  for (uint32_t i = 0; i < t->nkept; i++)
    {
      ev_sites_free (t->kept[i]);
      free (t->kept[i]);
    }
  free (t->kept);
  lc_free (&t->old_lc);
  lc_free (&t->cur_lc);
  pf_free (&t->old);
  pf_free (&t->cur);
}

/* Run the view T's options ask for.  */

static int
top_main (struct top *t)
{
  static const char *name = "name";
  if (!t->path)
    t->path = "dsprof.data";
  t->ndims = t->ngiven ? t->ngiven : 1;
  t->dims = t->ngiven ? t->given : &name;
  t->view = t->batch ? VIEW_BOTH : VIEW_LINES;
  /* The models of no snapshot, which the first is compared with.  */
  t->rpt_dims = t->dims;
  t->agg = agg_new (t->ndims, t->dims, 0, NULL);
  snapshot (t, 0, &t->cur_rpt);
  int rc = lc_build (&t->cur, &t->cur_lc);
  if (rc)
    return rc;
  if (t->batch)
    return run_batch (t);
  /* Check the profile before the screen is taken.  */
  rc = top_read (t);
  if (!rc && (!isatty (STDOUT_FILENO) || !isatty (STDIN_FILENO)))
    rc = usage_error ("top", "needs a terminal; --batch N prints text");
  return rc ? rc : run_terminal (t);
}

static int
run_top (int argc, char **argv)
{
  struct top t;
  memset (&t, 0, sizeof t);
  t.delay = 1.0;
  t.dim_choice = -1;
  t.given = XNEWVEC (const char *, argc + 1);
  int rc = parse_args (&t, argc, argv);
  if (rc == OPT_HELP)
    rc = 0;
  else if (!rc)
    rc = top_main (&t);
  top_free (&t);
  free (t.states);
  for (int i = 0; i < t.ndim_choices; i++)
    free ((char *) t.dim_choices[i]);
  free (t.dim_choices);
  free (t.given);
  return rc;
}

const struct command cmd_top = {
  .summary = "a live view of a running program's profile",
  .run = run_top,
  .cli = {
    .name = "top", .opts = top_opts,
    .usage =
  "usage: dsprof top [-d SECONDS] [--batch N] [PROFILE] [DIM...]\n\n"
  "Show the profile of a running program (default ./dsprof.data), read again\n"
  "every refresh: the program's run time so far, records and event stream;\n"
  "the lines whose counts grew most since the last refresh (the growth and\n"
  "the count); the records finished since the last refresh by DIM... (default\n"
  "name): how many, their total time, and the totals so far.  When the program\n"
  "has exited or is gone (killed, crashed) it says so and shows the final state.\n"
  "The profile of several processes (DSPROF_ACCUMULATE) shows all of them, running\n"
  "while any runs.\n\n"
  "Keys: q quit, p or space pause, l lines, r records, tab switch view,\n"
  "d bucket the records by the next dimension of the profile.\n\n"
  }
};
