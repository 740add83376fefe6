/* events.cc - Start/Finish hooks for functions annotated
   __attribute__((dsprof_event)) or __attribute__((dsprof_event("Type"))), and for
   every function with -fplugin-arg-dsprof-functions=all (event type "call").

   Instrumentation is callee-side, so every call is an event, direct, through a
   pointer, or inlined:

   Before:                          After:
     int eval (struct node *n,        int eval (struct node *n, int depth)
               int depth)             {
     {                                  uint64_t vals[2];
       ...                              vals[0] = (uint64_t) n;             (1)
       return r;                        vals[1] = (uint64_t) depth;
     }                                  __dsprof_enter_v1 (&__dsprof_sites[3], vals);
                                        ...
                                        __dsprof_exit_v1 (&__dsprof_sites[3],  (2)
                                                          (uint64_t) r);
                                        return r;
                                      }

   (1) At entry, every named parameter whose type dsprof renders (SPEC §4.2) is
       stored in a local array, converted to 64 bits: integers, enums and _Bool by
       value, floating point as the bits of a double, pointers as addresses.  How
       each value is shown (enumerator names, string text, formatters) is decided
       from the site's description in the unit's metadata (metadata.cc), so the hot
       path only stores words and makes one call.
   (2) Before every return, the result, converted the same way (0 for void).
   __dsprof_sites[k] is a word the runtime fills with the site's global id when the
   unit registers; passing its address identifies the site in one register.  The
   frame's CFA (an rsp-relative address, no frame pointer needed) lets the runtime
   tell which open events a longjmp has left behind.  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"
#include "dsprof-format.h"

/* How values of TYPE are recorded, DSPROF_DIM_NONE if they are not.  */

enum dsprof_dim_type
dsprof_event_dim_type (tree type)
{
  type = TYPE_MAIN_VARIANT (type);
  switch (TREE_CODE (type))
    {
    case BOOLEAN_TYPE:
      return DSPROF_DIM_BOOL;
    case ENUMERAL_TYPE:
      return DSPROF_DIM_ENUM;
    case INTEGER_TYPE:
      if (TYPE_PRECISION (type) > 64)
        return DSPROF_DIM_NONE;
      return TYPE_UNSIGNED (type) ? DSPROF_DIM_UINT : DSPROF_DIM_INT;
    case REAL_TYPE:
      return DSPROF_DIM_DOUBLE;
    case POINTER_TYPE:
      {
        tree target = TYPE_MAIN_VARIANT (TREE_TYPE (type));
        if (target == char_type_node || target == signed_char_type_node
            || target == unsigned_char_type_node)
          return DSPROF_DIM_STR;
        return DSPROF_DIM_PTR;
      }
    default:
      return DSPROF_DIM_NONE;
    }
}

/* The event type of FNDECL, or NULL if it is not an event.  */

static const char *
event_type (tree fndecl)
{
  tree attr = lookup_attribute ("dsprof_event", DECL_ATTRIBUTES (fndecl));
  if (attr)
    {
      tree args = TREE_VALUE (attr);
      if (args && TREE_CODE (TREE_VALUE (args)) == STRING_CST)
        return TREE_STRING_POINTER (TREE_VALUE (args));
      return lang_hooks.decl_printable_name (fndecl, 0);
    }
  return dsprof_opts.all_functions ? "call" : NULL;
}

bool
dsprof_event_p (tree fndecl)
{
  return dsprof_opts.events && event_type (fndecl) != NULL;
}

/* EXPR of dimension type T as a 64-bit word, as GIMPLE operands inserted
   before GSI.  */

static tree
word_value (gimple_stmt_iterator *gsi, tree expr, enum dsprof_dim_type t)
{
  tree u64 = uint64_type_node;
  if (t == DSPROF_DIM_DOUBLE)
    {
      tree d = force_gimple_operand_gsi (gsi, fold_convert (double_type_node,
                                                            expr),
                                         true, NULL_TREE, true, GSI_SAME_STMT);
      expr = build1 (VIEW_CONVERT_EXPR, u64, d);
    }
  else
    expr = fold_convert (u64, expr);
  return force_gimple_operand_gsi (gsi, expr, true, NULL_TREE, true,
                                   GSI_SAME_STMT);
}

static tree
hook_decl (const char *name, tree second_arg_type)
{
  tree type = build_function_type_list (void_type_node,
                                        build_pointer_type (uint32_type_node),
                                        second_arg_type, ptr_type_node,
                                        NULL_TREE);
  return build_fn_decl (name, type);
}

/* Insert before GSI the call FN (SITE, ARG, __builtin_dwarf_cfa ()).  The frame's
   CFA tells the runtime which open events a longjmp left behind.  */

static void
insert_hook (gimple_stmt_iterator *gsi, tree fn, tree site, tree arg)
{
  tree cfa = create_tmp_reg (ptr_type_node, "dsprof_cfa");
  gcall *get = gimple_build_call (builtin_decl_explicit (BUILT_IN_DWARF_CFA), 0);
  gimple_call_set_lhs (get, cfa);
  gsi_insert_before (gsi, get, GSI_SAME_STMT);
  gsi_insert_before (gsi, gimple_build_call (fn, 3, site, arg, cfa),
                     GSI_SAME_STMT);
}

/* Insert the hooks into FUN, whose entry block FIRST has FUN's entry edge as its
   only predecessor.  */

void
dsprof_instrument_events (function *fun, basic_block first)
{
  tree fndecl = fun->decl;
  static tree enter_fn, exit_fn;
  if (!enter_fn)
    {
      enter_fn = hook_decl ("__dsprof_enter_v1",
                            build_pointer_type (uint64_type_node));
      exit_fn = hook_decl ("__dsprof_exit_v1", uint64_type_node);
    }

  /* The dimensions: named parameters of recorded types (none for "call"
     events of functions=all, which are about time and calls).  */
  bool annotated
    = lookup_attribute ("dsprof_event", DECL_ATTRIBUTES (fndecl)) != NULL;
  auto_vec<tree> params;
  if (annotated)
    for (tree p = DECL_ARGUMENTS (fndecl); p; p = DECL_CHAIN (p))
      if (DECL_NAME (p) && dsprof_event_dim_type (TREE_TYPE (p)) != DSPROF_DIM_NONE)
        params.safe_push (p);
  tree rtype = TREE_TYPE (TREE_TYPE (fndecl));
  enum dsprof_dim_type result = annotated ? dsprof_event_dim_type (rtype) : DSPROF_DIM_NONE;

  /* An event's frame identifies it (the CFA passed to the hooks): a copy
     inlined into its caller would share the caller's frame and be taken for an
     event a longjmp left behind.  Events are calls, so they stay calls.  */
  DECL_UNINLINABLE (fndecl) = 1;

  unsigned k = dsprof_add_site (fndecl, event_type (fndecl), params.length (),
                                params.address (), rtype, result);
  tree sites = dsprof_sites_decl ();
  tree site = build_fold_addr_expr (build4 (ARRAY_REF, uint32_type_node, sites,
                                            build_int_cst (integer_type_node, k),
                                            NULL_TREE, NULL_TREE));

  /* (1) Start.  */
  gimple_stmt_iterator gsi = gsi_after_labels (first);
  tree vals = null_pointer_node;
  if (!params.is_empty ())
    {
      tree atype = build_array_type_nelts (uint64_type_node, params.length ());
      tree arr = create_tmp_var (atype, "dsprof_vals");
      TREE_ADDRESSABLE (arr) = 1;
      for (unsigned i = 0; i < params.length (); i++)
        {
          tree v = word_value (&gsi, params[i], dsprof_event_dim_type (TREE_TYPE (params[i])));
          tree ref = build4 (ARRAY_REF, uint64_type_node, arr,
                             build_int_cst (integer_type_node, i), NULL_TREE,
                             NULL_TREE);
          gsi_insert_before (&gsi, gimple_build_assign (ref, v), GSI_SAME_STMT);
        }
      vals = build_fold_addr_expr (arr);
    }
  insert_hook (&gsi, enter_fn, site, vals);

  /* (2) Finish before every return.  */
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      gimple *last = last_stmt (bb);
      if (!last || gimple_code (last) != GIMPLE_RETURN)
        continue;
      gimple_stmt_iterator rgsi = gsi_for_stmt (last);
      tree retval = gimple_return_retval (as_a<greturn *> (last));
      tree word = (result != DSPROF_DIM_NONE && retval)
                    ? word_value (&rgsi, retval, result)
                    : build_int_cst (uint64_type_node, 0);
      insert_hook (&rgsi, exit_fn, unshare_expr (site), word);
    }
}
