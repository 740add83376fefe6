/* threads.cc - the late pass dsprof-threads: the thread check of functions
   counted with update=single.

   With update=single, increments of two threads at once may be lost; the
   runtime counts the threads that run counted code, so that the report can
   say when that may have happened (dsprof-format.h, section 1):

     Before:                          After:
       int f (int x)                    int f (int x)
       {                                {
         ...                              if (__dsprof_seen == 0)       (unlikely)
                                            {
                                              __dsprof_seen_thread_v1 ();
                                              __dsprof_seen = 1;
                                            }
                                          ...
   The flag is thread-local (seen_decl): the test is a load relative to the
   thread pointer and a branch not taken.

   The check goes in after the GIMPLE optimisers, so it changes none of their
   decisions (inlining above all: checks added before it made Lua's small
   functions too big to inline), and only into the functions that still
   increment a counter with a plain or volatile store (update=atomic's are
   calls) and call another function: leaf functions, the smallest and most
   often called, are spared the test, and a thread runs a counted function
   with calls before any other counted code unless all the counted code it
   runs is leaves called from code that is not counted (docs/contract.md
   §3).  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"
#include "value-range.h"
#include "tree-ssanames.h"
#include "tree-into-ssa.h"
#include "tree-dfa.h"
#include "tree-phinodes.h"
#include "tree-ssa.h"
#include "alias.h"

namespace {

const pass_data threads_pass_data = {
  GIMPLE_PASS,
  "dsprof-threads",
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg | PROP_ssa,
  0,
  0,
  0,
  TODO_update_ssa_only_virtuals,
};

/* The thread-local flag the check tests.  In an executable, a flag of the
   unit's own, local-exec: the test is one compare with an operand relative
   to the thread pointer.  In a shared object, the runtime's
   `__thread int __dsprof_seen_v1', initial-exec (libdsprof is loaded with
   the program, so its TLS is in the static block; an initial-exec flag of
   the object's own could make a dlopen of it fail).  The runtime counts a
   thread once, by its own flag, whichever unit's flag sent it there.  */

tree
seen_decl (void)
{
  static tree decl;
  if (!decl)
    {
      decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
                         get_identifier (flag_shlib ? "__dsprof_seen_v1"
                                                    : "__dsprof_seen"),
                         integer_type_node);
      DECL_ARTIFICIAL (decl) = 1;
      DECL_IGNORED_P (decl) = 1;
      if (flag_shlib)
        {
          TREE_PUBLIC (decl) = 1;
          DECL_EXTERNAL (decl) = 1;
          set_decl_tls_model (decl, TLS_MODEL_INITIAL_EXEC);
          varpool_node::get_create (decl);
        }
      else
        {
          TREE_STATIC (decl) = 1;
          TREE_USED (decl) = 1;
          set_decl_tls_model (decl, TLS_MODEL_LOCAL_EXEC);
          varpool_node::add (decl);
        }
    }
  return decl;
}

/* The call of the runtime's `void __dsprof_seen_thread_v1 (void)'.  It saves
   every register it uses (runtime/threads.c), but GCC would still keep the
   caller's values elsewhere around a call: on x86-64 it is an asm statement
   that clobbers only what the GOT-indirect call may (no PLT stub: r10 and r11
   are the ones a stub may use, kept out anyway).  It steps over the 128-byte
   red zone below the stack pointer first, where a function that calls
   nothing may keep data, so the return address and the callee's frame go
   below it.  */

gimple *
seen_thread_call (void)
{
#if defined(__x86_64__)
  vec<tree, va_gc> *clobbers = NULL;
  static const char *const regs[] = { "memory", "cc", "r10", "r11" };
  for (unsigned i = 0; i < ARRAY_SIZE (regs); i++)
    vec_safe_push (clobbers,
                   build_tree_list (NULL_TREE,
                                    build_string (strlen (regs[i]) + 1,
                                                  regs[i])));
  gasm *a = gimple_build_asm_vec ("lea -128(%%rsp), %%rsp\n\t"
                                  "call *__dsprof_seen_thread_v1@GOTPCREL(%%rip)\n\t"
                                  "lea 128(%%rsp), %%rsp",
                                  NULL, NULL, clobbers, NULL);
  gimple_asm_set_volatile (a, true);
  return a;
#else
  static tree decl;
  if (!decl)
    decl = build_fn_decl ("__dsprof_seen_thread_v1",
                          build_function_type_list (void_type_node, NULL_TREE));
  return gimple_build_call (decl, 0);
#endif
}

/* Whether FUN stores to a counters array, and whether it calls a function
   (not an internal one, nor a const or pure one, which cost least).  */

void
scan (function *fun, bool *counts, bool *calls)
{
  basic_block bb;
  *counts = *calls = false;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (gimple_assign_single_p (stmt)
            && dsprof_counters_array_p (get_base_address (gimple_assign_lhs (stmt))))
          *counts = true;
        else if (is_gimple_call (stmt) && !gimple_call_internal_p (stmt)
                 && !(gimple_call_flags (stmt) & (ECF_CONST | ECF_PURE)))
          *calls = true;
      }
}

/* At FUN's entry: FIRST, a block of its own, which no loop comes back to,
   loads DECL into VALUE and tests it against 0; *CALL_BB runs only when it
   is 0 (very unlikely); both go on to *JOIN, an empty block before the body,
   whose first block may have PHIs: its edge from *JOIN keeps their
   arguments.  Return the edge FIRST -> *JOIN.  */

edge
entry_test (function *fun, tree value, tree decl, basic_block *call_bb,
            basic_block *join)
{
  basic_block first = split_edge (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun)));
  *join = split_edge (single_succ_edge (first));
  *call_bb = split_edge (single_succ_edge (first));
  gimple_stmt_iterator gsi = gsi_start_bb (first);
  gsi_insert_before (&gsi, gimple_build_assign (value, decl), GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_cond (EQ_EXPR, value,
                                              build_zero_cst (TREE_TYPE (value)),
                                              NULL_TREE, NULL_TREE),
                     GSI_SAME_STMT);
  edge to_call = single_succ_edge (first);
  to_call->flags &= ~EDGE_FALLTHRU;
  to_call->flags |= EDGE_TRUE_VALUE;
  to_call->probability = profile_probability::very_unlikely ();
  edge skip = make_edge (first, *join, EDGE_FALSE_VALUE);
  skip->probability = to_call->probability.invert ();
  (*call_bb)->count = to_call->count ();
  return skip;
}

class threads_pass : public gimple_opt_pass
{
public:
  threads_pass (gcc::context *ctxt)
    : gimple_opt_pass (threads_pass_data, ctxt)
  {
  }

  bool
  gate (function *) final override
  {
    return !dsprof_opts.atomic && !dsprof_opts.thread
           && dsprof_counters_possible_p ();
  }

  unsigned int execute (function *fun) final override;
};

unsigned int
threads_pass::execute (function *fun)
{
  bool counts, calls;
  scan (fun, &counts, &calls);
  if (!counts || !calls)
    return 0;

  /* The call when the flag is 0.  */
  basic_block call_bb, join;
  entry_test (fun, make_ssa_name (integer_type_node), seen_decl (), &call_bb,
              &join);
  gimple_stmt_iterator gsi = gsi_start_bb (call_bb);
  gsi_insert_before (&gsi, seen_thread_call (), GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (seen_decl (), integer_one_node),
                     GSI_SAME_STMT);
  free_dominance_info (CDI_DOMINATORS);
  mark_virtual_operands_for_renaming (fun);
  return 0;
}

/* update=thread (dsprof-format.h, section 2b): the function's counters move
   into the calling thread's shard.

     Before:                          After:
       int f (int x)                    int f (int x)
       {                                {
         ...                              b = __dsprof_shard_v1;
                                          if (b == 0)                   (unlikely)
                                            b = __dsprof_shard_thread_v1 ();
                                          b += __dsprof_counters[0];
         __dsprof_counters[3]++;          b[3]++;
   After the durable pass, so the stores it made plain stay plain, and the
   volatile ones volatile.  The shard's counters get an alias set of their
   own: no access of the program's can be one of them.  */

const pass_data shards_pass_data = {
  GIMPLE_PASS,
  "dsprof-shards",
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg | PROP_ssa,
  0,
  0,
  0,
  TODO_update_ssa_only_virtuals,
};

/* The type of a shard's counters, of an alias set of its own, and the
   runtime's thread-local pointer to the thread's shard (initial-exec, as
   __dsprof_seen_v1 above).  */

tree
shard_type (void)
{
  static tree type;
  if (!type)
    {
      type = build_distinct_type_copy (uint64_type_node);
      TYPE_ALIAS_SET (type) = new_alias_set ();
    }
  return type;
}

tree
shard_decl (void)
{
  static tree decl;
  if (!decl)
    {
      decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
                         get_identifier ("__dsprof_shard_v1"),
                         build_pointer_type (shard_type ()));
      DECL_ARTIFICIAL (decl) = 1;
      DECL_IGNORED_P (decl) = 1;
      TREE_PUBLIC (decl) = 1;
      DECL_EXTERNAL (decl) = 1;
      set_decl_tls_model (decl, TLS_MODEL_INITIAL_EXEC);
      varpool_node::get_create (decl);
    }
  return decl;
}

tree
shard_fn_decl (void)
{
  static tree decl;
  if (!decl)
    decl = build_fn_decl ("__dsprof_shard_thread_v1",
                          build_function_type_list (TREE_TYPE (shard_decl ()),
                                                    NULL_TREE));
  return decl;
}

/* If *REF is a counter of the unit, its counters array in *ARRAY and its
   byte offset in *OFF.  */

bool
counter_ref_p (tree ref, tree *array, HOST_WIDE_INT *off)
{
  if (!ref || TREE_CODE (ref) == SSA_NAME || CONSTANT_CLASS_P (ref))
    return false;
  poly_int64 poff;
  tree base = get_addr_base_and_unit_offset (ref, &poff);
  if (!base || !dsprof_counters_array_p (base) || !poff.is_constant (off))
    return false;
  *array = base;
  return true;
}

class shards_pass : public gimple_opt_pass
{
public:
  shards_pass (gcc::context *ctxt)
    : gimple_opt_pass (shards_pass_data, ctxt)
  {
  }

  bool
  gate (function *) final override
  {
    return dsprof_opts.thread && dsprof_counters_possible_p ();
  }

  unsigned int execute (function *fun) final override;
};

unsigned int
shards_pass::execute (function *fun)
{
  /* The counter accesses, operand by operand.  */
  auto_vec<gimple *> stmts;
  auto_vec<unsigned> ops;
  auto_vec<HOST_WIDE_INT> offs;
  tree array = NULL_TREE;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (!gimple_assign_single_p (stmt))
          continue;
        for (unsigned k = 0; k < 2; k++)
          {
            HOST_WIDE_INT off;
            tree a;
            if (counter_ref_p (gimple_op (stmt, k), &a, &off))
              {
                stmts.safe_push (stmt);
                ops.safe_push (k);
                offs.safe_push (off);
                array = a;
              }
          }
      }
  if (stmts.is_empty ())
    return 0;

  /* The thread's shard, or a new one when it has none yet; JOIN adds the
     unit's index.  */
  tree ptype = TREE_TYPE (shard_decl ());
  tree b1 = make_ssa_name (ptype), b2 = make_ssa_name (ptype);
  tree b3 = make_ssa_name (ptype), p = make_ssa_name (ptype);
  basic_block call_bb, join;
  edge skip = entry_test (fun, b1, shard_decl (), &call_bb, &join);
  gcall *call = gimple_build_call (shard_fn_decl (), 0);
  gimple_call_set_lhs (call, b2);
  gimple_stmt_iterator gsi = gsi_start_bb (call_bb);
  gsi_insert_before (&gsi, call, GSI_SAME_STMT);
  gphi *phi = create_phi_node (b3, join);
  add_phi_arg (phi, b1, skip, UNKNOWN_LOCATION);
  add_phi_arg (phi, b2, single_succ_edge (call_bb), UNKNOWN_LOCATION);
  cgraph_node::get (fun->decl)->create_edge (cgraph_node::get_create (shard_fn_decl ()),
                                             call, call_bb->count);

  tree u64 = TREE_TYPE (TREE_TYPE (array));
  tree index = make_ssa_name (u64), bytes = make_ssa_name (sizetype);
  tree idx_ref = build4 (ARRAY_REF, u64, array, integer_zero_node, NULL_TREE,
                         NULL_TREE);
  gsi = gsi_start_bb (join);
  gsi_insert_before (&gsi, gimple_build_assign (index, idx_ref), GSI_SAME_STMT);
  tree conv = make_ssa_name (sizetype);
  gsi_insert_before (&gsi, gimple_build_assign (conv, NOP_EXPR, index),
                     GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (bytes, MULT_EXPR, conv,
                                                size_int (8)),
                     GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (p, POINTER_PLUS_EXPR, b3, bytes),
                     GSI_SAME_STMT);

  for (unsigned i = 0; i < stmts.length (); i++)
    {
      gimple *stmt = stmts[i];
      tree old = gimple_op (stmt, ops[i]);
      tree ref = build2 (MEM_REF, TREE_TYPE (old), p,
                         build_int_cst (ptype, offs[i]));
      TREE_THIS_VOLATILE (ref) = TREE_THIS_VOLATILE (old);
      TREE_SIDE_EFFECTS (ref) = TREE_SIDE_EFFECTS (old);
      gimple_set_op (stmt, ops[i], ref);
      update_stmt (stmt);
    }
  free_dominance_info (CDI_DOMINATORS);
  mark_virtual_operands_for_renaming (fun);
  return 0;
}

} // namespace

opt_pass *
dsprof_make_shards_pass (gcc::context *ctxt)
{
  return new shards_pass (ctxt);
}

opt_pass *
dsprof_make_threads_pass (gcc::context *ctxt)
{
  return new threads_pass (ctxt);
}
