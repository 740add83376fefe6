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

/* events.cc */
bool dsprof_event_p (tree fndecl);
void dsprof_instrument_events (function *fun, basic_block first);

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
void dsprof_emit_unit (void);
bool dsprof_unit_emitted_p (void);

#endif /* DSPROF_PLUGIN_H */
