/* flow.c - block counts from counters on edges (DSPROF_TAG_FLOW, section 3a of
   include/dsprof-format.h).

   The record lists the function's graph edges: measured ones with their
   counter, tree ones in the order they can be derived, each at one of its two
   nodes.  Each node keeps the balance of its known edges (in - out)
   and the number of its edges still unknown; a tree edge is derived at a node
   when it is the last unknown edge there:

     derived at its src:  edge = balance (what came in and has not left)
     derived at its dst:  edge = -balance

   One pass over the list, no search: a record that names a node with more than
   one unknown edge left is refused, so a cycle of tree edges (an unsolvable
   system) is refused too and nothing can loop.  Arithmetic is on 128 bits:
   a derived edge is a sum of at most nedges counters with signs, and a block's
   count a sum of at most nedges of those, far from 2^127 for any record that
   fits in a unit's metadata (under 2^32 bytes), so nothing wraps.  A block's
   count (the sum of its incoming edges) that comes out negative, as it can in a
   profile that is not flow-consistent (see the format), is 0; one beyond
   2^64 - 1 (only from damaged counters) is 2^64 - 1.  */

#include <stdlib.h>

#include "libiberty.h"
#include "dsprof-format.h"
#include "flow.h"

__extension__ typedef __int128 wide;

#define FAIL(msg)                                                              \
  do                                                                           \
    {                                                                          \
      *err = (msg);                                                            \
      goto out;                                                                \
    }                                                                          \
  while (0)

/* A count of 128 bits as a count: below 0 is 0 (a profile that is not
   flow-consistent), beyond 2^64 - 1 (damaged counters) 2^64 - 1.  */

static uint64_t
clamp (wide v)
{
  return v < 0 ? 0 : v > (wide) UINT64_MAX ? UINT64_MAX : (uint64_t) v;
}

/* flow_block_counts, and with EDGES each edge's count and the count of the
   node it leaves.  */

static int
solve (const unsigned char *flow, size_t size, uint32_t nblocks,
       const uint64_t *counters, uint64_t ncounters, uint64_t *out,
       struct flow_edges *edges, const char **err)
{
  struct dsprof_cursor c = { flow, flow + size, 0 };
  uint32_t *src = NULL, *dst = NULL, *unknown = NULL;
  uint64_t *how = NULL;
  wide *value = NULL, *balance = NULL;
  int rc = -1;

  *err = NULL;
  uint64_t nnodes = dsprof_read_uleb (&c);
  uint64_t nedges = dsprof_read_uleb (&c);
  if (c.err)
    FAIL ("flow record truncated");
  /* Every edge takes at least three bytes; a node past the function's blocks
     is there for the edges it joins.  */
  if (nedges > (uint64_t) (c.end - c.p) / 3)
    FAIL ("flow record: more edges than its size holds");
  if (nnodes < (uint64_t) nblocks + 1)
    FAIL ("flow record: fewer nodes than the function has blocks");
  if (nnodes > (uint64_t) nblocks + 1 + 2 * nedges)
    FAIL ("flow record: more nodes than its edges join");

  size_t ne = (size_t) nedges, nn = (size_t) nnodes;
  src = malloc ((ne ? ne : 1) * sizeof *src);
  dst = malloc ((ne ? ne : 1) * sizeof *dst);
  how = malloc ((ne ? ne : 1) * sizeof *how);
  value = calloc (ne ? ne : 1, sizeof *value);
  balance = calloc (nn, sizeof *balance);
  unknown = calloc (nn, sizeof *unknown);
  if (!src || !dst || !how || !value || !balance || !unknown)
    FAIL ("flow record: out of memory");

  /* The edges; measured ones into the balances at once.  */
  for (size_t i = 0; i < ne; i++)
    {
      uint64_t s = dsprof_read_uleb (&c);
      uint64_t d = dsprof_read_uleb (&c);
      uint64_t h = dsprof_read_uleb (&c);
      if (c.err)
        FAIL ("flow record truncated");
      if (s >= nnodes || d >= nnodes)
        FAIL ("flow record: edge names a node out of range");
      src[i] = (uint32_t) s;
      dst[i] = (uint32_t) d;
      how[i] = h;
      if (h >= 2)
        {
          if (h - 2 >= ncounters)
            FAIL ("flow record: edge names a counter beyond the unit's");
          value[i] = counters ? counters[h - 2] : 0;
          balance[s] -= value[i];
          balance[d] += value[i];
        }
      else
        {
          /* At most 2 * nedges: no overflow.  */
          unknown[s]++;
          unknown[d]++;
        }
    }
  if (c.p != c.end)
    FAIL ("flow record: bytes after its edges");

  /* The tree edges, in order.  */
  for (size_t i = 0; i < ne; i++)
    {
      if (how[i] >= 2)
        continue;
      uint32_t at = how[i] == 0 ? src[i] : dst[i];
      if (unknown[at] != 1)
        FAIL ("flow record: a tree edge cannot be derived where it says "
              "(unknown edges left at its node, or a cycle)");
      wide v = how[i] == 0 ? balance[at] : -balance[at];
      value[i] = v;
      balance[src[i]] -= v;
      balance[dst[i]] += v;
      unknown[src[i]]--;
      unknown[dst[i]]--;
    }

  if (!out && !edges)
    {
      rc = 0;
      goto out;
    }
  wide *sum = balance;   /* reused for the sums of incoming edges */
  for (size_t v = 0; v < nn; v++)
    sum[v] = 0;
  for (size_t i = 0; i < ne; i++)
    sum[dst[i]] += value[i];
  for (uint32_t b = 0; out && b < nblocks; b++)
    out[b] = clamp (sum[b + 1]);
  if (edges)
    {
      edges->n = ne;
      edges->count = XNEWVEC (uint64_t, ne ? ne : 1);
      edges->from = XNEWVEC (uint64_t, ne ? ne : 1);
      for (size_t i = 0; i < ne; i++)
        {
          edges->count[i] = clamp (value[i]);
          edges->from[i] = clamp (sum[src[i]]);
        }
    }
  rc = 0;

out:
  free (src);
  free (dst);
  free (how);
  free (value);
  free (balance);
  free (unknown);
  return rc;
}

int
flow_block_counts (const unsigned char *flow, size_t size, uint32_t nblocks,
                   const uint64_t *counters, uint64_t ncounters, uint64_t *out,
                   const char **err)
{
  return solve (flow, size, nblocks, counters, ncounters, out, NULL, err);
}

int
flow_edge_counts (const unsigned char *flow, size_t size, uint32_t nblocks,
                  const uint64_t *counters, uint64_t ncounters,
                  struct flow_edges *edges, const char **err)
{
  edges->n = 0;
  edges->count = edges->from = NULL;
  return solve (flow, size, nblocks, counters, ncounters, NULL, edges, err);
}

void
flow_edges_free (struct flow_edges *edges)
{
  free (edges->count);
  free (edges->from);
  edges->count = edges->from = NULL;
  edges->n = 0;
}

int
flow_branch_next (struct dsprof_cursor *c, struct flow_branch *b)
{
  b->file = dsprof_read_uleb (c);
  b->line = dsprof_read_uleb (c);
  b->narcs = dsprof_read_uleb (c);
  /* Every arc takes two bytes.  */
  if (c->err || b->narcs > (uint64_t) (c->end - c->p) / 2)
    return c->err = 1, -1;
  return 0;
}

int
flow_branch_arc (struct dsprof_cursor *c, uint64_t *edge, uint64_t *flags)
{
  *edge = dsprof_read_uleb (c);
  *flags = dsprof_read_uleb (c);
  return c->err ? -1 : 0;
}

const char *
flow_check_branches (const unsigned char *rec, size_t size,
                     const unsigned char *flow, size_t flow_size,
                     uint32_t nfiles)
{
  struct dsprof_cursor f = { flow, flow + flow_size, 0 };
  dsprof_read_uleb (&f);
  uint64_t nedges = dsprof_read_uleb (&f);
  struct dsprof_cursor c = { rec, rec + size, 0 };
  uint64_t n = dsprof_read_uleb (&c);
  if (c.err || n > (uint64_t) (c.end - c.p) / 3)
    return "branch record truncated";
  for (uint64_t k = 0; k < n; k++)
    {
      struct flow_branch b;
      if (flow_branch_next (&c, &b) < 0)
        return "branch record truncated";
      if (b.file >= nfiles || b.line > UINT32_MAX)
        return "branch record names a file or line out of range";
      for (uint64_t j = 0; j < b.narcs; j++)
        {
          uint64_t edge, flags;
          if (flow_branch_arc (&c, &edge, &flags) < 0)
            return "branch record truncated";
          if (edge >= nedges)
            return "branch record names an edge beyond the flow record's";
        }
    }
  return c.p == c.end ? NULL : "branch record: bytes after its blocks";
}
