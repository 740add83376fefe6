/* names.c - name analysis of a small class-based language (PicoJava-like), the
   second attribute-grammar example of Sloane & Roberts' domain-specific
   profiling paper, in C.

   A program is a block of statements: class declarations (`class B extends A
   { ... }`), variable declarations (`A a;`) and assignments (`a.x = y;`) whose
   sides are accesses: a name, or an access followed by `.name`.  `int` and
   `boolean` are predefined.  The program (built in, or read from the file
   named on the command line) is parsed into a tree, and the declaration of
   every name use is found through these attributes, each a dsprof event of
   type AttrEval:

     decl (u)                 the declaration a name use refers to: lookup at
                              the use, or, right of a dot, remoteLookup in the
                              type of the access left of it; cached per use
     lookup (n, name)         the declaration of name visible at node n: in a
                              block, the block's own declaration (localLookup)
                              if any, else the block's lookup; in a class body,
                              what the superclass declares (remoteLookup), else
                              the class's lookup; elsewhere the parent's lookup;
                              at the root the predefined types.  Parameterised
                              and cached per node and name
     localLookup (b, name)    the declaration of name among block b's statements
     remoteLookup (c, name)   name declared in class c's body or, failing that,
                              by its superclass
     type (a)                 the class of an access or variable declaration;
                              cached

   Dimensions: subject (the node, through a formatter: Use(x)@9 is a use of x on
   line 9), parameter (the name looked up), result (the declaration found, an
   address) and cached (true when a cached attribute's value was already known,
   false when it was computed; absent for localLookup and remoteLookup).
   `dsprof report name parameter` shows which names are looked up how often,
   `dsprof report name depends-on` which attributes demand which, and `dsprof
   report name cached` how much the caches save.  */

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dsprof.h>

static const char builtin_program[] =
  "{\n"
  "  class A {\n"
  "    int x;\n"
  "    boolean b;\n"
  "  }\n"
  "  class B extends A {\n"
  "    int y;\n"
  "    A a;\n"
  "    y = x;\n"
  "    a.x = y;\n"
  "  }\n"
  "  B v;\n"
  "  int n;\n"
  "  n = v.x;\n"
  "  v.y = n;\n"
  "}\n";

/* ---- the tree ---------------------------------------------------------------- */

enum kind { BLOCK, CLASS, VARDECL, ASSIGN, USE, DOT, PREDEFINED };
static const char *const kind_names[]
  = { "Block", "Class", "VarDecl", "Assign", "Use", "Dot", "Predefined" };

struct node
{
  enum kind kind;
  int line;
  const char *name;              /* CLASS, VARDECL, USE, PREDEFINED */
  struct node *parent;
  /* BLOCK: the statements; CLASS: superclass use (or 0), body; VARDECL: type
     use; ASSIGN: left, right access; DOT: object access, name use.  */
  struct node **kids;
  int nkids;
  /* The caches of decl and type.  */
  int has_decl, has_type;
  struct node *decl, *type;
};

static struct node *
node_new (enum kind kind, int line, const char *name)
{
  struct node *n = calloc (1, sizeof *n);
  if (!n)
    {
      perror ("names");
      exit (1);
    }
  n->kind = kind;
  n->line = line;
  n->name = name;
  return n;
}

static void
add_kid (struct node *n, struct node *kid)
{
  n->kids = realloc (n->kids, (size_t) (n->nkids + 1) * sizeof *n->kids);
  if (!n->kids)
    {
      perror ("names");
      exit (1);
    }
  n->kids[n->nkids++] = kid;
  if (kid)
    kid->parent = n;
}

/* The formatter of dimension subject.  */
static size_t
show_node (const void *p, char *buf, size_t size)
{
  const struct node *n = p;
  if (n->kind == DOT)
    return (size_t) snprintf (buf, size, "Dot(.%s)@%d", n->kids[1]->name, n->line);
  if (n->name)
    return (size_t) snprintf (buf, size, "%s(%s)@%d", kind_names[n->kind], n->name,
                              n->line);
  return (size_t) snprintf (buf, size, "%s@%d", kind_names[n->kind], n->line);
}

/* ---- the parser --------------------------------------------------------------
   program ::= block
   block   ::= '{' stmt* '}'
   stmt    ::= 'class' ID ('extends' ID)? block
             | ID ID ';'                      variable declaration
             | access '=' access ';'
   access  ::= ID ('.' ID)*  */

static const char *src, *src_name;
static int src_line = 1;
static char tok[64];             /* the current token: a name or one character */

static void
next (void)
{
  while (isspace ((unsigned char) *src))
    if (*src++ == '\n')
      src_line++;
  size_t n = 0;
  if (isalpha ((unsigned char) *src) || *src == '_')
    while ((isalnum ((unsigned char) *src) || *src == '_') && n + 1 < sizeof tok)
      tok[n++] = *src++;
  else if (*src)
    tok[n++] = *src++;
  tok[n] = '\0';
}

static void
syntax_error (const char *what)
{
  fprintf (stderr, "%s:%d: %s expected before '%s'\n", src_name, src_line, what, tok);
  exit (1);
}

static int
is_name (void)
{
  return isalpha ((unsigned char) tok[0]) || tok[0] == '_';
}

static const char *
take_name (void)
{
  if (!is_name ())
    syntax_error ("a name");
  size_t n = strlen (tok) + 1;
  char *s = malloc (n);
  if (!s)
    {
      perror ("names");
      exit (1);
    }
  memcpy (s, tok, n);
  next ();
  return s;
}

static void
expect (const char *t)
{
  if (strcmp (tok, t))
    syntax_error (t);
  next ();
}

static struct node *
parse_access (void)
{
  int line = src_line;
  struct node *a = node_new (USE, line, take_name ());
  while (!strcmp (tok, "."))
    {
      next ();
      struct node *d = node_new (DOT, src_line, 0);
      add_kid (d, a);
      add_kid (d, node_new (USE, src_line, take_name ()));
      a = d;
    }
  return a;
}

static struct node *parse_block (void);

static struct node *
parse_stmt (void)
{
  int line = src_line;
  if (!strcmp (tok, "class"))
    {
      next ();
      struct node *c = node_new (CLASS, line, take_name ());
      struct node *super = 0;
      if (!strcmp (tok, "extends"))
        {
          next ();
          super = node_new (USE, src_line, take_name ());
        }
      add_kid (c, super);
      add_kid (c, parse_block ());
      return c;
    }
  struct node *a = parse_access ();
  if (a->kind == USE && is_name ())
    {
      struct node *v = node_new (VARDECL, line, take_name ());
      add_kid (v, a);
      expect (";");
      return v;
    }
  struct node *s = node_new (ASSIGN, line, 0);
  add_kid (s, a);
  expect ("=");
  add_kid (s, parse_access ());
  expect (";");
  return s;
}

static struct node *
parse_block (void)
{
  struct node *b = node_new (BLOCK, src_line, 0);
  expect ("{");
  while (strcmp (tok, "}"))
    {
      if (!tok[0])
        syntax_error ("'}'");
      add_kid (b, parse_stmt ());
    }
  next ();
  return b;
}

/* ---- the attributes ------------------------------------------------------------ */

static struct node predefined[] = {
  { .kind = PREDEFINED, .name = "int" },
  { .kind = PREDEFINED, .name = "boolean" },
};
static struct node unknown = { .kind = PREDEFINED, .name = "?" };

/* The cache of lookup: (node, name) -> declaration.  */
struct lookup_entry
{
  const struct node *n;
  const char *name;
  struct node *decl;
  struct lookup_entry *next;
};
static struct lookup_entry *lookup_cache[64];

static struct lookup_entry **
lookup_slot (const struct node *n, const char *name)
{
  unsigned long h = (unsigned long) (uintptr_t) n;
  for (const char *p = name; *p; p++)
    h = h * 31 + (unsigned char) *p;
  struct lookup_entry **e = &lookup_cache[h % 64];
  while (*e && !((*e)->n == n && !strcmp ((*e)->name, name)))
    e = &(*e)->next;
  return e;
}

DSPROF_EVENT_TYPE ("AttrEval") static struct node *decl (struct node *subject);
DSPROF_EVENT_TYPE ("AttrEval") static struct node *type (struct node *subject);
DSPROF_EVENT_TYPE ("AttrEval") static struct node *lookup (struct node *subject,
                                                           const char *parameter);

/* The declaration of PARAMETER among block SUBJECT's statements, or 0.  */
DSPROF_EVENT_TYPE ("AttrEval") static struct node *
localLookup (struct node *subject, const char *parameter)
{
  for (int i = 0; i < subject->nkids; i++)
    {
      struct node *s = subject->kids[i];
      if ((s->kind == CLASS || s->kind == VARDECL) && !strcmp (s->name, parameter))
        return s;
    }
  return 0;
}

/* PARAMETER declared in class SUBJECT's body or by its superclass, or 0.  */
DSPROF_EVENT_TYPE ("AttrEval") static struct node *
remoteLookup (struct node *subject, const char *parameter)
{
  struct node *d = localLookup (subject->kids[1], parameter);
  if (d)
    return d;
  if (subject->kids[0])
    {
      struct node *super = decl (subject->kids[0]);
      if (super->kind == CLASS)
        return remoteLookup (super, parameter);
    }
  return 0;
}

static struct node *
lookup (struct node *subject, const char *parameter)
{
  struct lookup_entry **e = lookup_slot (subject, parameter);
  if (*e)
    {
      dsprof_dim_bool ("cached", 1);
      return (*e)->decl;
    }
  dsprof_dim_bool ("cached", 0);
  struct node *p = subject->parent, *d = 0;
  if (!p)
    {
      d = &unknown;
      for (size_t i = 0; i < sizeof predefined / sizeof *predefined; i++)
        if (!strcmp (predefined[i].name, parameter))
          d = &predefined[i];
    }
  else if (p->kind == BLOCK)
    {
      d = localLookup (p, parameter);
      if (!d)
        d = lookup (p, parameter);
    }
  else if (p->kind == CLASS && subject == p->kids[1])
    {
      if (p->kids[0])
        {
          struct node *super = decl (p->kids[0]);
          if (super->kind == CLASS)
            d = remoteLookup (super, parameter);
        }
      if (!d)
        d = lookup (p, parameter);
    }
  else
    d = lookup (p, parameter);
  /* The recursive calls above filled other slots; find this one again.  */
  e = lookup_slot (subject, parameter);
  struct lookup_entry *n = malloc (sizeof *n);
  if (!n)
    {
      perror ("names");
      exit (1);
    }
  *n = (struct lookup_entry) { subject, parameter, d, 0 };
  *e = n;
  return d;
}

static struct node *
decl (struct node *subject)
{
  if (subject->has_decl)
    {
      dsprof_dim_bool ("cached", 1);
      return subject->decl;
    }
  dsprof_dim_bool ("cached", 0);
  struct node *p = subject->parent, *d;
  if (p->kind == DOT && subject == p->kids[1])
    {
      struct node *t = type (p->kids[0]);
      d = t->kind == CLASS ? remoteLookup (t, subject->name) : 0;
      if (!d)
        d = &unknown;
    }
  else
    d = lookup (subject, subject->name);
  subject->decl = d;
  subject->has_decl = 1;
  return d;
}

static struct node *
type (struct node *subject)
{
  if (subject->has_type)
    {
      dsprof_dim_bool ("cached", 1);
      return subject->type;
    }
  dsprof_dim_bool ("cached", 0);
  struct node *t;
  if (subject->kind == VARDECL)
    t = decl (subject->kids[0]);
  else
    {
      struct node *use = subject->kind == DOT ? subject->kids[1] : subject;
      struct node *d = decl (use);
      t = d->kind == VARDECL ? type (d) : &unknown;
    }
  subject->type = t;
  subject->has_type = 1;
  return t;
}

/* ---- the analysis: decl of every use, in source order ---------------------- */

static int errors;

static void
analyse (struct node *n)
{
  if (!n)
    return;
  if (n->kind == USE)
    {
      struct node *d = decl (n);
      if (d == &unknown)
        {
          fprintf (stderr, "%s:%d: %s is not declared\n", src_name, n->line, n->name);
          errors++;
        }
      else if (d->kind == PREDEFINED)
        printf ("%d: %s is predefined\n", n->line, n->name);
      else
        printf ("%d: %s is the %s declared on line %d\n", n->line, n->name,
                d->kind == CLASS ? "class" : "variable", d->line);
    }
  for (int i = 0; i < n->nkids; i++)
    analyse (n->kids[i]);
}

static char *
read_file (const char *name)
{
  FILE *f = fopen (name, "r");
  if (!f)
    {
      perror (name);
      exit (1);
    }
  size_t n = 0, cap = 4096;
  char *text = malloc (cap);
  size_t got;
  while (text && (got = fread (text + n, 1, cap - n - 1, f)) > 0)
    {
      n += got;
      if (n + 1 == cap)
        text = realloc (text, cap *= 2);
    }
  if (!text)
    {
      perror ("names");
      exit (1);
    }
  text[n] = '\0';
  fclose (f);
  return text;
}

int
main (int argc, char **argv)
{
  if (argc > 2)
    {
      fprintf (stderr, "usage: names [PROGRAM]\n"
               "Name analysis of PROGRAM (default: a built-in one).\n");
      return 1;
    }
  src = argc > 1 ? read_file (argv[1]) : builtin_program;
  src_name = argc > 1 ? argv[1] : "(built-in)";
  dsprof_set_formatter ("subject", show_node);
  next ();
  struct node *program = parse_block ();
  if (tok[0])
    syntax_error ("the end");
  analyse (program);
  return errors ? 2 : 0;
}
