/* flow.h - block counts of a function whose counters are on CFG edges: the
   DSPROF_TAG_FLOW record of include/dsprof-format.h (section 3a).  */

#ifndef DSPROF_FLOW_H
#define DSPROF_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "dsprof-format.h"

/* Fill OUT[0..NBLOCKS) with the count of each block of a function whose
   DSPROF_TAG_FLOW record body is FLOW (SIZE bytes): the measured edges read
   from COUNTERS (the unit's counters from the function's first_counter on,
   NCOUNTERS of them), the tree edges derived by flow conservation, and a block's
   count the sum of its incoming edges (below 0 when the profile is not
   flow-consistent: 0).  Return 0, or -1 with *ERR a static message when the
   record is malformed: truncated, a node or counter out of range, a tree edge
   that cannot be derived where the record says.  With COUNTERS and OUT null,
   only check the record.  Work and memory are linear in SIZE and NBLOCKS;
   nothing is read outside FLOW and COUNTERS.  */
int flow_block_counts (const unsigned char *flow, size_t size, uint32_t nblocks,
                       const uint64_t *counters, uint64_t ncounters,
                       uint64_t *out, const char **err);

/* The edges of a flow record, in its order: each one's count and the count
   of the node it leaves (the sum of the edges into that node).  */
struct flow_edges
{
  size_t n;
  uint64_t *count, *from;
};

/* As flow_block_counts, the counts of the record's edges into *EDGES (free
   them with flow_edges_free).  */
int flow_edge_counts (const unsigned char *flow, size_t size, uint32_t nblocks,
                      const uint64_t *counters, uint64_t ncounters,
                      struct flow_edges *edges, const char **err);
void flow_edges_free (struct flow_edges *edges);

/* A block of a DSPROF_TAG_BRANCHES record (include/dsprof-format.h, section
   3b): where its branches are and how many.  */
struct flow_branch
{
  uint64_t file, line, narcs;
};

/* Return NULL if the branch record REC (SIZE bytes) of a function whose
   flow record is FLOW (FLOW_SIZE bytes, valid) and whose unit has NFILES
   files is valid, else what is wrong with it.  */
const char *flow_check_branches (const unsigned char *rec, size_t size,
                                 const unsigned char *flow, size_t flow_size,
                                 uint32_t nfiles);

/* Read at C, after the record's count, the next block into *B, then
   B->narcs times an arc: its edge (index into the flow record's edges) and
   its DSPROF_BRANCH_* flags.  Return 0, or -1 (C->err set).  */
int flow_branch_next (struct dsprof_cursor *c, struct flow_branch *b);
int flow_branch_arc (struct dsprof_cursor *c, uint64_t *edge, uint64_t *flags);

#endif /* DSPROF_FLOW_H */
