/* may-leave.cc - where a function or a block may be left other than by its
   edges: steps (1) and (5) of counters.cc.  The flow of a thread that leaves
   a block so (exit, longjmp, a kill while it waits in a call or polls a
   volatile flag) goes through a fake edge to node 0 of the flow graph, so
   that the counts of the blocks it ran stay exact (docs/contract.md §3); a
   call of a function of the unit that always returns needs none, which keeps
   the edges after such calls uncounted.  */

#include "gcc-compat.h"
#include "gimple-walk.h"
#include "cfgloop.h"
#include "dsprof-plugin.h"
#include "counters.h"

/* (5) Whether FNDECL is a stdio built-in that reads or writes a stream: it may
   block, and a program is most often stopped or killed in one.  */

static bool
stdio_builtin_p (tree fndecl)
{
  if (!fndecl_built_in_p (fndecl, BUILT_IN_NORMAL))
    return false;
  switch (DECL_FUNCTION_CODE (fndecl))
    {
    case BUILT_IN_PRINTF: case BUILT_IN_PRINTF_CHK:
    case BUILT_IN_PRINTF_UNLOCKED: case BUILT_IN_VPRINTF:
    case BUILT_IN_VPRINTF_CHK: case BUILT_IN_FPRINTF:
    case BUILT_IN_FPRINTF_CHK: case BUILT_IN_FPRINTF_UNLOCKED:
    case BUILT_IN_VFPRINTF: case BUILT_IN_VFPRINTF_CHK:
    case BUILT_IN_PUTS: case BUILT_IN_PUTS_UNLOCKED:
    case BUILT_IN_FPUTS: case BUILT_IN_FPUTS_UNLOCKED:
    case BUILT_IN_PUTCHAR: case BUILT_IN_PUTCHAR_UNLOCKED:
    case BUILT_IN_FPUTC: case BUILT_IN_FPUTC_UNLOCKED:
    case BUILT_IN_FWRITE: case BUILT_IN_FWRITE_UNLOCKED:
    case BUILT_IN_SCANF: case BUILT_IN_VSCANF:
    case BUILT_IN_FSCANF: case BUILT_IN_VFSCANF:
      return true;
    default:
      return false;
    }
}

/* (1) Functions of the unit, whose bodies the calls of (5) look into.
   LOCAL_LEAVING holds those that may be left other than by returning.  */

static hash_set<tree> *local_leaving;

/* The function of the unit that a call of FNDECL runs, or NULL if that is not
   known (a declaration only, or a definition another object may replace).  */

static cgraph_node *
local_function (tree fndecl)
{
  if (!local_leaving)
    return NULL;
  cgraph_node *node = cgraph_node::get (fndecl);
  if (!node)
    return NULL;
  enum availability avail;
  node = node->ultimate_alias_target (&avail);
  if (!node || avail < AVAIL_AVAILABLE || DECL_EXTERNAL (node->decl)
      || !node->has_gimple_body_p ())
    return NULL;
  return node;
}

/* For walk_gimple_op: *TP if it is a volatile object, else NULL (types are
   not entered).  */

static tree
volatile_ref_r (tree *tp, int *walk_subtrees, void *)
{
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if ((REFERENCE_CLASS_P (t) || TREE_CODE (t) == VAR_DECL
       || TREE_CODE (t) == PARM_DECL || TREE_CODE (t) == RESULT_DECL)
      && TREE_THIS_VOLATILE (t))
    return t;
  return NULL_TREE;
}

/* Whether STMT reads or writes a volatile object (GCC's has_volatile_ops is
   only known in SSA form).  */

static bool
volatile_access_p (gimple *stmt)
{
  struct walk_stmt_info wi;
  memset (&wi, 0, sizeof wi);
  return walk_gimple_op (stmt, volatile_ref_r, &wi) != NULL_TREE;
}

/* (5) Whether STMT may be where its block is left other than by its edges: a
   call that may not return (it may exit, longjmp or fork, or be where a thread
   waits and a kill finds it), an asm that may, or a volatile access (a thread
   polling a flag or shared memory waits there; a deliberate fault is one).
   As gcov's need_fake_edge_p, calls of nothrow built-ins other than fork, and
   of const and pure functions, return; here the stdio built-ins do not, as a
   program is most often stopped inside one.  A call of a function of the unit
   returns unless (1) found it may be left otherwise.  */

/* Whether a call of FNDECL (may be NULL) with call flags FLAGS is one of a
   built-in that gcov's need_fake_edge_p takes to return: nothrow, not fork,
   not returns_twice.  */

bool
dsprof_gcov_builtin_returns_p (tree fndecl, int flags)
{
  return fndecl && fndecl_built_in_p (fndecl) && (flags & ECF_NOTHROW)
         && !(flags & ECF_RETURNS_TWICE)
         && !fndecl_built_in_p (fndecl, BUILT_IN_FORK);
}

bool
dsprof_may_not_return_p (gimple *stmt)
{
  if (gcall *call = dyn_cast<gcall *> (stmt))
    {
      if (gimple_call_internal_p (call))
        return false;
      tree fndecl = gimple_call_fndecl (call);
      int flags = gimple_call_flags (call);
      if (dsprof_gcov_builtin_returns_p (fndecl, flags)
          && !(flags & ECF_NORETURN) && !stdio_builtin_p (fndecl))
        return false;
      if ((flags & (ECF_CONST | ECF_PURE))
          && !(flags & (ECF_LOOPING_CONST_OR_PURE | ECF_NORETURN)))
        return false;
      if (fndecl && !(flags & (ECF_NORETURN | ECF_RETURNS_TWICE)))
        if (cgraph_node *node = local_function (fndecl))
          return local_leaving->contains (node->decl);
      return true;
    }
  if (gasm *asm_stmt = dyn_cast<gasm *> (stmt))
    if (gimple_asm_volatile_p (asm_stmt) || gimple_asm_input_p (asm_stmt))
      return true;
  return volatile_access_p (stmt);
}

/* Edges that cannot be counted (no code can be put on them): their flow goes
   through fake edges.  */

bool
dsprof_uncountable_edge_p (edge e)
{
  return (e->flags & (EDGE_ABNORMAL | EDGE_EH | EDGE_FAKE)) != 0;
}

/* Whether BB is entered by an edge that cannot be counted.  */

bool
dsprof_abnormal_target_p (basic_block bb)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->preds)
    if (dsprof_uncountable_edge_p (e))
      return true;
  return false;
}

/* Whether BB may be left other than by one of its countable edges (see
   dsprof_may_not_return_p), or has none.  */

bool
dsprof_may_leave_p (basic_block bb)
{
  edge e;
  edge_iterator ei;
  bool normal_succ = false;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (dsprof_uncountable_edge_p (e))
      return true;
    else
      normal_succ = true;
  if (!normal_succ)
    return true;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (!is_gimple_debug (gsi_stmt (gsi))
        && dsprof_may_not_return_p (gsi_stmt (gsi)))
      return true;
  return false;
}

/* (5) Whether BB starts with a statement that a longjmp returns past: a
   returns-twice call (setjmp, which ends its block when a longjmp may return
   to it), or GCC's abnormal dispatcher, which has no other edges.  */

bool
dsprof_pinned_start_p (basic_block bb)
{
  gimple_stmt_iterator gsi = gsi_after_labels (bb);
  if (gsi_end_p (gsi))
    return false;
  gimple *first = gsi_stmt (gsi);
  return is_gimple_call (first)
         && ((gimple_call_flags (first) & ECF_RETURNS_TWICE)
             || (gimple_call_internal_p (first)
                 && gimple_call_internal_fn (first)
                      == IFN_ABNORMAL_DISPATCHER));
}

/* (5) A thread is stopped, killed or found running most often inside a call,
   where a fake edge makes the counts exact, or in a loop without calls.  So
   the latch of every loop without a block that may be left (innermost first;
   the header if the loop has several latches) gets a fake edge to 0 as well:
   the flow of a thread stopped in the loop goes out there, the counts outside
   the loop stay exact, and so does the latch's.  It costs a counter on the
   loop's exits.  G's leaves say which blocks get one (counters.h).  */

void
dsprof_add_loop_sinks (flow_graph *g, function *fun,
                       const vec<basic_block> &blocks)
{
  if (!loops_for_fn (fun))
    return;
  unsigned nl = number_of_loops (fun);
  auto_vec<char> listed, left;
  listed.safe_grow_cleared (nl);
  left.safe_grow_cleared (nl);
  auto_vec<class loop *> loops;
  unsigned depth = 0;
  for (unsigned i = 0; i < blocks.length (); i++)
    for (class loop *l = blocks[i]->loop_father; l && loop_outer (l);
         l = loop_outer (l))
      {
        if (g->leaves[blocks[i]->index])
          left[l->num] = 1;
        if (!listed[l->num])
          {
            listed[l->num] = 1;
            loops.safe_push (l);
            depth = MAX (depth, loop_depth (l));
          }
      }
  for (; depth > 0; depth--)
    for (unsigned i = 0; i < loops.length (); i++)
      {
        class loop *l = loops[i];
        if (loop_depth (l) != depth || left[l->num])
          continue;
        basic_block sink = l->latch && l->latch->index >= NUM_FIXED_BLOCKS
                           ? l->latch : l->header;
        if (g->has_out_node (sink))
          continue;
        g->leaves[sink->index] = true;
        for (class loop *o = l; o && loop_outer (o); o = loop_outer (o))
          left[o->num] = 1;
      }
}

/* (1) Whether FUN may be left other than by returning: one of its statements
   may (its calls of the unit's functions as LOCAL_LEAVING says so far), or a
   block of it cannot reach its exit (it may never return).  */

static bool
function_may_leave_p (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (!is_gimple_debug (gsi_stmt (gsi))
        && dsprof_may_not_return_p (gsi_stmt (gsi)))
        return true;
  auto_sbitmap reach (last_basic_block_for_fn (fun));
  bitmap_clear (reach);
  auto_vec<basic_block> work;
  work.safe_push (EXIT_BLOCK_PTR_FOR_FN (fun));
  bitmap_set_bit (reach, EXIT_BLOCK);
  int n = 1;
  while (!work.is_empty ())
    {
      bb = work.pop ();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->preds)
        if (bitmap_set_bit (reach, e->src->index))
          {
            work.safe_push (e->src);
            n++;
          }
    }
  return n < n_basic_blocks_for_fn (fun);
}

/* Add to LOCAL_LEAVING the callers of NODE, an alias of a function that may
   be left other than by returning, and push them to WORK (a vec).  */

static bool
add_callers (cgraph_node *node, void *work)
{
  for (cgraph_edge *e = node->callers; e; e = e->next_caller)
    if (!local_leaving->add (e->caller->decl))
      ((vec<cgraph_node *> *) work)->safe_push (e->caller);
  return false;
}

/* (1) Find the unit's functions that may be left other than by returning:
   those whose own statements or blocks say so, calls of the unit's functions
   taken to return, then their callers, and theirs.  */

void
dsprof_find_leaving_functions (void)
{
  local_leaving = new hash_set<tree>;
  auto_vec<cgraph_node *> work;
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if ((!fn || !fn->cfg || function_may_leave_p (fn))
          && !local_leaving->add (node->decl))
        work.safe_push (node);
    }
  while (!work.is_empty ())
    work.pop ()->call_for_symbol_and_aliases (add_callers, &work, true);
}

/* (1) The unit is instrumented: calls are no longer looked into.  */

void
dsprof_forget_leaving_functions (void)
{
  delete local_leaving;
  local_leaving = NULL;
}
