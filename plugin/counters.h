/* counters.h - what the files of the counters pass share.  counters.cc lists
   the steps (0) to (9) and runs them; each file here does some of them.  */

#ifndef DSPROF_COUNTERS_H
#define DSPROF_COUNTERS_H

/* may-leave.cc: (1) the functions that may be left other than by returning,
   (5) the blocks that may, which get fake edges.  */
void dsprof_find_leaving_functions (void);
void dsprof_forget_leaving_functions (void);
bool dsprof_may_not_return_p (gimple *stmt);
bool dsprof_gcov_builtin_returns_p (tree fndecl, int flags);
bool dsprof_uncountable_edge_p (edge e);
bool dsprof_abnormal_target_p (basic_block bb);
bool dsprof_may_leave_p (basic_block bb);
bool dsprof_pinned_start_p (basic_block bb);
struct flow_graph;
void dsprof_add_loop_sinks (flow_graph *g, function *fun,
                            const vec<basic_block> &blocks);

/* block-lines.cc: (3) blocks split after jumps and calls, (4) their lines.  */
void dsprof_split_blocks (function *fun);
unsigned dsprof_block_lines (function *fun, basic_block first,
                             vec<basic_block> *blocks,
                             vec<vec<expanded_location> > *locs);
void dsprof_record_lines (vec<vec<expanded_location> > *locs);

/* estimate.cc: (6) how often each block and edge runs, guessed.  */
struct flow_estimate
{
  auto_vec<double> freq;            /* by block index */
  hash_map<edge, double> share;     /* of its source's runs, by countable edge */

  void compute (function *fun);
  double weight (edge e);

private:
  void compute_shares (function *fun, const int *rpo, int n);
  double share_of (edge e);
};

/* flow-graph.cc: (5) the flow graph, (7) its spanning tree, (8) the flow
   record and the counters.  Node 0 is ENTRY and EXIT; a block is one node, or
   two when it is entered by edges that cannot be counted (see
   dsprof_mark_leaving_blocks): an IN node, where its edges come in, and the
   block itself, joined by an edge that, if counted, has its counter at the
   block's start; or, for a setjmp, the block and an OUT node, where its
   edges leave.  */

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
  /* By block index: the block's node, the nodes its edges come into and
     leave from, -1 for a block without one.  */
  auto_vec<int> node, in_node, out_node;
  auto_vec<bool> leaves;     /* by block index: it gets a fake edge to 0 */
  auto_vec<int> forced;      /* by node: the fake edge on the tree, or -1 */
  auto_vec<unsigned> order;  /* nodes by their distance from 0 on the tree */
  auto_vec<unsigned> rec_pos; /* by edge: its place in the flow record */

  unsigned
  add (unsigned src, unsigned dst, edge e, basic_block entry, double weight)
  {
    flow_edge f = { .src = src, .dst = dst, .e = e, .entry = entry,
                    .weight = weight, .how = -1 };
    edges.safe_push (f);
    return edges.length () - 1;
  }

  void index ();

  /* Whether block BB has an IN node, an OUT node.  */
  bool
  has_in_node (basic_block bb)
  {
    return in_node[bb->index] != node[bb->index];
  }

  bool
  has_out_node (basic_block bb)
  {
    return out_node[bb->index] != node[bb->index];
  }
};

void dsprof_number_nodes (flow_graph *g, function *fun,
                          const vec<basic_block> &blocks,
                          const vec<vec<expanded_location> > &locs);
void dsprof_mark_leaving_blocks (flow_graph *g, const vec<basic_block> &blocks,
                                 basic_block first, bool event);
void dsprof_add_flow_edges (flow_graph *g, function *fun,
                            const vec<basic_block> &blocks,
                            flow_estimate *estimate);
void dsprof_choose_tree (flow_graph *g);
unsigned dsprof_write_flow_record (flow_graph *g);
void dsprof_insert_counters (flow_graph *g, unsigned first_counter);

/* branches.cc: (8) the blocks that end in a conditional jump or a switch,
   found before the counters go in, recorded after.  */
struct branch_block
{
  basic_block bb;
  expanded_location where;   /* the line gcov puts its branches on */
};
void dsprof_find_branches (function *fun, const vec<basic_block> &blocks,
                           basic_block first, vec<branch_block> *out);
void dsprof_write_branches (flow_graph *g, const vec<branch_block> &branches);

#endif /* DSPROF_COUNTERS_H */
