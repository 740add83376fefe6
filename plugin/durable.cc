/* durable.cc - the late pass, dsprof-durable: step (9) of counters.cc.  The
   counter stores go in volatile so that no GIMPLE optimiser keeps a count in a
   register (docs/contract.md §3); once those optimisers have run, this pass
   makes each store plain again wherever no RTL pass can drop or move it, so
   that x86 does the increment in one instruction.

   The counter stores are volatile through the GIMPLE optimisers, whose loop
   store motion would keep counts in registers (counters.cc, step 8).  After
   them, the RTL passes move or delete a store to a global only through store
   motion (-fgcse-sm, off unless asked for) and dead store elimination, which
   deletes a store only if every path from it stores to the same place again
   before any read: never when a path reaches a call that may read memory or
   the function's exit (where global memory is live).  So a counter store is
   made plain again, and x86 does the increment with one `addq $1, mem',
   unless its block can reach neither a call nor the exit (a loop without
   calls that the function cannot leave, such as a program's main loop that
   is only ever killed), or holds a volatile access (other_volatile_p).  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"

namespace {

/* Whether STMT is a call that the RTL passes see as reading memory: not an
   internal function, not a built-in (which may expand inline), not const.  */

bool
reading_call_p (gimple *stmt)
{
  return is_gimple_call (stmt) && !gimple_call_internal_p (stmt)
         && !gimple_call_builtin_p (stmt, BUILT_IN_NORMAL)
         && !(gimple_call_flags (stmt) & ECF_CONST);
}

/* Whether STMT is a volatile store to a counters array.  */

bool
counter_store_p (gimple *stmt)
{
  if (!gimple_assign_single_p (stmt) || !gimple_has_volatile_ops (stmt))
    return false;
  tree lhs = gimple_assign_lhs (stmt);
  return TREE_THIS_VOLATILE (lhs)
         && dsprof_counters_array_p (get_base_address (lhs));
}

/* Whether BB holds a volatile access other than a counter store.  A plain
   store may be scheduled across a volatile access, and a thread stopped at
   one (a fault, a kill while polling) would then have counted the edges that
   leave the block, or not the one that entered it: such a block keeps its
   counter stores volatile, in order with the access.  */

bool
other_volatile_p (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *stmt = gsi_stmt (gsi);
      if ((gimple_has_volatile_ops (stmt)
           || (is_a<gasm *> (stmt)
               && gimple_asm_volatile_p (as_a<gasm *> (stmt))))
          && !counter_store_p (stmt))
        return true;
    }
  return false;
}

bool
durable_gate (function *)
{
  return dsprof_opts.update != DSPROF_UPDATE_ATOMIC && !flag_gcse_sm
         && dsprof_counters_possible_p ();
}

unsigned int
durable_execute (function *fun)
{
  /* The blocks that can reach a reading call or the exit, found backwards
     from those that hold one or lead to the exit.  */
  auto_sbitmap reaches (last_basic_block_for_fn (fun));
  bitmap_clear (reaches);
  auto_vec<basic_block> work;
  basic_block bb;
  bool any_store = false;
  FOR_EACH_BB_FN (bb, fun)
    {
      bool read = false;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          read |= reading_call_p (gsi_stmt (gsi));
          any_store |= counter_store_p (gsi_stmt (gsi));
        }
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        read |= e->dest == EXIT_BLOCK_PTR_FOR_FN (fun);
      if (read)
        {
          bitmap_set_bit (reaches, bb->index);
          work.safe_push (bb);
        }
    }
  if (!any_store)
    return 0;
  while (!work.is_empty ())
    {
      bb = work.pop ();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->preds)
        if (e->src != ENTRY_BLOCK_PTR_FOR_FN (fun)
            && bitmap_set_bit (reaches, e->src->index))
          work.safe_push (e->src);
    }

  FOR_EACH_BB_FN (bb, fun)
    {
      if (!bitmap_bit_p (reaches, bb->index) || other_volatile_p (bb))
        continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          if (!counter_store_p (stmt))
            continue;
          tree lhs = gimple_assign_lhs (stmt);
          TREE_TYPE (lhs) = TYPE_MAIN_VARIANT (TREE_TYPE (lhs));
          TREE_THIS_VOLATILE (lhs) = 0;
          TREE_SIDE_EFFECTS (lhs) = 0;
          update_stmt (stmt);
        }
    }
  return 0;
}

} // namespace

const dsprof_pass dsprof_durable_pass = {
  .name = "dsprof-durable",
  .required = PROP_cfg,
  .todo_finish = 0,
  .gate = durable_gate,
  .execute = durable_execute,
};
