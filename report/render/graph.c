/* graph.c - the call graph's text renderings (graph.h): gprof's listing of
   `dsprof callgraph` (docs/contract.md §5.7) and the GraphViz digraph of
   `dsprof dot` (§5.8).  */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "graph.h"
#include "text.h"

/* The call graph as gprof prints it.  */

void
cg_print (const struct cg_model *m, const char *unit_name, FILE *out)
{
  const struct text_unit *unit = text_unit_pick (unit_name, m->profiled_ns);
  char a[32], b[32];
  fprintf (out, "Call graph by %s: %" PRIu64 " records, profiled time %s %s",
           text_shown (m->dim), m->records,
           text_time (a, sizeof a, m->profiled_ns, unit), unit->name);
  fprintf (out, "%s\n\n", m->raw ? " (raw)" : "");
  fprintf (out, "%-7s %6s %12s %12s %13s  %s\n", "index", "%time", "self",
           "children", "called", "name");
  for (uint32_t i = 0; i < m->nentries; i++)
    {
      const struct cg_entry *e = &m->entries[i];
      for (uint32_t j = 0; j < e->nlines; j++)
        {
          const struct cg_line *l = &e->lines[j];
          char index[16] = "", p[16] = "";
          if (l->primary)
            snprintf (index, sizeof index, "[%u]", e->index);
          if (l->pct >= 0)
            snprintf (p, sizeof p, "%.1f", l->pct);
          fprintf (out, "%-7s %6s %12s %12s %13s  %s%s\n", index, p,
                   l->times ? text_time (a, sizeof a, l->self_ns, unit) : "",
                   l->times ? text_time (b, sizeof b, l->desc_ns, unit) : "",
                   l->called, l->primary ? "" : "    ", l->name);
        }
      fputs ("-----------------------------------------------\n", out);
    }
  fputs ("\nIndex by name:\n", out);
  for (uint32_t i = 0; i < m->nentries; i++)
    fprintf (out, "%7s %s\n", "", m->by_name[i]);
}

void
cg_print_dot (const struct cg_graph *g, const char *unit_name, FILE *out)
{
  const struct text_unit *u = text_unit_pick (unit_name, g->profiled_ns);
  uint64_t max_self = 1, max_count = 1;
  for (uint32_t v = 1; v <= g->nvalues; v++)
    if (g->values[v].self_ns > max_self)
      max_self = g->values[v].self_ns;
  for (uint32_t i = 0; i < g->narcs; i++)
    if (g->arcs[i].from && g->arcs[i].count > max_count)
      max_count = g->arcs[i].count;
  char a[32];
  fputs ("digraph dsprof {\n  graph [label=\"", out);
  text_dot (out, "dsprof: records by ");
  text_dot (out, g->dim);
  fprintf (out, ", %" PRIu64 " records, profiled time %s %s%s", g->records,
           text_time (a, sizeof a, g->profiled_ns, u), u->name,
           g->raw ? " (raw)" : "");
  fputs ("\", labelloc=t, fontname=\"Helvetica\"];\n"
         "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n"
         "  edge [fontname=\"Helvetica\"];\n", out);
  for (uint32_t v = 1; v <= g->nvalues; v++)
    {
      const struct cg_value *cv = &g->values[v];
      fprintf (out, "  v%u [label=\"", v);
      text_dot (out, cv->name);
      fprintf (out, "\\n%" PRIu64 " record%s\\nself %s %s (%.1f%%)\", "
               "fillcolor=\"0.000 %.3f 1.000\"];\n", cv->count,
               cv->count == 1 ? "" : "s",
               text_time (a, sizeof a, cv->self_ns, u), u->name,
               g->profiled_ns ? 100.0 * (double) cv->self_ns
                                / (double) g->profiled_ns : 0.0,
               0.05 + 0.6 * (double) cv->self_ns / (double) max_self);
    }
  for (uint32_t i = 0; i < g->narcs; i++)
    {
      const struct cg_arc *ar = &g->arcs[i];
      if (!ar->from)
        continue;
      fprintf (out, "  v%u -> v%u [label=\"%" PRIu64 "\", penwidth=%.2f];\n",
               ar->from, ar->to, ar->count,
               1.0 + 3.0 * log1p ((double) ar->count) / log1p ((double) max_count));
    }
  fputs ("}\n", out);
}
