/* dispatch.cc - op records for the dispatch of a bytecode VM: with
   -fplugin-arg-dsprof-dispatch=FUNC[@LINE][:FUNC...], every time FUNC's
   dispatch (its dispatch switch, or the computed gotos to its address-taken
   labels) enters a target (a case label's block, an address-taken label's
   block), the current opcode's record ends and the next starts, at one
   clock read.  An opcode's record runs from its dispatch to the next, as a
   VM's own opcode profiler times it: the code a case falls through to, or
   that it reaches by a goto, belongs to the record of the opcode that was
   dispatched.

   Before:                          After:
     void run (struct vm *vm)         void run (struct vm *vm)
     {                                {
                                        int started = __dsprof_events_on;  (0)
                                        if (started)
                                          __dsprof_op_begin_v1 (CFA - 1);  (1)
       for (;;)                         for (;;)
         switch (*pc++)                   switch (*pc++)
           {                                {
                                            case OP_DUP:                   (2)
                                              if (started)
                                                __dsprof_op_v1 (&__dsprof_sites[7],
                                                                0, CFA - 1);
                                              goto dup;
                                            case OP_ADD:
                                              if (started)
                                                __dsprof_op_v1 (&__dsprof_sites[7],
                                                                1, CFA - 1);
                                              goto add;
           case OP_DUP:                     dup:
             ...                              ...
             (falls through)                  (falls through)
           case OP_ADD:                     add:
             ...                              ...
             break;                           break;
           case OP_RET:                     case OP_RET:
                                              if (started)
                                                __dsprof_op_v1 (&__dsprof_sites[7],
                                                                2, CFA - 1);
                                              if (started)                 (3)
                                                __dsprof_op_end_v1 (CFA - 1);
             return;                          return;
           }                                }
     }                                }

   (0) The runtime's flag, read once at entry, as for events (events.cc):
       with DSPROF_EVENTS=0 an opcode costs a test of a local and a branch.
   (1) Records a longjmp out of an earlier call of FUNC left open at the same
       place of the stack are closed before the first opcode.
   (2) On the dispatch's way into each target, never on a fall-through or a
       goto into it: for a switch, in a block of its own on each of the
       switch's edges to a target (the counters have split some of them
       already, which changes nothing); for a computed goto, whose edges
       are abnormal and cannot be split, in the target's block after its
       labels, every other way into that block (a fall-through, a goto, a
       switch) being led past the hook to the rest of the block.  So a
       target's record count is how often the dispatch entered it; the
       count of its label's line (the block's) adds the fall-throughs and
       gotos into its code.  The targets are the unit's sites k0, k0 + 1, ...
       (metadata.cc, DSPROF_TAG_DISPATCH); the hook gets &__dsprof_sites[k0]
       and the target's index, which the stream holds in one byte
       (dsprof-format.h, section 4).
   (3) Before every return: the last opcode's record ends.  And where
       control leaves the dispatch switch for code from which the switch
       cannot be reached again (what the default that GCC gives a switch
       without one leads to: past the loop of Duff's device), so that the
       rest of the function is no opcode's time.
   CFA is __builtin_dwarf_cfa () - 1: op records nest inside FUNC's own event
   (if FUNC is one: functions=all, dsprof_event) and around the events of
   what an opcode calls (dsprof-format.h, section 1).

   A target's line is its label's: a case label's own location (the
   CASE_LABEL_EXPR's, which stays when building the CFG replaces the label
   by another of its block), the first of several cases sharing a block;
   each label's own for the labels of a range split_case splits.
   The default that GCC adds to a switch without one has none: it is no
   target, whatever line its label's block has.

   The dispatch: the switch on line LINE with FUNC@LINE; otherwise, of
   FUNC's switches and its computed-goto table (all its address-taken
   labels), the one with the most targets.  A target's name (docs/vm.md,
   "The rules in full"): the enumerator of the switch's enum type equal
   to the case value, or the value in decimal; LOW..HIGH for a case range;
   "default"; an address-taken label's name, or for one a macro writes
   from its arguments those arguments (dsprof_label_name); the names of
   several cases sharing one block joined by ",", except the labels of the
   source, one value each, that GCC made one range (`case A: case B:'),
   which are targets of their own, the hook's index computed from the
   switch's value (split_case).  The enum type is the type of the
   switch's controlling expression before the integer promotions, which
   only the C front end knows: it is noted before genericization.  */

/* c-common.h (SWITCH_STMT) must come before GCC's diagnostic headers.  */
#include "gcc-plugin.h"
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "c-family/c-common.h"
#include "gcc-compat.h"
#include "gimple-fold.h"
#include "dsprof-plugin.h"
#include "dim-expr.h"

namespace {

struct dispatch_spec
{
  char *name;
  int line;            /* 0: the default choice */
  char *file;          /* a selection file's file=PAT, or NULL: any file */
};

vec<dispatch_spec> specs;

/* The enum types of the controlling expressions of the switches of the
   dispatch functions, by the switch's location.  */
struct switch_type
{
  location_t loc;
  tree type;
};

vec<switch_type> switch_types;

/* One target of a dispatch: a label of its block (the one case labels
   lead to when the dispatch is chosen, before the counters split the
   switch's edges and give the cases labels of the new blocks), its name,
   its label's location.  */
struct target
{
  basic_block bb;
  tree label;
  char *name;
  location_t loc;
};

/* The targets of the function being instrumented, chosen by
   dsprof_dispatch_prepare, and its dispatch switch (NULL: its computed
   gotos are the dispatch).  */
vec<target> pending;
gswitch *pending_switch;

/* The target of each case label of the dispatch switch, by its index in
   the switch: an index into PENDING, or -1 (the default GCC adds).  */
vec<int> pending_cases;

/* By case label of the dispatch switch: whether it is a range that stands
   for several labels of the source, one value each, whose targets follow
   each other in PENDING from the one PENDING_CASES gives (the hook's index
   is computed from the switch's value).  */
vec<bool> pending_split;

/* A label of the code past the dispatch switch, where its last opcode's
   record ends, when the dispatch cannot be reached from there; or
   NULL_TREE.  */
tree pending_past;

const dispatch_spec *
spec_for (tree fndecl)
{
  if (specs.is_empty () || !DECL_NAME (fndecl))
    return NULL;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  for (unsigned i = 0; i < specs.length (); i++)
    if (strcmp (specs[i].name, name) == 0
        && (!specs[i].file
            || dsprof_file_matches_p (specs[i].file, dsprof_decl_file (fndecl))))
      return &specs[i];
  return NULL;
}

/* Note the enum type of each switch of the C tree *TP.  */

tree
note_switch (tree *tp, int *walk_subtrees, void *)
{
  tree t = *tp;
  tree type = NULL_TREE;
  if (TREE_CODE (t) == SWITCH_STMT)
    type = SWITCH_STMT_TYPE (t);
  else if (TREE_CODE (t) == SWITCH_EXPR)
    type = TREE_TYPE (t);
  else if (TYPE_P (t))
    *walk_subtrees = 0;
  if (type && TREE_CODE (TYPE_MAIN_VARIANT (type)) == ENUMERAL_TYPE)
    {
      switch_type st = { EXPR_LOCATION (t), TYPE_MAIN_VARIANT (type) };
      switch_types.safe_push (st);
    }
  return NULL_TREE;
}

void
pre_genericize (void *gcc_data, void *)
{
  tree fndecl = (tree) gcc_data;
  if (fndecl && TREE_CODE (fndecl) == FUNCTION_DECL && spec_for (fndecl)
      && DECL_SAVED_TREE (fndecl))
    {
      walk_tree_without_duplicates (&DECL_SAVED_TREE (fndecl), note_switch, NULL);
      dsprof_note_cases (fndecl);
    }
}

/* Whether A and B are on one line of one file.  The front end's switch and
   the GIMPLE one differ in columns and ranges.  */

bool
same_line_p (location_t a, location_t b)
{
  expanded_location x = expand_location (a), y = expand_location (b);
  return x.line && x.line == y.line && x.file && y.file
         && strcmp (x.file, y.file) == 0;
}

/* The enum type noted for SW, or NULL.  */

tree
switch_enum_type (gswitch *sw)
{
  for (unsigned i = 0; i < switch_types.length (); i++)
    if (same_line_p (switch_types[i].loc, gimple_location (sw)))
      return switch_types[i].type;
  return NULL_TREE;
}

/* The name of case value VAL: the enumerator of ENUM_TYPE (may be NULL)
   equal to it, else its decimal value.  */

char *
value_name (tree val, tree enum_type)
{
  if (enum_type)
    for (tree v = TYPE_VALUES (enum_type); v; v = TREE_CHAIN (v))
      {
        tree c = TREE_VALUE (v);
        if (TREE_CODE (c) == CONST_DECL)
          c = DECL_INITIAL (c);
        if (TREE_CODE (c) == INTEGER_CST && tree_int_cst_equal (c, val))
          return xstrdup (IDENTIFIER_POINTER (TREE_PURPOSE (v)));
      }
  char buf[64];
  if (tree_fits_shwi_p (val))
    snprintf (buf, sizeof buf, HOST_WIDE_INT_PRINT_DEC, tree_to_shwi (val));
  else
    snprintf (buf, sizeof buf, HOST_WIDE_INT_PRINT_UNSIGNED, tree_to_uhwi (val));
  return xstrdup (buf);
}

/* The name of the case label C of SW: "default", as the source writes it
   (case-names.cc), else a value's name, LOW..HIGH.  */

char *
case_name (tree c, tree enum_type, gswitch *sw)
{
  if (!CASE_LOW (c))
    return xstrdup ("default");
  if (char *written = dsprof_case_name (gimple_location (sw), CASE_LOW (c),
                                        CASE_HIGH (c)))
    return written;
  char *low = value_name (CASE_LOW (c), enum_type);
  if (!CASE_HIGH (c))
    return low;
  char *high = value_name (CASE_HIGH (c), enum_type);
  char *s = concat (low, "..", high, NULL);
  free (low);
  free (high);
  return s;
}

/* The location of the first located label statement of BB, else DFLT.  */

location_t
label_location (basic_block bb, location_t dflt)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      glabel *l = dyn_cast<glabel *> (gsi_stmt (gsi));
      if (!l)
        break;
      if (gimple_location (l) != UNKNOWN_LOCATION)
        return gimple_location (l);
    }
  return dflt;
}

/* Whether A is on an earlier line than B of one file, or B is unknown.  */

bool
earlier_p (location_t a, location_t b)
{
  expanded_location x = expand_location (a), y = expand_location (b);
  if (!y.line)
    return x.line != 0;
  return x.line && x.line < y.line && x.file && y.file
         && strcmp (x.file, y.file) == 0;
}

/* Add the target block BB named NAME (taken) at LOC to TARGETS, or NAME to
   its name if BB is there already (several labels, one block: the target's
   line is the first label's).  */

void
add_target (vec<target> *targets, basic_block bb, tree label, char *name,
            location_t loc)
{
  for (unsigned i = 0; i < targets->length (); i++)
    if ((*targets)[i].bb == bb)
      {
        if (earlier_p (loc, (*targets)[i].loc))
          (*targets)[i].loc = loc;
        char *s = concat ((*targets)[i].name, ",", name, NULL);
        free ((*targets)[i].name);
        free (name);
        (*targets)[i].name = s;
        return;
      }
  target t = { bb, label, name, loc };
  targets->safe_push (t);
}

/* The location of the case label C as the source has it (the `case' or
   `default' keyword), or UNKNOWN_LOCATION.  */

location_t
case_location (tree c)
{
  location_t at = EXPR_LOCATION (c);
  return LOCATION_LOCUS (at) == UNKNOWN_LOCATION ? UNKNOWN_LOCATION : at;
}

/* Whether the case label I of SW, of FUN, is a range GCC made of several
   labels of the source with nothing between them (`case OP_NOP1: case
   OP_NOP2:'), each one value, and the only way SW enters its block: if so
   each of those labels is a target of its own, added to TARGETS, and the
   label is noted in PENDING_SPLIT.  */

bool
split_case (function *fun, gswitch *sw, unsigned i, vec<target> *targets)
{
  tree c = gimple_switch_label (sw, i);
  basic_block bb = label_to_block (fun, CASE_LABEL (c));
  for (unsigned j = 0; j < gimple_switch_num_labels (sw); j++)
    if (j != i && label_to_block (fun, CASE_LABEL (gimple_switch_label (sw, j))) == bb)
      return false;
  auto_vec<char *> names;
  auto_vec<location_t> locs;
  if (!CASE_LOW (c)
      || !dsprof_case_split (gimple_location (sw), CASE_LOW (c), CASE_HIGH (c),
                             &names, &locs))
    return false;
  for (unsigned k = 0; k < names.length (); k++)
    {
      target t = { bb, CASE_LABEL (c), names[k], locs[k] };
      targets->safe_push (t);
    }
  pending_split.safe_grow_cleared (gimple_switch_num_labels (sw));
  pending_split[i] = true;
  return true;
}

void
switch_targets (function *fun, gswitch *sw, vec<target> *targets)
{
  tree enum_type = switch_enum_type (sw);
  for (unsigned i = 0; i < gimple_switch_num_labels (sw); i++)
    {
      tree c = gimple_switch_label (sw, i);
      tree label = CASE_LABEL (c);
      /* The default the gimplifier adds to a switch without one leads
         past the switch, where every `break' goes: no opcode of its own.
         Its case label, unlike one of the source, has no location (a
         label's, which building the CFG may replace by another label of
         its block, does not tell).  */
      basic_block bb = label_to_block (fun, label);
      location_t at = case_location (c);
      if (!CASE_LOW (c) && at == UNKNOWN_LOCATION)
        continue;
      if (at == UNKNOWN_LOCATION)
        at = label_location (bb, DECL_SOURCE_LOCATION (label));
      if (split_case (fun, sw, i, targets))
        continue;
      add_target (targets, bb, label, case_name (c, enum_type, sw), at);
    }
}

/* The blocks of FUN's address-taken labels, the targets of its computed
   gotos.  */

void
label_targets (function *fun, vec<target> *targets)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        glabel *l = dyn_cast<glabel *> (gsi_stmt (gsi));
        if (!l)
          break;
        tree label = gimple_label_label (l);
        if (!FORCED_LABEL (label))
          continue;
        char *name = dsprof_label_name (label);
        if (!name)
          name = xstrdup (DECL_NAME (label) ? IDENTIFIER_POINTER (DECL_NAME (label))
                                            : "label");
        add_target (targets, bb, label, name,
                    label_location (bb, DECL_SOURCE_LOCATION (label)));
      }
}

/* The error for FUN, a dispatch function without a dispatch (on LINE,
   unless 0): its source's switch GCC made branches of (case-names.cc), or
   none at all.  */

void
no_dispatch_error (function *fun, int line)
{
  location_t at = DECL_SOURCE_LOCATION (fun->decl);
  int sw_line;
  if (const char *why = dsprof_lost_switch (fun->decl, line, &sw_line))
    error_at (at, "dsprof: dispatch function %qD has no dispatch: its switch "
              "on line %d %s, which GCC compiles as plain branches, not as a "
              "jump to a case", fun->decl, sw_line, why);
  else if (line)
    error_at (at, "dsprof: dispatch function %qD has no switch on line %d",
              fun->decl, line);
  else
    error_at (at, "dsprof: dispatch function %qD has neither a switch nor "
              "address-taken labels (a computed-goto table)", fun->decl);
}

/* FUN's dispatch as SPEC chooses it, in TARGETS; false after an error if
   there is none.  */

bool
choose_dispatch (function *fun, const dispatch_spec *spec, vec<target> *targets)
{
  auto_vec<gswitch *> switches;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    if (gswitch *sw = safe_dyn_cast<gswitch *> (last_stmt (bb)))
      switches.safe_push (sw);

  gswitch *best = NULL;
  for (unsigned i = 0; i < switches.length (); i++)
    if ((!spec->line
         || expand_location (gimple_location (switches[i])).line == spec->line)
        && (!best || gimple_switch_num_labels (switches[i])
                       > gimple_switch_num_labels (best)))
      best = switches[i];
  if (spec->line)
    {
      if (!best)
        {
          no_dispatch_error (fun, spec->line);
          return false;
        }
      switch_targets (fun, best, targets);
      pending_switch = best;
      return true;
    }
  label_targets (fun, targets);
  if (best && gimple_switch_num_labels (best) > targets->length ())
    {
      for (unsigned i = 0; i < targets->length (); i++)
        free ((*targets)[i].name);
      targets->truncate (0);
      switch_targets (fun, best, targets);
      pending_switch = best;
    }
  if (targets->is_empty ())
    {
      no_dispatch_error (fun, 0);
      return false;
    }
  return true;
}

/* The expressions of the dispatch's dims= (select.cc), evaluated after
   each op hook, at the start of each opcode's record.  */
dim_prog pending_dims;

/* Insert before GSI "if (STARTED) FN (ARGS..., CFA - 1)", and for an op
   hook, in the same block, the evaluation of PENDING_DIMS.  */

void
insert_guarded (gimple_stmt_iterator *gsi, tree started, tree fn, tree site,
                tree index)
{
  gcond *guard = dsprof_insert_guard (gsi, started);
  tree cfa = dsprof_insert_cfa (gsi, -1);
  gcall *call = site ? gimple_build_call (fn, 3, site, index, cfa)
                     : gimple_build_call (fn, 1, cfa);
  gsi_insert_before (gsi, call, GSI_SAME_STMT);
  if (site)
    if (gcall *dims = dim_prog_insert (gsi, &pending_dims, NULL_TREE, -1))
      call = dims;
  dsprof_guard_block (guard, call);
}

/* The block of the dispatch's scope in FUN: its switch's; NULL_TREE for
   computed gotos, which the CFG has factored into one goto of no scope
   (select_dispatch_exprs then looks in every block).  */

tree
dispatch_block (function *)
{
  return pending_switch ? gimple_block (pending_switch) : NULL_TREE;
}

/* Whether the block TO can be reached from FROM.  */

bool
reaches_p (function *fun, basic_block from, basic_block to)
{
  auto_sbitmap seen (last_basic_block_for_fn (fun));
  bitmap_clear (seen);
  auto_vec<basic_block> work;
  work.safe_push (from);
  bitmap_set_bit (seen, from->index);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      if (bb == to)
        return true;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (bitmap_set_bit (seen, e->dest->index))
          work.safe_push (e->dest);
    }
  return false;
}

/* The label of the code past the dispatch switch SW of FUN, from which SW
   cannot be reached, or NULL_TREE: what the default that GCC gives a switch
   without one leads to, which is where control leaves the switch's body (a
   `break', or the end of the body, as out of the loop of Duff's device).  */

tree
past_label (function *fun, gswitch *sw)
{
  tree dflt = gimple_switch_default_label (sw);
  if (case_location (dflt) != UNKNOWN_LOCATION)
    return NULL_TREE;
  tree label = CASE_LABEL (dflt);
  return reaches_p (fun, label_to_block (fun, label), gimple_bb (sw))
         ? NULL_TREE : label;
}

/* The target in TARGETS of each case label of SW, of FUN, by its index in
   SW, in CASE_TARGETS: an index into TARGETS, or -1.  */

void
case_targets (function *fun, gswitch *sw, const vec<target> &targets,
              vec<int> *case_targets)
{
  for (unsigned i = 0; i < gimple_switch_num_labels (sw); i++)
    {
      tree label = CASE_LABEL (gimple_switch_label (sw, i));
      basic_block bb = label_to_block (fun, label);
      int k = -1;
      for (unsigned j = 0; k < 0 && j < targets.length (); j++)
        if (targets[j].bb == bb)
          k = (int) j;
      case_targets->safe_push (k);
    }
}

/* Give each way the dispatch switch SW enters a target an op hook, in a
   block of its own on SW's edge (the counters may have split it already:
   the case labels lead to the edge's block), with the target's index from
   CASE_TARGETS (by case label; -1: no target).  */

void
hook_switch_edges (function *fun, gswitch *sw, const vec<int> &case_targets,
                   tree op_fn, tree started, unsigned k0)
{
  basic_block from = gimple_bb (sw);
  auto_vec<edge> edges;
  auto_vec<int> index;
  auto_vec<tree> split_low;
  for (unsigned i = 0; i < gimple_switch_num_labels (sw); i++)
    {
      if (i >= case_targets.length () || case_targets[i] < 0)
        continue;
      tree label = CASE_LABEL (gimple_switch_label (sw, i));
      edge e = find_edge (from, label_to_block (fun, label));
      if (e && !edges.contains (e))
        {
          edges.safe_push (e);
          index.safe_push (case_targets[i]);
          split_low.safe_push (i < pending_split.length () && pending_split[i]
                               ? CASE_LOW (gimple_switch_label (sw, i))
                               : NULL_TREE);
        }
    }
  for (unsigned i = 0; i < edges.length (); i++)
    {
      gimple_stmt_iterator gsi = gsi_after_labels (split_edge (edges[i]));
      tree k = build_int_cst (uint32_type_node, index[i]);
      if (split_low[i])
        {
          /* The first label's index plus the value less the range's low.  */
          gimple_seq seq = NULL;
          tree v = gimple_convert (&seq, uint32_type_node, gimple_switch_index (sw));
          HOST_WIDE_INT d = index[i] - tree_to_shwi (split_low[i]);
          k = gimple_build (&seq, PLUS_EXPR, uint32_type_node, v,
                            build_int_cst (uint32_type_node, d));
          gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
        }
      insert_guarded (&gsi, started, op_fn, dsprof_site_ref (k0), k);
    }
}

/* Give the computed-goto target BB an op hook that only the computed gotos
   run: BB keeps its labels and the hook, and every other way into it (a
   fall-through, a goto) leads past them to the rest of its block.  */

void
hook_label_block (basic_block bb, tree op_fn, tree started, unsigned k0,
                  unsigned index)
{
  basic_block rest = split_block_after_labels (bb)->dest;
  for (edge_iterator ei = ei_start (bb->preds); edge e = ei_safe_edge (ei);)
    if ((e->flags & EDGE_ABNORMAL) || !redirect_edge_and_branch (e, rest))
      ei_next (&ei);
  gimple_stmt_iterator gsi = gsi_after_labels (bb);
  insert_guarded (&gsi, started, op_fn, dsprof_site_ref (k0),
                  build_int_cst (uint32_type_node, index));
}

tree
hook_decl (const char *name, bool op)
{
  tree type = op ? build_function_type_list (void_type_node,
                                             build_pointer_type (uint32_type_node),
                                             uint32_type_node, ptr_type_node,
                                             NULL_TREE)
                 : build_function_type_list (void_type_node, ptr_type_node,
                                             NULL_TREE);
  return build_fn_decl (name, type);
}

} // namespace

/* Add SPEC, FUNC or FUNC@LINE; WHERE names where it comes from.  */

bool
dispatch_add_spec (const char *spec, const char *where)
{
  const char *at = strchr (spec, '@');
  size_t len = at ? (size_t) (at - spec) : strlen (spec);
  bool ok = len > 0 && (ISALPHA (spec[0]) || spec[0] == '_');
  for (size_t i = 0; ok && i < len; i++)
    ok = ISALNUM (spec[i]) || spec[i] == '_';
  long line = 0;
  if (ok && at)
    {
      char *end;
      errno = 0;
      line = strtol (at + 1, &end, 10);
      ok = ISDIGIT (at[1]) && !*end && errno == 0 && line > 0 && line <= INT_MAX;
    }
  if (!ok)
    {
      error ("dsprof: bad dispatch function %qs in %s (FUNC or FUNC@LINE, "
             "FUNC a C identifier, LINE a line number)", spec, where);
      return false;
    }
  char *func = xstrndup (spec, len);
  dispatch_add (func, (int) line, NULL);
  free (func);
  return true;
}

/* Add the dispatch function FUNC, whose dispatch is the one at LINE (0: the
   default choice), in the files FILE matches (NULL: in any): a checked
   spec, the plugin argument's or a selection file's.  */

void
dispatch_add (const char *func, int line, const char *file)
{
  dispatch_spec s = { xstrdup (func), line, file ? xstrdup (file) : NULL };
  specs.safe_push (s);
}

/* Add the colon-separated specs of LIST.  */

bool
dispatch_add_list (const char *list, const char *where)
{
  if (!list || !*list)
    {
      error ("dsprof: %s needs a colon-separated list of functions "
             "(FUNC or FUNC@LINE)", where);
      return false;
    }
  bool ok = true;
  char *copy = xstrdup (list);
  for (char *p = copy, *q; p; p = q)
    {
      q = strchr (p, ':');
      if (q)
        *q++ = '\0';
      ok &= dispatch_add_spec (p, where);
    }
  free (copy);
  return ok;
}

/* Note the enum types of the dispatch functions' switches as the front end
   parses them (registered when the plugin starts, before any function).  */

void
dsprof_dispatch_start (const char *plugin_name)
{
  register_callback (plugin_name, PLUGIN_PRE_GENERICIZE, pre_genericize, NULL);
}

bool
dsprof_dispatch_p (tree fndecl)
{
  return dsprof_opts.events && spec_for (fndecl) != NULL;
}

/* Choose the dispatch of FUN, a dispatch function, before its blocks are
   split (counters.cc): false after an error if it has none.  */

bool
dsprof_dispatch_prepare (function *fun)
{
  pending.truncate (0);
  pending_switch = NULL;
  pending_cases.truncate (0);
  pending_split.truncate (0);
  pending_past = NULL_TREE;
  if (!choose_dispatch (fun, spec_for (fun->decl), &pending))
    return false;
  if (pending_switch)
    {
      pending_past = past_label (fun, pending_switch);
      case_targets (fun, pending_switch, pending, &pending_cases);
    }
  return true;
}

/* Give FUN, whose entry block FIRST has FUN's entry edge as its only
   predecessor, the op hooks of the dispatch dsprof_dispatch_prepare chose:
   before events.cc's hooks, so that FUN's own Finish, if it is an event,
   comes after its last op record ends.  */

void
dsprof_instrument_dispatch (function *fun, basic_block first)
{
  static tree op_fn, begin_fn, end_fn;
  if (!op_fn)
    {
      op_fn = hook_decl ("__dsprof_op_v1", true);
      begin_fn = hook_decl ("__dsprof_op_begin_v1", false);
      end_fn = hook_decl ("__dsprof_op_end_v1", false);
    }
  vec<target> &targets = pending;
  for (unsigned i = 0; i < targets.length (); i++)
    targets[i].bb = label_to_block (fun, targets[i].label);

  /* A frame of its own: its CFA tells its op records from its callers'.  */
  DECL_UNINLINABLE (fun->decl) = 1;
  select_dispatch_exprs (fun->decl, dispatch_block (fun), &pending_dims);

  unsigned k0 = 0;
  for (unsigned i = 0; i < targets.length (); i++)
    {
      unsigned k = dsprof_add_op_site (targets[i].name, targets[i].loc);
      if (i == 0)
        k0 = k;
      free (targets[i].name);
    }
  dsprof_add_dispatch (k0, targets.length (), fun->decl);

  /* The return statements and the targets' first statements, found before
     any guard splits a block.  */
  auto_vec<gimple *> returns;
  dsprof_return_stmts (fun, &returns);

  /* (0), (1) */
  gimple_stmt_iterator gsi = gsi_after_labels (first);
  tree started = dsprof_read_events_flag (&gsi);
  insert_guarded (&gsi, started, begin_fn, NULL_TREE, NULL_TREE);

  /* (2) */
  if (pending_switch)
    hook_switch_edges (fun, pending_switch, pending_cases, op_fn, started, k0);
  else
    for (unsigned i = 0; i < targets.length (); i++)
      hook_label_block (targets[i].bb, op_fn, started, k0, i);

  /* (3) */
  if (pending_past)
    {
      gimple_stmt_iterator pgsi
        = gsi_after_labels (label_to_block (fun, pending_past));
      insert_guarded (&pgsi, started, end_fn, NULL_TREE, NULL_TREE);
    }
  for (unsigned i = 0; i < returns.length (); i++)
    {
      gimple_stmt_iterator rgsi = gsi_for_stmt (returns[i]);
      insert_guarded (&rgsi, started, end_fn, NULL_TREE, NULL_TREE);
    }
  pending.truncate (0);
  pending_switch = NULL;
  pending_past = NULL_TREE;
  dim_prog_release (&pending_dims);
}

/* Note the names of the dispatch functions asked for in the unit's metadata
   (metadata.cc, DSPROF_TAG_DISPATCH_ASKED), each once: the report tells a
   name no unit defines.  Whether there is one.  */

bool
dsprof_dispatch_asked (void)
{
  if (!dsprof_opts.events)
    return false;
  for (unsigned i = 0; i < specs.length (); i++)
    {
      unsigned k = 0;
      while (k < i && strcmp (specs[k].name, specs[i].name) != 0)
        k++;
      if (k == i)
        dsprof_add_dispatch_asked (specs[i].name);
    }
  return !specs.is_empty ();
}
