/* counters.h - what the files of the counters pass share.  counters.cc lists
   the steps (0) to (9) and runs them; each file here does some of them.  */

#ifndef DSPROF_COUNTERS_H
#define DSPROF_COUNTERS_H

/* may-leave.cc: (1) the functions that may be left other than by returning,
   (5) the blocks that may, which get fake edges.  */
void dsprof_find_leaving_functions (void);
void dsprof_forget_leaving_functions (void);
bool dsprof_may_not_return_p (gimple *stmt);
bool dsprof_uncountable_edge_p (edge e);
bool dsprof_abnormal_target_p (basic_block bb);
bool dsprof_may_leave_p (basic_block bb);
bool dsprof_pinned_start_p (basic_block bb);
void dsprof_add_loop_sinks (function *fun, const vec<basic_block> &blocks,
                            vec<bool> &leaves, const vec<char> &kind);

/* block-lines.cc: (3) blocks split after jumps and calls, (4) their lines.  */
void dsprof_split_blocks (function *fun);
unsigned dsprof_block_lines (function *fun, basic_block first,
                             vec<basic_block> *blocks,
                             vec<vec<expanded_location> > *locs);

/* estimate.cc: (6) how often each block and edge runs, guessed.  */
struct flow_estimate
{
  auto_vec<double> freq;            /* by block index */
  hash_map<edge, double> share;     /* of its source's runs, by countable edge */

  void compute (function *fun);
  double weight (edge e);

private:
  void compute_shares (function *fun, const int *rpo, int n);
  double share_of (edge e);
};

#endif /* DSPROF_COUNTERS_H */
