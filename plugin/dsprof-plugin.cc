/* dsprof-plugin.cc - the dsprof GCC plugin: initialisation, arguments, the
   dsprof_event attribute.

   Use:
     gcc -fplugin=/path/dsprof.so [-fplugin-arg-dsprof-KEY[=VALUE] ...] -c file.c
     gcc file.o -ldsprof

   Arguments (docs/contract.md §2):
     counters=on|off           basic-block counters (default on)
     events=on|off             event hooks for annotated functions (default on)
     update=single|atomic|thread  counter updates (default thread in an
                                  executable on x86-64, single elsewhere)
     functions=annotated|all   `all`: every function becomes an event of type `call`
     include=PAT[:PAT...]      instrument only functions whose name, source file or
     exclude=PAT[:PAT...]      file's base name matches an fnmatch PAT; exclude wins
     verbose                   one line per instrumented function on stderr
     select=FILE               what to instrument, as FILE says (select.cc)
     dispatch=FUNC[@LINE][:...]  op records for the dispatch of each FUNC
                               (dispatch.cc)

   The work is done by the passes in counters.cc (block counters, with the
   files it names; the late pass in durable.cc) and the tables of
   metadata.cc; this file wires them into GCC.  */

#include "gcc-compat.h"
#include "plugin-version.h"
#include "dsprof-plugin.h"
#include "dsprof-format.h"

#include <fnmatch.h>

int plugin_is_GPL_compatible;

struct dsprof_options dsprof_opts = { true, true, false, false, false, false, false, NULL, NULL };

static struct plugin_info dsprof_plugin_info = {
  "0.1",
  "dsprof: basic-block counters and domain events for dsprof (see dsprof(1))"
};

static const char valid_keys[]
  = "counters, events, update, functions, include, exclude, verbose, select, "
    "dispatch";

/* Split the colon-separated pattern list S into a NULL-terminated vector.  */

static char **
split_patterns (const char *s)
{
  unsigned n = 1;
  for (const char *p = s; *p; p++)
    n += *p == ':';
  char **v = XNEWVEC (char *, n + 1);
  unsigned i = 0;
  const char *start = s;
  for (const char *p = s;; p++)
    if (*p == ':' || *p == '\0')
      {
        if (p > start)
          v[i++] = xstrndup (start, p - start);
        if (*p == '\0')
          break;
        start = p + 1;
      }
  v[i] = NULL;
  return v;
}

/* Parse the boolean-like VALUE of KEY, one of the two words ON and OFF; store
   true for ON in *FLAG.  Return false, with an error, for anything else.  */

static bool
parse_choice (const char *key, const char *value, const char *on,
              const char *off, bool *flag)
{
  if (value && strcmp (value, on) == 0)
    *flag = true;
  else if (value && strcmp (value, off) == 0)
    *flag = false;
  else
    {
      error ("dsprof: bad value %qs for argument %qs (valid: %s, %s)",
             value ? value : "", key, on, off);
      return false;
    }
  return true;
}

static bool
parse_arguments (struct plugin_name_args *info)
{
  bool ok = true;
  const char *select = NULL;
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      const char *value = info->argv[i].value;
      if (strcmp (key, "counters") == 0)
        ok &= parse_choice (key, value, "on", "off", &dsprof_opts.counters);
      else if (strcmp (key, "events") == 0)
        ok &= parse_choice (key, value, "on", "off", &dsprof_opts.events);
      else if (strcmp (key, "update") == 0)
        {
          dsprof_opts.thread = value && strcmp (value, "thread") == 0;
          dsprof_opts.atomic = value && strcmp (value, "atomic") == 0;
          dsprof_opts.single = value && strcmp (value, "single") == 0;
          if (!dsprof_opts.thread && !dsprof_opts.atomic && !dsprof_opts.single)
            {
              error ("dsprof: bad value %qs for argument %qs (valid: %s, %s, "
                     "%s)", value ? value : "", key, "single", "atomic",
                     "thread");
              ok = false;
            }
        }
      else if (strcmp (key, "functions") == 0)
        ok &= parse_choice (key, value, "all", "annotated",
                            &dsprof_opts.all_functions);
      else if (strcmp (key, "include") == 0 || strcmp (key, "exclude") == 0)
        {
          if (!value || !*value)
            {
              error ("dsprof: argument %qs needs a colon-separated list of "
                     "patterns", key);
              ok = false;
              continue;
            }
          char ***list = key[0] == 'i' ? &dsprof_opts.include
                                       : &dsprof_opts.exclude;
          *list = split_patterns (value);
        }
      else if (strcmp (key, "dispatch") == 0)
        ok &= dispatch_add_list (value, "argument 'dispatch'");
      else if (strcmp (key, "verbose") == 0)
        {
          if (value)
            {
              error ("dsprof: argument %<verbose%> takes no value");
              ok = false;
            }
          dsprof_opts.verbose = true;
        }
      else if (strcmp (key, "select") == 0)
        {
          if (!value || !*value || select)
            {
              error ("dsprof: argument %<select%> needs one file name, given "
                     "once");
              ok = false;
            }
          select = value;
        }
      else
        {
          error ("dsprof: unknown argument %qs (valid keys: %s)", key,
                 valid_keys);
          ok = false;
        }
    }
  /* After the include= and exclude= arguments, whose lists the file's
     directives add to.  */
  if (ok && select)
    ok = select_read (select);
  /* The file's dispatch directives, checked as it was read, join dispatch=.  */
  for (unsigned i = 0; ok && select && i < select_dispatch_count (); i++)
    {
      const char *file;
      int line;
      const char *func = select_dispatch_spec (i, &file, &line);
      dispatch_add (func, line, file);
    }
  return ok;
}

/* Whether the fnmatch pattern PAT matches the source file FILE, as given to
   the compiler or by its base name: the one rule of include=, exclude= and
   a selection file's file= options.  */

bool
dsprof_file_matches_p (const char *pat, const char *file)
{
  return fnmatch (pat, file, 0) == 0 || fnmatch (pat, lbasename (file), 0) == 0;
}

/* The source file FNDECL is defined in.  */

const char *
dsprof_decl_file (tree fndecl)
{
  const char *file = DECL_SOURCE_FILE (fndecl);
  return file ? file : main_input_filename;
}

static bool
any_match (char **patterns, const char *name, const char *file)
{
  for (char **p = patterns; *p; p++)
    if (fnmatch (*p, name, 0) == 0 || dsprof_file_matches_p (*p, file))
      return true;
  return false;
}

/* Whether FNDECL is to be instrumented under include= and exclude=.  */

bool
dsprof_selected_p (tree fndecl)
{
  const char *name = lang_hooks.decl_printable_name (fndecl, 0);
  const char *file = dsprof_decl_file (fndecl);
  if (dsprof_opts.exclude && any_match (dsprof_opts.exclude, name, file))
    return false;
  return !dsprof_opts.include || any_match (dsprof_opts.include, name, file);
}

/* __attribute__((dsprof_event)) and __attribute__((dsprof_event("Type"))): check
   the use here; the events pass reads the attribute from the declaration.

   The spec does not require a declaration (decl_required would make GCC turn
   every use on a type into a mere -Wattributes warning, e.g. on a struct): the
   handler sees each use itself.  An attribute that GCC offers to a type on its
   way to a declaration (written inside a declarator, `int *__attribute__
   ((dsprof_event)) f (void)`), or to the type of a function being declared
   (`int eval (int) [[gnu::dsprof_event]];`), is handed back to be applied to
   the declaration, where the next call checks it: on a variable, typedef or
   field that is an error too.  Every other target that is not a function (a
   struct, union or enum type, a variable, field, parameter, typedef) is an
   error.  */

static tree
handle_dsprof_event_attribute (tree *node, tree name, tree args, int flags,
                               bool *no_add_attrs)
{
  if (!DECL_P (*node)
      && ((flags & ((int) ATTR_FLAG_DECL_NEXT | (int) ATTR_FLAG_FUNCTION_NEXT
                    | (int) ATTR_FLAG_ARRAY_NEXT))
          || FUNC_OR_METHOD_TYPE_P (*node)))
    {
      *no_add_attrs = true;
      return tree_cons (name, args, NULL_TREE);
    }
  if (TREE_CODE (*node) != FUNCTION_DECL)
    {
      error ("%qE attribute applies only to functions", name);
      *no_add_attrs = true;
      return NULL_TREE;
    }
  if (args && TREE_CODE (TREE_VALUE (args)) != STRING_CST)
    {
      error ("%qE attribute argument must be a string constant naming the "
             "event type", name);
      *no_add_attrs = true;
    }
  return NULL_TREE;
}

/* name, min and max arguments, decl_required, type_required,
   function_type_required, affects_type_identity, handler, exclusions.  */
static struct attribute_spec dsprof_event_attribute = {
  "dsprof_event", 0, 1, false, false, false, false,
  handle_dsprof_event_attribute, NULL
};

static void
register_attributes (void *, void *)
{
  register_attribute (&dsprof_event_attribute);
}

/* Run PASS right after the first instance of the pass named REF.  */

static void
insert_pass_after (const char *plugin, opt_pass *pass, const char *ref)
{
  struct register_pass_info pass_info;
  pass_info.pass = pass;
  pass_info.reference_pass_name = ref;
  pass_info.ref_pass_instance_number = 1;
  pass_info.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (plugin, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass_info);
}

/* At the start of IPA, instrument the unit and emit its tables; not at link
   time (-flto), where the units come instrumented.  */

static void
all_ipa_passes_start (void *, void *)
{
  if (!seen_error () && !in_lto_p)
    {
      dsprof_instrument_unit ();
      if (select_check_unit ())
        dsprof_emit_unit ();
    }
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("dsprof: this plugin was built for GCC %s (%s) and cannot run in "
             "GCC %s (%s); rebuild dsprof with this compiler",
             gcc_version.basever, gcc_version.datestamp, version->basever,
             version->datestamp);
      return 1;
    }
  if (!parse_arguments (info))
    return 1;

  register_callback (info->base_name, PLUGIN_INFO, NULL, &dsprof_plugin_info);
  register_callback (info->base_name, PLUGIN_ATTRIBUTES, register_attributes,
                     NULL);

  if (dsprof_opts.counters || dsprof_opts.events)
    {
      /* Right after the CFG is built and before any optimisation, on
         functions brought there as at -O0, so the counted blocks, and thus
         the counts, are the same at every -O level.  */
      insert_pass_after (info->base_name, dsprof_make_pass (g), "cfg");
      if (dsprof_opts.counters)
        {
          /* Last of all (passes inserted later run before): update=thread's
             counters move into the thread's shard (threads.cc).  */
          insert_pass_after (info->base_name, dsprof_make_shards_pass (g),
                             "optimized");
          /* After every GIMPLE optimisation: the counter stores that need
             not stay volatile become plain again.  */
          insert_pass_after (info->base_name, dsprof_make_durable_pass (g),
                             "optimized");
          /* There too: the thread check of update=single (threads.cc).  */
          insert_pass_after (info->base_name, dsprof_make_threads_pass (g),
                             "optimized");
        }
      dsprof_start_o0_view ();
      register_callback (info->base_name, PLUGIN_ALL_IPA_PASSES_START,
                         all_ipa_passes_start, NULL);
      if (dsprof_opts.events)
        dsprof_dispatch_start (info->base_name);
    }
  return 0;
}
