/* call-sites.cc - events at the calls of functions outside the program
   (malloc, realloc, write...) that a `call' directive of the selection file
   names (docs/select.md), in the functions dsprof instruments.  The hooks are
   those of events.cc, in the caller, around the call:

   `call realloc(_, size)':        After:
     p = realloc (q, n);             if (__builtin_expect (started, 1))
                                       {
                                         vals[0] = (uint64_t) n;
                                         __dsprof_enter_v2 (&__dsprof_sites[5],
                                                            vals, cfa - 2);
                                       }
                                     p = realloc (q, n);
                                     if (__builtin_expect (started, 1))
                                       __dsprof_exit_v1 (&__dsprof_sites[5],
                                                         (uint64_t) p, cfa - 2);

   STARTED is the caller's local of events.cc's step (0), read at its entry.
   The site's function is the callee, its file and line the call's; the
   dimensions are the arguments the directive names, in order (`_' skips
   one), each recorded as its type says (events.cc), a string up to its NUL;
   the result is `result'.  The CFA passed is the caller's frame's minus 2,
   just below it, so the call's event nests inside the caller's own event (if
   the caller is one) and inside an op record (which passes the CFA minus 1),
   and a longjmp out of the callee leaves it to be repaired like any hook
   event.  A call that does not return (exit, abort, a noreturn function) gets
   its Start only; a call through a pointer has no callee to match and is no
   event.  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"

/* The callee of CALL that a `call' directive may select, or NULL_TREE.  Not
   the program's hooks or the builtins of its own instrumentation, which are
   artificial, nor the compiler's __builtin_* functions, which are no calls
   of the program, nor a function that returns twice (setjmp), whose return
   cannot be wrapped, nor an always_inline function of the program, which
   has no call of its own (instrument_call).  */

static tree
callee_of (gcall *call)
{
  if (gimple_call_internal_p (call))
    return NULL_TREE;
  tree fn = gimple_call_fndecl (call);
  if (!fn || DECL_ARTIFICIAL (fn) || (gimple_call_flags (call) & ECF_RETURNS_TWICE)
      || startswith (lang_hooks.decl_printable_name (fn, 0), "__builtin_")
      || lookup_attribute ("always_inline", DECL_ATTRIBUTES (fn)))
    return NULL_TREE;
  return fn;
}

/* Collect into SITES the calls of FUN that a `call' directive selects, before
   any instrumentation adds calls of its own.  */

void
dsprof_find_call_sites (function *fun, vec<gcall *> *sites)
{
  if (!dsprof_opts.events)
    return;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi)))
        {
          tree fn = callee_of (call);
          if (fn && select_call_for (fun->decl, fn, gimple_location (call)))
            sites->safe_push (call);
        }
}

/* The place after CALL where its Finish goes: after it in its block, or at
   the start of a new block on the edge that CALL's return takes if CALL ends
   its block (in a function that calls setjmp, every call may jump to it).
   Return false if CALL does not return.  */

static bool
after_call (gcall *call, gimple_stmt_iterator *gsi)
{
  if (gimple_call_noreturn_p (call))
    return false;
  if (!stmt_ends_bb_p (call))
    {
      *gsi = gsi_for_stmt (call);
      gsi_next (gsi);
      return true;
    }
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, gimple_bb (call)->succs)
    if (!(e->flags & (EDGE_ABNORMAL | EDGE_EH | EDGE_FAKE)))
      {
        *gsi = gsi_start_bb (split_edge (e));
        return true;
      }
  return false;
}

/* The type an argument ARG is recorded as: that of its parameter in the
   callee's prototype, whose rest PTYPES is from that parameter on (free's
   `void *', not the `char *' passed), or ARG's own past the prototype's
   named parameters (a variadic call's).  */

static tree
param_type (tree ptypes, tree arg)
{
  if (ptypes && !VOID_TYPE_P (TREE_VALUE (ptypes)))
    return TREE_VALUE (ptypes);
  return TREE_TYPE (arg);
}

/* Wrap CALL in the hooks of SITE, guarded by STARTED: the Start before it
   with the values of ARGS as DIMS say, the Finish after it with its result
   as RESULT says (DSPROF_DIM_NONE: none), of type RTYPE.  */

static void
insert_call_hooks (gcall *call, tree site, tree started, vec<tree> &args,
                   vec<enum dsprof_dim_type> &dims, enum dsprof_dim_type result,
                   tree rtype)
{
  /* Start, before the call.  */
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gcond *guard = dsprof_insert_guard (&gsi, started);
  auto_vec<tree> words;
  for (unsigned i = 0; i < args.length (); i++)
    words.safe_push (dsprof_word_value (&gsi, unshare_expr (args[i]), dims[i]));
  for (unsigned i = 0; i < args.length (); i++)
    if (dims[i] == DSPROF_DIM_STR)
      words.safe_push (build_all_ones_cst (uint64_type_node));
  tree vals = dsprof_vals_array (&gsi, words);
  gcall *enter = dsprof_insert_hook (&gsi, dsprof_enter_hook (), site, vals, -2);
  dsprof_guard_block (guard, enter);

  /* Finish, after it, with the result: a call whose result is not used
     gets a variable to hold it.  */
  if (result != DSPROF_DIM_NONE && !gimple_call_lhs (call))
    gimple_call_set_lhs (call, create_tmp_var (rtype, "dsprof_result"));
  if (!after_call (call, &gsi))
    return;
  gcond *rguard = dsprof_insert_guard (&gsi, started);
  tree word = result != DSPROF_DIM_NONE
                ? dsprof_word_value (&gsi, unshare_expr (gimple_call_lhs (call)),
                                     result)
                : build_int_cst (uint64_type_node, 0);
  gcall *exit = dsprof_insert_hook (&gsi, dsprof_exit_hook (),
                                    unshare_expr (site), word, -2);
  dsprof_guard_block (rguard, exit);
}

/* Wrap CALL, which directive C selected, in the hooks of a site of its own,
   guarded by STARTED.  */

static void
instrument_call (gcall *call, const select_call *c, tree started)
{
  tree callee = gimple_call_fndecl (call);
  unsigned nargs = gimple_call_num_args (call);
  if (select_call_nargs (c) > nargs)
    {
      char msg[96];
      snprintf (msg, sizeof msg, "is called with %u argument%s, the directive "
                "names %u", nargs, nargs == 1 ? "" : "s", select_call_nargs (c));
      select_call_error (c, callee, gimple_location (call), msg);
      return;
    }

  /* The dimensions: the named arguments, then the result.  */
  auto_vec<const char *> names;
  auto_vec<tree> args, types;
  auto_vec<enum dsprof_dim_type> dims;
  tree ptypes = TYPE_ARG_TYPES (gimple_call_fntype (call));
  for (unsigned i = 0; i < select_call_nargs (c);
       i++, ptypes = ptypes ? TREE_CHAIN (ptypes) : NULL_TREE)
    if (const char *name = select_call_arg (c, i))
      {
        tree arg = gimple_call_arg (call, i);
        tree type = param_type (ptypes, arg);
        enum dsprof_dim_type t = dsprof_event_dim_type (type);
        if (t == DSPROF_DIM_NONE)
          {
            char msg[96];
            snprintf (msg, sizeof msg, "argument %u (%s) is of a type dsprof "
                      "does not record", i + 1, name);
            select_call_error (c, callee, gimple_location (call), msg);
            return;
          }
        names.safe_push (name);
        args.safe_push (arg);
        types.safe_push (type);
        dims.safe_push (t);
      }
  tree rtype = gimple_call_return_type (call);
  enum dsprof_dim_type result = select_call_result_p (c)
                                  ? dsprof_event_dim_type (rtype)
                                  : DSPROF_DIM_NONE;
  unsigned k = dsprof_add_site_at (lang_hooks.decl_printable_name (callee, 0),
                                   expand_location (gimple_location (call)),
                                   select_call_type (c, callee),
                                   names.length (), names.address (),
                                   types.address (), dims.address (), rtype,
                                   result);
  tree site = dsprof_site_ref (k);

  /* A callee of the program stays a call: inlined, its own call sites would
     open events at the caller's CFA - 2 inside this one, at the same CFA,
     which the runtime takes for this one left by a longjmp.  */
  DECL_UNINLINABLE (callee) = 1;

  insert_call_hooks (call, site, started, args, dims, result, rtype);
}

/* Wrap the calls SITES of FUN (dsprof_find_call_sites), whose entry block is
   FIRST, in their hooks.  STARTED is the local of FUN's own event hooks, or
   NULL_TREE if FUN is no event: then it is read here, at FUN's entry, as
   events.cc's step (0) does.  */

void
dsprof_instrument_call_sites (function *fun, basic_block first, tree started,
                              vec<gcall *> &sites)
{
  if (sites.is_empty ())
    return;
  if (!started)
    {
      gimple_stmt_iterator gsi = gsi_after_labels (first);
      started = dsprof_read_events_flag (&gsi);
    }
  for (unsigned i = 0; i < sites.length (); i++)
    {
      tree fn = gimple_call_fndecl (sites[i]);
      instrument_call (sites[i], select_call_for (fun->decl, fn,
                                                  gimple_location (sites[i])),
                       started);
    }
}
