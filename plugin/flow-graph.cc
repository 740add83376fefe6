/* flow-graph.cc - the flow graph of a function and its spanning tree: steps
   (5), (7) and (8) of counters.cc.  As gcov does, only the edges off a
   spanning tree of the graph get a counter; the report derives the others by
   flow conservation, which fake edges keep true for the flow that leaves a
   block other than by its edges (may-leave.cc), so every block of
   docs/contract.md §3 has its exact count for fewer counters than blocks.
   include/dsprof-format.h, section 3a, says what the flow record holds.  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"
#include "counters.h"

void
flow_graph::index ()
{
  unsigned n = nnodes, m = edges.length ();
  in_start.safe_grow_cleared (n + 1);
  out_start.safe_grow_cleared (n + 1);
  for (unsigned i = 0; i < m; i++)
    {
      in_start[edges[i].dst + 1]++;
      out_start[edges[i].src + 1]++;
    }
  for (unsigned v = 0; v < n; v++)
    {
      in_start[v + 1] += in_start[v];
      out_start[v + 1] += out_start[v];
    }
  in_list.safe_grow_cleared (m);
  out_list.safe_grow_cleared (m);
  auto_vec<unsigned> fill_in, fill_out;
  fill_in.safe_splice (in_start);
  fill_out.safe_splice (out_start);
  for (unsigned i = 0; i < m; i++)
    {
      in_list[fill_in[edges[i].dst]++] = i;
      out_list[fill_out[edges[i].src]++] = i;
    }
}

/* (5) Number the nodes of G for FUN's BLOCKS, whose lines LOCS holds: 0, the
   blocks with lines in order (block k is node k + 1), the other blocks; the
   IN and OUT nodes come later (dsprof_mark_leaving_blocks).  A block's edges
   come into its IN_NODE and leave from its OUT_NODE, both its NODE but for
   those.  */

void
dsprof_number_nodes (flow_graph *g, function *fun,
                     const vec<basic_block> &blocks,
                     const vec<vec<expanded_location> > &locs)
{
  unsigned nbb = last_basic_block_for_fn (fun);
  g->node.safe_grow (nbb);
  g->in_node.safe_grow (nbb);
  g->out_node.safe_grow (nbb);
  for (unsigned i = 0; i < nbb; i++)
    g->node[i] = g->in_node[i] = g->out_node[i] = -1;
  g->node[ENTRY_BLOCK] = g->node[EXIT_BLOCK] = 0;
  g->in_node[ENTRY_BLOCK] = g->in_node[EXIT_BLOCK] = 0;
  g->out_node[ENTRY_BLOCK] = g->out_node[EXIT_BLOCK] = 0;
  g->nnodes = 1;
  for (int pass = 0; pass < 2; pass++)
    for (unsigned i = 0; i < blocks.length (); i++)
      if (locs[i].is_empty () == (pass == 1))
        g->node[blocks[i]->index] = g->in_node[blocks[i]->index]
          = g->out_node[blocks[i]->index] = g->nnodes++;
}

/* (5) Mark in G the BLOCKS entered or left other than by their countable
   edges (FIRST is the entry block, left by the Start hook if EVENT): a fake
   edge to 0 from a block that may be left so; a block entered so (a computed
   goto's target, a landing pad) gets an IN node, where its edges and a fake
   edge from 0 come in, joined to the block by an edge that has its counter,
   if it is counted, at the block's start (a place that needs no new block;
   and a block with both fake edges would close a cycle of edges that cannot
   be counted, which IN breaks).  Where a setjmp call is the block's first
   statement (it ends its block when a longjmp may return to it), the fake
   edge from 0 comes into an OUT node instead, after the block's statements,
   where a longjmp returns, and from there the block's edges leave: the
   block's count is how often it was entered by its edges, as gcov counts
   the block of a setjmp call, and the edge from the block to OUT is
   derived.  */

void
dsprof_mark_leaving_blocks (flow_graph *g, const vec<basic_block> &blocks,
                            basic_block first, bool event)
{
  unsigned nbb = g->node.length ();
  basic_block bb;
  g->leaves.safe_grow_cleared (nbb);
  for (unsigned i = 0; i < blocks.length (); i++)
    {
      bb = blocks[i];
      /* An event's Start hook is a call a thread may be stopped in.  */
      g->leaves[bb->index] = dsprof_may_leave_p (bb) || (event && bb == first);
      if (!dsprof_abnormal_target_p (bb))
        continue;
      if (dsprof_pinned_start_p (bb))
        {
          g->out_node[bb->index] = g->nnodes++;
          /* Its statement is setjmp, which returns, or it has no edges.  */
          g->leaves[bb->index] = false;
        }
      else
        g->in_node[bb->index] = g->nnodes++;
    }
}

/* (5) Add to G the countable edges of FUN, (6) weighed by ESTIMATE, then the
   fake edges of BLOCKS that dsprof_mark_leaving_blocks and the loop sinks
   asked for.  */

void
dsprof_add_flow_edges (flow_graph *g, function *fun,
                       const vec<basic_block> &blocks,
                       flow_estimate *estimate)
{
  basic_block bb;
  FOR_BB_BETWEEN (bb, ENTRY_BLOCK_PTR_FOR_FN (fun), EXIT_BLOCK_PTR_FOR_FN (fun),
                  next_bb)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (!dsprof_uncountable_edge_p (e))
          g->add (g->out_node[bb->index], g->in_node[e->dest->index], e,
                  NULL, estimate->weight (e));
    }
  g->forced.safe_grow (g->nnodes);
  for (unsigned v = 0; v < g->nnodes; v++)
    g->forced[v] = -1;
  for (unsigned i = 0; i < blocks.length (); i++)
    {
      bb = blocks[i];
      unsigned v = g->node[bb->index], in = g->in_node[bb->index];
      unsigned out = g->out_node[bb->index];
      if (g->has_in_node (bb))
        {
          g->forced[in] = g->add (0, in, NULL, NULL, 0);
          g->add (in, v, NULL, bb, estimate->freq[bb->index]);
        }
      else if (g->has_out_node (bb))
        {
          g->forced[out] = g->add (0, out, NULL, NULL, 0);
          g->forced[v] = g->add (v, out, NULL, NULL, 0);
        }
      if (g->leaves[bb->index])
        g->forced[v] = g->add (v, 0, NULL, NULL, 0);
    }
}

/* A max-heap of candidate tree edges for (7), by weight (ties: the earlier
   edge).  */

namespace {

struct edge_heap
{
  auto_vec<std::pair<double, unsigned> > h;

  static bool
  before (const std::pair<double, unsigned> &a,
          const std::pair<double, unsigned> &b)
  {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  }

  void
  push (double score, unsigned x)
  {
    unsigned i = h.length ();
    h.safe_push (std::make_pair (score, x));
    while (i > 0 && before (h[i], h[(i - 1) / 2]))
      {
        std::swap (h[i], h[(i - 1) / 2]);
        i = (i - 1) / 2;
      }
  }

  unsigned
  pop ()
  {
    unsigned top = h[0].second, n = h.length () - 1;
    h[0] = h[n];
    h.truncate (n);
    for (unsigned i = 0;;)
      {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && before (h[l], h[m]))
          m = l;
        if (r < n && before (h[r], h[m]))
          m = r;
        if (m == i)
          break;
        std::swap (h[i], h[m]);
        i = m;
      }
    return top;
  }
};

} // namespace

/* (7) Give a fake edge to 0 to a block of every cycle of G that cannot reach
   0 or a forced edge (see dsprof_choose_tree).  */

static void
add_cycle_sinks (flow_graph *g)
{
  unsigned n = g->nnodes;
  /* Which nodes have a path of CFG edges to 0 or to a node with a forced
     edge.  */
  auto_vec<bool> reach;
  reach.safe_grow_cleared (n);
  auto_vec<unsigned> work;
  auto mark = [&] (unsigned v) {
    reach[v] = true;
    work.safe_push (v);
    while (work.length ())
      {
        unsigned u = work.pop ();
        for (unsigned k = g->in_start[u]; k < g->in_start[u + 1]; k++)
          {
            flow_edge &f = g->edges[g->in_list[k]];
            if (f.e && !reach[f.src])
              {
                reach[f.src] = true;
                work.safe_push (f.src);
              }
          }
      }
  };
  mark (0);
  for (unsigned v = 1; v < n; v++)
    if (g->forced[v] >= 0 && !reach[v])
      mark (v);
  auto_vec<bool> seen;
  seen.safe_grow_cleared (n);
  for (unsigned s = 1; s < n; s++)
    if (!reach[s])
      {
        /* Every successor of an unreached node is unreached: follow them
           until a node repeats, which is on a cycle.  */
        unsigned v = s;
        while (!seen[v])
          {
            seen[v] = true;
            unsigned next = v;
            for (unsigned k = g->out_start[v]; k < g->out_start[v + 1]; k++)
              if (g->edges[g->out_list[k]].e)
                {
                  next = g->edges[g->out_list[k]].dst;
                  break;
                }
            v = next;
          }
        g->forced[v] = g->add (v, 0, NULL, NULL, 0);
        mark (v);
      }
}

/* (7) Put on IN_TREE the forced edges of G and, the heaviest first, the CFG
   edges that join what they do not.  */

static void
join_tree (flow_graph *g, vec<bool> &in_tree)
{
  unsigned n = g->nnodes;
  /* Kruskal: the forced edges, which join every node that has one to 0
     (directly, or for an OUT node's block through the OUT node), then the
     CFG edges by weight.  */
  auto_vec<unsigned> uf;
  uf.safe_grow (n);
  for (unsigned v = 0; v < n; v++)
    uf[v] = v;
  auto find = [&] (unsigned v) {
    while (uf[v] != v)
      v = uf[v] = uf[uf[v]];
    return v;
  };
  unsigned m = g->edges.length ();
  in_tree.safe_grow_cleared (m);
  for (unsigned v = 1; v < n; v++)
    if (g->forced[v] >= 0)
      {
        flow_edge &f = g->edges[g->forced[v]];
        in_tree[g->forced[v]] = true;
        uf[find (f.src)] = find (f.dst);
      }
  edge_heap cand;
  for (unsigned i = 0; i < m; i++)
    if (g->edges[i].e || g->edges[i].entry)
      cand.push (g->edges[i].weight, i);
  while (cand.h.length ())
    {
      unsigned i = cand.pop ();
      unsigned a = find (g->edges[i].src), b = find (g->edges[i].dst);
      if (a != b)
        {
          uf[a] = b;
          in_tree[i] = true;
        }
    }
}

/* (7) Say at which end each tree edge of G (IN_TREE) is derived, and list
   the nodes in G's ORDER.  */

static void
order_by_tree (flow_graph *g, const vec<bool> &in_tree)
{
  unsigned n = g->nnodes, m = g->edges.length ();
  /* Breadth first from 0 over the tree.  */
  auto_vec<unsigned> start, adj;
  start.safe_grow_cleared (n + 1);
  for (unsigned i = 0; i < m; i++)
    if (in_tree[i])
      {
        start[g->edges[i].src + 1]++;
        start[g->edges[i].dst + 1]++;
      }
  for (unsigned v = 0; v < n; v++)
    start[v + 1] += start[v];
  adj.safe_grow (start[n]);
  auto_vec<unsigned> fill;
  fill.safe_splice (start);
  for (unsigned i = 0; i < m; i++)
    if (in_tree[i])
      {
        adj[fill[g->edges[i].src]++] = i;
        adj[fill[g->edges[i].dst]++] = i;
      }
  auto_vec<bool> joined;
  joined.safe_grow_cleared (n);
  joined[0] = true;
  g->order.safe_push (0);
  for (unsigned q = 0; q < g->order.length (); q++)
    {
      unsigned v = g->order[q];
      for (unsigned k = start[v]; k < start[v + 1]; k++)
        {
          flow_edge &f = g->edges[adj[k]];
          unsigned u = f.src == v ? f.dst : f.src;
          if (joined[u])
            continue;
          joined[u] = true;
          f.how = f.src == u ? 0 : 1;
          g->order.safe_push (u);
        }
    }
  gcc_assert (g->order.length () == n);
}

/* (7) Choose the tree of G.  G's FORCED[v] is the fake edge that must be on
   the tree as node v's tree edge, or -1.  The rest is a maximum spanning
   tree over the estimated edge weights (Kruskal, the heaviest edges first),
   so the edges left to count are those estimated to run least.  The tree is
   undirected: a tree edge is derived at whichever of its nodes is further
   from 0.  Nodes that cannot reach 0 or a forced edge (a loop without exit,
   call or volatile access, which only a kill ends) first get a fake edge to
   0 on a block of their cycle: a thread killed in such a loop leaves that
   block's count exact, where the flow would otherwise be taken back out of
   the loop through the edge into it.  G's ORDER lists the nodes by their
   distance from 0 on the tree; tree edges are derived in the opposite
   order.  */

void
dsprof_choose_tree (flow_graph *g)
{
  g->index ();
  add_cycle_sinks (g);
  auto_vec<bool> in_tree;
  join_tree (g, in_tree);
  order_by_tree (g, in_tree);
}

/* (8) Write G's flow record: the counted edges, then the tree edges in the
   order they are derived (a node's after those of the nodes below it).
   Return how many edges are counted.  */

unsigned
dsprof_write_flow_record (flow_graph *g)
{
  auto_vec<unsigned> parent;
  parent.safe_grow (g->nnodes);
  for (unsigned v = 0; v < g->nnodes; v++)
    parent[v] = -1u;
  auto_vec<unsigned long> rec;
  unsigned nmeasured = 0;
  g->rec_pos.safe_grow (g->edges.length ());
  for (unsigned i = 0; i < g->edges.length (); i++)
    {
      flow_edge &f = g->edges[i];
      if (f.how < 0)
        {
          g->rec_pos[i] = rec.length () / 3;
          rec.safe_push (f.src);
          rec.safe_push (f.dst);
          rec.safe_push (2 + nmeasured++);
        }
      else
        parent[f.how == 0 ? f.src : f.dst] = i;
    }
  for (unsigned k = g->order.length (); k-- > 0;)
    if (parent[g->order[k]] != -1u)
      {
        flow_edge &f = g->edges[parent[g->order[k]]];
        g->rec_pos[parent[g->order[k]]] = rec.length () / 3;
        rec.safe_push (f.src);
        rec.safe_push (f.dst);
        rec.safe_push (f.how);
      }
  dsprof_add_flow (g->nnodes, rec.length () / 3, rec.address (), nmeasured);
  return nmeasured;
}

/* (8) Where a counter of the entries into BB goes: after its labels, and
   after the receiver of a __builtin_setjmp, which restores the frame and
   stays first.  */

static gimple_stmt_iterator
entry_counter_point (basic_block bb)
{
  gimple_stmt_iterator gsi = gsi_after_labels (bb);
  if (!gsi_end_p (gsi)
      && gimple_call_builtin_p (gsi_stmt (gsi), BUILT_IN_SETJMP_RECEIVER))
    gsi_next (&gsi);
  return gsi;
}

/* (8) The statements that add 1 to counter INDEX, using the temporary T.  */

static gimple_seq
build_increment (tree counters, unsigned index, tree t)
{
  gimple_seq seq = NULL;
  tree u64 = TREE_TYPE (TREE_TYPE (counters));
  tree ref = build4 (ARRAY_REF, u64, counters,
                     build_int_cst (integer_type_node, index), NULL_TREE,
                     NULL_TREE);
  if (dsprof_opts.update == DSPROF_UPDATE_ATOMIC)
    {
      tree fn = builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_ADD_8);
      gcall *call = gimple_build_call (fn, 3, build_fold_addr_expr (ref),
                                       build_int_cst (u64, 1),
                                       build_int_cst (integer_type_node,
                                                      MEMMODEL_RELAXED));
      gimple_seq_add_stmt (&seq, call);
      return seq;
    }
  /* Durable counts (docs/contract.md §3): every run of the increment must store its count
     in the mapped file, even in a loop without calls, where loop store motion
     (LIM) would otherwise keep the count in a register and store it only on
     leaving the loop (never, for a loop a SIGKILL ends).  A volatile store
     cannot be moved, merged or deleted.  The load stays plain: in such a loop
     GCC may then carry the count in a register and store it each time round
     (one store per iteration, no load), and the counter remains an ordinary
     reference for alias analysis, so the loop's other memory references keep
     their own store motion (a relaxed __atomic load/store pair or an asm
     touching the counter would stop that).  x86 cannot fold a volatile
     store into `addq $1, mem' (three instructions instead of one): after the
     GIMPLE optimisers the late pass (9) makes the store plain again wherever
     that is safe.  */
  tree store = unshare_expr (ref);
  TREE_TYPE (store) = build_qualified_type (u64, TYPE_QUAL_VOLATILE);
  TREE_THIS_VOLATILE (store) = 1;
  TREE_SIDE_EFFECTS (store) = 1;
  gimple_seq_add_stmt (&seq, gimple_build_assign (t, ref));
  gimple_seq_add_stmt (&seq, gimple_build_assign (t, PLUS_EXPR, t,
                                                  build_int_cst (u64, 1)));
  gimple_seq_add_stmt (&seq, gimple_build_assign (store, t));
  return seq;
}

/* (8) Put the increments on G's counted edges, in the record's order, from
   counter FIRST_COUNTER on.  */

void
dsprof_insert_counters (flow_graph *g, unsigned first_counter)
{
  tree counters = dsprof_counters_decl ();
  tree t = dsprof_opts.update == DSPROF_UPDATE_ATOMIC
             ? NULL_TREE
             : create_tmp_reg (TREE_TYPE (TREE_TYPE (counters)), "dsprof");
  unsigned index = first_counter;
  for (unsigned i = 0; i < g->edges.length (); i++)
    {
      flow_edge &f = g->edges[i];
      if (f.how >= 0)
        continue;
      gimple_seq seq = build_increment (counters, index++, t);
      if (f.e)
        gsi_insert_seq_on_edge (f.e, seq);
      else
        {
          gimple_stmt_iterator gsi = entry_counter_point (f.entry);
          gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
        }
    }
  gsi_commit_edge_inserts ();
}
