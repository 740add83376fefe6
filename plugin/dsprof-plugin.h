/* dsprof-plugin.h - what the plugin's files share: the options given with
   -fplugin-arg-dsprof-KEY=VALUE and the entry points of each file.  */

#ifndef DSPROF_PLUGIN_H
#define DSPROF_PLUGIN_H

#include "dsprof-format.h"

/* update=: how the counters are updated.  */
enum dsprof_update
{
  DSPROF_UPDATE_DEFAULT,     /* no update=: thread or single, as
                                dsprof_update_thread_p says */
  /* The values of update=, in the order of its words in plugin_args
     (dsprof-plugin.cc).  */
  DSPROF_UPDATE_SINGLE,
  DSPROF_UPDATE_ATOMIC,
  DSPROF_UPDATE_THREAD
};

/* functions=: which functions are events, in the order of its words in
   plugin_args (dsprof-plugin.cc).  */
enum dsprof_functions
{
  DSPROF_FUNCTIONS_ALL,       /* every function, as compiled (events.cc) */
  DSPROF_FUNCTIONS_SOURCE,    /* every function of the source */
  DSPROF_FUNCTIONS_ANNOTATED  /* the annotated and selected ones */
};

/* What the arguments -fplugin-arg-dsprof-KEY[=VALUE] ask, each stored by its
   entry of the table plugin_args in dsprof-plugin.cc, which says how a new
   one is added.  */
struct dsprof_options
{
  bool counters;             /* counters=on|off */
  bool events;               /* events=on|off */
  enum dsprof_update update; /* update=single|atomic|thread */
  enum dsprof_functions functions; /* functions=all|source|annotated */
  bool verbose;              /* verbose */
  char **include;            /* NULL-terminated fnmatch patterns, or NULL */
  char **exclude;
  const char *select;        /* select=FILE, or NULL */
};

extern struct dsprof_options dsprof_opts;

/* One of dsprof's GIMPLE passes, which dsprof-plugin.cc puts in GCC's list:
   NAME (of its dumps), the properties it REQUIRED, the TODO flags it ends
   with (TODO_FINISH), whether it runs on a function (GATE) and what it does
   there (EXECUTE).  */
struct dsprof_pass
{
  const char *name;
  unsigned required;
  unsigned todo_finish;
  bool (*gate) (function *fun);
  unsigned int (*execute) (function *fun);
};

/* dsprof-plugin.cc */
bool dsprof_selected_p (tree fndecl);
bool dsprof_file_matches_p (const char *pat, const char *file);
const char *dsprof_decl_file (tree fndecl);

/* counters.cc: the counters pass, whose steps the files of counters.h do,
   and the event hooks of events.cc.  */
extern const dsprof_pass dsprof_counters_pass;
void dsprof_instrument_unit (void);

/* o0-view.cc: step (0) of counters.cc.  */
void dsprof_start_o0_view (void);
void dsprof_end_o0_view (void);

/* durable.cc: the late pass, step (9) of counters.cc.  */
extern const dsprof_pass dsprof_durable_pass;

/* threads.cc: whether the counters go into per-thread shards: update=thread,
   or by default where that costs little (an executable on x86-64).  */
bool dsprof_update_thread_p (void);
/* threads.cc: whether this unit's counters array has its sink (a page more,
   then as many counters again: include/dsprof-format.h, section 2b).  */
bool dsprof_unit_sink_p (void);
/* threads.cc: the late passes that, with update=single, count the threads,
   and with update=thread, move the counters into the threads' shards.  */
extern const dsprof_pass dsprof_threads_pass;
extern const dsprof_pass dsprof_shards_pass;

/* events.cc; the rest is what call-sites.cc and dispatch.cc build their hooks
   with.  */
bool dsprof_event_p (tree fndecl);
tree dsprof_instrument_events (function *fun, basic_block first);
extern const dsprof_pass dsprof_compiled_events_pass;
enum dsprof_dim_type dsprof_event_dim_type (tree type);
tree dsprof_word_value (gimple_stmt_iterator *gsi, tree expr,
                        enum dsprof_dim_type t);
tree dsprof_enter_hook (void);
tree dsprof_exit_hook (void);
tree dsprof_site_ref (unsigned k);
tree dsprof_read_events_flag (gimple_stmt_iterator *gsi);
gcond *dsprof_insert_guard (gimple_stmt_iterator *gsi, tree started);
gcall *dsprof_insert_hook (gimple_stmt_iterator *gsi, tree fn, tree site,
                           tree arg, int cfa_bias);
void dsprof_guard_block (gcond *guard, gcall *hook);
tree dsprof_insert_cfa (gimple_stmt_iterator *gsi, int offset);
void dsprof_return_stmts (function *fun, vec<gimple *> *returns);
tree dsprof_vals_array (gimple_stmt_iterator *gsi, vec<tree> &words);

/* call-sites.cc: the call sites that `call' directives of select.cc make
   events, found before the function's counters and hooks go in.  */
void dsprof_find_call_sites (function *fun, vec<gcall *> *sites);
void dsprof_instrument_call_sites (function *fun, basic_block first,
                                   tree started, vec<gcall *> &sites);

/* select.cc: the selection file (docs/select.md).  */
struct select_event;
struct select_call;
bool select_read (const char *path);
select_event *select_event_for (tree fndecl);
const char *select_event_type (select_event *e, tree fndecl);
bool select_event_result_p (select_event *e);
bool select_event_dim_p (select_event *e, tree parm);
void select_event_used (select_event *e);
bool select_check_unit (void);
const select_call *select_call_for (tree caller, tree callee, location_t loc);
const char *select_call_type (const select_call *c, tree callee);
bool select_call_result_p (const select_call *c);
unsigned select_call_nargs (const select_call *c);
const char *select_call_arg (const select_call *c, unsigned i);
void select_call_error (const select_call *c, tree callee, location_t loc,
                        const char *msg);
struct dim_prog;
bool select_event_exprs (select_event *e, tree fndecl, dim_prog *start,
                         dim_prog *finish);
bool select_dispatch_exprs (tree fndecl, tree block, dim_prog *prog);
unsigned select_dispatch_count (void);
const char *select_dispatch_spec (unsigned i, const char **file, int *line);

/* dispatch.cc: op records for the dispatch of a bytecode VM's functions
   (dispatch=FUNC[@LINE][:...]).  dispatch_add_spec adds one FUNC or
   FUNC@LINE, the plugin argument's or a selection file's, before the first
   function is parsed (the enum types of its switches are noted as the front
   end parses it); WHERE names its origin in the error it gives for a
   malformed one (then false).  dispatch_add_list adds a colon-separated
   list.  */
bool dispatch_add_spec (const char *spec, const char *where);
bool dispatch_add_list (const char *list, const char *where);
void dispatch_add (const char *func, int line, const char *file);
bool dsprof_dispatch_p (tree fndecl);
bool dsprof_dispatch_prepare (function *fun);
void dsprof_instrument_dispatch (function *fun, basic_block first);
void dsprof_dispatch_start (const char *plugin_name);
bool dsprof_dispatch_asked (void);

/* case-names.cc: the case labels of the dispatch functions' switches as the
   source writes them, noted before genericization.  */
void dsprof_note_cases (tree fndecl);
char *dsprof_case_name (location_t switch_loc, tree low, tree high);
char *dsprof_label_name (tree label);
bool dsprof_case_split (location_t switch_loc, tree low, tree high,
                        vec<char *> *names, vec<location_t> *locs);
const char *dsprof_lost_switch (tree fndecl, int line, int *switch_line);

/* metadata.cc: the unit's tables, built up function by function, emitted once at
   the start of IPA when every function has been through the counters pass.  */
tree dsprof_counters_decl (void);
bool dsprof_counters_possible_p (void);
bool dsprof_counters_array_p (tree decl);
unsigned dsprof_begin_function (tree fndecl, unsigned nblocks);
void dsprof_add_block (unsigned nlocs, const expanded_location *locs);
void dsprof_add_flow (unsigned nnodes, unsigned nedges,
                      const unsigned long *edges, unsigned ncounted);
void dsprof_add_branch (expanded_location where, unsigned narcs,
                        const unsigned *arcs);
tree dsprof_sites_decl (void);
unsigned dsprof_add_site (tree fndecl, const char *type, unsigned nparams,
                          tree *params, const enum dsprof_dim_type *param_dims,
                          tree result_type, int result_dim);
unsigned dsprof_add_site_at (const char *name, expanded_location x,
                             const char *type, unsigned ndims,
                             const char *const *names, tree *types,
                             const enum dsprof_dim_type *dims,
                             tree result_type, int result_dim);
unsigned dsprof_add_op_site (const char *name, location_t loc);
void dsprof_add_dispatch (unsigned first, unsigned n, tree fndecl);
void dsprof_add_dispatch_asked (const char *func);
void dsprof_emit_unit (void);
bool dsprof_unit_emitted_p (void);

#endif /* DSPROF_PLUGIN_H */
