/* o0-view.cc - step (0) of counters.cc, the -O0 view: a function to be counted
   reaches the counters pass with its CFG built as at -O0, whatever the -O
   level, so that its counts are the same at every level (docs/contract.md §3).

   GCC reshapes a function before the counters pass sees it when it
   optimises, and the counts would follow: with -O1 and up the front end's
   fold merges `i < -2 || i > 4' into one range test (fold_truth_andor,
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

#include "gcc-compat.h"
#include "dsprof-plugin.h"

static void (*target_set_current_function) (tree);

/* Whether FNDECL is a function the counters pass will instrument, or with
   counters=off a dispatch function (whose empty cases the cfg pass's
   cleanup would otherwise merge into the block past the switch), that has
   not been through the cfg pass yet (none at link time, -flto).  */

static bool
o0_view_p (tree fndecl)
{
  if (!fndecl || TREE_CODE (fndecl) != FUNCTION_DECL || in_lto_p
      || dsprof_unit_emitted_p ()
      || DECL_ARTIFICIAL (fndecl))
    return false;
  function *fn = DECL_STRUCT_FUNCTION (fndecl);
  if (fn && (fn->curr_properties & PROP_cfg))
    return false;
  return dsprof_opts.counters ? dsprof_selected_p (fndecl)
                              : dsprof_dispatch_p (fndecl);
}

/* Give the optimisation level options the values of GCC's current
   optimisation node, or with O0 those of -O0.  */

static void
set_optimization_level (bool o0)
{
  cl_optimization *opts = TREE_OPTIMIZATION (optimization_current_node);
  optimize = o0 ? 0 : opts->x_optimize;
  optimize_size = o0 ? 0 : opts->x_optimize_size;
  optimize_debug = o0 ? 0 : opts->x_optimize_debug;
}

/* The target's set_current_function hook, wrapped.  */

static void
set_current_function (tree fndecl)
{
  target_set_current_function (fndecl);
  set_optimization_level (o0_view_p (fndecl));
}

/* (0) From now on, every function to be counted is parsed, gimplified and
   lowered as at -O0.  */

void
dsprof_start_o0_view (void)
{
  target_set_current_function = targetm.set_current_function;
  targetm.set_current_function = set_current_function;
}

/* (0) The counters pass runs right after the cfg pass: from there on, the
   current function is compiled at its own level.  */

void
dsprof_end_o0_view (void)
{
  set_optimization_level (false);
}
