/* report-view.c - the dimension report `dsprof report` as text, CSV and JSON
   (docs/contract.md §5.3), from its model (model.h).  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "report-view.h"
#include "tables.h"

/* What a report without records says: where records come from.  */
static const char no_records[] =
  "\nNo profile records.  Records are the calls of events: functions marked\n"
  "__attribute__((dsprof_event)), every function with\n"
  "-fplugin-arg-dsprof-functions=all, the opcodes of a bytecode VM with\n"
  "-fplugin-arg-dsprof-dispatch=FUNC, what a selection file's event, call and\n"
  "dispatch lines name (-fplugin-arg-dsprof-select=FILE), dsprof_start; the\n"
  "counts are in `dsprof lines'.\n";

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

/* The width of the text column of --sum dimension D: "Sum(D)", at least 12.  */

static int
sum_width (const char *d)
{
  size_t n = strlen (d) + 5;
  return n < 12 ? 12 : n > 64 ? 64 : (int) n;
}

static void
text_row (struct rpt_printer *p, const struct rpt_row *r)
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
  struct rpt_printer *p = arg;
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

void
rpt_print_text (struct rpt_printer *p)
{
  const struct rpt_model *m = p->m;
  fprintf (p->out, "Total time: ");
  put_time (p->out, 0, m->total_ns, p->unit);
  fprintf (p->out, " %s\nProfiled time: ", p->unit->name);
  put_time (p->out, 0, m->profiled_ns, p->unit);
  fprintf (p->out, " %s (%.1f%%)\nProfile records: %" PRIu64 "\n", p->unit->name,
           pct (m->profiled_ns, m->total_ns), m->records);
  char share[512];
  fprintf (p->out, "Instrumentation: %s\n",
           agg_share_line (&m->share, m->total_ns, share, sizeof share));
  const char *clamp = agg_clamp_line (&m->share, share, sizeof share);
  if (clamp)
    fprintf (p->out, "Deduction: %s\n", clamp);
  if (m->by_samples)
    fprintf (p->out, "Sampled: %s\n",
             agg_samples_line (&m->samples, m->samples_cpu_ns, share,
                               sizeof share));
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
  struct rpt_printer *p = arg;
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

void
rpt_print_csv (struct rpt_printer *p)
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


static void
json_rows (struct rpt_printer *p, const struct rpt_table *t)
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
      if (p->m->by_samples)
        fprintf (p->out, ",\"self_samples\":%" PRIu64, r->self_samples);
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

void
rpt_print_json (struct rpt_printer *p)
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
  if (p->m->by_samples)
    {
      const struct ev_stream_samples *ss = &p->m->samples;
      fprintf (p->out, ",\"samples\":{\"program_ns\":%" PRIu64 ",\"program\":%"
               PRIu64 ",\"outside_ns\":%" PRIu64 ",\"outside\":%" PRIu64
               ",\"recorder_ns\":%" PRIu64 ",\"recorder\":%" PRIu64 "}",
               ss->program.ns, ss->program.n, ss->outside.ns, ss->outside.n,
               ss->recorder.ns, ss->recorder.n);
    }
  fputs (",\"rows\":", p->out);
  json_rows (p, p->m->top);
  fputs ("}\n", p->out);
}
