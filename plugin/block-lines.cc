/* block-lines.cc - the blocks of the record and their lines: steps (3) and
   (4) of counters.cc.  A line's count is how often control reached it, as
   gcov counts it (docs/contract.md §3): so a jump folded into the CFG gets a
   block of its own, a block ends after a call that may not return, and a
   label's line belongs to the block it starts, but for a label line counted
   by the conditional jumps to it (label_counted_by_jumps_p), and for a label
   heading a loop that GCC reshapes before gcov counts (reshape_label_loop).  */

#include "gcc-compat.h"
#include "cfgloop.h"
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

/* Whether LOC and the location of STMT are on the same line of a file.  */

static bool
same_line_p (location_t loc, gimple *stmt)
{
  location_t s = gimple_location (stmt);
  return location_known_p (loc) && location_known_p (s)
         && LOCATION_LINE (loc) == LOCATION_LINE (s)
         && strcmp (LOCATION_FILE (loc), LOCATION_FILE (s)) == 0;
}

/* Whether LOC's line holds a label that starts BB, and BB goes on to another
   line (a statement or the jump of its single successor edge).  gcov puts a
   block on the last line it holds (gcov.cc, add_line_counts) and counts a
   line by the arcs entering the blocks put on it: such a label's line is not
   BB's but that of the blocks gcov's branch_prob splits off the conditional
   jumps to the label, whose location is the label's (GCC's
   make_cond_expr_edges gives an edge the location of its destination's first
   statement).  So the line counts how often those jumps were taken, not how
   often BB ran: not a goto, nor a switch's jump, nor the way in falling
   through from the line before.  */

static bool
label_line_alone_p (basic_block bb, location_t loc)
{
  bool label = false, other = false;
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb (bb);
       !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
    {
      gimple *stmt = gsi_stmt (gsi);
      if (same_line_p (loc, stmt))
        label |= gimple_code (stmt) == GIMPLE_LABEL;
      else if (location_known_p (gimple_location (stmt)))
        other = true;
    }
  if (!label)
    return false;
  if (!other && single_succ_p (bb))
    {
      location_t go = single_succ_edge (bb)->goto_locus;
      other = location_known_p (go)
              && (LOCATION_LINE (go) != LOCATION_LINE (loc)
                  || strcmp (LOCATION_FILE (go), LOCATION_FILE (loc)) != 0);
    }
  return other;
}

/* Whether block A comes before block B in the chain of blocks.  */

static bool
before_p (basic_block a, basic_block b)
{
  for (basic_block x = a->next_bb; x; x = x->next_bb)
    if (x == b)
      return true;
  return false;
}

/* Whether BB, a block of its own split off jumps to a label that starts its
   successor, counts the label's line: the line of the jumps' location
   (label_line_alone_p), if it comes before the label (gcov gives a block
   the location of its jump only if no statement before had that very
   location, and the label has it: a jump back to the label, split after its
   source, has no line in gcov).  */

static bool
label_counted_by_jumps_p (basic_block bb)
{
  return single_succ_p (bb) && gsi_end_p (gsi_start_nondebug_bb (bb))
         && before_p (bb, single_succ (bb))
         && label_line_alone_p (single_succ (bb),
                                single_succ_edge (bb)->goto_locus);
}

/* (3) Give the blocks split off the jumps to each label whose line counts
   them (label_counted_by_jumps_p) one block after them holding the line, so
   that its count is the sum of those jumps, gcov's count of the line.  Each
   split block keeps its place, so a branch falls through as before, and
   loses the location on its way in, so that gcov's branch_prob, compiling
   the same code with --coverage, does not split that edge once more and
   count the jump twice on the line.  */

static void
join_label_jumps (vec<basic_block> *split)
{
  for (unsigned i = 0; i < split->length (); i++)
    {
      basic_block bb = (*split)[i];
      if (!bb || !label_counted_by_jumps_p (bb))
        continue;
      location_t locus = single_succ_edge (bb)->goto_locus;
      basic_block label = single_succ (bb), join = NULL;
      for (unsigned j = i + 1; j < split->length (); j++)
        {
          basic_block other = (*split)[j];
          if (!other || !single_succ_p (other) || single_succ (other) != label
              || !label_counted_by_jumps_p (other)
              || (LOCATION_LINE (single_succ_edge (other)->goto_locus)
                  != LOCATION_LINE (locus)))
            continue;
          if (!join)
            {
              join = split_jump_edge (single_succ_edge (bb));
              single_pred_edge (join)->goto_locus = UNKNOWN_LOCATION;
              single_pred_edge (bb)->goto_locus = UNKNOWN_LOCATION;
            }
          edge e = redirect_edge_and_branch (single_succ_edge (other), join);
          e->goto_locus = UNKNOWN_LOCATION;
          single_pred_edge (other)->goto_locus = UNKNOWN_LOCATION;
          (*split)[j] = NULL;
        }
    }
}

/* Whether GCC reshapes the loops of the functions after the counters pass and
   before gcov's instrumentation: the pass of -Wformat-overflow and
   -Wformat-truncation (both in -Wall) gives every loop a preheader and a
   single latch (loop_optimizer_init's LOOPS_NORMAL), whatever the -O level.  */

static bool
loops_reshaped_p (void)
{
  return warn_format_overflow > 0 || warn_format_trunc > 0;
}

/* Whether GCC's cfg cleanup reshapes the loops of FUN before gcov's
   instrumentation, whatever the -O level: cleanup_tree_cfg gives every loop
   header entered from more than one block outside the loop a forwarder
   block that keeps its labels and those ways in, the latches going on to the
   rest.  Two things ask for that cleanup at -O0: execute_fixup_cfg, when the
   function, in SSA form, calls a function declared const or pure (pass
   fixup_cfg2, and tree_profiling again just before branch_prob; a call of
   isdigit, a const __ctype_b_loc, or of strlen is enough), and the early
   inliner, when it inlines a function declared always_inline.  */

static bool
loops_cleaned_p (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        tree fndecl = is_gimple_call (stmt) ? gimple_call_fndecl (stmt) : NULL;
        if (fndecl
            && ((gimple_call_flags (stmt)
                 & (ECF_CONST | ECF_PURE | ECF_LOOPING_CONST_OR_PURE))
                || lookup_attribute ("always_inline",
                                     DECL_ATTRIBUTES (fndecl))))
          return true;
      }
  return false;
}

/* The ways into a loop's header that stay with its labels
   (reshape_label_loop).  */

static hash_set<edge> *label_edges;

static bool
label_edge_p (edge e)
{
  return label_edges->contains (e);
}

/* Whether E is not a way in that a depth-first walk takes last
   (reshape_label_loop).  */

static bool
dfs_forward_p (edge e)
{
  return !(e->flags & EDGE_DFS_BACK);
}

/* Whether BB holds labels only (a user label before a loop's own label, as
   `name: do ...': GCC gives each a block).  */

static bool
labels_only_p (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb (bb);
       !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
    if (gimple_code (gsi_stmt (gsi)) != GIMPLE_LABEL)
      return false;
  return true;
}

/* (3) If GCC reshapes loops (loops_reshaped_p, or with CLEANED
   loops_cleaned_p) and BB, a block starting with a label whose line it does
   not end (label_line_alone_p) or holding labels only, heads a loop, give
   its labels a block of their own that the ways in that gcov will count on
   the label's line enter, and send the others to the rest of BB, as GCC
   will do.  Return whether it did.  */

static bool
reshape_label_loop (basic_block bb, bool cleaned)
{
  class loop *l = bb->loop_father;
  gimple *label = first_stmt (bb);
  bool reshaped = loops_reshaped_p ();
  if (!(reshaped || cleaned) || !current_loops || !l || l->header != bb
      || !loop_outer (l) || !label || gimple_code (label) != GIMPLE_LABEL
      || !(label_line_alone_p (bb, gimple_location (label))
           || labels_only_p (bb)))
    return false;
  unsigned latches = 0;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->preds)
    {
      /* GCC leaves a loop entered abnormally (a computed goto) as it is.  */
      if (e->flags & EDGE_COMPLEX)
        return false;
      latches += flow_bb_inside_loop_p (l, e->src);
    }
  /* A single latch and a single way in: GCC splits the way in for a
     preheader, the labels stay.  The cleanup leaves a loop with a single
     way in as it is.  */
  if (!latches || (latches == 1 && EDGE_COUNT (bb->preds) < 3)
      || (!reshaped && EDGE_COUNT (bb->preds) - latches < 2))
    return false;
  /* The ways counted on the label's line once GCC has reshaped the loop: as
     make_forwarder_block leaves the labels with a single latch's preheader,
     the ways in from outside (and the latch if it is a jump carrying the
     label's location); as it leaves them with the block merging several
     latches, the latches and the jumps carrying the label's location; as
     the cleanup leaves them with its forwarder, the ways in (and the jumps
     carrying the label's location, which gcov counts on the line wherever
     they go).  */
  hash_set<edge> keep;
  FOR_EACH_EDGE (e, ei, bb->preds)
    {
      bool latch = flow_bb_inside_loop_p (l, e->src);
      bool jump = label_counted_by_jumps_p (e->src);
      if (latches == 1 || !reshaped ? !latch || jump : latch || jump)
        keep.add (e);
      /* As join_label_jumps: gcov is not to split the jump once more.  */
      if (jump && single_pred_p (e->src))
        single_pred_edge (e->src)->goto_locus = UNKNOWN_LOCATION;
    }
  label_edges = &keep;
  make_forwarder_block (bb, label_edge_p, NULL);
  label_edges = NULL;
  loops_state_set (LOOPS_NEED_FIXUP);
  /* With several latches the loop keeps BB, now the labels' block, for its
     header until the loops are fixed up, and the cleanup's walk over the
     loops (cleanup_tree_cfg_noloop) comes first: it takes a way into BB
     that a depth-first walk from the entry reaches BB by last
     (EDGE_DFS_BACK, when no dominators are at hand) for a latch, and when
     two other ways in remain, sends that one to a forwarder block after the
     labels' block (a jump to the label from code that is reached both
     around the label and through it: pcre2's RRETURN after a loop that
     RMATCH left and entered again, by way of RETURN_SWITCH).  Such a way in
     does not count on the label's line.  */
  if (!reshaped && latches > 1)
    {
      mark_dfs_back_edges (cfun);
      unsigned back = 0, in = 0;
      FOR_EACH_EDGE (e, ei, bb->preds)
        if (e->flags & EDGE_DFS_BACK)
          back++;
        else
          in++;
      if (back && in > 1)
        make_forwarder_block (bb, dfs_forward_p, NULL);
    }
  return true;
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
  auto_vec<basic_block> split;
  for (unsigned i = 0; i < to_split.length (); i++)
    split.safe_push (split_jump_edge (to_split[i]));
  auto_vec<basic_block> headers;
  FOR_EACH_BB_FN (bb, fun)
    headers.safe_push (bb);
  bool cleaned = !loops_reshaped_p () && loops_cleaned_p (fun);
  for (unsigned i = 0; i < headers.length (); i++)
    reshape_label_loop (headers[i], cleaned);
  join_label_jumps (&split);
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

/* Whether a block split off jumps to BB counts the line of LABEL, a label
   that starts BB (label_counted_by_jumps_p): then BB does not.  */

static bool
label_line_elsewhere_p (basic_block bb, gimple *label)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->preds)
    if (same_line_p (e->goto_locus, label)
        && label_counted_by_jumps_p (e->src))
      return true;
  return false;
}

/* Whether LOCS holds FILE and LINE.  */

static bool
has_line_p (const vec<expanded_location> &locs, const char *file, int line)
{
  for (unsigned i = 0; i < locs.length (); i++)
    if (locs[i].line == line && strcmp (locs[i].file, file) == 0)
      return true;
  return false;
}

/* Whether FILE and LINE, a line of the block whose lines gcov lists as L,
   is one gcov hangs the block on: the largest of a run of lines in one file
   (gcov.cc, add_line_counts).  If LABELS, whether instead larger lines of
   the same run come before it in L, all of them lines in LABELS.  */

static bool
gcov_line_p (const vec<expanded_location> &l, const char *file, int line,
             const vec<expanded_location> *labels)
{
  for (unsigned i = 0; i < l.length (); i++)
    {
      if (l[i].line != line || strcmp (l[i].file, file) != 0)
        continue;
      bool before = false, after = false, others = false;
      for (unsigned j = i; j-- > 0 && strcmp (l[j].file, file) == 0;)
        if (l[j].line > line)
          {
            before = true;
            others |= !labels || !has_line_p (*labels, file, l[j].line);
          }
      for (unsigned j = i + 1;
           j < l.length () && strcmp (l[j].file, file) == 0; j++)
        after |= l[j].line > line;
      if (labels ? before && !others : !before && !after)
        return true;
    }
  return false;
}

/* Whether gcov's instrumentation ends a block after STMT, a call that may
   not return or an asm (need_fake_edge_p of GCC's tree-cfg.cc, which
   gimple_flow_call_edges_add splits blocks by).  */

static bool
gcov_ends_block_p (gimple *stmt)
{
  if (gcall *call = dyn_cast<gcall *> (stmt))
    {
      if (gimple_call_internal_p (call))
        return false;
      int flags = gimple_call_flags (call);
      if (dsprof_gcov_builtin_returns_p (gimple_call_fndecl (call), flags))
        return false;
      return !(flags & (ECF_CONST | ECF_PURE))
             || (flags & ECF_LOOPING_CONST_OR_PURE);
    }
  if (gasm *asm_stmt = dyn_cast<gasm *> (stmt))
    return gimple_asm_volatile_p (asm_stmt) || gimple_asm_input_p (asm_stmt);
  return false;
}

/* gcov's blocks of BLOCKS, FUN's, and their lines as its .gcno lists them
   (profile.cc, branch_prob), in G: each of BLOCKS is one or more of them,
   as gcov ends a block after a call that may not return (gcov_ends_block_p);
   OWNER gives the index in BLOCKS of each, LABELS the lines of the labels
   that start it (none but for the first of a block).
   A block's lines: its located
   statements, labels too, the definition line for the first, and the
   location of a jump folded into its single successor edge unless a
   statement of this or an earlier block, or the definition, has that very
   location.  */

static void
gcov_block_lines (function *fun, vec<basic_block> *blocks,
                  vec<vec<expanded_location> > *g, vec<unsigned> *owner,
                  vec<vec<expanded_location> > *labels)
{
  hash_set<int_hash<location_t, 0, 2> > seen;
  for (unsigned i = 0; i < blocks->length (); i++)
    {
      basic_block bb = (*blocks)[i];
      vec<expanded_location> l = vNULL, lab = vNULL;
      for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb (bb);
           !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
        {
          glabel *label = dyn_cast<glabel *> (gsi_stmt (gsi));
          if (!label)
            break;
          add_location (&lab, gimple_location (label));
        }
      if (i == 0)
        {
          if (!RESERVED_LOCATION_P (DECL_SOURCE_LOCATION (fun->decl)))
            seen.add (DECL_SOURCE_LOCATION (fun->decl));
          add_location (&l, DECL_SOURCE_LOCATION (fun->decl));
        }
      for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb (bb);
           !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          location_t loc = gimple_location (stmt);
          if (!RESERVED_LOCATION_P (loc))
            seen.add (loc);
          add_location (&l, loc);
          gimple_stmt_iterator next = gsi;
          gsi_next_nondebug (&next);
          if (!gsi_end_p (next) && gcov_ends_block_p (stmt))
            {
              g->safe_push (l);
              owner->safe_push (i);
              labels->safe_push (lab);
              l = lab = vNULL;
            }
        }
      location_t go;
      if (single_succ_p (bb)
          && !RESERVED_LOCATION_P (go = single_succ_edge (bb)->goto_locus)
          && !seen.contains (go))
        add_location (&l, go);
      g->safe_push (l);
      owner->safe_push (i);
      labels->safe_push (lab);
    }
}

/* Whether LOCS[B] holds FILE and LINE, after its first line if AFTER.  */

static bool
holds_p (vec<vec<expanded_location> > *locs, unsigned b, const char *file,
         int line, bool after)
{
  vec<expanded_location> &l = (*locs)[b];
  for (unsigned i = after; i < l.length (); i++)
    if (l[i].line == line && strcmp (l[i].file, file) == 0)
      return true;
  return false;
}

/* Line numbers to the lists (by index) that hold them.  */

typedef hash_map<int_hash<int, 0, -1>, vec<unsigned> > line_index;

/* Index the lines of LISTS in INDEX.  */

static void
index_lines (vec<vec<expanded_location> > *lists, line_index *index)
{
  for (unsigned b = 0; b < lists->length (); b++)
    for (unsigned i = 0; i < (*lists)[b].length (); i++)
      {
        bool existed;
        vec<unsigned> &v = index->get_or_insert ((*lists)[b][i].line,
                                                 &existed);
        if (!existed)
          v = vNULL;
        if (v.is_empty () || v.last () != b)
          v.safe_push (b);
      }
}

static void
release_index (line_index *index)
{
  for (line_index::iterator it = index->begin (); it != index->end (); ++it)
    (*it).second.release ();
}

/* (4) Take a line off the lists in LOCS (of BLOCKS, FUN's) of the blocks
   that start with labels on later lines and hold it after them, when
   the gcov blocks that hang on it (hold no larger line of its file in a run
   of their lines) are those of a single block, and no other block holds it.
   gcov counts a line that blocks hang on by the ways into those blocks and
   the cycles among them, here the count of that one block, and leaves out
   the blocks that hold the line after a larger one: a `case' whose label
   byacc's #line directives put on the line after its rule's action (mawk's
   parse.y), whose action's line shows the count of the case above, whose
   label is there.  So the line's largest block is the one gcov counts.  A
   block keeps its first line.  Elsewhere (the increment of a `for' at the
   end of its body, a condition over several lines) the lines stay, and the
   largest block of such a line may be no count gcov shows.  */

static void
drop_lines_behind (function *fun, vec<basic_block> *blocks,
                   vec<vec<expanded_location> > *locs)
{
  auto_vec<vec<expanded_location> > g;
  auto_vec<unsigned> owner;
  auto_vec<vec<expanded_location> > labels;
  gcov_block_lines (fun, blocks, &g, &owner, &labels);
  line_index in_gcov, in_locs;
  index_lines (&g, &in_gcov);
  index_lines (locs, &in_locs);
  for (unsigned b = 0; b < locs->length (); b++)
    for (unsigned i = 1; i < (*locs)[b].length (); i++)
      {
        const char *file = (*locs)[b][i].file;
        int line = (*locs)[b][i].line;
        vec<unsigned> *gs = in_gcov.get (line);
        vec<unsigned> *ls = in_locs.get (line);
        if (!gs || !ls)
          continue;
        /* The one of BLOCKS whose gcov blocks hang on the line, if one,
           and whether any gcov block holds it behind the larger lines of
           its labels.  */
        unsigned hung = ~0U;
        bool other = false, behind = false;
        for (unsigned k = 0; k < gs->length () && !other; k++)
          {
            unsigned c = (*gs)[k];
            if (gcov_line_p (g[c], file, line, NULL))
              {
                other = (hung != ~0U && hung != owner[c])
                        || !holds_p (locs, owner[c], file, line, false);
                hung = owner[c];
              }
            else
              behind |= gcov_line_p (g[c], file, line, &labels[c]);
          }
        if (other || hung == ~0U || hung == b || !behind)
          continue;
        /* Every other block of LOCS that holds the line must hold it after
           its first line, and a gcov block of it behind its labels.  */
        for (unsigned k = 0; k < ls->length () && !other; k++)
          {
            unsigned c = (*ls)[k];
            if (c == hung || !holds_p (locs, c, file, line, false))
              continue;
            bool back = false;
            for (unsigned j = 0; j < gs->length (); j++)
              if (owner[(*gs)[j]] == c)
                back |= gcov_line_p (g[(*gs)[j]], file, line,
                                    &labels[(*gs)[j]]);
            other = !back || !holds_p (locs, c, file, line, true);
          }
        if (other)
          continue;
        for (unsigned k = 0; k < ls->length (); k++)
          {
            vec<expanded_location> &l = (*locs)[(*ls)[k]];
            if ((*ls)[k] != hung)
              for (unsigned j = 1; j < l.length (); j++)
                if (l[j].line == line && strcmp (l[j].file, file) == 0)
                  {
                    l.ordered_remove (j);
                    break;
                  }
          }
        /* (*locs)[b][i] is gone: look at the line now there.  */
        i--;
      }
  release_index (&in_gcov);
  release_index (&in_locs);
  for (unsigned b = 0; b < g.length (); b++)
    {
      g[b].release ();
      labels[b].release ();
    }
}

/* (4) Put FUN's blocks in BLOCKS, FIRST first, and each one's lines in LOCS:
   its located statements (labels too, so that a `case' line has the count
   of the block it starts, but for a label line that the jumps to the label
   count; debug statements do not count), the definition line for FIRST and
   the jump location of a single successor edge.  Return how many blocks
   have lines: those of the record.  */

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
        if (gimple_code (gsi_stmt (gsi)) != GIMPLE_LABEL
            || !label_line_elsewhere_p (bb, gsi_stmt (gsi)))
          add_location (&l, gimple_location (gsi_stmt (gsi)));
      if (bb == first)
        add_location (&l, DECL_SOURCE_LOCATION (fun->decl));
      if (single_succ_p (bb))
        add_location (&l, single_succ_edge (bb)->goto_locus);
      counted += l.length () > 0;
      locs->safe_push (l);
    }
  drop_lines_behind (fun, blocks, locs);
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
