/* counters.cc - the dsprof passes: one counter per basic block, and the event hooks
   of events.cc.

   Runs right after GCC builds the CFG ("cfg"), before SSA and before any
   optimisation, on a function GCC has parsed, gimplified and lowered as at -O0
   whatever the -O level (0), so the counted blocks are the same at every -O
   level.

     gcc -fplugin=dsprof.so [-fplugin-arg-dsprof-update=atomic] -c f.c

   Before:                          After:
     int f (int x)                    int f (int x)
     {                                {
       if (x > 0)                       __dsprof_counters[0]++;        (1)
         return 1;                      if (x > 0)
       return 0;                        { __dsprof_counters[1]++; return 1; }
     }                                  __dsprof_counters[2]++;
                                        return 0;
                                      }

   Steps, numbered as in the code:
   (0) Until the counters pass is done with a function, GCC handles it with the
       optimisation level of -O0, so that no -O level reshapes its branches and
       jumps before they are counted.
   (1) Give the function a block of its own at entry when its first block is also
       a jump target, so the entry block's count is the function's call count.
   (2) Split every edge that carries the location of a jump GCC folded into the
       CFG (break, continue, goto), like gcov, so that location gets the count of
       the jump itself.
   (3) Collect each block's located statements (labels and debug statements do not
       count), plus the function's definition line for the entry block and the
       jump location of a single successor edge.
   (4) Give every block with a location a counter and insert, before its first
       non-label statement:  t = counters[i]; t = t + 1; counters[i] = t;
       with a volatile store, so that each run of the block reaches the mapped
       profile even in a loop the program is killed in; or, with update=atomic,
       __atomic_fetch_add_8 (&counters[i], 1, RELAXED).
   (5) After the GIMPLE optimisers, a second pass ("dsprof-durable") makes the
       counter stores plain again wherever no RTL pass can drop them, which is
       everywhere but in loops without calls that the function cannot leave.
   The counters array and the tables are emitted by metadata.cc.  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"

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

bool
location_known_p (location_t loc)
{
  return !RESERVED_LOCATION_P (loc) && LOCATION_LINE (loc) > 0;
}

/* Add the expanded LOC to LOCS (N entries so far) unless already there.  */

void
add_location (vec<expanded_location> *locs, location_t loc)
{
  if (!location_known_p (loc))
    return;
  expanded_location x = expand_location (loc);
  if (!x.file)
    return;
  for (unsigned i = 0; i < locs->length (); i++)
    if ((*locs)[i].line == x.line
        && ((*locs)[i].file == x.file || strcmp ((*locs)[i].file, x.file) == 0))
      return;
  locs->safe_push (x);
}

/* (2) Split edges out of BB whose goto_locus differs from the location of BB's
   last statement, as gcov's branch_prob does.  */

void
split_jump_edges (function *fun)
{
  auto_vec<edge> to_split;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      if (single_succ_p (bb))
        continue;
      gimple *last = last_stmt (bb);
      if (!last || !location_known_p (gimple_location (last)))
        continue;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (!(e->flags & (EDGE_COMPLEX | EDGE_FAKE))
            && location_known_p (e->goto_locus)
            && e->dest != EXIT_BLOCK_PTR_FOR_FN (fun)
            && (LOCATION_LINE (e->goto_locus)
                  != LOCATION_LINE (gimple_location (last))
                || strcmp (LOCATION_FILE (e->goto_locus),
                           LOCATION_FILE (gimple_location (last))) != 0))
          to_split.safe_push (e);
    }
  for (unsigned i = 0; i < to_split.length (); i++)
    {
      location_t locus = to_split[i]->goto_locus;
      basic_block nb = split_edge (to_split[i]);
      single_succ_edge (nb)->goto_locus = locus;
    }
}

/* (4) Insert the increment of counter INDEX before GSI, using the temporary T.  */

void
insert_increment (gimple_stmt_iterator *gsi, tree counters, unsigned index,
                  tree t)
{
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
      gsi_insert_before (gsi, call, GSI_SAME_STMT);
      return;
    }
  /* Durable counts (SPEC §3): every run of the block must store its count in
     the mapped file, even in a loop without calls, where loop store motion
     (LIM) would otherwise keep the count in a register and store it only on
     leaving the loop (never, for a loop a SIGKILL ends).  A volatile store
     cannot be moved, merged or deleted.  The load stays plain: in such a loop
     GCC may then carry the count in a register and store it each time round
     (one store per iteration, no load), and the counter remains an ordinary
     reference for alias analysis, so the loop's other memory references keep
     their own store motion (a relaxed __atomic load/store pair or an asm
     touching the counter would stop that).  x86 cannot fold a volatile
     store into `addq $1, mem' (three instructions instead of one): after the
     GIMPLE optimisers the late pass (5) makes the store plain again wherever
     that is safe.  */
  tree store = unshare_expr (ref);
  TREE_TYPE (store) = build_qualified_type (u64, TYPE_QUAL_VOLATILE);
  TREE_THIS_VOLATILE (store) = 1;
  TREE_SIDE_EFFECTS (store) = 1;
  gsi_insert_before (gsi, gimple_build_assign (t, ref), GSI_SAME_STMT);
  gsi_insert_before (gsi, gimple_build_assign (t, PLUS_EXPR, t,
                                               build_int_cst (u64, 1)),
                     GSI_SAME_STMT);
  gsi_insert_before (gsi, gimple_build_assign (store, t), GSI_SAME_STMT);
}

/* (0) The -O0 view.  GCC reshapes a function before the counters pass sees it
   when it optimises, and the counts would follow: with -O1 and up the front
   end's fold merges `i < -2 || i > 4' into one range test (fold_truth_andor,
   fold_range_test: only `optimize' stops it, not the
   logical-op-non-short-circuit param), the gimplifier folds `if (c) break;'
   into the condition's jump (gimplify_cond_expr) and the cfg pass's cleanup
   drops forwarder blocks whose jump has a location of its own
   (tree_forwarder_block_p); the `break' line loses its count.  So while a
   function to be counted is GCC's current function, from its parsing up to
   the end of the counters pass, GCC sees the option values of -O0 for the
   optimisation level (optimize, optimize_size, optimize_debug; every other
   option keeps its value).  The function thus reaches the counters pass as
   at -O0 and is optimised as usual afterwards.

   GCC sets the options of each function whenever its current function
   changes (invoke_set_current_function_hook, for parsing, gimplification,
   every pass) and then calls the target's set_current_function hook, which
   the plugin wraps: after the target's own work it puts either the -O0
   values or, outside the view, those of GCC's current optimisation node
   back.  */

void (*target_set_current_function) (tree);

/* Whether FNDECL is a function the counters pass will instrument that has
   not been through the cfg pass yet.  */

bool
o0_view_p (tree fndecl)
{
  if (!fndecl || TREE_CODE (fndecl) != FUNCTION_DECL || dsprof_unit_emitted_p ()
      || DECL_ARTIFICIAL (fndecl))
    return false;
  function *fn = DECL_STRUCT_FUNCTION (fndecl);
  if (fn && (fn->curr_properties & PROP_cfg))
    return false;
  return dsprof_selected_p (fndecl);
}

/* Give the optimisation level options the values of GCC's current
   optimisation node, or with O0 those of -O0.  */

void
set_optimization_level (bool o0)
{
  cl_optimization *opts = TREE_OPTIMIZATION (optimization_current_node);
  optimize = o0 ? 0 : opts->x_optimize;
  optimize_size = o0 ? 0 : opts->x_optimize_size;
  optimize_debug = o0 ? 0 : opts->x_optimize_debug;
}

void
set_current_function (tree fndecl)
{
  target_set_current_function (fndecl);
  set_optimization_level (o0_view_p (fndecl));
}

class counters_pass : public gimple_opt_pass
{
public:
  counters_pass (gcc::context *ctxt)
    : gimple_opt_pass (counters_pass_data, ctxt)
  {
  }

  bool
  gate (function *fun) final override
  {
    return !dsprof_unit_emitted_p () && !DECL_ARTIFICIAL (fun->decl)
           && dsprof_selected_p (fun->decl);
  }

  unsigned int execute (function *fun) final override;
  unsigned instrument_counters (function *fun, basic_block first);
};

unsigned int
counters_pass::execute (function *fun)
{
  /* (1) A dedicated entry block.  */
  edge entry = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun));
  if (!single_pred_p (entry->dest) && !(entry->flags & EDGE_COMPLEX))
    split_edge (entry);
  basic_block first = single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun));

  unsigned counted = dsprof_opts.counters ? instrument_counters (fun, first) : 0;
  bool event = dsprof_event_p (fun->decl);
  if (event)
    dsprof_instrument_events (fun, first);

  /* (0) The rest of the compilation at the function's own level.  */
  if (dsprof_opts.counters)
    set_optimization_level (false);

  if (dsprof_opts.verbose)
    {
      expanded_location x = expand_location (DECL_SOURCE_LOCATION (fun->decl));
      fprintf (stderr, "dsprof: %s:%d: %s: %u blocks counted%s\n",
               x.file ? x.file : main_input_filename, x.line,
               function_name (fun), counted, event ? ", event hooks" : "");
    }
  return 0;
}

unsigned
counters_pass::instrument_counters (function *fun, basic_block first)
{
  /* (2) */
  split_jump_edges (fun);

  /* (3) Lines of every block, the entry block first.  */
  auto_vec<basic_block> blocks;
  auto_vec<vec<expanded_location> > locs;
  blocks.safe_push (first);
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    if (bb != first)
      blocks.safe_push (bb);
  unsigned counted = 0;
  for (unsigned i = 0; i < blocks.length (); i++)
    {
      vec<expanded_location> l = vNULL;
      bb = blocks[i];
      for (gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
           !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
        add_location (&l, gimple_location (gsi_stmt (gsi)));
      if (bb == first)
        add_location (&l, DECL_SOURCE_LOCATION (fun->decl));
      if (single_succ_p (bb))
        add_location (&l, single_succ_edge (bb)->goto_locus);
      counted += l.length () > 0;
      locs.safe_push (l);
    }

  /* (4) */
  tree counters = dsprof_counters_decl ();
  tree t = dsprof_opts.atomic ? NULL_TREE
                              : create_tmp_reg (TREE_TYPE (TREE_TYPE (counters)),
                                                "dsprof");
  unsigned index = dsprof_begin_function (fun->decl, counted);
  for (unsigned i = 0; i < blocks.length (); i++)
    {
      if (locs[i].is_empty ())
        continue;
      dsprof_add_block (locs[i].length (), locs[i].address ());
      gimple_stmt_iterator gsi = gsi_after_labels (blocks[i]);
      insert_increment (&gsi, counters, index++, t);
      locs[i].release ();
    }

  return counted;
}

/* (5) The late pass: plain stores where a volatile one is not needed.

   The counter stores are volatile through the GIMPLE optimisers, whose loop
   store motion would keep counts in registers (4).  After them, the RTL
   passes move or delete a store to a global only through store motion
   (-fgcse-sm, off unless asked for) and dead store elimination, which deletes
   a store only if every path from it stores to the same place again before
   any read: never when a path reaches a call that may read memory or the
   function's exit (where global memory is live).  So a counter store is
   made plain again, and x86 does the increment with one `addq $1, mem',
   unless its block can reach neither a call nor the exit: a loop without
   calls that the function cannot leave, such as a program's main loop that
   is only ever killed.  */

const pass_data durable_pass_data = {
  GIMPLE_PASS,
  "dsprof-durable",
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg,
  0,
  0,
  0,
  0,
};

/* Whether STMT is a call that the RTL passes see as reading memory: not an
   internal function, not a built-in (which may expand inline), not const.  */

bool
reading_call_p (gimple *stmt)
{
  return is_gimple_call (stmt) && !gimple_call_internal_p (stmt)
         && !gimple_call_builtin_p (stmt, BUILT_IN_NORMAL)
         && !(gimple_call_flags (stmt) & ECF_CONST);
}

/* Whether STMT is a volatile store to COUNTERS.  */

bool
counter_store_p (gimple *stmt, tree counters)
{
  if (!gimple_assign_single_p (stmt) || !gimple_has_volatile_ops (stmt))
    return false;
  tree lhs = gimple_assign_lhs (stmt);
  return TREE_THIS_VOLATILE (lhs) && get_base_address (lhs) == counters;
}

class durable_pass : public gimple_opt_pass
{
public:
  durable_pass (gcc::context *ctxt)
    : gimple_opt_pass (durable_pass_data, ctxt)
  {
  }

  bool
  gate (function *) final override
  {
    return !dsprof_opts.atomic && !flag_gcse_sm
           && dsprof_counters_decl_if_any () != NULL_TREE;
  }

  unsigned int execute (function *fun) final override;
};

unsigned int
durable_pass::execute (function *fun)
{
  tree counters = dsprof_counters_decl_if_any ();

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
          any_store |= counter_store_p (gsi_stmt (gsi), counters);
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
      if (!bitmap_bit_p (reaches, bb->index))
        continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          if (!counter_store_p (stmt, counters))
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

opt_pass *
dsprof_make_pass (gcc::context *ctxt)
{
  return new counters_pass (ctxt);
}

opt_pass *
dsprof_make_durable_pass (gcc::context *ctxt)
{
  return new durable_pass (ctxt);
}

/* (0) From now on, every function to be counted is parsed, gimplified and
   lowered as at -O0.  */

void
dsprof_start_o0_view (void)
{
  target_set_current_function = targetm.set_current_function;
  targetm.set_current_function = set_current_function;
}
