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

/* A count of 128 bits as a count: below 0 is 0 (a profile that is not
   flow-consistent), beyond 2^64 - 1 (damaged counters) 2^64 - 1.  */

static uint64_t
clamp (wide v)
{
  return v < 0 ? 0 : v > (wide) UINT64_MAX ? UINT64_MAX : (uint64_t) v;
}

/* The system of a flow record: its NE edges (SRC, DST, HOW as the record
   gives them, VALUE once known) and, for each of its NN nodes, the balance
   of its known edges and how many are still unknown.  */

struct system
{
  size_t ne, nn;
  uint32_t *src, *dst, *unknown;
  uint64_t *how;
  wide *value, *balance;
};

/* Read the record's numbers of nodes and edges at C into S, checked against
   its size and the function's NBLOCKS, and allocate S.  */

static const char *
read_sizes (struct dsprof_cursor *c, uint32_t nblocks, struct system *s)
{
  uint64_t nnodes = dsprof_read_uleb (c);
  uint64_t nedges = dsprof_read_uleb (c);
  if (c->err)
    return "flow record truncated";
  /* Every edge takes at least three bytes; a node past the function's blocks
     is there for the edges it joins.  */
  if (nedges > (uint64_t) (c->end - c->p) / 3)
    return "flow record: more edges than its size holds";
  if (nnodes < (uint64_t) nblocks + 1)
    return "flow record: fewer nodes than the function has blocks";
  if (nnodes > (uint64_t) nblocks + 1 + 2 * nedges)
    return "flow record: more nodes than its edges join";

  size_t ne = (size_t) nedges, nn = (size_t) nnodes;
  s->ne = ne;
  s->nn = nn;
  s->src = malloc ((ne ? ne : 1) * sizeof *s->src);
  s->dst = malloc ((ne ? ne : 1) * sizeof *s->dst);
  s->how = malloc ((ne ? ne : 1) * sizeof *s->how);
  s->value = calloc (ne ? ne : 1, sizeof *s->value);
  s->balance = calloc (nn, sizeof *s->balance);
  s->unknown = calloc (nn, sizeof *s->unknown);
  if (!s->src || !s->dst || !s->how || !s->value || !s->balance || !s->unknown)
    return "flow record: out of memory";
  return NULL;
}

/* Read the edges at C into S; measured ones (their counts from COUNTERS, or
   0 without, of NCOUNTERS) into the balances at once.  */

static const char *
read_edges (struct dsprof_cursor *c, const uint64_t *counters,
            uint64_t ncounters, struct system *s)
{
  for (size_t i = 0; i < s->ne; i++)
    {
      uint64_t src = dsprof_read_uleb (c);
      uint64_t dst = dsprof_read_uleb (c);
      uint64_t h = dsprof_read_uleb (c);
      if (c->err)
        return "flow record truncated";
      if (src >= s->nn || dst >= s->nn)
        return "flow record: edge names a node out of range";
      s->src[i] = (uint32_t) src;
      s->dst[i] = (uint32_t) dst;
      s->how[i] = h;
      if (h >= 2)
        {
          if (h - 2 >= ncounters)
            return "flow record: edge names a counter beyond the unit's";
          s->value[i] = counters ? counters[h - 2] : 0;
          s->balance[src] -= s->value[i];
          s->balance[dst] += s->value[i];
        }
      else
        {
          /* At most 2 * nedges: no overflow.  */
          s->unknown[src]++;
          s->unknown[dst]++;
        }
    }
  if (c->p != c->end)
    return "flow record: bytes after its edges";
  return NULL;
}

/* Derive the tree edges of S, in order, each at the node the record names.  */

static const char *
derive_tree_edges (struct system *s)
{
  for (size_t i = 0; i < s->ne; i++)
    {
      if (s->how[i] >= 2)
        continue;
      uint32_t at = s->how[i] == 0 ? s->src[i] : s->dst[i];
      if (s->unknown[at] != 1)
        return "flow record: a tree edge cannot be derived where it says "
               "(unknown edges left at its node, or a cycle)";
      wide v = s->how[i] == 0 ? s->balance[at] : -s->balance[at];
      s->value[i] = v;
      s->balance[s->src[i]] -= v;
      s->balance[s->dst[i]] += v;
      s->unknown[s->src[i]]--;
      s->unknown[s->dst[i]]--;
    }
  return NULL;
}

/* From the solved S, the counts of the NBLOCKS blocks into OUT if not NULL,
   each edge's count and the count of the node it leaves into EDGES if not
   NULL.  */

static void
give_counts (struct system *s, uint32_t nblocks, uint64_t *out,
             struct flow_edges *edges)
{
  wide *sum = s->balance;   /* reused for the sums of incoming edges */
  for (size_t v = 0; v < s->nn; v++)
    sum[v] = 0;
  for (size_t i = 0; i < s->ne; i++)
    sum[s->dst[i]] += s->value[i];
  for (uint32_t b = 0; out && b < nblocks; b++)
    out[b] = clamp (sum[b + 1]);
  if (edges)
    {
      size_t ne = s->ne;
      edges->n = ne;
      edges->count = XNEWVEC (uint64_t, ne ? ne : 1);
      edges->from = XNEWVEC (uint64_t, ne ? ne : 1);
      for (size_t i = 0; i < ne; i++)
        {
          edges->count[i] = clamp (s->value[i]);
          edges->from[i] = clamp (sum[s->src[i]]);
        }
    }
}

/* flow_block_counts, and with EDGES each edge's count and the count of the
   node it leaves.  */

static int
solve (const unsigned char *flow, size_t size, uint32_t nblocks,
       const uint64_t *counters, uint64_t ncounters, uint64_t *out,
       struct flow_edges *edges, const char **err)
{
  struct dsprof_cursor c = { flow, flow + size, 0 };
  struct system s = { 0 };
  *err = read_sizes (&c, nblocks, &s);
  if (!*err)
    *err = read_edges (&c, counters, ncounters, &s);
  if (!*err)
    *err = derive_tree_edges (&s);
  if (!*err && (out || edges))
    give_counts (&s, nblocks, out, edges);
  free (s.src);
  free (s.dst);
  free (s.how);
  free (s.value);
  free (s.balance);
  free (s.unknown);
  return *err ? -1 : 0;
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
