/* flow.h - block counts of a function whose counters are on CFG edges: the
   DSPROF_TAG_FLOW record of include/dsprof-format.h (section 3a).  */

#ifndef DSPROF_FLOW_H
#define DSPROF_FLOW_H

#include <stddef.h>
#include <stdint.h>

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

#endif /* DSPROF_FLOW_H */
