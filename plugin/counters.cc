/* counters.cc - the dsprof instrumentation: counters on the edges of each
   function's control-flow graph, from which the report derives every block's
   count, and the event hooks of events.cc.

   A function is parsed, gimplified and lowered as at -O0 whatever the -O level,
   up to and including the building of its CFG (0); at the start of IPA, with
   every function of the unit lowered and none optimised yet, each is
   instrumented (dsprof_instrument_unit), so the counted blocks are the same at
   every -O level.

     gcc -fplugin=dsprof.so [-fplugin-arg-dsprof-update=atomic] -c f.c

   Before:                          After:
     int f (int x)                    int f (int x)
     {                                {
       if (x > 0)                       if (x > 0)
         return 1;                      { __dsprof_counters[0]++; return 1; }
       return 0;                        __dsprof_counters[1]++;
     }                                  return 0;
                                      }
   Three blocks, two counters: one on each way out of the `if'.  The report
   derives the entry block's count as the sum of the two, and each of the
   other blocks' from the edge into it.

   As gcov does, only the edges off a spanning tree of the CFG are counted, and
   the report derives the others by flow conservation: what enters a block
   leaves it (include/dsprof-format.h, section 3a, says what the record holds
   and what the counts guarantee).  Every block of docs/contract.md §3 still has its
   count and its lines.

   Steps, numbered as in the code:
   (0) Until its CFG is built, GCC handles a function to be counted with the
       optimisation level of -O0, so that no -O level reshapes its branches and
       jumps before they are counted (o0-view.cc).
   (1) Find the unit's functions that may be left other than by returning (a
       longjmp, exit or abort in them or in what they call, a volatile access,
       a loop that cannot reach their exit): a call of any other function of the
       unit returns, and needs no fake edge (5).
   (2) Give the function a block of its own at entry when its first block is also
       a jump target, so the entry block's count is the function's call count.
   (3) Split every edge that carries the location of a jump GCC folded into the
       CFG (break, continue, goto), like gcov, so that location gets the count of
       the jump itself; and split a block after a call that may not return, at
       its first line after the call, as gcov ends a block after such a call,
       so that line counts how often control came back (split_after_calls).
   (4) Collect each block's located statements (labels too, so that a `case'
       line has the count of the block it starts, as in gcov; debug statements
       do not count), plus the function's definition line for the entry block and the
       jump location of a single successor edge: the blocks of the record.
   (5) Build the flow graph: ENTRY and EXIT as one node 0, the CFG's countable
       edges, and fake edges, which are never counted, for the flow that does
       not take them: to 0 from a block that may be left other than by its
       edges (it holds a call that may not return: exit, longjmp, a kill while
       inside it; or a volatile access; or it has no successor) and from the
       latch of a loop without such a block (a kill there), from 0 to the
       target of edges that cannot be counted (computed goto, longjmp to a
       setjmp), which are left out.
   (6) Estimate how often each edge runs (loops, __builtin_expect, calls that
       do not return).
   (7) Choose the spanning tree: the fake edges, then a maximum spanning tree
       over the estimates, so the edges left to count are the least run.
   (8) Write the flow record and give each edge off the tree a counter:
         t = counters[i]; t = t + 1; counters[i] = t;
       with a volatile store, so that each run reaches the mapped profile even
       in a loop the program is killed in; or, with update=atomic,
       __atomic_fetch_add_8 (&counters[i], 1, RELAXED); GCC's edge insertion
       puts it at the end of the source block, at the start of the
       destination, or in a new block on a critical edge.
   (9) After the GIMPLE optimisers, a second pass ("dsprof-durable",
       durable.cc) makes the counter stores plain again wherever no RTL pass
       can drop or move them, which is everywhere but in loops without calls
       that the function cannot leave and in blocks with volatile accesses.
   The counters array and the tables are emitted by metadata.cc.  */

#include "gcc-compat.h"
#include "cfgloop.h"
#include "cfganal.h"
#include "dsprof-plugin.h"
#include "counters.h"

namespace {

const pass_data counters_pass_data = {
  GIMPLE_PASS,
  "dsprof",
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg,
  0,
  0,
  0,
  0,
};

/* (8) Where a counter of the entries into BB goes: after its labels, and
   after the receiver of a __builtin_setjmp, which restores the frame and
   stays first.  */

gimple_stmt_iterator
entry_counter_point (basic_block bb)
{
  gimple_stmt_iterator gsi = gsi_after_labels (bb);
  if (!gsi_end_p (gsi)
      && gimple_call_builtin_p (gsi_stmt (gsi), BUILT_IN_SETJMP_RECEIVER))
    gsi_next (&gsi);
  return gsi;
}

/* (5) The flow graph.  Node 0 is ENTRY and EXIT; a block is one node, or two
   when it is entered by edges that cannot be counted (see instrument_counters):
   an IN node, where its edges come in, and the block itself, joined by an edge
   that, if counted, has its counter at the block's start; or, for a setjmp,
   the block and an OUT node, where its edges leave.  */

struct flow_edge
{
  unsigned src, dst;     /* nodes */
  edge e;                /* the CFG edge, NULL for the others */
  basic_block entry;     /* an entry counter's block, else NULL */
  double weight;         /* estimated runs: hot edges are best left uncounted */
  int how;               /* -1 counted, 0/1 tree edge derived at src/dst */
};

struct flow_graph
{
  unsigned nnodes;
  auto_vec<flow_edge> edges;
  auto_vec<unsigned> in_start, in_list;    /* edges into each node (CSR) */
  auto_vec<unsigned> out_start, out_list;  /* edges out of each node */

  unsigned
  add (unsigned src, unsigned dst, edge e, basic_block entry, double weight)
  {
    flow_edge f = { src, dst, e, entry, weight, -1 };
    edges.safe_push (f);
    return edges.length () - 1;
  }

  void index ();
};

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

/* A max-heap of candidate tree edges for (7), by weight (ties: the earlier
   edge).  */

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

/* (7) Choose the tree of G.  FORCED[v] is the fake edge that must be on the
   tree as node v's tree edge, or -1.  The rest is a maximum spanning tree over
   the estimated edge weights (Kruskal, the heaviest edges first), so the
   edges left to count are those estimated to run least.  The tree is
   undirected: a tree edge is derived at whichever of its nodes is further
   from 0.  Nodes that cannot reach 0 or a forced edge (a loop without exit,
   call or volatile access, which only a kill ends) first get a fake edge to
   0 on a block of their cycle: a thread killed in such a loop leaves that
   block's count exact, where the flow would otherwise be taken back out of
   the loop through the edge into it.  Return in ORDER the nodes by their
   distance from 0 on the tree; tree edges are derived in the opposite
   order.  */

void
choose_tree (flow_graph *g, vec<int> &forced, vec<unsigned> *order)
{
  unsigned n = g->nnodes;
  g->index ();

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
    if (forced[v] >= 0 && !reach[v])
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
        forced[v] = g->add (v, 0, NULL, NULL, 0);
        mark (v);
      }

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
  auto_vec<bool> tree;
  tree.safe_grow_cleared (m);
  for (unsigned v = 1; v < n; v++)
    if (forced[v] >= 0)
      {
        flow_edge &f = g->edges[forced[v]];
        tree[forced[v]] = true;
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
          tree[i] = true;
        }
    }

  /* Breadth first from 0 over the tree.  */
  auto_vec<unsigned> start, adj;
  start.safe_grow_cleared (n + 1);
  for (unsigned i = 0; i < m; i++)
    if (tree[i])
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
    if (tree[i])
      {
        adj[fill[g->edges[i].src]++] = i;
        adj[fill[g->edges[i].dst]++] = i;
      }
  auto_vec<bool> joined;
  joined.safe_grow_cleared (n);
  joined[0] = true;
  order->safe_push (0);
  for (unsigned q = 0; q < order->length (); q++)
    {
      unsigned v = (*order)[q];
      for (unsigned k = start[v]; k < start[v + 1]; k++)
        {
          flow_edge &f = g->edges[adj[k]];
          unsigned u = f.src == v ? f.dst : f.src;
          if (joined[u])
            continue;
          joined[u] = true;
          f.how = f.src == u ? 0 : 1;
          order->safe_push (u);
        }
    }
  gcc_assert (order->length () == n);
}

/* (8) The statements that add 1 to counter INDEX, using the temporary T.  */

gimple_seq
build_increment (tree counters, unsigned index, tree t)
{
  gimple_seq seq = NULL;
  tree u64 = TREE_TYPE (TREE_TYPE (counters));
  tree ref = build4 (ARRAY_REF, u64, counters,
                     build_int_cst (integer_type_node, index), NULL_TREE,
                     NULL_TREE);
  if (dsprof_opts.atomic)
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

/* The pass at "cfg": the function's CFG is built, as at -O0 (0); the rest of
   its compilation is at its own level.  The counters and hooks go in at the
   start of IPA (dsprof_instrument_unit), where the whole unit is known.  */

class counters_pass : public gimple_opt_pass
{
public:
  counters_pass (gcc::context *ctxt)
    : gimple_opt_pass (counters_pass_data, ctxt)
  {
  }

  bool
  gate (function *) final override
  {
    return dsprof_opts.counters;
  }

  unsigned int
  execute (function *) final override
  {
    /* (0) */
    dsprof_end_o0_view ();
    return 0;
  }
};

unsigned instrument_counters (function *fun, basic_block first, bool event,
                              unsigned *ncounters);

/* Whether FNDECL is naked: its body is its asm alone, without the prologue
   and epilogue that a counter or a hook needs (they would run on its
   caller's frame and registers).  It gets neither; an event attribute on it
   is ignored, with a warning.  */

bool
naked_p (tree fndecl)
{
  if (!lookup_attribute ("naked", DECL_ATTRIBUTES (fndecl)))
    return false;
  if (dsprof_opts.events
      && lookup_attribute ("dsprof_event", DECL_ATTRIBUTES (fndecl)))
    warning_at (DECL_SOURCE_LOCATION (fndecl), 0,
                "dsprof: %<dsprof_event%> ignored on naked function %qD: it "
                "has no prologue or epilogue for event hooks, so dsprof "
                "leaves it alone (no counters, no events)", fndecl);
  return true;
}

/* Whether FNDECL's calls are to be events.  An event's hooks need a call of
   its own (its frame identifies it, events.cc), so an always_inline function
   is none: annotated, that is an error; with functions=all it is counted
   without events.  */

bool
event_function_p (tree fndecl)
{
  if (!dsprof_event_p (fndecl) || DECL_ARTIFICIAL (fndecl))
    return false;
  if (!lookup_attribute ("always_inline", DECL_ATTRIBUTES (fndecl)))
    return true;
  if (lookup_attribute ("dsprof_event", DECL_ATTRIBUTES (fndecl)))
    error_at (DECL_SOURCE_LOCATION (fndecl),
              "dsprof: event function %qD cannot be %<always_inline%>: its "
              "hooks need a call of its own", fndecl);
  return false;
}

/* Instrument FUN.  */

void
instrument_function (function *fun)
{
  /* (2) A dedicated entry block.  */
  edge entry = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun));
  if (!single_pred_p (entry->dest) && !(entry->flags & EDGE_COMPLEX))
    split_edge (entry);
  basic_block first = single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun));

  bool event = event_function_p (fun->decl);
  unsigned ncounters = 0;
  unsigned counted
    = dsprof_opts.counters ? instrument_counters (fun, first, event, &ncounters)
                           : 0;
  if (event)
    dsprof_instrument_events (fun, first);

  if (dsprof_opts.verbose)
    {
      expanded_location x = expand_location (DECL_SOURCE_LOCATION (fun->decl));
      fprintf (stderr, "dsprof: %s:%d: %s: %u blocks counted (%u counters)%s\n",
               x.file ? x.file : main_input_filename, x.line,
               function_name (fun), counted, ncounters,
               event ? ", event hooks" : "");
    }
}

unsigned
instrument_counters (function *fun, basic_block first, bool event,
                     unsigned *ncounters)
{
  /* (3) */
  dsprof_split_blocks (fun);

  /* (4) */
  auto_vec<basic_block> blocks;
  auto_vec<vec<expanded_location> > locs;
  unsigned counted = dsprof_block_lines (fun, first, &blocks, &locs);
  basic_block bb;
  unsigned first_counter = dsprof_begin_function (fun->decl, counted);

  /* (5) Nodes: 0, the blocks with lines in order (block k is node k + 1), the
     other blocks, then the IN and OUT nodes below.  A block's edges come into
     its IN_NODE and leave from its OUT_NODE, both its NODE but for those.  */
  unsigned nbb = last_basic_block_for_fn (fun);
  auto_vec<int> node, in_node, out_node;
  node.safe_grow (nbb);
  in_node.safe_grow (nbb);
  out_node.safe_grow (nbb);
  for (unsigned i = 0; i < nbb; i++)
    node[i] = in_node[i] = out_node[i] = -1;
  node[ENTRY_BLOCK] = node[EXIT_BLOCK] = 0;
  in_node[ENTRY_BLOCK] = in_node[EXIT_BLOCK] = 0;
  out_node[ENTRY_BLOCK] = out_node[EXIT_BLOCK] = 0;
  flow_graph g;
  g.nnodes = 1;
  for (int pass = 0; pass < 2; pass++)
    for (unsigned i = 0; i < blocks.length (); i++)
      if (locs[i].is_empty () == (pass == 1))
        node[blocks[i]->index] = in_node[blocks[i]->index]
          = out_node[blocks[i]->index] = g.nnodes++;
  for (unsigned i = 0; i < blocks.length (); i++)
    {
      if (!locs[i].is_empty ())
        dsprof_add_block (locs[i].length (), locs[i].address ());
      locs[i].release ();
    }
  if (!counted)
    return 0;

  /* (5) Blocks entered or left other than by their countable edges: a fake
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
  auto_vec<bool> leaves;
  auto_vec<char> kind;   /* 0, 'i' IN node, 'o' OUT node */
  leaves.safe_grow_cleared (nbb);
  kind.safe_grow_cleared (nbb);
  for (unsigned i = 0; i < blocks.length (); i++)
    {
      bb = blocks[i];
      /* An event's Start hook is a call a thread may be stopped in.  */
      leaves[bb->index] = dsprof_may_leave_p (bb) || (event && bb == first);
      if (!dsprof_abnormal_target_p (bb))
        continue;
      if (dsprof_pinned_start_p (bb))
        {
          kind[bb->index] = 'o';
          out_node[bb->index] = g.nnodes++;
          /* Its statement is setjmp, which returns, or it has no edges.  */
          leaves[bb->index] = false;
        }
      else
        {
          kind[bb->index] = 'i';
          in_node[bb->index] = g.nnodes++;
        }
    }

  dsprof_add_loop_sinks (fun, blocks, leaves, kind);

  /* (5) Edges, (6) weighed by the estimates.  */
  flow_estimate estimate;
  estimate.compute (fun);
  FOR_BB_BETWEEN (bb, ENTRY_BLOCK_PTR_FOR_FN (fun), EXIT_BLOCK_PTR_FOR_FN (fun),
                  next_bb)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (!dsprof_uncountable_edge_p (e))
          g.add (out_node[bb->index], in_node[e->dest->index], e, NULL,
                 estimate.weight (e));
    }
  auto_vec<int> forced;
  forced.safe_grow (g.nnodes);
  for (unsigned v = 0; v < g.nnodes; v++)
    forced[v] = -1;
  for (unsigned i = 0; i < blocks.length (); i++)
    {
      bb = blocks[i];
      unsigned v = node[bb->index], in = in_node[bb->index];
      unsigned out = out_node[bb->index];
      if (kind[bb->index] == 'i')
        {
          forced[in] = g.add (0, in, NULL, NULL, 0);
          g.add (in, v, NULL, bb, estimate.freq[bb->index]);
        }
      else if (kind[bb->index] == 'o')
        {
          forced[out] = g.add (0, out, NULL, NULL, 0);
          forced[v] = g.add (v, out, NULL, NULL, 0);
        }
      if (leaves[bb->index])
        forced[v] = g.add (v, 0, NULL, NULL, 0);
    }

  /* (7) */
  auto_vec<unsigned> order;
  choose_tree (&g, forced, &order);

  /* (8) The record: the counted edges, then the tree edges in the order they
     are derived (a node's after those of the nodes below it).  */
  auto_vec<unsigned> parent;
  parent.safe_grow (g.nnodes);
  for (unsigned v = 0; v < g.nnodes; v++)
    parent[v] = -1u;
  auto_vec<unsigned long> rec;
  unsigned nmeasured = 0;
  for (unsigned i = 0; i < g.edges.length (); i++)
    {
      flow_edge &f = g.edges[i];
      if (f.how < 0)
        {
          rec.safe_push (f.src);
          rec.safe_push (f.dst);
          rec.safe_push (2 + nmeasured++);
        }
      else
        parent[f.how == 0 ? f.src : f.dst] = i;
    }
  for (unsigned k = order.length (); k-- > 0;)
    if (parent[order[k]] != -1u)
      {
        flow_edge &f = g.edges[parent[order[k]]];
        rec.safe_push (f.src);
        rec.safe_push (f.dst);
        rec.safe_push (f.how);
      }
  dsprof_add_flow (g.nnodes, rec.length () / 3, rec.address (), nmeasured);

  /* The increments, on the counted edges in the record's order.  */
  tree counters = dsprof_counters_decl ();
  tree t = dsprof_opts.atomic ? NULL_TREE
                              : create_tmp_reg (TREE_TYPE (TREE_TYPE (counters)),
                                                "dsprof");
  unsigned index = first_counter;
  for (unsigned i = 0; i < g.edges.length (); i++)
    {
      flow_edge &f = g.edges[i];
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
  *ncounters = nmeasured;
  return counted;
}

} // namespace

/* Instrument every function of the unit that is to be, at the start of IPA:
   their CFGs are built, as at -O0, and not optimised yet.  */

void
dsprof_instrument_unit (void)
{
  /* (1) */
  dsprof_find_leaving_functions ();
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      /* The functions of the source, and the bodies of OpenMP constructs
         that the lowering passes moved out of them.  */
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (!fn || !fn->cfg
          || (DECL_ARTIFICIAL (node->decl) && !node->parallelized_function)
          || !dsprof_selected_p (node->decl) || naked_p (node->decl))
        continue;
      push_cfun (fn);
      current_function_decl = node->decl;
      instrument_function (fn);
      cgraph_edge::rebuild_edges ();
      pop_cfun ();
      current_function_decl = NULL_TREE;
    }
  dsprof_forget_leaving_functions ();
}

opt_pass *
dsprof_make_pass (gcc::context *ctxt)
{
  return new counters_pass (ctxt);
}
