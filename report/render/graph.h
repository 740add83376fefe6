/* graph.h - the call graph's text renderings (graph.c): gprof's listing of
   `dsprof callgraph` (docs/contract.md §5.7) and the GraphViz digraph of
   `dsprof dot` (§5.8), of callgraph.h's models.  */

#ifndef DSPROF_GRAPH_H
#define DSPROF_GRAPH_H

#include <stdio.h>

#include "callgraph.h"

/* Call graph M as gprof prints it, to OUT, times in UNIT_NAME (NULL:
   automatic).  */
void cg_print (const struct cg_model *m, const char *unit_name, FILE *out);

/* Graph G as a GraphViz digraph, to OUT, times in UNIT_NAME (NULL:
   automatic).  */
void cg_print_dot (const struct cg_graph *g, const char *unit_name, FILE *out);

#endif /* DSPROF_GRAPH_H */
