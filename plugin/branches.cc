/* branches.cc - the branches of a function as gcov counts them, for
   DSPROF_TAG_BRANCHES (include/dsprof-format.h, section 3b): every block
   that ends in a conditional jump or a switch, on the line gcov gives its
   branches, and its ways out in gcov's order.  Their counts are edges of the
   flow record, so branches cost no counter.

   gcov (-b, --json-format) lists under a line the edges out of each block
   that ends on it and has more than one edge other than fake ones; a block
   ends on the largest line of its last run of statements of one file, the
   block being the part after the last call that may not return (profile.cc
   ends a block after such a call, as gcov's instrumentation sees it).  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"
#include "counters.h"

/* Whether gcov's instrumentation ends a block after STMT: a call that may
   not return or an asm that may jump (GCC's need_fake_edge_p, which calls
   of nothrow built-ins but fork, and of const or pure functions, need
   not).  */

static bool
gcov_call_split_p (gimple *stmt)
{
  if (gasm *a = dyn_cast<gasm *> (stmt))
    return gimple_asm_volatile_p (a) || gimple_asm_ninputs (a) > 0;
  if (!is_gimple_call (stmt))
    return false;
  tree fndecl = gimple_call_fndecl (stmt);
  int flags = gimple_call_flags (stmt);
  if (fndecl && fndecl_built_in_p (fndecl) && (flags & ECF_NOTHROW)
      && !(flags & ECF_RETURNS_TWICE)
      && !fndecl_built_in_p (fndecl, BUILT_IN_FORK))
    return false;
  return !((flags & (ECF_PURE | ECF_CONST))
           && !(flags & ECF_LOOPING_CONST_OR_PURE));
}

/* The line gcov puts the branches of BB on (line 0: none), FIRST if BB is
   the function's first block: the largest line of the last run of one file
   among the located statements after the last call gcov ends a block at,
   each file and line once (profile.cc's output_location), the definition
   line first in the first block.  */

static expanded_location
branch_line (function *fun, basic_block bb, bool first)
{
  gimple_stmt_iterator from = gsi_start_bb (bb);
  gimple *last = last_stmt (bb);
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (gsi_stmt (gsi) != last && gcov_call_split_p (gsi_stmt (gsi)))
      {
        from = gsi;
        gsi_next (&from);
        first = false;
      }
  expanded_location where = {};
  auto_vec<expanded_location> seen;
  auto take = [&] (location_t loc) {
    if (RESERVED_LOCATION_P (loc))
      return;
    expanded_location x = expand_location (loc);
    if (!x.file)
      return;
    for (unsigned i = 0; i < seen.length (); i++)
      if (seen[i].line == x.line && !strcmp (seen[i].file, x.file))
        return;
    seen.safe_push (x);
    if (!where.file || strcmp (where.file, x.file))
      where = x;
    else if (x.line > where.line)
      where.line = x.line;
  };
  if (first)
    take (DECL_SOURCE_LOCATION (fun->decl));
  for (gimple_stmt_iterator gsi = from; !gsi_end_p (gsi); gsi_next (&gsi))
    if (!is_gimple_debug (gsi_stmt (gsi)))
      take (gimple_location (gsi_stmt (gsi)));
  return where;
}

/* The countable edges out of BB.  */

static unsigned
countable_succs (basic_block bb)
{
  unsigned n = 0;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    n += !dsprof_uncountable_edge_p (e);
  return n;
}

/* (8) Put in OUT the blocks of FUN's BLOCKS (FIRST its first) that end in
   a branch with a line, in the order of the function's block chain, as gcov
   numbers them; before the counters go in, which change no statement of
   theirs.  */

void
dsprof_find_branches (function *fun, const vec<basic_block> &blocks,
                      basic_block first, vec<branch_block> *out)
{
  auto_vec<bool> listed;
  listed.safe_grow_cleared (last_basic_block_for_fn (fun));
  for (unsigned i = 0; i < blocks.length (); i++)
    listed[blocks[i]->index] = true;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    if (listed[bb->index] && countable_succs (bb) > 1)
      {
        branch_block b = { .bb = bb,
                           .where = branch_line (fun, bb, bb == first) };
        if (b.where.line > 0)
          out->safe_push (b);
      }
}

/* Order of (place of destination, edge) pairs.  */

static int
cmp_arc (const void *a, const void *b)
{
  const std::pair<int, unsigned> *x = (const std::pair<int, unsigned> *) a;
  const std::pair<int, unsigned> *y = (const std::pair<int, unsigned> *) b;
  if (x->first != y->first)
    return x->first < y->first ? -1 : 1;
  return x->second < y->second ? -1 : x->second > y->second;
}

/* (8) Record BRANCHES, whose edges are those of G: each block's countable
   edges by the place of their destination in the block chain, once the
   counters are in (a counter on an edge may have given it a block of its
   own, which gcov's instrumentation then sees), as gcov sorts a block's
   edges by destination.  An edge falls through if it is the jump to the
   next block, as gcov marks it.  */

void
dsprof_write_branches (flow_graph *g, const vec<branch_block> &branches)
{
  if (branches.is_empty ())
    return;
  hash_map<edge, unsigned> edge_of;
  for (unsigned i = 0; i < g->edges.length (); i++)
    if (g->edges[i].e)
      edge_of.put (g->edges[i].e, i);
  auto_vec<int> place;
  place.safe_grow_cleared (last_basic_block_for_fn (cfun));
  int n = 0;
  basic_block bb;
  FOR_ALL_BB_FN (bb, cfun)
    place[bb->index] = n++;
  auto_vec<std::pair<int, unsigned> > arcs;
  auto_vec<unsigned> rec;
  for (unsigned k = 0; k < branches.length (); k++)
    {
      arcs.truncate (0);
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, branches[k].bb->succs)
        if (unsigned *i = edge_of.get (e))
          arcs.safe_push (std::make_pair (place[e->dest->index], *i));
      arcs.qsort (cmp_arc);
      rec.truncate (0);
      for (unsigned j = 0; j < arcs.length (); j++)
        {
          edge ed = g->edges[arcs[j].second].e;
          bool fall = (ed->flags & EDGE_FALLTHRU)
                      || ((ed->flags & (EDGE_TRUE_VALUE | EDGE_FALSE_VALUE))
                          && ed->src->next_bb == ed->dest);
          rec.safe_push (g->rec_pos[arcs[j].second]);
          rec.safe_push (fall ? DSPROF_BRANCH_FALLTHROUGH : 0);
        }
      dsprof_add_branch (branches[k].where, arcs.length (), rec.address ());
    }
}
