/* threads.cc - the late passes dsprof-threads, the thread check of
   functions counted with update=single, and dsprof-shards, which moves the
   counters of update=thread into the threads' shards (below).

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

/* Make DECL a thread-local variable left out of the debug information: the
   runtime's (initial-exec) if EXTERNAL, else one of the unit's own
   (local-exec); tls_var makes one of NAME and TYPE.  */

void
tls_decl_finish (tree decl, bool external)
{
  DECL_ARTIFICIAL (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  if (external)
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
      TREE_ADDRESSABLE (decl) = 1;
      set_decl_tls_model (decl, TLS_MODEL_LOCAL_EXEC);
      varpool_node::add (decl);
    }
}

tree
tls_var (const char *name, tree type, bool external)
{
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
                          type);
  tls_decl_finish (decl, external);
  return decl;
}

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
    decl = tls_var (flag_shlib ? "__dsprof_seen_v1" : "__dsprof_seen",
                    integer_type_node, flag_shlib);
  return decl;
}

/* Whether a call of the runtime may be an asm statement (x86-64, LP64),
   which is what a function whose arguments and result are pointers in
   general registers needs: see preserving_call.  */

bool
asm_calls_p (void)
{
#if defined(__x86_64__)
  return TARGET_64BIT && TARGET_LP64;
#else
  return false;
#endif
}

tree
asm_string (const char *s)
{
  return build_string (strlen (s) + 1, s);
}

/* A call of the runtime's function NAME, of type FNTYPE, its result in OUT
   (or none if NULL), and if MEM is not NULL its arguments &MEM, ARG (a
   pointer) and, if not NULL, ARG2 (another).  NAME saves every register it
   uses (runtime/threads.c), but GCC would still keep the caller's values elsewhere around a call, which makes
   a frame in functions that had none: on x86-64 it is an asm statement that
   clobbers nothing but the flags and %rax, its result (the call goes through
   the GOT: no PLT stub, which may use r10 and r11).  It steps over the 128-byte red
   zone below the stack pointer first, where a function that calls nothing
   may keep data, so the return address, the arguments (pushed, the first
   last: ARG comes in %rax, the result's register, and &MEM is made there;
   ARG2 in any other register)
   and the callee's frame go below it.  */

gimple *
preserving_call (const char *name, tree fntype, tree out, tree mem, tree arg,
                 tree arg2)
{
  if (!asm_calls_p ())
    {
      gcc_assert (!mem);
      gcall *call = gimple_build_call (build_fn_decl (name, fntype), 0);
      if (out)
        gimple_call_set_lhs (call, out);
      return call;
    }
  vec<tree, va_gc> *clobbers = NULL, *inputs = NULL, *outputs = NULL;
  static const char *const regs[] = { "memory", "cc" };
  for (unsigned i = 0; i < ARRAY_SIZE (regs); i++)
    vec_safe_push (clobbers, build_tree_list (NULL_TREE, asm_string (regs[i])));
  if (out)
    vec_safe_push (outputs, build_tree_list (build_tree_list (NULL_TREE,
                                                              asm_string ("=a")),
                                             out));
  if (mem)
    {
      gcc_assert (out);
      vec_safe_push (inputs, build_tree_list (build_tree_list (NULL_TREE,
                                                               asm_string ("0")),
                                              arg));
      vec_safe_push (inputs, build_tree_list (build_tree_list (NULL_TREE,
                                                               asm_string ("m")),
                                              mem));
      if (arg2)
        vec_safe_push (inputs, build_tree_list (build_tree_list (NULL_TREE,
                                                                 asm_string ("r")),
                                                arg2));
    }
  char text[256];
  snprintf (text, sizeof text,
            "lea -128(%%%%rsp), %%%%rsp\n\t%s%s"
            "call *%s@GOTPCREL(%%%%rip)\n\tlea %u(%%%%rsp), %%%%rsp",
            arg2 ? "push %3\n\t" : "",
            mem ? "push %0\n\tlea %2, %%rax\n\tpush %%rax\n\t" : "",
            name, 128 + (mem ? 16 : 0) + (arg2 ? 8 : 0));
  gasm *a = gimple_build_asm_vec (text, inputs, outputs, clobbers, NULL);
  gimple_asm_set_volatile (a, true);
  if (out)
    SSA_NAME_DEF_STMT (out) = a;
  return a;
}

/* The call of the runtime's `void __dsprof_seen_thread_v1 (void)'.  */

gimple *
seen_thread_call (void)
{
  return preserving_call ("__dsprof_seen_thread_v1",
                       build_function_type_list (void_type_node, NULL_TREE),
                       NULL_TREE, NULL_TREE, NULL_TREE, NULL_TREE);
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

/* The thread check is update=single's: update=atomic's counts and
   update=thread's are exact.  */

bool
threads_gate (function *)
{
  return dsprof_opts.update != DSPROF_UPDATE_ATOMIC
         && !dsprof_update_thread_p () && dsprof_counters_possible_p ();
}

unsigned int
threads_execute (function *fun)
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
   into the calling thread's shard.  In an executable on x86-64, each unit
   keeps the thread's pointer to its own place in the shard in a
   thread-local variable of its own, local-exec, so the fast path is a load
   relative to the thread pointer and a branch not taken:

     Before:                          After:
       int f (int x)                    int f (int x)
       {                                {
         ...                              p = __dsprof_shard_cache;
                                          if (p == 0)                   (unlikely)
                                            p = __dsprof_shard_unit_v1
                                                  (__dsprof_counters,
                                                   &__dsprof_shard_cache);
         __dsprof_counters[3]++;          p[3]++;

   Elsewhere (a shared object, whose initial-exec variables could make a
   dlopen of it fail; other targets) the runtime's pointer to the thread's
   shard, and the unit's index added:

                                          b = __dsprof_shard_v1;
                                          if (b == 0)                   (unlikely)
                                            b = __dsprof_shard_thread_v1 ();
                                          p = b + __dsprof_counters[0];
                                          p[3]++;

   The runtime calls are asm statements (preserving_call).  After the durable
   pass, so the stores it made plain stay plain, and the volatile ones
   volatile.  The shard's counters get an alias set of their own: no access
   of the program's can be one of them.  With -flto a function may hold
   counters of several units (inlined across them): each unit's get a
   pointer of their own.  */

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
shard_ptr_type (void)
{
  return build_pointer_type (shard_type ());
}

tree
shard_decl (void)
{
  static tree decl;
  if (!decl)
    decl = tls_var ("__dsprof_shard_v1", shard_ptr_type (), true);
  return decl;
}

/* Whether each unit keeps its place in the thread's shard in a variable of
   its own: in an executable, where a local-exec variable costs nothing to
   reach, and where the runtime call is an asm statement.  */

bool
shard_caches_p (void)
{
  return !flag_shlib && asm_calls_p ();
}

/* Whether ARRAY, a counters array, has its sink: this unit's, when it is
   compiled here (not at a -flto link, where every counted function tests
   its pointer and nothing reads the sink).  */

bool
sink_p (tree array)
{
  return !in_lto_p && array == dsprof_counters_decl () && dsprof_unit_sink_p ();
}

/* The thread-local cache of the place of ARRAY's unit in the thread's
   shard (one per counters array: several with -flto), two pointers of
   their own (scalars: GCC reaches each at its fixed offset from the thread
   pointer): WORD 0, which the functions a thread may enter first test (NULL
   until the runtime set it), and WORD 1, which the others load without a
   test, and which starts out at the unit's sink (the array's second page
   on: include/dsprof-format.h, section 2b), so that code whose frames moved
   to a thread that never set it (a coroutine's stack resumed by another
   thread) counts there, never through NULL.  The runtime sets both.  */

tree
shard_cache_decl (tree array, unsigned word)
{
  static vec<tree> arrays, caches;
  for (unsigned i = 0; i < arrays.length (); i++)
    if (arrays[i] == array)
      return caches[2 * i + word];
  for (unsigned k = 0; k < 2; k++)
    {
      char *name;
      ASM_FORMAT_PRIVATE_NAME (name, k ? "__dsprof_shard_load"
                                       : "__dsprof_shard_cache",
                               arrays.length ());
      tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
                              get_identifier (name), shard_ptr_type ());
      if (k && sink_p (array))
        {
          tree sink = build4 (ARRAY_REF, TREE_TYPE (TREE_TYPE (array)), array,
                              size_int (DSPROF_COUNTERS_PER_PAGE), NULL_TREE,
                              NULL_TREE);
          DECL_INITIAL (decl) = fold_convert (shard_ptr_type (),
                                              build_fold_addr_expr (sink));
        }
      tls_decl_finish (decl, false);
      caches.safe_push (decl);
    }
  arrays.safe_push (array);
  return caches[2 * (arrays.length () - 1) + word];
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

/* The functions this pass has seen without counters (the others test the
   shard pointer at their entry, or are entered with it set); those that
   only load it.  */
hash_set<tree> *uncounted, *untested;

bool
in_set_p (hash_set<tree> *set, tree decl)
{
  return set && set->contains (decl);
}

void
set_add (hash_set<tree> **set, tree decl)
{
  if (!*set)
    *set = new hash_set<tree>;
  (*set)->add (decl);
}

/* Whether a thread can only enter FUN with its shard pointer set, so that
   FUN need not test it: FUN is local to the unit (called only from it, its
   address never taken), and each function that calls it has counters of
   the unit, so that it tests the pointer at its entry or is such a function
   itself.  The pointer is never NULL again once tested (runtime/threads.c)
   until the thread ends, when no frame of the unit's code is left.  GCC
   compiles callees first, so most callers are yet to come here: one that
   turns out to have no counters still tests the pointer
   (shards_see_call).  Not with -flto, where a caller may have counters of
   other units only.  */

bool
entered_with_shard_p (function *fun)
{
  cgraph_node *node = cgraph_node::get (fun->decl);
  if (in_lto_p || !node || !node->local)
    return false;
  for (cgraph_edge *e = node->callers; e; e = e->next_caller)
    {
      tree c = (e->caller->inlined_to ? e->caller->inlined_to : e->caller)->decl;
      if (in_set_p (uncounted, c))
        return false;
    }
  return true;
}

/* CALL, a call in a function this pass sees.  The unit's constructor
   registers it with __dsprof_register_unit_v1 (metadata.cc): this pass,
   which moves the counters into the shards, makes it
   __dsprof_register_unit_thread_v1, so that the two go together even where
   it does not run (a -flto link without the plugin: the unit counts in its
   own array, as with update=single).  Return whether CALL calls a function
   that does not test the shard pointer.  */

bool
shards_see_call (gcall *call)
{
  static tree thread_decl, sink_decl;
  tree fn = gimple_call_fndecl (call);
  if (!fn)
    return false;
  if (DECL_NAME (fn)
      && strcmp (IDENTIFIER_POINTER (DECL_NAME (fn)),
                 "__dsprof_register_unit_v1") == 0)
    {
      if (!thread_decl)
        {
          thread_decl = build_fn_decl ("__dsprof_register_unit_thread_v1",
                                       TREE_TYPE (fn));
          sink_decl = build_fn_decl ("__dsprof_register_unit_thread_v2",
                                     TREE_TYPE (fn));
        }
      tree arg = gimple_call_arg (call, 0);
      bool sink = TREE_CODE (arg) == ADDR_EXPR
                  && sink_p (get_base_address (TREE_OPERAND (arg, 0)));
      gimple_call_set_fndecl (call, sink ? sink_decl : thread_decl);
      update_stmt (call);
      return false;
    }
  return in_set_p (untested, fn);
}

/* At FUN's entry, the pointer to ARRAY's counters in the thread's shard: a
   new SSA name, set before the body.  */

tree
shard_pointer (function *fun, tree array)
{
  tree ptype = shard_ptr_type ();
  bool cached = shard_caches_p ();
  tree var = cached ? shard_cache_decl (array, 0) : shard_decl ();
  tree b1 = make_ssa_name (ptype), b2 = make_ssa_name (ptype);
  tree b3 = make_ssa_name (ptype);
  basic_block call_bb, join;
  edge skip = entry_test (fun, b1, var, &call_bb, &join);
  gimple_stmt_iterator gsi = gsi_start_bb (call_bb);
  gimple *call;
  if (cached)
    {
      tree cache = make_ssa_name (build_pointer_type (ptype));
      tree load = make_ssa_name (build_pointer_type (ptype));
      gsi_insert_before (&gsi, gimple_build_assign (cache,
                                                    build_fold_addr_expr (var)),
                         GSI_SAME_STMT);
      gsi_insert_before (&gsi, gimple_build_assign (load,
                                                    build_fold_addr_expr (shard_cache_decl (array, 1))),
                         GSI_SAME_STMT);
      tree counter0 = build4 (ARRAY_REF, TREE_TYPE (TREE_TYPE (array)), array,
                              integer_zero_node, NULL_TREE, NULL_TREE);
      call = preserving_call ("__dsprof_shard_unit_v2",
                           build_function_type_list (ptype, ptr_type_node,
                                                     TREE_TYPE (cache),
                                                     TREE_TYPE (load),
                                                     NULL_TREE),
                           b2, counter0, cache, load);
    }
  else
    call = preserving_call ("__dsprof_shard_thread_v1",
                         build_function_type_list (ptype, NULL_TREE), b2,
                         NULL_TREE, NULL_TREE, NULL_TREE);
  gsi_insert_before (&gsi, call, GSI_SAME_STMT);
  if (is_gimple_call (call))
    cgraph_node::get (fun->decl)->create_edge (cgraph_node::get_create (gimple_call_fndecl (call)),
                                               as_a<gcall *> (call),
                                               call_bb->count);
  gphi *phi = create_phi_node (b3, join);
  add_phi_arg (phi, b1, skip, UNKNOWN_LOCATION);
  add_phi_arg (phi, b2, single_succ_edge (call_bb), UNKNOWN_LOCATION);
  if (cached)
    return b3;

  /* The unit's index in the shard, added.  */
  tree u64 = TREE_TYPE (TREE_TYPE (array));
  tree index = make_ssa_name (u64), conv = make_ssa_name (sizetype);
  tree bytes = make_ssa_name (sizetype), p = make_ssa_name (ptype);
  tree idx_ref = build4 (ARRAY_REF, u64, array, integer_zero_node, NULL_TREE,
                         NULL_TREE);
  gsi = gsi_start_bb (join);
  gsi_insert_before (&gsi, gimple_build_assign (index, idx_ref), GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (conv, NOP_EXPR, index),
                     GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (bytes, MULT_EXPR, conv,
                                                size_int (8)),
                     GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (p, POINTER_PLUS_EXPR, b3, bytes),
                     GSI_SAME_STMT);
  return p;
}

/* The shards are update=thread's (chosen or the default).  */

bool
shards_gate (function *)
{
  return dsprof_update_thread_p () && dsprof_counters_possible_p ();
}

/* The counter accesses of a function, operand by operand: operand OPS[i]
   of STMTS[i] is the counter at byte offset OFFS[i] of ARRAYS[i].  */
struct counter_refs
{
  auto_vec<gimple *> stmts;
  auto_vec<unsigned> ops;
  auto_vec<HOST_WIDE_INT> offs;
  auto_vec<tree> arrays;
};

/* Collect FUN's counter accesses into REFS.  Return whether FUN calls a
   function that does not test the shard pointer (shards_see_call, which
   sees every call).  */

bool
find_counter_refs (function *fun, counter_refs *refs)
{
  bool calls_untested = false;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (gcall *call = dyn_cast<gcall *> (stmt))
          calls_untested |= shards_see_call (call);
        if (!gimple_assign_single_p (stmt))
          continue;
        for (unsigned k = 0; k < 2; k++)
          {
            HOST_WIDE_INT off;
            tree a;
            if (counter_ref_p (gimple_op (stmt, k), &a, &off))
              {
                refs->stmts.safe_push (stmt);
                refs->ops.safe_push (k);
                refs->offs.safe_push (off);
                refs->arrays.safe_push (a);
              }
          }
      }
  return calls_untested;
}

/* Make access I of REFS one of the shard that pointer P points to; if P is
   NULL_TREE, of the shard that the cache of its unit points to, loaded
   there.  */

void
move_counter_ref (counter_refs *refs, unsigned i, tree p)
{
  gimple *stmt = refs->stmts[i];
  if (!p)
    {
      /* Loaded where it is used: no register holds it across the
         function, and the optimisers merge the loads they can.  */
      p = make_ssa_name (shard_ptr_type ());
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      gsi_insert_before (&gsi, gimple_build_assign (p, shard_cache_decl (refs->arrays[i], 1)),
                         GSI_SAME_STMT);
    }
  tree old = gimple_op (stmt, refs->ops[i]);
  tree ref = build2 (MEM_REF, TREE_TYPE (old), p,
                     build_int_cst (shard_ptr_type (), refs->offs[i]));
  TREE_THIS_VOLATILE (ref) = TREE_THIS_VOLATILE (old);
  TREE_SIDE_EFFECTS (ref) = TREE_SIDE_EFFECTS (old);
  gimple_set_op (stmt, refs->ops[i], ref);
  update_stmt (stmt);
}

unsigned int
shards_execute (function *fun)
{
  counter_refs refs;
  bool calls_untested = find_counter_refs (fun, &refs);
  if (refs.stmts.is_empty ())
    {
      set_add (&uncounted, fun->decl);
      /* A function without counters that calls one that does not test the
         pointer tests it itself.  */
      if (shard_caches_p () && calls_untested)
        {
          shard_pointer (fun, dsprof_counters_decl ());
          free_dominance_info (CDI_DOMINATORS);
          mark_virtual_operands_for_renaming (fun);
        }
      return 0;
    }

  /* Each unit's pointer, then its counters through it.  */
  auto_vec<tree> done, pointers;
  bool tested = shard_caches_p () && entered_with_shard_p (fun);
  for (unsigned i = 0; i < refs.stmts.length (); i++)
    {
      unsigned k = 0;
      while (k < done.length () && done[k] != refs.arrays[i])
        k++;
      if (k == done.length ())
        {
          done.safe_push (refs.arrays[i]);
          pointers.safe_push (tested ? NULL_TREE
                                     : shard_pointer (fun, refs.arrays[i]));
        }
      move_counter_ref (&refs, i, pointers[k]);
    }
  if (tested)
    set_add (&untested, fun->decl);
  free_dominance_info (CDI_DOMINATORS);
  mark_virtual_operands_for_renaming (fun);
  return 0;
}

} // namespace

/* The units that keep their place in a cache have a sink (shard_cache_decl),
   but at a -flto link.  */

bool
dsprof_unit_sink_p (void)
{
  return dsprof_update_thread_p () && shard_caches_p () && !in_lto_p;
}

/* update=thread, or no update= where the units' caches make it cost close
   to update=single (shard_caches_p: an executable on x86-64); elsewhere
   the default is update=single.  */

bool
dsprof_update_thread_p (void)
{
  return dsprof_opts.update == DSPROF_UPDATE_THREAD
         || (dsprof_opts.update == DSPROF_UPDATE_DEFAULT && shard_caches_p ());
}

const dsprof_pass dsprof_shards_pass = {
  .name = "dsprof-shards",
  .required = PROP_cfg | PROP_ssa,
  .todo_finish = TODO_update_ssa_only_virtuals,
  .gate = shards_gate,
  .execute = shards_execute,
};

const dsprof_pass dsprof_threads_pass = {
  .name = "dsprof-threads",
  .required = PROP_cfg | PROP_ssa,
  .todo_finish = TODO_update_ssa_only_virtuals,
  .gate = threads_gate,
  .execute = threads_execute,
};
