/* events.cc - Start/Finish hooks for functions annotated
   __attribute__((dsprof_event)) or __attribute__((dsprof_event("Type"))), for
   those an `event' directive of the selection file names (docs/select.md),
   and for every function with -fplugin-arg-dsprof-functions=all (event type
   "call").  call-sites.cc builds the events of call sites with the helpers
   below.

   Instrumentation is callee-side, so every call is an event, direct, through a
   pointer, or inlined:

   Before:                          After:
     int eval (struct node *n,        int eval (struct node *n, int depth)
               int depth)             {
     {                                  uint64_t vals[2];
       ...                              int started = __dsprof_events_on;  (0)
       return r;                        if (__builtin_expect (started, 1))
     }                                    {
                                            vals[0] = (uint64_t) n;         (1)
                                            vals[1] = (uint64_t) depth;
                                            __dsprof_enter_v2 (&__dsprof_sites[3],
                                                               vals);
                                          }
                                        ...
                                        if (__builtin_expect (started, 1))
                                          __dsprof_exit_v1 (&__dsprof_sites[3],  (2)
                                                            (uint64_t) r);
                                        return r;
                                      }

     int lex (const char *p,          int lex (const char *p, const char *end)
              const char *end)        {
                                        uint64_t vals[2];
                                        vals[0] = (uint64_t) p;             (1)
                                        vals[1] = (uint64_t) end - (uint64_t) p;  (3)
                                        __dsprof_enter_v2 (&__dsprof_sites[4], vals);

   (0) The runtime's flag (dsprof-format.h, section 1), read once: with
       DSPROF_EVENTS=0 a call costs a load and a branch, no values, no hook
       calls.  Finish tests the local, not the flag, so a Start recorded has
       its Finish whatever the flag does in between.  Events are usually on,
       so the hooks are the expected path.
   (1) At entry, every named parameter whose type dsprof renders (docs/contract.md §4.2) is
       stored in a local array, converted to 64 bits: integers, enums and _Bool by
       value, floating point as the bits of a double, pointers as addresses.  How
       each value is shown (enumerator names, string text, formatters) is decided
       from the site's description in the unit's metadata (metadata.cc), so the hot
       path only stores words and makes one call.
   (3) After them, one word per string (char *) dimension, in order: the most
       bytes of it to read (string_bound): the distance to the first later
       parameter of the same pointer type named like an end, or the value of
       the first later integer parameter named like a length, whichever comes
       first.  A string
       without either, or whose bound wraps (END before P, a negative length),
       gets a bound of 2^63 and more: up to its NUL.  The END of such a pair
       is recorded as an address (dsprof_param_dim_type): its bytes lie past
       the string.
   (2) Before every return, the result, converted the same way (0 for void),
       if Start was recorded.
   __dsprof_sites[k] is a word the runtime fills with the site's global id when the
   unit registers; passing its address identifies the site in one register.  The
   frame's CFA (an rsp-relative address, no frame pointer needed) lets the runtime
   tell which open events a longjmp has left behind.

   functions=all's events ("call", no values) are the functions as compiled,
   as gprof and perf see them: their hooks are not inserted here, before any
   optimisation, but by a pass after GCC's last GIMPLE optimisation
   (dsprof_compiled_events_pass), into the functions that are still
   functions then.  A call the compiler inlined is in its caller's record
   and is no event; a clone (foo.constprop.0, foo.isra.0) records as the
   function it was made from, and so does the part of a function split from
   its head (foo.part.0), which the compiler inlines where the function is
   called: a call of foo records when it runs the part, inlined head or
   not (the function's own copy, the head, has no hooks).
   So the program's code is the plain build's, with a guard and two calls
   in each function it keeps: no function is made a call that the plain
   build inlines.  The site of each is made with the unit's other sites,
   before IPA.  functions=source makes every function an event as annotated
   ones are: each call of the source, inlined or not (none is), as is -flto
   (the unit's sites are not known at link time).  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"
#include "dsprof-format.h"
#include "dim-expr.h"
#include "value-range.h"
#include "tree-ssanames.h"
#include "tree-into-ssa.h"
#include "dominance.h"

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

/* The sites of the functions whose events wait for the compiled function,
   by function (its origin, for a clone).  */
static hash_map<tree, unsigned> *compiled_sites;

/* A temporary of TYPE for the hooks' operands: a variable, or an SSA name
   in a function already in SSA form (dsprof_compiled_events_pass).  */

static tree
hook_tmp (tree type, const char *name)
{
  return gimple_in_ssa_p (cfun) ? make_ssa_name (type)
                                : create_tmp_reg (type, name);
}

/* The event type of FNDECL, or NULL if it is not an event: the attribute's,
   else that of the selection file's `event' directive (docs/select.md), else
   "call" with functions=all.  */

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
  if (select_event *e = select_event_for (fndecl))
    return select_event_type (e, fndecl);
  return dsprof_opts.functions != DSPROF_FUNCTIONS_ANNOTATED ? "call"
                                                              : NULL;
}

/* Whether FNDECL's calls are to be events.  An event's hooks need a call of
   its own (its frame identifies it), so an always_inline function is none:
   annotated, that is an error; with functions=all or source it is counted
   without events.  */

bool
dsprof_event_p (tree fndecl)
{
  if (!dsprof_opts.events || !event_type (fndecl) || DECL_ARTIFICIAL (fndecl))
    return false;
  /* A body the unit has only for inlining (an `extern inline' gnu_inline
     function, as the C library's headers have, or a C99 inline definition):
     a call that is not inlined calls the function's own copy, so made an
     event it would not run at all.  */
  if (DECL_EXTERNAL (fndecl)
      && !lookup_attribute ("dsprof_event", DECL_ATTRIBUTES (fndecl)))
    return false;
  if (!lookup_attribute ("always_inline", DECL_ATTRIBUTES (fndecl)))
    return true;
  if (lookup_attribute ("dsprof_event", DECL_ATTRIBUTES (fndecl)))
    error_at (DECL_SOURCE_LOCATION (fndecl),
              "dsprof: event function %qD cannot be %<always_inline%>: its "
              "hooks need a call of its own", fndecl);
  return false;
}

/* EXPR of dimension type T as a 64-bit word, as GIMPLE operands inserted
   before GSI.  */

tree
dsprof_word_value (gimple_stmt_iterator *gsi, tree expr, enum dsprof_dim_type t)
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

/* The hooks, __dsprof_enter_v2 and __dsprof_exit_v1.  */

tree
dsprof_enter_hook (void)
{
  static tree fn;
  if (!fn)
    fn = hook_decl ("__dsprof_enter_v2", build_pointer_type (uint64_type_node));
  return fn;
}

tree
dsprof_exit_hook (void)
{
  static tree fn;
  if (!fn)
    fn = hook_decl ("__dsprof_exit_v1", uint64_type_node);
  return fn;
}

/* &__dsprof_sites[K], the word of the unit's site K.  */

tree
dsprof_site_ref (unsigned k)
{
  tree sites = dsprof_sites_decl ();
  return build_fold_addr_expr (build4 (ARRAY_REF, uint32_type_node, sites,
                                       build_int_cst (integer_type_node, k),
                                       NULL_TREE, NULL_TREE));
}

/* Insert before GSI the call FN (SITE, ARG, __builtin_dwarf_cfa () +
   CFA_BIAS), and return it.  The frame's CFA tells the runtime which open
   events a longjmp left behind; an event opened inside a frame that may be
   an event itself passes a CFA just below the frame's (call sites: -2,
   docs/select.md), so that it nests inside.  */

gcall *
dsprof_insert_hook (gimple_stmt_iterator *gsi, tree fn, tree site, tree arg,
                    int cfa_bias)
{
  tree cfa = dsprof_insert_cfa (gsi, cfa_bias);
  gcall *call = gimple_build_call (fn, 3, site, arg, cfa);
  gsi_insert_before (gsi, call, GSI_SAME_STMT);
  return call;
}

/* Insert before GSI "cfa = __builtin_dwarf_cfa () + OFFSET" and return CFA:
   the frame's CFA, or an address just below it (op records, dispatch.cc).  */

tree
dsprof_insert_cfa (gimple_stmt_iterator *gsi, int offset)
{
  tree cfa = hook_tmp (ptr_type_node, "dsprof_cfa");
  gcall *get = gimple_build_call (builtin_decl_explicit (BUILT_IN_DWARF_CFA), 0);
  gimple_call_set_lhs (get, cfa);
  gsi_insert_before (gsi, get, GSI_SAME_STMT);
  if (!offset)
    return cfa;
  tree below = hook_tmp (ptr_type_node, "dsprof_cfa");
  gsi_insert_before (gsi, gimple_build_assign (below, POINTER_PLUS_EXPR, cfa,
                                               size_int (offset)),
                     GSI_SAME_STMT);
  return below;
}

/* The runtime's int __dsprof_events_on (dsprof-format.h, section 1): nonzero
   while events may be recorded.  */

static tree
events_flag_decl (void)
{
  static tree decl;
  if (!decl)
    {
      decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
                         get_identifier ("__dsprof_events_on"),
                         integer_type_node);
      TREE_PUBLIC (decl) = 1;
      DECL_EXTERNAL (decl) = 1;
      DECL_ARTIFICIAL (decl) = 1;
      varpool_node::get_create (decl);
    }
  return decl;
}

/* Insert before GSI "if (__builtin_expect (STARTED, 1) != 0)", and return
   the condition.  Events are usually on: the hooks are the expected path,
   so with events on the guard costs a test and a branch not taken, and with
   them off a test and a jump over the hooks.  In a function in SSA form,
   after the optimisers (dsprof_compiled_events_pass), where
   __builtin_expect is no longer expanded, the test is of STARTED alone and
   the expectation is the probabilities of dsprof_guard_block's edges.  */

gcond *
dsprof_insert_guard (gimple_stmt_iterator *gsi, tree started)
{
  tree type = long_integer_type_node, tested = started;
  if (gimple_in_ssa_p (cfun))
    type = TREE_TYPE (started);
  else
    {
      tree arg = force_gimple_operand_gsi (gsi, fold_convert (type, started),
                                           true, NULL_TREE, true,
                                           GSI_SAME_STMT);
      tested = hook_tmp (type, "dsprof_on");
      gcall *expect
        = gimple_build_call (builtin_decl_explicit (BUILT_IN_EXPECT), 2, arg,
                             build_int_cst (type, 1));
      gimple_call_set_lhs (expect, tested);
      gsi_insert_before (gsi, expect, GSI_SAME_STMT);
    }
  gcond *cond = gimple_build_cond (NE_EXPR, tested, build_int_cst (type, 0),
                                   NULL_TREE, NULL_TREE);
  gsi_insert_before (gsi, cond, GSI_SAME_STMT);
  return cond;
}

/* Make the statements after GUARD up to HOOK, in GUARD's block, a block of
   their own that runs only if GUARD holds: the rest of the block follows
   both.  */

void
dsprof_guard_block (gcond *guard, gcall *hook)
{
  edge on = split_block (gimple_bb (guard), guard);
  edge after = split_block (on->dest, hook);
  on->flags &= ~EDGE_FALLTHRU;
  on->flags |= EDGE_TRUE_VALUE;
  on->probability = profile_probability::likely ();
  edge off = make_edge (on->src, after->dest, EDGE_FALSE_VALUE);
  off->probability = on->probability.invert ();
}

/* Whether NAME is ONE, or ends in one of the N SUFFIXES, in any case.  */

static bool
name_like_p (const char *name, const char *one, const char *const *suffixes,
             unsigned n)
{
  size_t len = strlen (name);
  if (strcasecmp (name, one) == 0)
    return true;
  for (unsigned i = 0; i < n; i++)
    {
      size_t k = strlen (suffixes[i]);
      if (len >= k && strcasecmp (name + len - k, suffixes[i]) == 0)
        return true;
    }
  return false;
}

/* Whether parameter Q of pointer type names the end of a string: "e", or a
   name ending in "end", "lim" or "limit" (end, pend, buf_end, srcEnd, lim).  */

static bool
end_param_p (tree q)
{
  static const char *const suffixes[] = { "end", "lim", "limit" };
  return DECL_NAME (q) && name_like_p (IDENTIFIER_POINTER (DECL_NAME (q)), "e",
                                       suffixes, ARRAY_SIZE (suffixes));
}

/* Whether integer parameter Q names a length: "n", or a name ending in "len",
   "length", "size", "count" or "nbytes" (len, srclen, name_len, bufSize).  */

static bool
length_param_p (tree q)
{
  static const char *const suffixes[] = { "len", "length", "size", "count",
                                          "nbytes" };
  return DECL_NAME (q) && name_like_p (IDENTIFIER_POINTER (DECL_NAME (q)), "n",
                                       suffixes, ARRAY_SIZE (suffixes));
}

/* The parameter that bounds string parameter P (step 3): the first later one
   that is a pointer of P's type named like an end or an integer named like a
   length; NULL_TREE if there is none.  A later string that is not named like
   an end is a string of its own (strcmp's A and B).  */

static tree
bounding_param (tree p)
{
  tree target = TYPE_MAIN_VARIANT (TREE_TYPE (TREE_TYPE (p)));
  for (tree q = DECL_CHAIN (p); q; q = DECL_CHAIN (q))
    {
      tree type = TREE_TYPE (q);
      if (TREE_CODE (type) == POINTER_TYPE
          && TYPE_MAIN_VARIANT (TREE_TYPE (type)) == target && end_param_p (q))
        return q;
      if (TREE_CODE (type) == INTEGER_TYPE && length_param_p (q))
        return q;
    }
  return NULL_TREE;
}

/* How parameter PARM is recorded: as its type says (dsprof_event_dim_type),
   but for the END of a (P, END) pair, a pointer that bounds an earlier string:
   its bytes lie past that string, so it is recorded as an address.  */

static enum dsprof_dim_type
dsprof_param_dim_type (tree parm)
{
  enum dsprof_dim_type t = dsprof_event_dim_type (TREE_TYPE (parm));
  if (t != DSPROF_DIM_STR)
    return t;
  tree fn = DECL_CONTEXT (parm);
  for (tree p = DECL_ARGUMENTS (fn); p && p != parm; p = DECL_CHAIN (p))
    if (dsprof_event_dim_type (TREE_TYPE (p)) == DSPROF_DIM_STR
        && bounding_param (p) == parm)
      return DSPROF_DIM_PTR;
  return t;
}

/* The bound of string parameter P (step 3) as a 64-bit word, as GIMPLE operands
   inserted before GSI: END - P for the END of a pair, a length's value, or all
   ones if nothing bounds P.  */

static tree
string_bound (gimple_stmt_iterator *gsi, tree p)
{
  tree u64 = uint64_type_node;
  tree q = bounding_param (p);
  if (!q)
    return build_all_ones_cst (u64);
  tree bound = (TREE_CODE (TREE_TYPE (q)) == POINTER_TYPE
                ? fold_build2 (MINUS_EXPR, u64, fold_convert (u64, q),
                               fold_convert (u64, p))
                : fold_convert (u64, q));
  return force_gimple_operand_gsi (gsi, bound, true, NULL_TREE, true,
                                   GSI_SAME_STMT);
}

/* The return statements of FUN, in RETURNS.  */

void
dsprof_return_stmts (function *fun, vec<gimple *> *returns)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      gimple *last = last_stmt (bb);
      if (last && gimple_code (last) == GIMPLE_RETURN)
        returns->safe_push (last);
    }
}

/* Insert before GSI "STARTED = __dsprof_events_on", step (0), and return
   STARTED.  */

tree
dsprof_read_events_flag (gimple_stmt_iterator *gsi)
{
  tree started = hook_tmp (integer_type_node, "dsprof_started");
  gsi_insert_before (gsi, gimple_build_assign (started, events_flag_decl ()),
                     GSI_SAME_STMT);
  return started;
}

/* Insert before GSI the array of the hook's words WORDS, and return its
   address (a null pointer if there are none).  */

tree
dsprof_vals_array (gimple_stmt_iterator *gsi, vec<tree> &words)
{
  if (words.is_empty ())
    return null_pointer_node;
  tree atype = build_array_type_nelts (uint64_type_node, words.length ());
  tree arr = create_tmp_var (atype, "dsprof_vals");
  TREE_ADDRESSABLE (arr) = 1;
  for (unsigned i = 0; i < words.length (); i++)
    {
      tree ref = build4 (ARRAY_REF, uint64_type_node, arr,
                         build_int_cst (integer_type_node, i), NULL_TREE,
                         NULL_TREE);
      gsi_insert_before (gsi, gimple_build_assign (ref, words[i]),
                         GSI_SAME_STMT);
    }
  return build_fold_addr_expr (arr);
}

/* The dimensions of the event function FNDECL: into PARAMS its named
   parameters of recorded types (none for "call" events of functions=all,
   which are about time and calls; for a function the selection file makes
   an event, those its `event' directive names), into START_DIMS and
   FINISH_DIMS the NAME=EXPR items of its directive (dim-expr.cc), after
   Start and before Finish.  Return the type of the result if it is kept
   (DSPROF_DIM_NONE if not).  */

static enum dsprof_dim_type
event_dims (tree fndecl, vec<tree> *params, dim_prog *start_dims,
            dim_prog *finish_dims)
{
  bool annotated
    = lookup_attribute ("dsprof_event", DECL_ATTRIBUTES (fndecl)) != NULL;
  select_event *sel = annotated ? NULL : select_event_for (fndecl);
  if (sel)
    select_event_used (sel);
  if (annotated || sel)
    for (tree p = DECL_ARGUMENTS (fndecl); p; p = DECL_CHAIN (p))
      if (DECL_NAME (p) && (!sel || select_event_dim_p (sel, p))
          && dsprof_event_dim_type (TREE_TYPE (p)) != DSPROF_DIM_NONE)
        params->safe_push (p);
  if (sel)
    select_event_exprs (sel, fndecl, start_dims, finish_dims);
  tree rtype = TREE_TYPE (TREE_TYPE (fndecl));
  return (annotated || (sel && select_event_result_p (sel)))
         ? dsprof_event_dim_type (rtype) : DSPROF_DIM_NONE;
}

/* Insert before GSI steps (1) and (3), Start of SITE with the words of
   PARAMS (of dimension types DIMS) and the bounds of its strings, then
   START_DIMS; both only if GUARD holds.  */

static void
insert_start (gimple_stmt_iterator *gsi, gcond *guard, tree enter_fn,
              tree site, vec<tree> &params, vec<enum dsprof_dim_type> &dims,
              dim_prog *start_dims)
{
  auto_vec<tree> words;
  for (unsigned i = 0; i < params.length (); i++)
    words.safe_push (dsprof_word_value (gsi, params[i], dims[i]));
  for (unsigned i = 0; i < params.length (); i++)
    if (dims[i] == DSPROF_DIM_STR)
      words.safe_push (string_bound (gsi, params[i]));
  tree vals = dsprof_vals_array (gsi, words);
  gcall *enter = dsprof_insert_hook (gsi, enter_fn, site, vals, 0);
  gcall *dims_call = dim_prog_insert (gsi, start_dims, NULL_TREE, 0);
  dsprof_guard_block (guard, dims_call ? dims_call : enter);
}

/* Insert step (2) into FUN: before every return, if STARTED, FINISH_DIMS
   and Finish of SITE with the word of the result if it is kept (of
   dimension type RESULT).  The return blocks are found first: guarding each
   one adds blocks.  */

static void
insert_finishes (function *fun, tree started, tree exit_fn, tree site,
                 enum dsprof_dim_type result, dim_prog *finish_dims)
{
  auto_vec<gimple *> returns;
  dsprof_return_stmts (fun, &returns);
  for (unsigned i = 0; i < returns.length (); i++)
    {
      gimple_stmt_iterator rgsi = gsi_for_stmt (returns[i]);
      gcond *rguard = dsprof_insert_guard (&rgsi, started);
      tree retval = gimple_return_retval (as_a<greturn *> (returns[i]));
      if (retval)
        dim_prog_insert (&rgsi, finish_dims, retval, 0);
      tree word = (result != DSPROF_DIM_NONE && retval)
                    ? dsprof_word_value (&rgsi, retval, result)
                    : build_int_cst (uint64_type_node, 0);
      gcall *exit = dsprof_insert_hook (&rgsi, exit_fn, unshare_expr (site),
                                        word, 0);
      dsprof_guard_block (rguard, exit);
    }
}

/* Whether FNDECL's events are those of the function as compiled
   (functions=all, dsprof_compiled_events_pass): it is neither annotated nor
   selected by an `event' directive, and the unit is not written for -flto
   (its sites would not be known at link time).  */

static bool
compiled_event_p (tree fndecl)
{
  return dsprof_opts.functions == DSPROF_FUNCTIONS_ALL
         && !flag_generate_lto && !flag_generate_offload
         && !lookup_attribute ("dsprof_event", DECL_ATTRIBUTES (fndecl))
         && !select_event_for (fndecl);
}

/* Insert into FUN, whose entry block FIRST has FUN's entry edge as its only
   predecessor, the hooks of SITE: (0) the guard, Start with the words of
   PARAMS (of dimension types DIMS) and START_DIMS, and Finish before every
   return with FINISH_DIMS and the result of dimension type RESULT.  Return
   the local STARTED of step (0).  */

static tree
insert_events (function *fun, basic_block first, tree site, vec<tree> &params,
               vec<enum dsprof_dim_type> &dims, dim_prog *start_dims,
               dim_prog *finish_dims, enum dsprof_dim_type result)
{
  /* (0) The guard: STARTED = __dsprof_events_on, and Start only if it is
     set.  Finish tests STARTED, not the flag again, so every Start recorded
     has its Finish even if the flag changed in between.  */
  gimple_stmt_iterator gsi = gsi_after_labels (first);
  tree started = dsprof_read_events_flag (&gsi);
  gcond *guard = dsprof_insert_guard (&gsi, started);
  insert_start (&gsi, guard, dsprof_enter_hook (), site, params, dims,
                start_dims);
  insert_finishes (fun, started, dsprof_exit_hook (), site, result,
                   finish_dims);
  return started;
}

/* Insert the hooks into FUN, whose entry block FIRST has FUN's entry edge as
   its only predecessor, and return the local STARTED of step (0); or, for a
   function whose events are those of its compiled form, make its site and
   return NULL_TREE.  */

tree
dsprof_instrument_events (function *fun, basic_block first)
{
  tree fndecl = fun->decl;
  if (compiled_event_p (fndecl))
    {
      if (!compiled_sites)
        compiled_sites = new hash_map<tree, unsigned>;
      compiled_sites->put (fndecl,
                           dsprof_add_site (fndecl, "call", 0, NULL, NULL,
                                            TREE_TYPE (TREE_TYPE (fndecl)),
                                            DSPROF_DIM_NONE));
      return NULL_TREE;
    }
  auto_vec<tree> params;
  dim_prog start_dims = dim_prog (), finish_dims = dim_prog ();
  enum dsprof_dim_type result
    = event_dims (fndecl, &params, &start_dims, &finish_dims);

  /* An event's frame identifies it (the CFA passed to the hooks): a copy
     inlined into its caller would share the caller's frame and be taken for an
     event a longjmp left behind.  Events are calls, so they stay calls.  */
  DECL_UNINLINABLE (fndecl) = 1;

  auto_vec<enum dsprof_dim_type> dims;
  for (unsigned i = 0; i < params.length (); i++)
    dims.safe_push (dsprof_param_dim_type (params[i]));
  unsigned k = dsprof_add_site (fndecl, event_type (fndecl), params.length (),
                                params.address (), dims.address (),
                                TREE_TYPE (TREE_TYPE (fndecl)), result);
  tree started = insert_events (fun, first, dsprof_site_ref (k), params, dims,
                                &start_dims, &finish_dims, result);
  dim_prog_release (&start_dims);
  dim_prog_release (&finish_dims);
  return started;
}

/* functions=all's hooks, after GCC's last GIMPLE optimisation: into each
   function that has a site (dsprof_instrument_events), or whose origin has
   one (a clone, a split part), but the head of a split function, whose part
   records.  No call of it stays a tail call: Finish follows.  */

static bool
compiled_events_gate (function *)
{
  return compiled_sites && !in_lto_p;
}

/* Whether FUN calls a part split from its own origin: it is the head of a
   split function, whose part records the call.  */

static bool
calls_own_part_p (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
        tree callee = call ? gimple_call_fndecl (call) : NULL_TREE;
        cgraph_node *node = callee ? cgraph_node::get (callee) : NULL;
        if (node && node->split_part
            && DECL_ORIGIN (callee) == DECL_ORIGIN (fun->decl))
          return true;
      }
  return false;
}

static unsigned int
compiled_events_execute (function *fun)
{
  unsigned *k = compiled_sites->get (DECL_ORIGIN (fun->decl));
  if (!k || calls_own_part_p (fun))
    return 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi)))
        gimple_call_set_tail (call, false);
  basic_block first
    = split_edge (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun)));
  auto_vec<tree> params;
  auto_vec<enum dsprof_dim_type> dims;
  dim_prog none = dim_prog ();
  insert_events (fun, first, dsprof_site_ref (*k), params, dims, &none, &none,
                 DSPROF_DIM_NONE);
  free_dominance_info (CDI_DOMINATORS);
  mark_virtual_operands_for_renaming (fun);
  return 0;
}

const dsprof_pass dsprof_compiled_events_pass = {
  .name = "dsprof-events",
  .required = PROP_cfg | PROP_ssa,
  .todo_finish = TODO_update_ssa_only_virtuals,
  .gate = compiled_events_gate,
  .execute = compiled_events_execute,
};
