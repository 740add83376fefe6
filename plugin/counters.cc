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
   and what the counts guarantee).  Every block of docs/contract.md §3 still
   has its count and its lines.

   Steps, numbered as in the code; this file holds the pass and (2), and runs
   the steps in order, each named after the file that does it (counters.h
   declares what they share):
   (0) Until its CFG is built, GCC handles a function to be counted with the
       optimisation level of -O0, so that no -O level reshapes its branches and
       jumps before they are counted (o0-view.cc).
   (1) Find the unit's functions that may be left other than by returning (a
       longjmp, exit or abort in them or in what they call, a volatile access,
       a loop that cannot reach their exit): a call of any other function of the
       unit returns, and needs no fake edge (5) (may-leave.cc).
   (2) Give the function a block of its own at entry when its first block is also
       a jump target, so the entry block's count is the function's call count.
   (3) Split every edge that carries the location of a jump GCC folded into the
       CFG (break, continue, goto), like gcov, so that location gets the count of
       the jump itself, the conditional jumps to a label that count its line
       joining in one block; give a label heading a loop the block GCC will
       give it with -Wformat-overflow; and split a block after a call that may
       not return, at its first line after the call, as gcov ends a block after
       such a call, so that line counts how often control came back
       (block-lines.cc).
   (4) Collect each block's located statements (labels too, so that a `case'
       line has the count of the block it starts, as in gcov, but for a label
       line that the conditional jumps to it count, as gcov counts it; debug
       statements do not count), plus the function's definition line for the entry block
       and the jump location of a single successor edge: the blocks of the
       record (block-lines.cc).
   (5) Build the flow graph: ENTRY and EXIT as one node 0, the CFG's countable
       edges, and fake edges, which are never counted, for the flow that does
       not take them: to 0 from a block that may be left other than by its
       edges (it holds a call that may not return: exit, longjmp, a kill while
       inside it; or a volatile access; or it has no successor) and from the
       latch of a loop without such a block (a kill there), from 0 to the
       target of edges that cannot be counted (computed goto, longjmp to a
       setjmp), which are left out (flow-graph.cc; the blocks that may be
       left, may-leave.cc).
   (6) Estimate how often each edge runs (loops, __builtin_expect, calls that
       do not return) (estimate.cc).
   (7) Choose the spanning tree: the fake edges, then a maximum spanning tree
       over the estimates, so the edges left to count are the least run
       (flow-graph.cc, as (8)).
   (8) Write the flow record and give each edge off the tree a counter;
       then the branch record, which names the edges out of each block that
       ends in a conditional jump or switch, as gcov lists them (branches.cc):
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
#include "dsprof-plugin.h"
#include "counters.h"

namespace {

/* The pass at "cfg": the function's CFG is built, as at -O0 (0); the rest of
   its compilation is at its own level.  The counters and hooks go in at the
   start of IPA (dsprof_instrument_unit), where the whole unit is known.  With
   counters=off the dispatch functions still come here as at -O0: an empty
   case would otherwise lose its block, and its op records (dispatch.cc).  */

bool
counters_gate (function *fun)
{
  return dsprof_opts.counters || dsprof_dispatch_p (fun->decl);
}

unsigned int
counters_execute (function *)
{
  /* (0) */
  dsprof_end_o0_view ();
  return 0;
}

/* Count the blocks of FUN, FIRST its entry block, whose calls are events if
   EVENT: steps (3) to (8).  Return how many blocks are counted, and set
   *NCOUNTERS to how many counters they take.  */

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
  unsigned first_counter = dsprof_begin_function (fun->decl, counted);
  auto_vec<branch_block> branches;
  dsprof_find_branches (fun, blocks, first, &branches);

  /* (5) */
  flow_graph g;
  dsprof_number_nodes (&g, fun, blocks, locs);
  dsprof_record_lines (&locs);
  if (!counted)
    return 0;
  dsprof_mark_leaving_blocks (&g, blocks, first, event);
  dsprof_add_loop_sinks (&g, fun, blocks);

  /* (5), (6) */
  flow_estimate estimate;
  estimate.compute (fun);
  dsprof_add_flow_edges (&g, fun, blocks, &estimate);

  /* (7) */
  dsprof_choose_tree (&g);

  /* (8) */
  *ncounters = dsprof_write_flow_record (&g);
  dsprof_insert_counters (&g, first_counter);
  dsprof_write_branches (&g, branches);
  return counted;
}

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

/* Instrument FUN.  */

void
instrument_function (function *fun)
{
  /* (2) A dedicated entry block.  */
  edge entry = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun));
  if (!single_pred_p (entry->dest) && !(entry->flags & EDGE_COMPLEX))
    split_edge (entry);
  basic_block first = single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun));

  bool event = dsprof_event_p (fun->decl);
  auto_vec<gcall *> call_sites;
  dsprof_find_call_sites (fun, &call_sites);
  /* The dispatch's targets are known by their labels before the counters
     split the switch's edges.  */
  bool dispatch = dsprof_dispatch_p (fun->decl) && dsprof_dispatch_prepare (fun);
  unsigned ncounters = 0;
  unsigned counted
    = dsprof_opts.counters ? instrument_counters (fun, first, event, &ncounters)
                           : 0;
  tree started = NULL_TREE;
  if (dispatch)
    dsprof_instrument_dispatch (fun, first);
  if (event)
    started = dsprof_instrument_events (fun, first);
  dsprof_instrument_call_sites (fun, first, started, call_sites);

  if (dsprof_opts.verbose)
    {
      expanded_location x = expand_location (DECL_SOURCE_LOCATION (fun->decl));
      fprintf (stderr, "dsprof: %s:%d: %s: %u blocks counted (%u counters)%s%s",
               x.file ? x.file : main_input_filename, x.line,
               function_name (fun), counted, ncounters,
               !event ? "" : started ? ", event hooks"
                                     : ", event hooks where compiled",
               dispatch ? ", op hooks" : "");
      if (!call_sites.is_empty ())
        fprintf (stderr, ", %u call site events", call_sites.length ());
      fputc ('\n', stderr);
    }
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

const dsprof_pass dsprof_counters_pass = {
  .name = "dsprof",
  .required = PROP_cfg,
  .todo_finish = 0,
  .gate = counters_gate,
  .execute = counters_execute,
};
