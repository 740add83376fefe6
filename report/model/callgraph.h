/* callgraph.h - the call graph of profile records (docs/contract.md §5.7),
   built by callgraph.c from the record tree:

     cg_model    the entries gprof prints, values in a cycle merged into one
                 node: rendered by `dsprof callgraph` (render/graph.c) and by
                 `dsprof html` as a table;
     cg_graph    the values and the calls between them, before any merging:
                 rendered by `dsprof dot` (render/graph.c).  */

#ifndef DSPROF_CALLGRAPH_H
#define DSPROF_CALLGRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"

/* One line of an entry: a caller of the entry (above its own line), the entry's
   own line, or a callee or cycle member (below).  The figures are those
   `dsprof callgraph` prints; a line inside a cycle has counts only (TIMES
   false, self_ns and desc_ns 0).  */
struct cg_line
{
  bool primary;                  /* the entry's own line */
  bool times;                    /* self and children shown */
  double pct;                    /* % of the profiled time; < 0 but on the own line */
  uint64_t self_ns, desc_ns;     /* self, children */
  char called[48];               /* N, N+R (R direct recursive calls) or N/M */
  char *name;                    /* value [<cycle N>] [n], <spontaneous>, or
                                    <cycle N as a whole> [n] */
};

struct cg_entry
{
  uint32_t index;                /* [n]: entries[n - 1] */
  uint32_t nlines;
  struct cg_line *lines;         /* callers, the own line, callees (members) */
};

struct cg_model
{
  const char *dim;               /* the caller's */
  bool raw;
  uint64_t records, profiled_ns;
  uint32_t nentries;
  struct cg_entry *entries;      /* by total time */
  char **by_name;                /* nentries lines "[n] name", by name */
};

/* The call graph of SET's records grouped by DIM into *M, times as recorded
   when RAW; with NOTE, say if no record carries DIM (agg_carry_note).  Return
   0, or EXIT_DATA after a message; *M is then empty.  */
int cg_build (struct pf_set *set, const char *dim, bool raw, bool note,
              struct cg_model *m);

void cg_free (struct cg_model *m);

/* ---- the graph of values ---------------------------------------------------------- */

/* A value of the dimension: its name as a record value is shown (text_value),
   its records and their self time.  */
struct cg_value
{
  char *name;
  uint64_t count, self_ns;
};

/* The calls from records of value FROM to records of value TO directly
   inside them (FROM 0: top-level records of TO).  */
struct cg_arc
{
  uint32_t from, to;
  uint64_t count;
};

struct cg_graph
{
  const char *dim;               /* the caller's */
  bool raw;
  uint64_t records, profiled_ns;
  uint32_t nvalues;
  struct cg_value *values;       /* [1 .. nvalues], in the order first seen */
  uint32_t narcs;
  struct cg_arc *arcs;           /* in the order first seen */
};

/* The graph of SET's records grouped by DIM into *G, times as recorded when
   RAW; say if no record carries DIM (agg_carry_note).  Return 0, or
   EXIT_DATA after a message; *G is then empty.  */
int cg_graph_build (struct pf_set *set, const char *dim, bool raw,
                    struct cg_graph *g);

void cg_graph_free (struct cg_graph *g);

/* The strongly connected components of the graph of the values 1..N and the
   calls ARCS[0 .. NARCS) (self-calls and top-level ones, FROM 0, do not
   count), by Tarjan's algorithm without recursion: COMP[V] (N + 1 entries)
   the component of value V, numbered from 1 in the order the walk completes
   them, so that a call between two components goes to the lower number
   (COMP[0] = 0).  Return the number of components; *SIZES (free it) their
   sizes by number.  */
uint32_t cg_scc (uint32_t n, const struct cg_arc *arcs, uint32_t narcs,
                 uint32_t *comp, uint32_t **sizes);

#endif /* DSPROF_CALLGRAPH_H */
