/* cmd-merge.c - `dsprof merge -o OUT IN...` (docs/contract.md §5.8): one
   profile file holding every input, units once with summed counters, every
   process's event streams with their threads renumbered.

   The events are written from what the one stream walker (pf_walk_streams)
   delivers, not decoded a second time: each event carries its bytes in its
   stream (struct ev_raw), so its values are copied as they are, its site id
   is renumbered to OUT's units and its time is the ns the walker computed,
   which OUT's nanosecond clock maps back to exactly (pfwrite.h).  A merged
   profile thus reads as its inputs read together.  Each input chunk becomes
   one chunk of OUT (the names a chunk defines are then defined in OUT's, the
   only place a reader looks for them, and its references to the strings it
   defines, dsprof-format.h section 4, refer to the same ones); what of a chunk is no event, NAME ops
   after its last event and chunks without events, is copied as it is.  Merge
   streams: a chunk of OUT is written when its input chunk ends, and nothing
   is kept per record.  */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "cmd.h"
#include "pfwrite.h"

/* What the merge knows of one input process.  */
struct merge_proc
{
  uint32_t *site_map;            /* its global site id -> OUT's (0: none) */
  uint32_t nsite_map;
  uint32_t thread_base;          /* added to its thread numbers */
  uint64_t last_ns, pairs;       /* its latest event; its Start events */
};

struct merge
{
  struct pw_writer w;
  const struct pf_set *set;
  struct merge_proc *mp;         /* per process of SET */
  struct merge_proc *cur;        /* of the stream walked */
  double ns_per_tick;            /* its process's clock */
  struct agg_costs costs;        /* its costs, as its report takes them */
  const struct ev_stream *s;     /* the stream walked, or NULL */
  uint32_t thread;               /* S's thread as OUT numbers it */
  uint32_t chunk;                /* the input chunk of OUT's open chunk */
  uint32_t next;                 /* S's first chunk not written yet */
  const unsigned char *tail;     /* where the open chunk's input is not
                                    written yet: after its latest event */
  uint32_t seq;                  /* OUT's chunks of S so far */
  const char *path;              /* of the input walked, for messages */
};

/* Write the units of SET, each once with its summed counters, their sites
   numbered anew; return each unit's first site id in OUT (0: no sites).  */

static uint32_t *
write_units (struct pw_writer *w, const struct pf_set *set)
{
  uint32_t *base = XCNEWVEC (uint32_t, set->nunits + 1);
  uint32_t next_site = 1;
  for (uint32_t i = 0; i < set->nunits; i++)
    {
      const struct pf_unit *u = set->units[i];
      if (u->nsites)
        {
          base[i] = next_site;
          next_site += u->nsites;
        }
      pw_unit (w, u, base[i]);
    }
  return base;
}

/* MP's map from process P's site ids to OUT's, through its units as the
   reader found them (unit chunks and units chunks' records); BASE as
   write_units returned it.  */

static void
map_sites (const struct pf_process *p, const uint32_t *base, struct merge_proc *mp)
{
  mp->nsite_map = p->sites.size;
  mp->site_map = XCNEWVEC (uint32_t, p->sites.size + 1);
  for (uint32_t j = 0; j < p->nunits; j++)
    {
      const struct pf_unit_sites *us = &p->unit_sites[j];
      for (uint32_t s = 0; s < us->nsites; s++)
        if ((uint64_t) us->site_base + s < p->sites.size)
          mp->site_map[us->site_base + s] = base[us->unit] + s;
    }
}

/* Number each process's threads after the previous process's highest; false
   after a message if they do not fit.  */

static bool
number_threads (const struct pf_set *set, struct merge_proc *mp)
{
  uint32_t threads = 0;
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      const struct pf_process *p = &set->procs[i];
      mp[i].thread_base = threads;
      if (!p->nstreams)
        continue;
      uint32_t last = p->streams[p->nstreams - 1].thread;   /* the highest */
      if (last > UINT32_MAX - threads)
        {
          fprintf (stderr, "dsprof merge: too many threads\n");
          return false;
        }
      threads += last;
    }
  return true;
}

/* Close OUT's open chunk, whose input chunk is CH, with CH's costs as the
   merged profile keeps them (costs_merged_trailer), if it has any.  */

static void
close_with_costs (struct merge *m, const struct dsprof_events_chunk *ch)
{
  struct dsprof_events_costs ps;
  bool has = costs_merged_trailer (&m->costs, ch, m->ns_per_tick, &ps);
  pw_events_close (&m->w, has ? &ps : NULL);
}

/* Close OUT's open chunk after the rest of its input chunk (NAME ops at
   most: the walker read the chunk to its end).  */

static void
close_chunk (struct merge *m)
{
  if (!m->w.open)
    return;
  const struct dsprof_events_chunk *ch = m->s->chunks[m->chunk];
  const unsigned char *end = (const unsigned char *) (ch + 1) + ch->used;
  pw_events_copy (&m->w, m->tail, (size_t) (end - m->tail));
  close_with_costs (m, ch);
}

/* Write the input chunks before chunk K not written yet, which hold no event
   (NAME ops at most), as they are.  */

static void
copy_chunks (struct merge *m, uint32_t k)
{
  for (; m->next < k; m->next++)
    {
      const struct dsprof_events_chunk *ch = m->s->chunks[m->next];
      pw_events_open (&m->w, m->thread, m->seq++, 0);
      pw_events_copy (&m->w, ch + 1, ch->used);
      close_with_costs (m, ch);
    }
}

/* Write what is left of the stream walked, if any.  */

static void
end_stream (struct merge *m)
{
  if (!m->s)
    return;
  close_chunk (m);
  copy_chunks (m, m->s->nchunks);
  m->s = NULL;
}

static void
merge_begin (const struct pf_process *p, const struct ev_stream *s, void *arg)
{
  struct merge *m = arg;
  end_stream (m);
  m->cur = &m->mp[p - m->set->procs];
  m->s = s;
  m->ns_per_tick = p->clock.ns_per_tick;
  agg_costs_of (p, s, false, &m->costs);
  m->thread = s->thread + m->cur->thread_base;
  m->next = m->seq = 0;
  m->path = p->path;
}

static int
merge_event (const struct ev_event *e, void *arg)
{
  struct merge *m = arg;
  struct merge_proc *mp = m->cur;
  if (e->ns > mp->last_ns)
    mp->last_ns = e->ns;
  /* Pairs the start-up figure is deducted for: of streams without
     measurements (agg_costs_of).  */
  mp->pairs += e->kind == EV_START && !m->s->has_costs;
  if (!e->raw.op)
    return 0;                    /* closed by the reader: OUT's reader does too */
  uint32_t id = e->raw.id;
  if (e->raw.op == DSPROF_OP_ENTER || e->raw.op == DSPROF_OP_OP
      || e->raw.op == DSPROF_OP_NEXT)
    {
      id = id < mp->nsite_map ? mp->site_map[id] : 0;
      if (!id)
        {
          fprintf (stderr, "dsprof merge: %s: thread %u: corrupt event stream "
                   "(unknown site)\n", m->path, e->thread);
          return EXIT_DATA;
        }
    }
  if (!m->w.open || e->raw.chunk != m->chunk)
    {
      close_chunk (m);
      copy_chunks (m, e->raw.chunk);
      pw_events_open (&m->w, m->thread, m->seq++, e->ns);
      m->chunk = e->raw.chunk;
      m->next = m->chunk + 1;
    }
  pw_event (&m->w, e, id);
  m->tail = e->raw.payload + e->raw.payload_size;
  return 0;
}

/* The header of the merge of SET into H: the first input's identity; the run
   time the inputs' summed (as `dsprof report IN...` adds them); the overhead
   their mean per pair of their streams without measurements in the run (the
   pairs it is deducted for); the counts of lost, stray and repaired events summed;
   the most threads any ran update=single code in; their CPU times and waits
   for a CPU summed, if all recorded them.  */

static void
merged_header (const struct pf_set *set, const struct merge_proc *mp,
               struct dsprof_file_header *h)
{
  const struct dsprof_file_header *h0 = &set->procs[0].header;
  memset (h, 0, sizeof *h);
  uint64_t run_ns = 0, pairs = 0;
  double overhead = 0;
  bool same_exe = true;
  struct pf_cpu cpu = { 0 };
  h->start_ns = h0->start_ns;
  /* Timed by samples if every input was: the records of one that was not
     have none.  */
  h->flags |= DSPROF_FLAG_SAMPLED;
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      const struct pf_process *p = &set->procs[i];
      run_ns += pf_run_ns (p, mp[i].last_ns);
      pairs += mp[i].pairs;
      overhead += (double) p->header.pair_overhead_ps * (double) mp[i].pairs;
      h->dropped_events += p->header.dropped_events;
      h->stray_dims += p->header.stray_dims;
      h->repaired_events += p->header.repaired_events;
      if (p->header.single_threads > h->single_threads)
        h->single_threads = p->header.single_threads;
      h->flags |= p->header.flags & DSPROF_FLAG_TRUNCATED;
      if (!(p->header.flags & DSPROF_FLAG_SAMPLED))
        h->flags &= ~(uint64_t) DSPROF_FLAG_SAMPLED;
      if (p->header.start_ns < h->start_ns)
        h->start_ns = p->header.start_ns;
      same_exe &= !strcmp (p->header.exe, h0->exe);
      pf_cpu_add (&cpu, &p->header);
    }
  /* Where the run time went, if every input tells.  */
  if (cpu.procs == set->nprocs)
    {
      h->cpu_ns = cpu.cpu_ns;
      h->run_delay_ns = cpu.delay_ns;
      h->run_delay_threads = cpu.delay_threads;
    }
  h->pid = h0->pid;
  h->ppid = h0->ppid;
  h->start_mono_ns = 0;
  h->stop_mono_ns = run_ns;
  h->clock = DSPROF_CLOCK_NS;
  h->start_ticks = 0;
  h->stop_ticks = run_ns;
  h->tick_hz = 1000000000u;
  h->pair_overhead_ps = pairs ? (uint64_t) llround (overhead / (double) pairs)
                              : h0->pair_overhead_ps;
  if (same_exe)
    memcpy (h->exe, h0->exe, sizeof h->exe);
  else
    snprintf (h->exe, sizeof h->exe, "(%u programs merged; first %.200s)",
              set->nprocs, h0->exe);
}

/* Write the merge of SET to F: units, then every stream as the walker
   delivers it, then the header.  Return 0, or EXIT_DATA after a message.  */

static int
write_merged (struct pf_set *set, const char *output, FILE *f)
{
  struct merge m;
  memset (&m, 0, sizeof m);
  m.set = set;
  m.mp = XCNEWVEC (struct merge_proc, set->nprocs);
  int rc = number_threads (set, m.mp) ? 0 : EXIT_DATA;
  if (!rc)
    {
      pw_begin (&m.w, f);
      uint32_t *base = write_units (&m.w, set);
      for (uint32_t i = 0; i < set->nprocs; i++)
        map_sites (&set->procs[i], base, &m.mp[i]);
      free (base);
      /* Records are not kept (no EV_KEEP_CHILDREN): nothing of merge grows
         with them.  */
      rc = pf_walk_streams (set, merge_event, NULL, merge_begin, &m,
                            EV_SAMPLES);
    }
  if (!rc)
    {
      end_stream (&m);
      struct dsprof_file_header h;
      merged_header (set, m.mp, &h);
      const char *err = pw_finish (&m.w, &h);
      if (err)
        {
          fprintf (stderr, "dsprof merge: '%s': %s\n", output, err);
          rc = EXIT_DATA;
        }
    }
  pw_free (&m.w);
  for (uint32_t i = 0; i < set->nprocs; i++)
    free (m.mp[i].site_map);
  free (m.mp);
  return rc;
}

static const struct opt merge_opts[] = {
  { .name = "output", .letter = 'o', .arg = "OUT", .kind = OPT_STRING,
    .help = "the merged profile (required)" },
  { 0 }
};

/* merge into --output (*OPTS) the profiles ARGV[0 .. ARGC).  */

static int
merge_main (void *opts, int argc, char **argv)
{
  const char *output = *(const char **) opts;
  if (!output || !*output)
    return usage_error ("merge", "-o OUT is needed");
  if (argc == 0)
    return usage_error ("merge", "no input profiles");
  struct pf_set set;
  int rc = load_profiles (argc, argv, &set);
  if (rc)
    return rc;
  /* Into a new file beside OUT, renamed over it at the end (files.h): OUT may
     be one of the inputs, which are mapped.  A corrupt stream (an error, as
     in every command) discards it.  */
  struct output out;
  if (!(rc = output_open (&out, "merge", output, OUTPUT_PROFILE)))
    rc = output_finish (&out, write_merged (&set, output, out.f));
  pf_free (&set);
  return rc;
}

static int
run_merge (int argc, char **argv)
{
  const char *output = NULL;
  return opt_run (&cmd_merge.cli, argc, argv, &output, merge_main);
}

const struct command cmd_merge = {
  .summary = "one profile from many",
  .run = run_merge,
  .cli = {
    .name = "merge", .opts = merge_opts,
    .usage =
  "usage: dsprof merge -o OUT IN...\n\n"
  "Write one profile OUT holding the profiles IN (e.g. every run of a test\n"
  "suite): each compilation unit once with its counters summed, so `dsprof\n"
  "lines OUT` equals `dsprof lines IN...`; and the event streams of every\n"
  "input, each process's threads renumbered after the previous input's (the\n"
  "threads of the second input follow the highest thread number of the\n"
  "first, and so on), times kept as nanoseconds since their own process\n"
  "started.  The run time of OUT is the inputs' summed, as `dsprof report\n"
  "IN...` counts it; the recorder's cost per event pair is the inputs' mean\n"
  "weighted by their number of pairs (so reports of OUT deduct about, not\n"
  "exactly, what reports of IN... deduct; --raw figures are the same).  pid,\n"
  "parent pid and program are the first input's.  OUT may be one of the\n"
  "inputs: it is replaced only once the merged profile is written.\n\n"
  }
};
