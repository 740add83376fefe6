/* dsprof-plugin.h - what the plugin's files share: the options given with
   -fplugin-arg-dsprof-KEY=VALUE and the entry points of each file.  */

#ifndef DSPROF_PLUGIN_H
#define DSPROF_PLUGIN_H

#include "dsprof-format.h"

struct dsprof_options
{
  bool counters;             /* counters=on|off */
  bool events;               /* events=on|off */
  bool atomic;               /* update=atomic */
  bool all_functions;        /* functions=all */
  bool verbose;              /* verbose */
  char **include;            /* NULL-terminated fnmatch patterns, or NULL */
  char **exclude;
};

extern struct dsprof_options dsprof_opts;

/* dsprof-plugin.cc */
bool dsprof_selected_p (tree fndecl);

/* counters.cc: the counters pass, whose steps the files of counters.h do,
   and the event hooks of events.cc.  */
opt_pass *dsprof_make_pass (gcc::context *ctxt);
void dsprof_instrument_unit (void);

/* o0-view.cc: step (0) of counters.cc.  */
void dsprof_start_o0_view (void);
void dsprof_end_o0_view (void);

/* durable.cc: the late pass, step (9) of counters.cc.  */
opt_pass *dsprof_make_durable_pass (gcc::context *ctxt);

/* events.cc, and the helpers of its hooks that dispatch.cc shares.  */
bool dsprof_event_p (tree fndecl);
void dsprof_instrument_events (function *fun, basic_block first);
tree dsprof_insert_events_flag (gimple_stmt_iterator *gsi);
gcond *dsprof_insert_guard (gimple_stmt_iterator *gsi, tree started);
void dsprof_guard_block (gcond *guard, gcall *hook);
tree dsprof_insert_cfa (gimple_stmt_iterator *gsi, int offset);
tree dsprof_site_ref (unsigned k);
void dsprof_return_stmts (function *fun, vec<gimple *> *returns);

/* dispatch.cc: op records for the dispatch of a bytecode VM's functions
   (dispatch=FUNC[@LINE][:...]).  dispatch_add_spec adds one FUNC or
   FUNC@LINE, the plugin argument's or a selection file's, before the first
   function is parsed (the enum types of its switches are noted as the front
   end parses it); WHERE names its origin in the error it gives for a
   malformed one (then false).  dispatch_add_list adds a colon-separated
   list.  */
bool dispatch_add_spec (const char *spec, const char *where);
bool dispatch_add_list (const char *list, const char *where);
bool dsprof_dispatch_p (tree fndecl);
bool dsprof_dispatch_prepare (function *fun);
void dsprof_instrument_dispatch (function *fun, basic_block first);
void dsprof_dispatch_start (const char *plugin_name);

/* metadata.cc: the unit's tables, built up function by function, emitted once at
   the start of IPA when every function has been through the counters pass.  */
tree dsprof_counters_decl (void);
bool dsprof_counters_possible_p (void);
bool dsprof_counters_array_p (tree decl);
unsigned dsprof_begin_function (tree fndecl, unsigned nblocks);
void dsprof_add_block (unsigned nlocs, const expanded_location *locs);
void dsprof_add_flow (unsigned nnodes, unsigned nedges,
                      const unsigned long *edges, unsigned ncounted);
tree dsprof_sites_decl (void);
unsigned dsprof_add_site (tree fndecl, const char *type, unsigned nparams,
                          tree *params, const enum dsprof_dim_type *param_dims,
                          tree result_type, int result_dim);
unsigned dsprof_add_op_site (const char *name, location_t loc);
void dsprof_add_dispatch (unsigned first, unsigned n, tree fndecl);
void dsprof_emit_unit (void);
bool dsprof_unit_emitted_p (void);

#endif /* DSPROF_PLUGIN_H */
