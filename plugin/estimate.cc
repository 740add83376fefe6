/* estimate.cc - step (6) of counters.cc: static estimates of how often each
   block and edge runs, for (7), which keeps the hottest edges uncounted, so
   that the counters cost the least (gcov has GCC's guessed profile; before
   the optimisers there is none yet).  A wrong guess costs speed, never a
   count.  The share of a block's runs each of its
   edges takes: evenly, but
   - a loop is taken to run 8 times: the edges leaving the loop of their source
     share 1/8, the others the rest;
   - __builtin_expect on a condition gives the expected edge 9/10;
   - a path that can only end in a call that does not return (abort, an error
     function) or that calls a function declared cold is cold: such edges
     share 1/100.
   A loop header runs 8 times as often as the edges entering its loop.  Blocks
   are visited in reverse post-order, so every edge but a loop's back edges
   and those into irreducible regions is known when its destination is
   reached.  */

#include "gcc-compat.h"
#include "cfgloop.h"
#include "cfganal.h"
#include "dsprof-plugin.h"
#include "counters.h"

/* Whether E leaves the loop of its source.  */

static bool
exit_p (edge e)
{
  class loop *l = e->src->loop_father;
  return l && loop_outer (l) && !flow_bb_inside_loop_p (l, e->dest);
}

/* Whether E goes back to the header of its loop.  */

static bool
back_p (edge e)
{
  class loop *l = e->dest->loop_father;
  return l && loop_outer (l) && l->header == e->dest
         && flow_bb_inside_loop_p (l, e->src);
}

/* Whether BB ends in a call that does not return, or calls a function
   declared cold.  */

static bool
cold_block_p (basic_block bb)
{
  gimple *last = last_stmt (bb);
  if (last && is_gimple_call (last)
      && (gimple_call_flags (last) & ECF_NORETURN))
    return true;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi)))
      if (gimple_call_fndecl (call)
          && lookup_attribute ("cold",
                               DECL_ATTRIBUTES (gimple_call_fndecl (call))))
        return true;
  return false;
}

/* The edge of BB's condition that __builtin_expect names, or NULL.  */

static edge
expected_edge (basic_block bb)
{
  gimple *last = last_stmt (bb);
  gcond *cond = last ? dyn_cast<gcond *> (last) : NULL;
  if (!cond || TREE_CODE (gimple_cond_rhs (cond)) != INTEGER_CST)
    return NULL;
  tree lhs = gimple_cond_lhs (cond);
  for (gimple_stmt_iterator gsi = gsi_for_stmt (cond); gsi_prev (&gsi),
       !gsi_end_p (gsi);)
    {
      gimple *stmt = gsi_stmt (gsi);
      tree def = gimple_get_lhs (stmt);
      if (!def || !operand_equal_p (def, lhs, 0))
        continue;
      if (!gimple_call_builtin_p (stmt, BUILT_IN_EXPECT)
          || TREE_CODE (gimple_call_arg (stmt, 1)) != INTEGER_CST)
        return NULL;
      tree v = fold_binary (gimple_cond_code (cond), boolean_type_node,
                            fold_convert (TREE_TYPE (gimple_cond_rhs (cond)),
                                          gimple_call_arg (stmt, 1)),
                            gimple_cond_rhs (cond));
      if (!v || TREE_CODE (v) != INTEGER_CST)
        return NULL;
      edge t, f;
      extract_true_false_edges_from_block (bb, &t, &f);
      return integer_zerop (v) ? f : t;
    }
  return NULL;
}

/* Mark in COLD the cold blocks of FUN, whose N blocks RPO lists in reverse
   post-order: those of cold_block_p, then those whose edges all lead to cold
   blocks, in post-order (once round a loop more, until nothing changes).  */

static void
mark_cold_blocks (function *fun, const int *rpo, int n, sbitmap cold)
{
  bitmap_clear (cold);
  for (int i = 0; i < n; i++)
    if (cold_block_p (BASIC_BLOCK_FOR_FN (fun, rpo[i])))
      bitmap_set_bit (cold, rpo[i]);
  for (bool changed = true; changed;)
    {
      changed = false;
      for (int i = n; i-- > 0;)
        {
          basic_block bb = BASIC_BLOCK_FOR_FN (fun, rpo[i]);
          if (bitmap_bit_p (cold, bb->index))
            continue;
          bool all = true, any = false;
          edge e;
          edge_iterator ei;
          FOR_EACH_EDGE (e, ei, bb->succs)
            if (!dsprof_uncountable_edge_p (e))
              {
                any = true;
                all &= bitmap_bit_p (cold, e->dest->index);
              }
          if (any && all)
            {
              bitmap_set_bit (cold, bb->index);
              changed = true;
            }
        }
    }
}

/* The share of its source's runs each countable edge of FUN takes, the
   blocks in RPO's order as in mark_cold_blocks.  */

void
flow_estimate::compute_shares (function *fun, const int *rpo, int n)
{
  bool loops = loops_for_fn (fun) != NULL;
  auto_sbitmap cold (last_basic_block_for_fn (fun));
  mark_cold_blocks (fun, rpo, n, cold);
  for (int i = 0; i < n; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (fun, rpo[i]);
      unsigned k = 0, nexit = 0, ncold = 0;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (!dsprof_uncountable_edge_p (e))
          {
            k++;
            nexit += loops && exit_p (e);
            ncold += bitmap_bit_p (cold, e->dest->index);
          }
      if (!k)
        continue;
      edge expected = k == 2 ? expected_edge (bb) : NULL;
      auto_vec<std::pair<edge, double>, 8> p;
      double cold_share = 0;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (!dsprof_uncountable_edge_p (e))
          {
            double s = 1.0 / k;
            if (expected)
              s = e == expected ? 0.9 : 0.1;
            else if (nexit && nexit < k)
              s = exit_p (e) ? 1.0 / 8 / nexit : 7.0 / 8 / (k - nexit);
            if (bitmap_bit_p (cold, e->dest->index))
              cold_share += s;
            p.safe_push (std::make_pair (e, s));
          }
      for (unsigned j = 0; j < p.length (); j++)
        {
          double s = p[j].second;
          if (ncold && ncold < k)
            s = bitmap_bit_p (cold, p[j].first->dest->index)
                  ? 0.01 / ncold
                  : s * 0.99 / MAX (1 - cold_share, 1e-9);
          share.put (p[j].first, s);
        }
    }
}

/* E's share of its source's runs.  */

double
flow_estimate::share_of (edge e)
{
  double *p = share.get (e);
  return p ? *p : 0;
}

/* Estimate the runs of FUN's blocks, and with them of its edges.  */

void
flow_estimate::compute (function *fun)
{
  freq.safe_grow_cleared (last_basic_block_for_fn (fun));
  freq[ENTRY_BLOCK] = 1;
  bool loops = loops_for_fn (fun) != NULL;
  int *rpo = XNEWVEC (int, n_basic_blocks_for_fn (fun));
  int n = pre_and_rev_post_order_compute_fn (fun, NULL, rpo, false);
  compute_shares (fun, rpo, n);
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, ENTRY_BLOCK_PTR_FOR_FN (fun)->succs)
    share.put (e, 1.0);
  for (int i = 0; i < n; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (fun, rpo[i]);
      double f = 0;
      FOR_EACH_EDGE (e, ei, bb->preds)
        if (!dsprof_uncountable_edge_p (e) && !(loops && back_p (e)))
          f += freq[e->src->index] * share_of (e);
      if (loops && bb->loop_father && loop_outer (bb->loop_father)
          && bb->loop_father->header == bb)
        f *= 8;
      if (dsprof_abnormal_target_p (bb))
        f = MAX (f, 1);
      freq[bb->index] = MIN (f, 1e30);
    }
  XDELETEVEC (rpo);
}

/* An edge's weight: its estimated runs.  (Counting a critical edge needs a
   block of its own, but weighting such edges up, to keep them on the tree,
   made Lua run more instructions, not fewer.)  */

double
flow_estimate::weight (edge e)
{
  return freq[e->src->index] * share_of (e);
}
