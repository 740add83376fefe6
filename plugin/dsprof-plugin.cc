/* dsprof-plugin.cc - the dsprof GCC plugin: initialisation, arguments, the
   dsprof_event attribute.

   Use:
     gcc -fplugin=/path/dsprof.so [-fplugin-arg-dsprof-KEY[=VALUE] ...] -c file.c
     gcc file.o -ldsprof

   The arguments are the table plugin_args below (docs/contract.md §2);
   `gcc -fplugin=/path/dsprof.so -v --help' lists them.

   The work is done by the passes in counters.cc (block counters, with the
   files it names; the late pass in durable.cc) and the tables of
   metadata.cc; this file wires them into GCC.  */

#include "gcc-compat.h"
#include "plugin-version.h"
#include "dsprof-plugin.h"
#include "dsprof-format.h"

#include <fnmatch.h>

int plugin_is_GPL_compatible;

struct dsprof_options dsprof_opts = {
  .counters = true,
  .events = true,
  .update = DSPROF_UPDATE_DEFAULT,
  .functions = DSPROF_FUNCTIONS_ANNOTATED,
  .verbose = false,
  .include = NULL,
  .exclude = NULL,
  .select = NULL,
};

/* The help, plugin_help's, is set by plugin_init.  */
static struct plugin_info dsprof_plugin_info = {
  .version = "0.1",
  .help = NULL,
};

/* ---- The arguments: -fplugin-arg-dsprof-KEY[=VALUE] ---------------------- */

/* Where an argument's value goes: the member its parse function uses.  */
union plugin_arg_store
{
  bool *flag;
  enum dsprof_update *update;
  enum dsprof_functions *functions;
  char ***patterns;
  const char **file;
};

/* One argument, KEY.  PARSE reads its VALUE (NULL for a bare
   -fplugin-arg-dsprof-KEY) into STORE, or gives one error that names KEY
   and returns false.  SYNTAX is VALUE's, for the help (NULL: the argument
   takes no value); a choice's is its words separated by `|', which
   choice_index reads.  HELP is the argument's line in the plugin's help.  */
struct plugin_arg
{
  const char *key;
  const char *syntax;
  const char *help;
  bool (*parse) (const struct plugin_arg *arg, const char *value);
  union plugin_arg_store store;
};

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

/* The index of VALUE among the words of ARG's syntax, or -1 after an error
   that lists them.  */

static int
choice_index (const struct plugin_arg *arg, const char *value)
{
  const char *word = arg->syntax;
  for (int i = 0;; i++)
    {
      size_t len = strcspn (word, "|");
      if (value && strlen (value) == len && strncmp (value, word, len) == 0)
        return i;
      if (!word[len])
        break;
      word += len + 1;
    }
  /* The words as a list: each `|' written ", ".  */
  char *valid = XNEWVEC (char, 2 * strlen (arg->syntax) + 1), *q = valid;
  for (const char *p = arg->syntax; *p; p++)
    if (*p == '|')
      q = stpcpy (q, ", ");
    else
      *q++ = *p;
  *q = '\0';
  error ("dsprof: bad value %qs for argument %qs (valid: %s)",
         value ? value : "", arg->key, valid);
  free (valid);
  return -1;
}

/* A choice of two words (on|off): the first stores true.  */

static bool
parse_bool (const struct plugin_arg *arg, const char *value)
{
  int i = choice_index (arg, value);
  if (i >= 0)
    *arg->store.flag = i == 0;
  return i >= 0;
}

/* functions=: its words are those of enum dsprof_functions, in order.  */

static bool
parse_functions (const struct plugin_arg *arg, const char *value)
{
  int i = choice_index (arg, value);
  if (i >= 0)
    *arg->store.functions = (enum dsprof_functions) i;
  return i >= 0;
}

/* update=: its words are those of enum dsprof_update from
   DSPROF_UPDATE_SINGLE on, in order.  */

static bool
parse_update (const struct plugin_arg *arg, const char *value)
{
  int i = choice_index (arg, value);
  if (i >= 0)
    *arg->store.update = (enum dsprof_update) (DSPROF_UPDATE_SINGLE + i);
  return i >= 0;
}

/* An argument without a value, which stores true.  */

static bool
parse_flag (const struct plugin_arg *arg, const char *value)
{
  if (value)
    error ("dsprof: argument %qs takes no value", arg->key);
  *arg->store.flag = true;
  return !value;
}

static bool
parse_patterns (const struct plugin_arg *arg, const char *value)
{
  if (!value || !*value)
    {
      error ("dsprof: argument %qs needs a colon-separated list of patterns",
             arg->key);
      return false;
    }
  *arg->store.patterns = split_patterns (value);
  return true;
}

static bool
parse_file (const struct plugin_arg *arg, const char *value)
{
  bool ok = value && *value && !*arg->store.file;
  if (!ok)
    error ("dsprof: argument %qs needs one file name, given once", arg->key);
  *arg->store.file = value;
  return ok;
}

/* dispatch=, whose list dispatch.cc keeps.  */

static bool
parse_dispatch (const struct plugin_arg *arg, const char *value)
{
  char *where = xasprintf ("argument '%s'", arg->key);
  bool ok = dispatch_add_list (value, where);
  free (where);
  return ok;
}

/* The arguments, in the order of the help and of the error that lists the
   valid keys.  A new argument touches at most three code files: this file
   (its entry here, its default in dsprof_opts above, and a parse function
   if none above reads it), dsprof-plugin.h (its field in struct
   dsprof_options) and the file that acts on it.  Its documentation goes in
   docs/contract.md §2 and docs/dsprof.1 (PLUGIN ARGUMENTS), its test in
   testsuite/cases/plugin-args.  */

static const struct plugin_arg plugin_args[] = {
  { .key = "counters", .syntax = "on|off",
    .help = "basic-block counters (default on)",
    .parse = parse_bool, .store = { .flag = &dsprof_opts.counters } },
  { .key = "events", .syntax = "on|off",
    .help = "event hooks and op records (default on)",
    .parse = parse_bool, .store = { .flag = &dsprof_opts.events } },
  { .key = "update", .syntax = "single|atomic|thread",
    .help = "counter updates (default thread in an x86-64 executable, "
            "single elsewhere)",
    .parse = parse_update, .store = { .update = &dsprof_opts.update } },
  { .key = "functions", .syntax = "all|source|annotated",
    .help = "every function an event of type call, as compiled (all: "
            "inlined calls are not events) or as written (source: none "
            "inlined); default annotated",
    .parse = parse_functions,
    .store = { .functions = &dsprof_opts.functions } },
  { .key = "include", .syntax = "PAT[:PAT...]",
    .help = "instrument only functions whose name, file or file's base "
            "name matches a PAT (fnmatch)",
    .parse = parse_patterns, .store = { .patterns = &dsprof_opts.include } },
  { .key = "exclude", .syntax = "PAT[:PAT...]",
    .help = "instrument no function that matches a PAT (wins over "
            "include)",
    .parse = parse_patterns, .store = { .patterns = &dsprof_opts.exclude } },
  { .key = "verbose", .syntax = NULL,
    .help = "one line per instrumented function on stderr",
    .parse = parse_flag, .store = { .flag = &dsprof_opts.verbose } },
  { .key = "select", .syntax = "FILE",
    .help = "instrument what the selection file FILE says",
    .parse = parse_file, .store = { .file = &dsprof_opts.select } },
  { .key = "dispatch", .syntax = "FUNC[@LINE][:...]",
    .help = "op records for the opcodes each bytecode-VM function FUNC "
            "dispatches",
    .parse = parse_dispatch, .store = {} },
};

/* The entry of KEY in plugin_args, or NULL after an error that lists the
   valid keys.  */

static const struct plugin_arg *
find_argument (const char *key)
{
  for (const plugin_arg &a : plugin_args)
    if (strcmp (a.key, key) == 0)
      return &a;
  char *keys = xstrdup (plugin_args[0].key);
  for (size_t i = 1; i < ARRAY_SIZE (plugin_args); i++)
    keys = reconcat (keys, keys, ", ", plugin_args[i].key, NULL);
  error ("dsprof: unknown argument %qs (valid keys: %s)", key, keys);
  free (keys);
  return NULL;
}

/* The plugin's help, which `gcc -fplugin=dsprof.so -v --help' prints: what
   it is, then the arguments, a line each.  */

static char *
plugin_help (void)
{
  int width = 0;
  for (const plugin_arg &a : plugin_args)
    width = MAX (width, (int) (strlen (a.key)
                               + (a.syntax ? 1 + strlen (a.syntax) : 0)));
  char *help = xstrdup ("dsprof: basic-block counters and domain events for "
                        "dsprof (see dsprof(1))\n"
                        "arguments -fplugin-arg-dsprof-KEY[=VALUE]:");
  for (const plugin_arg &a : plugin_args)
    {
      char *arg = a.syntax ? concat (a.key, "=", a.syntax, NULL)
                           : xstrdup (a.key);
      char *line = xasprintf ("\n  %-*s  %s", width, arg, a.help);
      help = reconcat (help, help, line, NULL);
      free (line);
      free (arg);
    }
  return help;
}

/* Read the selection file of select=, if any: after every include= and
   exclude=, whose lists its directives add to.  Its dispatch directives,
   checked as it was read, join dispatch='s.  */

static bool
read_selection (void)
{
  if (!dsprof_opts.select)
    return true;
  if (!select_read (dsprof_opts.select))
    return false;
  for (unsigned i = 0; i < select_dispatch_count (); i++)
    {
      const char *file;
      int line;
      const char *func = select_dispatch_spec (i, &file, &line);
      dispatch_add (func, line, file);
    }
  return true;
}

/* Read INFO's arguments into dsprof_opts: every one, each bad one an error;
   return whether all were good.  */

static bool
parse_arguments (struct plugin_name_args *info)
{
  bool ok = true;
  for (int i = 0; i < info->argc; i++)
    {
      const plugin_arg *arg = find_argument (info->argv[i].key);
      if (!arg || !arg->parse (arg, info->argv[i].value))
        ok = false;
    }
  return ok && read_selection ();
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

static struct attribute_spec dsprof_event_attribute = {
  .name = "dsprof_event",
  .min_length = 0,
  .max_length = 1,
  .decl_required = false,
  .type_required = false,
  .function_type_required = false,
  .affects_type_identity = false,
  .handler = handle_dsprof_event_attribute,
  .exclude = NULL,
};

static void
register_attributes (void *, void *)
{
  register_attribute (&dsprof_event_attribute);
}

namespace {

/* A GIMPLE pass as a struct dsprof_pass describes it.  */
class gimple_pass : public gimple_opt_pass
{
public:
  gimple_pass (const pass_data &data, const dsprof_pass *pass,
               gcc::context *ctxt)
    : gimple_opt_pass (data, ctxt), pass (pass)
  {
  }

  bool
  gate (function *fun) final override
  {
    return pass->gate (fun);
  }

  unsigned int
  execute (function *fun) final override
  {
    return pass->execute (fun);
  }

private:
  const dsprof_pass *pass;
};

} // namespace

/* Run PASS right after the first instance of the pass named REF.  */

static void
insert_pass_after (const char *plugin, const dsprof_pass *pass,
                   const char *ref)
{
  const pass_data data = {
    .type = GIMPLE_PASS,
    .name = pass->name,
    .optinfo_flags = OPTGROUP_NONE,
    .tv_id = TV_NONE,
    .properties_required = pass->required,
    .properties_provided = 0,
    .properties_destroyed = 0,
    .todo_flags_start = 0,
    .todo_flags_finish = pass->todo_finish,
  };
  struct register_pass_info pass_info;
  pass_info.pass = new gimple_pass (data, pass, g);
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
  dsprof_plugin_info.help = plugin_help ();

  register_callback (info->base_name, PLUGIN_INFO, NULL, &dsprof_plugin_info);
  register_callback (info->base_name, PLUGIN_ATTRIBUTES, register_attributes,
                     NULL);

  if (dsprof_opts.counters || dsprof_opts.events)
    {
      /* Right after the CFG is built and before any optimisation, on
         functions brought there as at -O0, so the counted blocks, and thus
         the counts, are the same at every -O level.  */
      insert_pass_after (info->base_name, &dsprof_counters_pass, "cfg");
      if (dsprof_opts.counters)
        {
          /* Last of all (passes inserted later run before): update=thread's
             counters move into the thread's shard (threads.cc).  */
          insert_pass_after (info->base_name, &dsprof_shards_pass,
                             "optimized");
          /* After every GIMPLE optimisation: the counter stores that need
             not stay volatile become plain again.  */
          insert_pass_after (info->base_name, &dsprof_durable_pass,
                             "optimized");
          /* There too: the thread check of update=single (threads.cc).  */
          insert_pass_after (info->base_name, &dsprof_threads_pass,
                             "optimized");
        }
      dsprof_start_o0_view ();
      register_callback (info->base_name, PLUGIN_ALL_IPA_PASSES_START,
                         all_ipa_passes_start, NULL);
      if (dsprof_opts.events)
        dsprof_dispatch_start (info->base_name);
      /* functions=all's hooks go into the functions as compiled, after
         inlining (events.cc): inserted last, the pass runs before the
         counters' late passes above, which see its calls.  */
      if (dsprof_opts.events && dsprof_opts.functions == DSPROF_FUNCTIONS_ALL)
        insert_pass_after (info->base_name, &dsprof_compiled_events_pass,
                           "optimized");
    }
  return 0;
}
