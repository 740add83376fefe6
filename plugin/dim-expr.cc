/* dim-expr.cc - the expressions of a selection file's dims= items NAME=EXPR
   (docs/select.md, "Expressions"): parsed when the file is read, checked
   against the types and compiled into the small program of offsets and
   loads that the runtime evaluates fault-safely (runtime/dimread.c, whose
   comment describes the program).

     expr    := unary | unary '-' unary      the difference of two pointers
     unary   := '*' unary | postfix
     postfix := primary { '->' NAME | '.' NAME | '[' INTEGER ']' }
     primary := NAME | '(' expr ')'

   A subexpression is compiled to one of three places its value is: a part
   of a variable (the variable, a member of it, a constant index of it:
   read by the program itself, as a root word), in memory at a pointer plus
   an offset (a dereference, a member or an index of one: the pointer is on
   the runtime's stack, the offset folded into the load), or a value on the
   stack.  Only a dereference reads the program's memory, so only it can
   meet a null or unreadable pointer.  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"
#include "dim-expr.h"
#include "tree-pretty-print.h"

enum dn_kind
{
  DN_VAR, DN_ARROW, DN_DOT, DN_INDEX, DN_DEREF, DN_SUB
};

struct dim_node
{
  enum dn_kind kind;
  char *name;                   /* DN_VAR, DN_ARROW, DN_DOT */
  HOST_WIDE_INT index;          /* DN_INDEX */
  dim_node *a, *b;
};

/* The runtime's ops (runtime/dimread.c).  */
enum
{
  DX_END, DX_ROOT, DX_LOAD, DX_LEA, DX_DIFF
};
#define DX_SIGNED 1
#define DX_FLOAT 2

/* ---- parsing -------------------------------------------------------------- */

struct parser
{
  const char *p;
  char *why;
};

static dim_node *
new_node (enum dn_kind kind, dim_node *a)
{
  dim_node *n = XCNEW (dim_node);
  n->kind = kind;
  n->a = a;
  return n;
}

/* Fail at P's place: expected WHAT.  */

static dim_node *
expected (parser *ps, const char *what)
{
  if (!ps->why)
    ps->why = *ps->p ? xasprintf ("expected %s at '%s'", what, ps->p)
                     : xasprintf ("expected %s at its end", what);
  return NULL;
}

static char *
parse_name (parser *ps)
{
  const char *s = ps->p;
  if (!ISALPHA (*s) && *s != '_')
    return NULL;
  while (ISALNUM (*ps->p) || *ps->p == '_')
    ps->p++;
  return xstrndup (s, ps->p - s);
}

static dim_node *parse_expr (parser *ps);

static dim_node *
parse_primary (parser *ps)
{
  if (*ps->p == '(')
    {
      ps->p++;
      dim_node *n = parse_expr (ps);
      if (!n)
        return NULL;
      if (*ps->p != ')')
        return expected (ps, "')'");
      ps->p++;
      return n;
    }
  char *name = parse_name (ps);
  if (!name)
    return expected (ps, "a variable's name or '('");
  dim_node *n = new_node (DN_VAR, NULL);
  n->name = name;
  return n;
}

/* A constant index: a decimal or 0x number, maybe negative.  */

static bool
parse_index (parser *ps, HOST_WIDE_INT *v)
{
  const char *s = ps->p;
  char *end;
  errno = 0;
  long long x = strtoll (s, &end, 0);
  if (end == s || errno || !(ISDIGIT (*s) || (*s == '-' && ISDIGIT (s[1]))))
    return false;
  ps->p = end;
  *v = x;
  return true;
}

static dim_node *
parse_postfix (parser *ps)
{
  dim_node *n = parse_primary (ps);
  while (n)
    {
      enum dn_kind k;
      if (ps->p[0] == '-' && ps->p[1] == '>')
        k = DN_ARROW, ps->p += 2;
      else if (*ps->p == '.')
        k = DN_DOT, ps->p++;
      else if (*ps->p == '[')
        k = DN_INDEX, ps->p++;
      else
        return n;
      n = new_node (k, n);
      if (k == DN_INDEX)
        {
          if (!parse_index (ps, &n->index))
            return expected (ps, "a constant index");
          if (*ps->p != ']')
            return expected (ps, "']'");
          ps->p++;
        }
      else if (!(n->name = parse_name (ps)))
        return expected (ps, "a member's name");
    }
  return n;
}

static dim_node *
parse_unary (parser *ps)
{
  if (*ps->p == '*')
    {
      ps->p++;
      dim_node *a = parse_unary (ps);
      return a ? new_node (DN_DEREF, a) : NULL;
    }
  return parse_postfix (ps);
}

static dim_node *
parse_expr (parser *ps)
{
  dim_node *a = parse_unary (ps);
  if (!a || !(ps->p[0] == '-' && ps->p[1] != '>'))
    return a;
  ps->p++;
  dim_node *b = parse_unary (ps);
  if (!b)
    return NULL;
  dim_node *n = new_node (DN_SUB, a);
  n->b = b;
  if (ps->p[0] == '-' && ps->p[1] != '>')
    {
      ps->why = xasprintf ("one '-' at most (the difference of two "
                           "pointers), not '-%s'", ps->p + 1);
      return NULL;
    }
  return n;
}

dim_node *
dim_expr_parse (const char *text, char **why)
{
  parser ps = { text, NULL };
  dim_node *n = parse_expr (&ps);
  if (n && *ps.p)
    n = expected (&ps, "'->', '.', '[' or '-'");
  *why = ps.why;
  return n;
}

bool
dim_expr_uses (const dim_node *n, const char *name)
{
  if (!n)
    return false;
  if (n->kind == DN_VAR)
    return strcmp (n->name, name) == 0;
  return dim_expr_uses (n->a, name) || dim_expr_uses (n->b, name);
}

/* ---- checking and compiling ------------------------------------------- */

enum cv_where
{
  CV_VAR, CV_MEM, CV_VALUE
};

/* Where a subexpression's value is, and its type: CV_VAR, TREE a part of a
   variable; CV_MEM, at the pointer on the stack plus OFF; CV_VALUE, on the
   stack.  */
struct cval
{
  enum cv_where where;
  tree type;
  tree var;
  HOST_WIDE_INT off;
};

struct compiler
{
  dim_lookup lookup;
  void *data;
  dim_prog *prog;
  char *why;
  bool unknown;
};

static bool
fail (compiler *c, char *why)
{
  if (!c->why)
    c->why = why;
  else
    free (why);
  return false;
}

/* TYPE as C writes it, for the messages (not freed: one message a
   compilation).  */

static const char *
tstr (tree type)
{
  if (TREE_CODE (type) == ENUMERAL_TYPE && TYPE_NAME (type)
      && TREE_CODE (TYPE_NAME (type)) == IDENTIFIER_NODE)
    return concat ("enum ", IDENTIFIER_POINTER (TYPE_NAME (type)), NULL);
  return print_generic_expr_to_str (type);
}

static void
put_byte (compiler *c, unsigned b)
{
  c->prog->ops.safe_push ((unsigned char) b);
}

static void
put_uleb (compiler *c, uint64_t v)
{
  unsigned char buf[10];
  unsigned char *e = dsprof_encode_uleb (buf, v);
  for (unsigned char *q = buf; q < e; q++)
    put_byte (c, *q);
}

static void
put_cstr (compiler *c, const char *s)
{
  do
    put_byte (c, (unsigned char) *s);
  while (*s++);
}

/* The size of TYPE in bytes, or -1 if it has none known.  */

static HOST_WIDE_INT
size_of (tree type)
{
  tree s = TYPE_SIZE_UNIT (type);
  return s && tree_fits_shwi_p (s) ? tree_to_shwi (s) : -1;
}

/* Whether values of TYPE are words the runtime loads and records.  */

static bool
scalar_p (tree type)
{
  HOST_WIDE_INT n = size_of (type);
  switch (TREE_CODE (type))
    {
    case INTEGER_TYPE:
    case ENUMERAL_TYPE:
    case BOOLEAN_TYPE:
    case POINTER_TYPE:
      return n >= 1 && n <= 8;
    case REAL_TYPE:
      return n == 4 || n == 8;
    default:
      return false;
    }
}

/* Emit what puts the value of V on the stack; V becomes a CV_VALUE (an
   array a pointer to its first element).  */

static bool
to_value (compiler *c, cval *v)
{
  tree type = v->type;
  bool array = TREE_CODE (type) == ARRAY_TYPE;
  if (v->where == CV_VALUE)
    return true;
  if (!array && !scalar_p (type))
    return fail (c, xasprintf ("'%s' is not a value dsprof records (an "
                               "integer, a pointer, a floating-point number)",
                               tstr (type)));
  if (v->where == CV_VAR)
    {
      if (array)
        return fail (c, xasprintf ("an array variable as a pointer: index it "
                                   "('[0]') instead"));
      /* One word a variable (or part of one), whatever reads it.  */
      unsigned k = 0;
      while (k < c->prog->roots.length ()
             && !operand_equal_p (c->prog->roots[k], v->var, 0))
        k++;
      if (k > 255)
        return fail (c, xasprintf ("more than 256 variables"));
      if (k == c->prog->roots.length ())
        c->prog->roots.safe_push (v->var);
      put_byte (c, DX_ROOT);
      put_byte (c, k);
    }
  else if (array)
    {
      put_byte (c, DX_LEA);
      put_uleb (c, dsprof_zigzag (v->off));
    }
  else
    {
      put_byte (c, DX_LOAD);
      put_uleb (c, dsprof_zigzag (v->off));
      put_byte (c, size_of (type));
      put_byte (c, (TREE_CODE (type) == REAL_TYPE ? DX_FLOAT : 0)
                   | (TREE_CODE (type) != POINTER_TYPE && !TYPE_UNSIGNED (type)
                      ? DX_SIGNED : 0));
    }
  if (array)
    type = build_pointer_type (TREE_TYPE (type));
  *v = (cval) { CV_VALUE, type, NULL_TREE, 0 };
  return true;
}

/* The memory the pointer V points to: *V.  */

static bool
deref (compiler *c, cval *v, const char *op)
{
  tree type = v->type;
  if (TREE_CODE (type) != POINTER_TYPE && TREE_CODE (type) != ARRAY_TYPE)
    return fail (c, xasprintf ("'%s' applied to '%s', which is not a pointer", op,
                               tstr (type)));
  tree target = TREE_TYPE (type);
  if (TREE_CODE (type) == POINTER_TYPE
      && (VOID_TYPE_P (target) || TREE_CODE (target) == FUNCTION_TYPE
          || !COMPLETE_TYPE_P (target)))
    return fail (c, xasprintf ("'%s' applied to '%s', a pointer to no object "
                               "type known here", op, tstr (type)));
  if (TREE_CODE (type) == ARRAY_TYPE)
    {
      /* The first element, where the array is.  */
      if (v->where == CV_VAR)
        v->var = build4 (ARRAY_REF, target, v->var, size_zero_node, NULL_TREE,
                         NULL_TREE);
      v->type = target;
      return true;
    }
  if (!to_value (c, v))
    return false;
  *v = (cval) { CV_MEM, target, NULL_TREE, 0 };
  return true;
}

/* The member NAME of the struct or union TYPE, with its place in the
   anonymous members it lies in: PATH, outermost first.  */

static bool
find_member (tree type, const char *name, vec<tree> *path)
{
  for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
    {
      if (TREE_CODE (f) != FIELD_DECL)
        continue;
      path->safe_push (f);
      if (DECL_NAME (f) && strcmp (IDENTIFIER_POINTER (DECL_NAME (f)), name) == 0)
        return true;
      if (!DECL_NAME (f) && RECORD_OR_UNION_TYPE_P (TREE_TYPE (f))
          && find_member (TREE_TYPE (f), name, path))
        return true;
      path->pop ();
    }
  return false;
}

static bool
member (compiler *c, cval *v, const char *name, const char *op)
{
  tree type = TYPE_MAIN_VARIANT (v->type);
  if (!RECORD_OR_UNION_TYPE_P (type))
    return fail (c, xasprintf ("'%s%s' applied to '%s', which is not a struct "
                               "or union", op,
                               name, tstr (v->type)));
  if (!COMPLETE_TYPE_P (type))
    return fail (c, xasprintf ("'%s%s': '%s' is incomplete here", op, name,
                               tstr (v->type)));
  auto_vec<tree> path;
  if (!find_member (type, name, &path))
    return fail (c, xasprintf ("'%s' has no member '%s'", tstr (v->type),
                               name));
  for (unsigned i = 0; i < path.length (); i++)
    {
      tree f = path[i];
      if (DECL_BIT_FIELD_TYPE (f))
        return fail (c, xasprintf ("member '%s' is a bit-field, which dsprof "
                                   "does not read", name));
      if (!tree_fits_shwi_p (byte_position (f)))
        return fail (c, xasprintf ("member '%s' has no constant place in "
                                   "'%s'", name, tstr (v->type)));
      if (v->where == CV_VAR)
        v->var = build3 (COMPONENT_REF, TREE_TYPE (f), v->var, f, NULL_TREE);
      else
        v->off += int_byte_position (f);
      v->type = TREE_TYPE (f);
    }
  return true;
}

static bool
index_of (compiler *c, cval *v, HOST_WIDE_INT k)
{
  tree type = v->type;
  if (TREE_CODE (type) == POINTER_TYPE && !deref (c, v, "[]"))
    return false;
  if (TREE_CODE (type) == POINTER_TYPE)
    {
      HOST_WIDE_INT n = size_of (v->type);
      if (n < 0)
        return fail (c, xasprintf ("an index of '%s', whose elements have no "
                                   "size", tstr (type)));
      v->off += k * n;
      return true;
    }
  if (TREE_CODE (type) != ARRAY_TYPE)
    return fail (c, xasprintf ("an index of '%s', not an array or a pointer",
                               tstr (type)));
  tree elt = TREE_TYPE (type);
  HOST_WIDE_INT n = size_of (elt);
  if (n < 0)
    return fail (c, xasprintf ("an index of '%s', whose elements have no size",
                               tstr (type)));
  /* A variable's own array is read by the program: within its bounds.  */
  tree dom = TYPE_DOMAIN (type);
  if (v->where == CV_VAR
      && (!dom || !TYPE_MAX_VALUE (dom)
          || !tree_fits_shwi_p (TYPE_MAX_VALUE (dom)) || k < 0
          || k > tree_to_shwi (TYPE_MAX_VALUE (dom))))
    return fail (c, xasprintf ("index %ld out of the bounds of '%s'", (long) k,
                               tstr (type)));
  if (v->where == CV_VAR)
    v->var = build4 (ARRAY_REF, elt, v->var, build_int_cst (ssizetype, k),
                     NULL_TREE, NULL_TREE);
  else
    v->off += k * n;
  v->type = elt;
  return true;
}

static bool gen (compiler *c, const dim_node *n, cval *v);

/* A - B, of two pointers to one type: how many elements apart.  */

static bool
difference (compiler *c, const dim_node *n, cval *v)
{
  cval a, b;
  if (!gen (c, n->a, &a) || !to_value (c, &a) || !gen (c, n->b, &b)
      || !to_value (c, &b))
    return false;
  if (TREE_CODE (a.type) != POINTER_TYPE || TREE_CODE (b.type) != POINTER_TYPE)
    return fail (c, xasprintf ("'-' of '%s' and '%s': dsprof subtracts two "
                               "pointers only", tstr (a.type), tstr (b.type)));
  tree ta = TYPE_MAIN_VARIANT (TREE_TYPE (a.type));
  tree tb = TYPE_MAIN_VARIANT (TREE_TYPE (b.type));
  if (ta != tb)
    return fail (c, xasprintf ("'-' of pointers to different types, '%s' and "
                               "'%s'", tstr (a.type), tstr (b.type)));
  HOST_WIDE_INT size = size_of (ta);
  if (size <= 0)
    return fail (c, xasprintf ("'-' of '%s', whose elements have no size",
                               tstr (a.type)));
  put_byte (c, DX_DIFF);
  put_uleb (c, size);
  *v = (cval) { CV_VALUE, ptrdiff_type_node, NULL_TREE, 0 };
  return true;
}

static bool
gen (compiler *c, const dim_node *n, cval *v)
{
  switch (n->kind)
    {
    case DN_VAR:
      {
        tree decl = c->lookup (n->name, c->data);
        if (!decl)
          {
            c->unknown = true;
            return fail (c, xasprintf ("no variable '%s'", n->name));
          }
        *v = (cval) { CV_VAR, TREE_TYPE (decl), decl, 0 };
        return true;
      }
    case DN_DOT:
      return gen (c, n->a, v) && member (c, v, n->name, ".");
    case DN_ARROW:
      return gen (c, n->a, v) && deref (c, v, "->") && member (c, v, n->name, "->");
    case DN_DEREF:
      return gen (c, n->a, v) && deref (c, v, "*");
    case DN_INDEX:
      return gen (c, n->a, v) && index_of (c, v, n->index);
    case DN_SUB:
      return difference (c, n, v);
    }
  gcc_unreachable ();
}

/* The enum table of TYPE, as the runtime reads it.  */

static void
put_enum (compiler *c, tree type)
{
  unsigned n = 0;
  for (tree e = TYPE_VALUES (type); e; e = TREE_CHAIN (e))
    n++;
  put_uleb (c, n);
  for (tree e = TYPE_VALUES (type); e; e = TREE_CHAIN (e))
    {
      tree val = TREE_VALUE (e);
      if (TREE_CODE (val) == CONST_DECL)
        val = DECL_INITIAL (val);
      put_uleb (c, dsprof_zigzag (tree_fits_shwi_p (val) ? tree_to_shwi (val)
                                                          : 0));
      put_cstr (c, IDENTIFIER_POINTER (TREE_PURPOSE (e)));
    }
}

bool
dim_expr_compile (const dim_expr *e, dim_lookup lookup, void *data,
                  dim_prog *prog, char **why, bool *unknown)
{
  if (prog->n == 255)
    {
      *why = xasprintf ("more than 255 computed dimensions in one place");
      *unknown = false;
      return false;
    }
  compiler c = { lookup, data, prog, NULL, false };
  unsigned mark = prog->ops.length (), nroots = prog->roots.length ();
  put_cstr (&c, e->name);
  unsigned kind_at = prog->ops.length ();
  put_byte (&c, 0);
  cval v;
  bool ok = gen (&c, e->ast, &v) && to_value (&c, &v);
  tree type = ok ? TYPE_MAIN_VARIANT (v.type) : NULL_TREE;
  enum dsprof_dim_type kind = ok ? dsprof_event_dim_type (type) : DSPROF_DIM_NONE;
  if (ok && kind == DSPROF_DIM_NONE)
    ok = fail (&c, xasprintf ("'%s' is not a value dsprof records (an integer, "
                              "a pointer, a floating-point number)",
                              tstr (v.type)));
  if (ok && kind == DSPROF_DIM_ENUM)
    {
      /* The table goes before the ops: move them after it.  */
      auto_vec<unsigned char> ops;
      for (unsigned i = kind_at + 1; i < prog->ops.length (); i++)
        ops.safe_push (prog->ops[i]);
      prog->ops.truncate (kind_at + 1);
      put_enum (&c, type);
      for (unsigned i = 0; i < ops.length (); i++)
        put_byte (&c, ops[i]);
    }
  if (!ok)
    {
      prog->ops.truncate (mark);
      prog->roots.truncate (nroots);
      *why = c.why;
      *unknown = c.unknown;
      return false;
    }
  prog->ops[kind_at] = (unsigned char) kind;
  put_byte (&c, DX_END);
  prog->n++;
  return true;
}

/* ---- the hook ------------------------------------------------------------ */

static tree
dims_hook (void)
{
  static tree fn;
  if (!fn)
    fn = build_fn_decl ("__dsprof_dims_v1",
                        build_function_type_list (void_type_node,
                                                  const_ptr_type_node,
                                                  build_pointer_type
                                                    (uint64_type_node),
                                                  ptr_type_node,
                                                  build_pointer_type
                                                    (uint32_type_node),
                                                  NULL_TREE));
  return fn;
}

/* A new static array of N words, zero: the ids of N dimensions' names,
   which the runtime fills on first use (runtime/dimread.c).  */

static tree
ids_decl (unsigned n)
{
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
                          create_tmp_var_name ("__dsprof_dim_ids"),
                          build_array_type_nelts (uint32_type_node, n));
  TREE_STATIC (decl) = 1;
  TREE_PUBLIC (decl) = 0;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  TREE_ADDRESSABLE (decl) = 1;
  varpool_node::finalize_decl (decl);
  /* finalize_decl analyses new variables only from IPA_SSA on; the hooks go
     in at the start of IPA (metadata.cc does the same).  */
  varpool_node *node = varpool_node::get (decl);
  if (!node->analyzed)
    node->analyze ();
  return decl;
}

gcall *
dim_prog_insert (gimple_stmt_iterator *gsi, dim_prog *prog, tree retval,
                 int cfa_bias)
{
  if (!prog->n)
    return NULL;
  auto_vec<unsigned char> bytes;
  bytes.safe_push ((unsigned char) prog->n);
  for (unsigned i = 0; i < prog->ops.length (); i++)
    bytes.safe_push (prog->ops[i]);
  tree text = build_string_literal (bytes.length (),
                                    (const char *) bytes.address ());
  tree vals = null_pointer_node;
  if (!prog->roots.is_empty ())
    {
      if (!prog->vals)
        {
          tree atype = build_array_type_nelts (uint64_type_node,
                                               prog->roots.length ());
          prog->vals = create_tmp_var (atype, "dsprof_roots");
          TREE_ADDRESSABLE (prog->vals) = 1;
        }
      for (unsigned i = 0; i < prog->roots.length (); i++)
        {
          tree r = prog->roots[i];
          if (TREE_CODE (r) == RESULT_DECL && retval)
            r = retval;
          enum dsprof_dim_type t = TREE_CODE (TREE_TYPE (r)) == REAL_TYPE
                                   ? DSPROF_DIM_DOUBLE : DSPROF_DIM_INT;
          tree w = dsprof_word_value (gsi, unshare_expr (r), t);
          tree ref = build4 (ARRAY_REF, uint64_type_node, prog->vals,
                             build_int_cst (integer_type_node, i), NULL_TREE,
                             NULL_TREE);
          gsi_insert_before (gsi, gimple_build_assign (ref, w), GSI_SAME_STMT);
        }
      vals = build_fold_addr_expr (prog->vals);
    }
  if (!prog->ids)
    prog->ids = ids_decl (prog->n);
  tree cfa = dsprof_insert_cfa (gsi, cfa_bias);
  gcall *call = gimple_build_call (dims_hook (), 4, text, vals, cfa,
                                   build_fold_addr_expr (prog->ids));
  gsi_insert_before (gsi, call, GSI_SAME_STMT);
  return call;
}

void
dim_prog_release (dim_prog *prog)
{
  prog->ops.release ();
  prog->roots.release ();
  prog->n = 0;
  prog->vals = NULL_TREE;
  prog->ids = NULL_TREE;
}
