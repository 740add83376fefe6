/* dsprof-plugin.h - what the plugin's files share: the options given with
   -fplugin-arg-dsprof-KEY=VALUE and the entry points of each file.  */

#ifndef DSPROF_PLUGIN_H
#define DSPROF_PLUGIN_H

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

/* counters.cc */
opt_pass *dsprof_make_counters_pass (gcc::context *ctxt);

/* metadata.cc: the unit's tables, built up function by function, emitted once at
   the start of IPA when every function has been through the counters pass.  */
tree dsprof_counters_decl (void);
unsigned dsprof_begin_function (tree fndecl, unsigned nblocks);
void dsprof_add_block (unsigned nlocs, const expanded_location *locs);
void dsprof_emit_unit (void);
bool dsprof_unit_emitted_p (void);

#endif /* DSPROF_PLUGIN_H */
