/* cmd-info.c - `dsprof info`: what a profile holds (docs/contract.md §5.8).  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"

struct tally
{
  uint64_t events, records, incomplete, last_ns;
  struct agg_costs costs;        /* of the stream being read */
  struct agg_share share;
};

static int
tally_event (const struct ev_event *e, void *arg)
{
  struct tally *t = arg;
  t->events += e->kind != EV_DIM;
  if (e->ns > t->last_ns)
    t->last_ns = e->ns;
  return 0;
}

static int
tally_record (struct ev_record *r, void *arg)
{
  struct tally *t = arg;
  t->records++;
  t->incomplete += !r->complete;
  agg_share_add (&t->share, &t->costs, r);
  return 0;
}

/* The hooks' names in the "hook cost" lines, by DSPROF_HOOK_*.  */
static const char *const hook_names[COSTS_NHOOKS] = {
  "enter", "exit", "start", "finish", "dim", "op"
};

/* The recorder's costs of P: measured in the run (the averages the report
   deducts, per hook kind), or the start-up figure.  */

static void
print_costs (const struct pf_process *p, FILE *out)
{
  fprintf (out, "overhead per event pair: %.1f ns (measured at start)\n",
           (double) p->header.pair_overhead_ps / 1000.0);
  if (!p->nstreams)
    {
      fprintf (out, "hook costs: none (no event was recorded)\n");
      return;
    }
  struct agg_costs c;
  agg_costs_of (p, NULL, false, &c);
  if (!c.measured)
    {
      fprintf (out, "hook costs: not measured in the run (an older profile): "
               "the figure per event pair is deducted\n");
      return;
    }
  for (int h = 0; h < COSTS_NHOOKS; h++)
    if (c.sampled[h])
      fprintf (out, "hook cost %s: %.3f ns before the time stamp, %.3f ns after "
               "(%" PRIu64 " calls sampled in the run)\n",
               hook_names[h] ? hook_names[h] : "?", (double) c.before_ps[h] / 1000.0,
               (double) c.after_ps[h] / 1000.0, c.sampled[h]);
  fprintf (out, "hook cost caller: %.3f ns per hook call (calibrated at start)\n",
           (double) c.caller_ps / 1000.0);
  if (c.op_ps)
    fprintf (out, "hook cost op, probed in the run: %.3f ns per call, %.3f ns "
             "of it the probes' own (%" PRIu64 " calls replayed)\n",
             (double) c.op_ps / 1000.0, (double) c.op_probe_ps / 1000.0,
             c.replayed);
  fprintf (out, "chunk setups: %.3f ms (each timed in the run)\n",
           (double) c.setup_ns / 1e6);
}

static void
info_off (uint64_t from_ns, uint64_t to_ns, bool open, void *arg)
{
  FILE *out = arg;
  if (open)
    fprintf (out, "events off: from %.6f s to the end (dsprof ctl or "
             "DSPROF_EVENTS)\n", (double) from_ns / 1e9);
  else
    fprintf (out, "events off: from %.6f s to %.6f s (dsprof ctl)\n",
             (double) from_ns / 1e9, (double) to_ns / 1e9);
}

/* The run time of H's process and where it went, if it exited normally.  */

static void
info_run (const struct dsprof_file_header *h, FILE *out)
{
  if (h->stop_mono_ns > h->start_mono_ns)
    fprintf (out, "run time: %.6f s\n",
             (double) (h->stop_mono_ns - h->start_mono_ns) / 1e9);
  else
    fprintf (out, "run time: unknown (the process did not exit normally: killed, "
             "crashed, _exit, or still running)\n");
  struct pf_cpu cpu = { 0 };
  char line[256];
  pf_cpu_add (&cpu, h);
  if (pf_cpu_line (&cpu, 1e9, 6, "s", line, sizeof line))
    fprintf (out, "cpu time: %s\n", line);
}

/* Describe P from its file and chunk headers; with COUNT, decode its streams
   too (one at a time, keeping no records) for the events and records lines.  */

static int
info_one (struct pf_process *p, bool count, FILE *out)
{
  const struct dsprof_file_header *h = &p->header;
  struct tally t;
  memset (&t, 0, sizeof t);
  uint64_t nchunks = 0;
  for (uint32_t k = 0; k < p->nstreams; k++)
    nchunks += p->streams[k].nchunks;
  if (count)
    {
      int rc = 0;
      for (uint32_t k = 0; k < p->nstreams && !rc; k++)
        {
          agg_costs_of (p, &p->streams[k], false, &t.costs);
          agg_share_stream (&t.share, &t.costs);
          rc = pf_decode_stream (p, &p->streams[k], tally_event, tally_record,
                                 &t, 0);
        }
      if (rc)
        return EXIT_DATA;
    }
  uint32_t nsites = 0;
  for (uint32_t i = 0; i < p->sites.size; i++)
    nsites += p->sites.by_id[i] != NULL;

  char when[64] = "?";
  time_t sec = (time_t) (h->start_ns / 1000000000u);
  struct tm tm;
  if (localtime_r (&sec, &tm))
    strftime (when, sizeof when, "%Y-%m-%d %H:%M:%S %z", &tm);

  fprintf (out, "profile: %s\n", text_shown (p->path));
  fprintf (out, "program: %s\n", text_shown (h->exe));
  fprintf (out, "pid: %" PRId64 "\n", h->pid);
  fprintf (out, "parent pid: %" PRId64 "%s\n", h->ppid,
           h->flags & DSPROF_FLAG_FORKED ? " (forked: counts from the fork)" : "");
  fprintf (out, "started: %s\n", when);
  info_run (h, out);
  fprintf (out, "file: %zu bytes committed%s\n", p->size,
           h->flags & DSPROF_FLAG_TRUNCATED
             ? " (TRUNCATED: the file ran out of space or was cut short while the program ran; data is missing)" : "");
  fprintf (out, "units: %u\n", p->nunits);
  fprintf (out, "counters: %" PRIu64 "\n", p->ncounters);
  fprintf (out, "blocks: %" PRIu64 "\n", p->nblocks);
  fprintf (out, "event sites: %u\n", nsites);
  fprintf (out, "threads: %u\n", p->nstreams);
  /* Known from profiles of update=single code only (0: none ran, or an older
     runtime).  */
  if (h->single_threads)
    fprintf (out, "threads counting with update=single: %" PRIu64 "%s\n",
             h->single_threads,
             h->single_threads > 1 ? " (increments may be lost: counts may be low)"
                                   : "");
  fprintf (out, "event stream: %" PRIu64 " bytes in %" PRIu64 " chunks\n",
           p->events, nchunks);
  if (count)
    {
      fprintf (out, "events: %" PRIu64 " (%" PRIu64 " bytes of stream, %.1f bytes "
               "per event)\n", t.events, p->events,
               t.events ? (double) p->events / (double) t.events : 0.0);
      fprintf (out, "records: %" PRIu64 " (%" PRIu64 " incomplete)\n", t.records,
               t.incomplete);
      char share[256];
      fprintf (out, "instrumentation: %s\n",
               agg_share_line (&t.share, pf_run_ns (p, t.last_ns), share,
                               sizeof share));
      if (h->flags & DSPROF_FLAG_SAMPLED)
        {
          struct pf_set one = { .procs = p, .nprocs = 1 };
          bool by_samples;
          struct ev_stream_samples all;
          uint64_t cpu_ns;
          rpt_samples (&one, false, false, &by_samples, &all, &cpu_ns);
          fprintf (out, "cpu samples: %" PRIu64 " in the program (%.6f s), %"
                   PRIu64 " of them outside records (%.6f s); %" PRIu64
                   " in the recorder (%.6f s)\n", all.program.n,
                   (double) all.program.ns / 1e9, all.outside.n,
                   (double) all.outside.ns / 1e9, all.recorder.n,
                   (double) all.recorder.ns / 1e9);
        }
    }
  pf_each_off (p, info_off, out);
  fprintf (out, "dropped events: %" PRIu64 "\n", h->dropped_events);
  fprintf (out, "stray dimensions: %" PRIu64 "\n", h->stray_dims);
  fprintf (out, "repaired events: %" PRIu64 "\n", h->repaired_events);
  print_costs (p, out);
  if (h->clock == DSPROF_CLOCK_TSC)
    fprintf (out, "clock: invariant TSC, %.3f GHz\n", 1.0 / p->clock.ns_per_tick);
  else
    fprintf (out, "clock: CLOCK_MONOTONIC nanoseconds\n");
  return 0;
}

static const struct opt info_opts[] = {
  { .name = "count", .letter = 'c', .kind = OPT_FLAG,
    .help = "also decode the event streams to count the events\n"
            "and the records (complete and incomplete) and to state\n"
            "the recorder's share of the run; this reads every\n"
            "stream, and finds a corrupt one" },
  { 0 }
};

/* info, its option --count (*OPTS), over the profiles ARGV[0 .. ARGC).  */

static int
info_main (void *opts, int argc, char **argv)
{
  bool count = *(bool *) opts;
  struct pf_set set;
  int rc = load_profiles (argc, argv, &set);
  if (rc)
    return rc;
  pf_warn_no_dispatch (&set);
  for (uint32_t i = 0; !rc && i < set.nprocs; i++)
    {
      if (i)
        putchar ('\n');
      rc = info_one (&set.procs[i], count, stdout);
    }
  if (!rc && set.nprocs > 1)
    printf ("\ncombined: %u profiles, %u distinct units\n", set.nprocs,
            set.nunits);
  pf_free (&set);
  return rc ? rc : close_output ("info", NULL, stdout);
}

static int
run_info (int argc, char **argv)
{
  bool count = false;
  return opt_run (&cmd_info.cli, argc, argv, &count, info_main);
}

const struct command cmd_info = {
  .summary = "what a profile holds",
  .run = run_info,
  .cli = {
    .name = "info", .opts = info_opts,
    .usage =
  "usage: dsprof info [--count] [PROFILE...]\n\n"
  "Describe each profile: program, process ids, run time (and, after a normal\n"
  "exit, the CPU time, the time not on a CPU and the time waiting for one),\n"
  "units, counters (on control-flow edges, from which the counts of the blocks\n"
  "are derived), counted blocks, event sites, threads, the bytes and chunks of\n"
  "event stream, dropped, stray and repaired events, the recorder's cost per\n"
  "event pair measured at start and its costs measured in the run (per hook\n"
  "kind, the caller's part, the chunk setups), and the clock: all from the\n"
  "file's headers, at once whatever its size.\n\n"
  }
};
