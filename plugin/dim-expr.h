/* dim-expr.h - the expressions of a selection file's dims= (NAME=EXPR,
   docs/select.md): parsed when the file is read, checked against the types
   and compiled where a function is instrumented (dim-expr.cc), evaluated by
   the runtime (runtime/dimread.c) from the words of the variables they
   start from.  */

#ifndef DSPROF_DIM_EXPR_H
#define DSPROF_DIM_EXPR_H

struct dim_node;

/* One NAME=EXPR item as the file writes it, parsed.  */
struct dim_expr
{
  char *name, *text;
  dim_node *ast;
};

/* Parse TEXT; NULL and a message in *WHY (static or xmalloc'd) if it is
   not an expression of the language.  */
dim_node *dim_expr_parse (const char *text, char **why);

/* Whether NODE's expression reads the variable NAME.  */
bool dim_expr_uses (const dim_node *node, const char *name);

/* The expressions to evaluate at one place, compiled: the description the
   runtime reads (the PROG of runtime/dimread.c) and the trees of the
   variables (or parts of them) whose words it starts from.  */
struct dim_prog
{
  vec<unsigned char> ops;       /* without the leading count */
  unsigned n;
  vec<tree> roots;
  tree vals;                    /* the roots' array, once made */
  tree ids;                     /* the names' ids, a static array, once made */
};

/* The variable NAME as a tree, in the scope the expressions are evaluated
   in, or NULL_TREE.  */
typedef tree (*dim_lookup) (const char *name, void *data);

/* Check E against the types of the variables LOOKUP finds and add it to
   PROG.  False, with a message in *WHY (xmalloc'd), if it does not fit
   them; *UNKNOWN is then set if a variable is not found.  */
bool dim_expr_compile (const dim_expr *e, dim_lookup lookup, void *data,
                       dim_prog *prog, char **why, bool *unknown);

/* Insert before GSI the call __dsprof_dims_v1 (PROG, ROOTS, CFA, IDS), ROOTS
   the words of PROG's roots (RESULT_DECL, if one is, replaced by RETVAL) in
   one array a function, CFA the frame's plus CFA_BIAS (the hook's), IDS a
   static array of the unit (its names' ids, for the runtime), and return
   it; NULL if PROG is empty.  */
gcall *dim_prog_insert (gimple_stmt_iterator *gsi, dim_prog *prog,
                        tree retval, int cfa_bias);

void dim_prog_release (dim_prog *prog);

#endif /* DSPROF_DIM_EXPR_H */
