/* metadata.cc - the per-unit tables of dsprof-format.h: the counters array, the
   metadata blob, and the constructor and destructor that hand them to the
   runtime.

   The counters pass runs function by function and the number of counters is only
   known once every function has been through it, so the array is created with an
   incomplete type, referenced as it is, and completed at the start of IPA (before
   any optimisation looks at it):

     static uint64_t __dsprof_counters[N] __attribute__((aligned(4096)));
     static uint32_t __dsprof_sites[S];       (one word per event site, events.cc)
     static void _GLOBAL__sub_I_... (void)
     { __dsprof_register_unit_v1 (__dsprof_counters, N, "<metadata>", M,
                                  __dsprof_sites, S); }
     static void _GLOBAL__sub_D_... (void)
     { __dsprof_unregister_unit_v1 (__dsprof_counters, __dsprof_sites); }

   Either array is absent (a null pointer) when the unit has no counters, or no
   event sites.

   N is a multiple of DSPROF_COUNTERS_PER_PAGE so the array owns whole pages that
   the runtime maps the profile file over.  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"
#include "dsprof-format.h"

static tree counters_decl, sites_decl;
static unsigned ncounters, nsites;
static bool emitted;

struct buffer
{
  unsigned char *data;
  size_t len, size;
};

/* FUNCS holds the finished function records, RECORD the one being built,
   FLOW its DSPROF_TAG_FLOW record and BRANCHES the body of its
   DSPROF_TAG_BRANCHES record after its count, NBRANCHES; the file table is
   known only at the end, so the blob is assembled in dsprof_emit_unit.  */
static struct buffer funcs, sites, record, flow, branches;
static unsigned nbranches;
static vec<const char *> files;

/* Make room for N more bytes at the end of B; return where they go.  */

static unsigned char *
reserve (struct buffer *b, size_t n)
{
  if (b->len + n > b->size)
    {
      b->size = MAX (2 * b->size, b->len + n + 256);
      b->data = XRESIZEVEC (unsigned char, b->data, b->size);
    }
  return b->data + b->len;
}

/* Append to B: N bytes at P; a number, a string and a record as the codec
   (dsprof-format.h) encodes them.  */

static void
put_bytes (struct buffer *b, const void *p, size_t n)
{
  memcpy (reserve (b, n), p, n);
  b->len += n;
}

static void
put_uleb (struct buffer *b, uint64_t v)
{
  b->len = dsprof_encode_uleb (reserve (b, 10), v) - b->data;
}

static void
put_str (struct buffer *b, const char *s)
{
  size_t n = strlen (s);
  b->len = dsprof_encode_str (reserve (b, n + 10), s, n) - b->data;
}

/* Append REC to B as a record tagged TAG and empty REC.  */

static void
put_record (struct buffer *b, unsigned tag, struct buffer *rec)
{
  b->len = dsprof_encode_record (reserve (b, rec->len + 20), tag, rec->data,
                                 rec->len) - b->data;
  rec->len = 0;
}

/* The index of FILE in the unit's file table, adding it if new.  */

static unsigned
file_index (const char *file)
{
  for (unsigned i = 0; i < files.length (); i++)
    if (files[i] == file || strcmp (files[i], file) == 0)
      return i;
  files.safe_push (xstrdup (file));
  return files.length () - 1;
}

/* A new array of ELT_TYPE named NAME, of unknown size, static to the unit and
   left out of its debug information.  */

static tree
unit_array_decl (const char *name, tree elt_type)
{
  tree type = build_array_type (elt_type, NULL_TREE);
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
                          type);
  TREE_STATIC (decl) = 1;
  TREE_PUBLIC (decl) = 0;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  TREE_ADDRESSABLE (decl) = 1;
  return decl;
}

tree
dsprof_counters_decl (void)
{
  if (!counters_decl)
    counters_decl = unit_array_decl ("__dsprof_counters", uint64_type_node);
  return counters_decl;
}

/* Whether the functions compiled here may hold counter increments: those of
   this unit, or at link time (-flto with the plugin given to the link too)
   those of the units built with it.  */

bool
dsprof_counters_possible_p (void)
{
  return counters_decl != NULL_TREE || in_lto_p;
}

/* Whether DECL is a unit's counters array: this unit's, or at link time any
   unit's, which LTO may have renamed (__dsprof_counters.lto_priv.N).  */

bool
dsprof_counters_array_p (tree decl)
{
  static const char name[] = "__dsprof_counters";
  if (decl == NULL_TREE)
    return false;
  if (decl == counters_decl)
    return true;
  if (!in_lto_p || !VAR_P (decl) || !DECL_ARTIFICIAL (decl) || !DECL_NAME (decl))
    return false;
  const char *s = IDENTIFIER_POINTER (DECL_NAME (decl));
  return strncmp (s, name, sizeof name - 1) == 0
         && (s[sizeof name - 1] == '\0' || s[sizeof name - 1] == '.');
}

/* Move the function record being built, and its flow record, to FUNCS.  */

static void
finish_function (void)
{
  if (record.len)
    put_record (&funcs, DSPROF_TAG_FUNCTION, &record);
  if (flow.len)
    put_record (&funcs, DSPROF_TAG_FLOW, &flow);
  if (nbranches)
    {
      put_uleb (&flow, nbranches);
      put_bytes (&flow, branches.data, branches.len);
      put_record (&funcs, DSPROF_TAG_BRANCHES, &flow);
      branches.len = 0;
      nbranches = 0;
    }
}

/* Start the record of function FNDECL with NBLOCKS counted blocks, which
   dsprof_add_block then describes one by one; return the index of its first
   counter, which dsprof_add_flow reserves.  */

unsigned
dsprof_begin_function (tree fndecl, unsigned nblocks)
{
  finish_function ();
  expanded_location x = expand_location (DECL_SOURCE_LOCATION (fndecl));
  put_str (&record, lang_hooks.decl_printable_name (fndecl, 0));
  put_uleb (&record, file_index (x.file ? x.file : main_input_filename));
  put_uleb (&record, x.line);
  put_uleb (&record, ncounters);
  put_uleb (&record, nblocks);
  return ncounters;
}

/* Give the current function its flow record: NNODES nodes and NEDGES edges,
   EDGES holding (src, dst, how) for each (include/dsprof-format.h, section
   3a), NCOUNTED of them counted; reserve those counters.  */

void
dsprof_add_flow (unsigned nnodes, unsigned nedges, const unsigned long *edges,
                 unsigned ncounted)
{
  put_uleb (&flow, nnodes);
  put_uleb (&flow, nedges);
  for (unsigned i = 0; i < 3 * nedges; i++)
    put_uleb (&flow, edges[i]);
  ncounters += ncounted;
}

/* Add to the current function's branch record a block whose NARCS ways out,
   ARCS holding (flow record edge, DSPROF_BRANCH_* flags) for each, are
   branches on the line WHERE (include/dsprof-format.h, section 3b).  */

void
dsprof_add_branch (expanded_location where, unsigned narcs,
                   const unsigned *arcs)
{
  put_uleb (&branches, file_index (where.file));
  put_uleb (&branches, where.line);
  put_uleb (&branches, narcs);
  for (unsigned i = 0; i < 2 * narcs; i++)
    put_uleb (&branches, arcs[i]);
  nbranches++;
}

/* Add the next block of the current function, with its NLOCS locations LOCS.  */

void
dsprof_add_block (unsigned nlocs, const expanded_location *locs)
{
  put_uleb (&record, nlocs);
  for (unsigned i = 0; i < nlocs; i++)
    {
      put_uleb (&record, file_index (locs[i].file));
      put_uleb (&record, locs[i].line);
    }
}

tree
dsprof_sites_decl (void)
{
  if (!sites_decl)
    sites_decl = unit_array_decl ("__dsprof_sites", uint32_type_node);
  return sites_decl;
}

/* Describe the dimension NAME of values of TYPE recorded as DIM in RECORD.  */

static void
put_dim (const char *name, tree type, int dim)
{
  put_str (&record, name);
  put_uleb (&record, dim);
  if (dim != DSPROF_DIM_ENUM)
    return;
  unsigned n = 0;
  for (tree v = TYPE_VALUES (TYPE_MAIN_VARIANT (type)); v; v = TREE_CHAIN (v))
    n++;
  put_uleb (&record, n);
  for (tree v = TYPE_VALUES (TYPE_MAIN_VARIANT (type)); v; v = TREE_CHAIN (v))
    {
      tree val = TREE_VALUE (v);
      if (TREE_CODE (val) == CONST_DECL)
        val = DECL_INITIAL (val);
      /* Signed LEB128 through zigzag, as the format says for INT values.  */
      int64_t x = tree_fits_shwi_p (val) ? tree_to_shwi (val) : 0;
      put_uleb (&record, dsprof_zigzag (x));
      put_str (&record, IDENTIFIER_POINTER (TREE_PURPOSE (v)));
    }
}

/* Add the event site of FNDECL, of event type TYPE, with the NPARAMS recorded
   PARAMS, recorded as PARAM_DIMS, and a result of RESULT_TYPE recorded as
   RESULT_DIM; return its index in the unit's site array.  */

unsigned
dsprof_add_site (tree fndecl, const char *type, unsigned nparams, tree *params,
                 const enum dsprof_dim_type *param_dims, tree result_type,
                 int result_dim)
{
  expanded_location x = expand_location (DECL_SOURCE_LOCATION (fndecl));
  auto_vec<const char *> names;
  auto_vec<tree> types;
  for (unsigned i = 0; i < nparams; i++)
    {
      names.safe_push (IDENTIFIER_POINTER (DECL_NAME (params[i])));
      types.safe_push (TREE_TYPE (params[i]));
    }
  return dsprof_add_site_at (lang_hooks.decl_printable_name (fndecl, 0), x,
                             type, nparams, names.address (), types.address (),
                             param_dims, result_type, result_dim);
}

/* Add the event site of function NAME at X (a call site's function is its
   callee, X the call's place), of event type TYPE, with NDIMS dimensions
   NAMES of TYPES recorded as DIMS, and a result as in dsprof_add_site.  */

unsigned
dsprof_add_site_at (const char *name, expanded_location x, const char *type,
                    unsigned ndims, const char *const *names, tree *types,
                    const enum dsprof_dim_type *dims, tree result_type,
                    int result_dim)
{
  struct buffer saved = record;
  record = (struct buffer) { NULL, 0, 0 };
  put_uleb (&record, nsites);
  put_str (&record, type);
  put_str (&record, name);
  put_uleb (&record, file_index (x.file ? x.file : main_input_filename));
  put_uleb (&record, x.line);
  put_uleb (&record, ndims + 1);
  for (unsigned i = 0; i < ndims; i++)
    put_dim (names[i], types[i], dims[i]);
  put_dim ("result", result_type, result_dim);
  put_record (&sites, DSPROF_TAG_SITE, &record);
  XDELETEVEC (record.data);
  record = saved;
  return nsites++;
}

/* Add an op site (dispatch.cc): event type "op", named NAME, at LOC, with no
   dimension but a void result; return its index.  */

unsigned
dsprof_add_op_site (const char *name, location_t loc)
{
  struct buffer saved = record;
  record = (struct buffer) { NULL, 0, 0 };
  expanded_location x = expand_location (loc);
  put_uleb (&record, nsites);
  put_str (&record, "op");
  put_str (&record, name);
  put_uleb (&record, file_index (x.file ? x.file : main_input_filename));
  put_uleb (&record, x.line);
  put_uleb (&record, 1);
  put_dim ("result", void_type_node, DSPROF_DIM_NONE);
  put_record (&sites, DSPROF_TAG_SITE, &record);
  XDELETEVEC (record.data);
  record = saved;
  return nsites++;
}

/* Describe the dispatch of FNDECL, whose N targets are the sites FIRST ...
   (DSPROF_TAG_DISPATCH).  */

void
dsprof_add_dispatch (unsigned first, unsigned n, tree fndecl)
{
  struct buffer saved = record;
  record = (struct buffer) { NULL, 0, 0 };
  put_uleb (&record, first);
  put_uleb (&record, n);
  put_str (&record, lang_hooks.decl_printable_name (fndecl, 0));
  put_record (&sites, DSPROF_TAG_DISPATCH, &record);
  XDELETEVEC (record.data);
  record = saved;
}

/* Note that the unit was compiled to instrument the dispatch function FUNC
   (DSPROF_TAG_DISPATCH_ASKED).  */

void
dsprof_add_dispatch_asked (const char *func)
{
  struct buffer saved = record;
  record = (struct buffer) { NULL, 0, 0 };
  put_str (&record, func);
  put_record (&sites, DSPROF_TAG_DISPATCH_ASKED, &record);
  XDELETEVEC (record.data);
  record = saved;
}

bool
dsprof_unit_emitted_p (void)
{
  return emitted;
}

/* The call FN (ARGS...) of a void runtime function NAME taking TYPES.  */

static tree
runtime_call (const char *name, tree fntype, int nargs, ...)
{
  tree fn = build_fn_decl (name, fntype);
  va_list ap;
  va_start (ap, nargs);
  tree *args = XALLOCAVEC (tree, nargs);
  for (int i = 0; i < nargs; i++)
    args[i] = va_arg (ap, tree);
  va_end (ap);
  return build_call_expr_loc_array (BUILTINS_LOCATION, fn, nargs, args);
}

/* Complete the counters array and emit the metadata, constructor and destructor
   of the unit.  Called once, at the start of IPA.  */

/* Give DECL, referenced so far as an array of unknown size, N elements and
   ALIGN bytes of alignment, and emit it.  */

static void
complete_array (tree decl, unsigned n, unsigned align)
{
  TREE_TYPE (decl) = build_array_type_nelts (TREE_TYPE (TREE_TYPE (decl)), n);
  DECL_SIZE (decl) = NULL_TREE;
  DECL_SIZE_UNIT (decl) = NULL_TREE;
  layout_decl (decl, 0);
  SET_DECL_ALIGN (decl, align * BITS_PER_UNIT);
  DECL_USER_ALIGN (decl) = 1;
  varpool_node::finalize_decl (decl);
  /* finalize_decl analyses new variables only from IPA_SSA on; we are at IPA.  */
  varpool_node *node = varpool_node::get (decl);
  node->force_output = true;
  if (!node->analyzed)
    node->analyze ();
}

void
dsprof_emit_unit (void)
{
  emitted = true;
  /* A unit asked for dispatch functions registers even with nothing to
     count or record, so that the profile says which were asked for
     (dispatch.cc), with a one-element site array: no other unit's has its
     address.  Sites whose hooks come later (functions=all's, events.cc)
     need the array too.  */
  bool asked = dsprof_dispatch_asked ();
  if (nsites || (!counters_decl && asked))
    dsprof_sites_decl ();
  if (!counters_decl && !sites_decl)
    return;
  finish_function ();

  /* 1. The arrays: the counters in whole pages, page aligned.  */
  unsigned n = 0;
  if (counters_decl)
    {
      n = ROUND_UP (MAX (ncounters, 1u), DSPROF_COUNTERS_PER_PAGE);
      complete_array (counters_decl,
                      dsprof_unit_sink_p () ? DSPROF_COUNTERS_PER_PAGE + n : n,
                      DSPROF_PAGE);
    }
  if (sites_decl)
    complete_array (sites_decl, MAX (nsites, 1u), 4);

  /* 2. The blob: header, file table, function records.  */
  struct buffer blob = { .data = NULL, .len = 0, .size = 0 };
  put_uleb (&blob, DSPROF_META_VERSION);
  put_str (&blob, main_input_filename);
  put_str (&blob, getpwd ());
  for (unsigned i = 0; i < files.length (); i++)
    {
      put_str (&record, files[i]);
      put_record (&blob, DSPROF_TAG_FILE, &record);
    }
  put_bytes (&blob, funcs.data, funcs.len);
  put_bytes (&blob, sites.data, sites.len);

  /* 3. Constructor and destructor.  */
  tree addr = counters_decl ? build_fold_addr_expr (counters_decl)
                            : null_pointer_node;
  tree sites_addr = sites_decl ? build_fold_addr_expr (sites_decl)
                               : null_pointer_node;
  tree reg_type
    = build_function_type_list (void_type_node, ptr_type_node,
                                unsigned_type_node, const_ptr_type_node,
                                unsigned_type_node, ptr_type_node,
                                unsigned_type_node, NULL_TREE);
  tree unreg_type
    = build_function_type_list (void_type_node, ptr_type_node, ptr_type_node,
                                NULL_TREE);
  /* With update=thread the dsprof-shards pass makes it
     __dsprof_register_unit_thread_v1 where it moves the counters, which is
     at link time with -flto: linked without the plugin, the unit keeps its
     counts in its own array (plugin/threads.cc).  */
  tree reg = runtime_call ("__dsprof_register_unit_v1", reg_type, 6, addr,
                           build_int_cst (unsigned_type_node, n),
                           build_string_literal (blob.len,
                                                 (const char *) blob.data),
                           build_int_cst (unsigned_type_node, blob.len),
                           sites_addr,
                           build_int_cst (unsigned_type_node, nsites));
  /* At a reserved priority, as gcov's: the unit registers before the
     program's constructors of any priority run (they may record events), and
     unregisters after its destructors.  */
  cgraph_build_static_cdtor ('I', reg, MAX_RESERVED_INIT_PRIORITY - 1);
  cgraph_build_static_cdtor ('D', runtime_call ("__dsprof_unregister_unit_v1",
                                                unreg_type, 2,
                                                unshare_expr (addr),
                                                unshare_expr (sites_addr)),
                             MAX_RESERVED_INIT_PRIORITY - 1);
  /* GCC analyses (lowers) new functions between IPA passes; the first,
     free_lang_data, walks every function's CFG when it streams LTO bytecode
     (-flto), so the two must be lowered before it.  */
  symtab->process_new_functions ();
  XDELETEVEC (blob.data);
}
