/* block-lines.cc - the blocks of the record and their lines: steps (3) and
   (4) of counters.cc.  A line's count is how often control reached it, as
   gcov counts it (docs/contract.md §3): so a jump folded into the CFG gets a
   block of its own, a block ends after a call that may not return, and a
   label's line belongs to the block it starts.  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"
#include "counters.h"

/* Whether LOC names a line of a file.  */

static bool
location_known_p (location_t loc)
{
  return !RESERVED_LOCATION_P (loc) && LOCATION_LINE (loc) > 0;
}

/* Add the expanded LOC to LOCS unless it is unknown or LOCS holds its line
   already; return whether it was added.  */

static bool
add_location (vec<expanded_location> *locs, location_t loc)
{
  if (!location_known_p (loc))
    return false;
  expanded_location x = expand_location (loc);
  if (!x.file)
    return false;
  for (unsigned i = 0; i < locs->length (); i++)
    if ((*locs)[i].line == x.line
        && ((*locs)[i].file == x.file || strcmp ((*locs)[i].file, x.file) == 0))
      return false;
  locs->safe_push (x);
  return true;
}

/* (3) Split E, whose location is that of a jump folded into the CFG: the
   new block's edge carries it.  Return the new block.  */

static basic_block
split_jump_edge (edge e)
{
  location_t locus = e->goto_locus;
  basic_block nb = split_edge (e);
  single_succ_edge (nb)->goto_locus = locus;
  return nb;
}

/* (3) Split edges out of BB whose goto_locus differs from the location of BB's
   last statement, as gcov's branch_prob does.  */

static void
split_jump_edges (function *fun)
{
  auto_vec<edge> to_split;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      if (single_succ_p (bb))
        continue;
      gimple *last = last_stmt (bb);
      if (!last || !location_known_p (gimple_location (last)))
        continue;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (!(e->flags & (EDGE_COMPLEX | EDGE_FAKE))
            && location_known_p (e->goto_locus)
            && e->dest != EXIT_BLOCK_PTR_FOR_FN (fun)
            && (LOCATION_LINE (e->goto_locus)
                  != LOCATION_LINE (gimple_location (last))
                || strcmp (LOCATION_FILE (e->goto_locus),
                           LOCATION_FILE (gimple_location (last))) != 0))
          to_split.safe_push (e);
    }
  for (unsigned i = 0; i < to_split.length (); i++)
    split_jump_edge (to_split[i]);
}

/* (3) Split every block of FUN after a call (or asm) that may not return,
   before the first statement after it on a line the block has not held yet,
   as gcov ends a block after such a call: the new block counts how often
   control came back and reached that line, where the block's count would say
   how often the block was entered (`my_exit (0); break;' ran the break as
   often as my_exit).  Lines held before the call need no new block: they
   were reached as often as the block was.  Nor does the rest of the call's
   own line, so the new block, starting on a line of its own, rarely holds a
   volatile access or another call, and its entry edge can stay on the
   spanning tree without a counter (7).  */

static void
split_after_calls (function *fun)
{
  basic_block bb;
  auto_vec<expanded_location> held;
  FOR_EACH_BB_FN (bb, fun)
    {
      held.truncate (0);
      bool pending = false, split = false;
      gimple *prev = NULL;
      for (gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
           !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          if (add_location (&held, gimple_location (stmt)) && pending)
            {
              /* The rest of the block goes on in BB's successor, which
                 the walk over the blocks reaches later.  */
              split_block (bb, prev);
              split = true;
              break;
            }
          pending |= (is_gimple_call (stmt) || is_a<gasm *> (stmt))
                     && dsprof_may_not_return_p (stmt);
          prev = stmt;
        }
      /* The location of a jump folded into the CFG (`break;' after the
         call) is a line of its own as well: its edge gets a block.  */
      if (pending && !split && single_succ_p (bb)
          && single_succ (bb) != EXIT_BLOCK_PTR_FOR_FN (fun))
        {
          edge e = single_succ_edge (bb);
          if (add_location (&held, e->goto_locus))
            single_pred_edge (split_jump_edge (e))->goto_locus
              = UNKNOWN_LOCATION;
        }
    }
}

/* (3) Give jumps folded into the CFG, and the lines after calls that may not
   return, blocks of their own in FUN.  */

void
dsprof_split_blocks (function *fun)
{
  split_jump_edges (fun);
  split_after_calls (fun);
}

/* (4) Put FUN's blocks in BLOCKS, FIRST first, and each one's lines in LOCS:
   its located statements (labels too, so that a `case' line has the count
   of the block it starts; debug statements do not count), the definition
   line for FIRST and the jump location of a single successor edge.  Return
   how many blocks have lines: those of the record.  */

unsigned
dsprof_block_lines (function *fun, basic_block first, vec<basic_block> *blocks,
                    vec<vec<expanded_location> > *locs)
{
  blocks->safe_push (first);
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    if (bb != first)
      blocks->safe_push (bb);
  unsigned counted = 0;
  for (unsigned i = 0; i < blocks->length (); i++)
    {
      vec<expanded_location> l = vNULL;
      bb = (*blocks)[i];
      for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb (bb);
           !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
        add_location (&l, gimple_location (gsi_stmt (gsi)));
      if (bb == first)
        add_location (&l, DECL_SOURCE_LOCATION (fun->decl));
      if (single_succ_p (bb))
        add_location (&l, single_succ_edge (bb)->goto_locus);
      counted += l.length () > 0;
      locs->safe_push (l);
    }
  return counted;
}

/* (4) Give the record the lines of each block that has some, in LOCS's
   order, and free them.  */

void
dsprof_record_lines (vec<vec<expanded_location> > *locs)
{
  for (unsigned i = 0; i < locs->length (); i++)
    {
      if (!(*locs)[i].is_empty ())
        dsprof_add_block ((*locs)[i].length (), (*locs)[i].address ());
      (*locs)[i].release ();
    }
}
