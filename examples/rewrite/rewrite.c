/* rewrite.c - a strategy-based term rewriter in C, the term-rewriting example of
   Sloane & Roberts' domain-specific profiling paper: rules and the strategy
   combinators of Stratego and Kiama,

     rule r          apply rewrite rule r at the subject (fails if r does not match)
     s1 <* s2        sequence: s1, then s2 on its result
     s1 <+ s2        choice: s1, or s2 on the original subject if s1 fails
     attempt(s)      s, or the subject unchanged if s fails
     all(s)          s on every child of the subject (fails if s fails on one)
     topdown(s)      s <* all(topdown(s))
     bottomup(s)     all(bottomup(s)) <* s

   simplify the expression 0 + (1 * (5 + 4) + 0).  The parser gives a concrete
   syntax tree: every operand of an operator is wrapped in the syntactic class the
   grammar demands there (Exp, Term or Factor), and parentheses vanish:

     Add(Exp(Num(0)),Term(Add(Exp(Mul(Term(Num(1)),Factor(Add(Exp(Num(5)),
       Term(Num(4)))))),Term(Num(0)))))

   The rewriter then runs

     desugar  = topdown(attempt(removeClass))             class wrappers off
     simplify = bottomup(attempt(addZero <+ mulOne <+ fold))
     main     = desugar <* simplify

   and prints Num(9).  With -b (the "missing attempt" bug) desugar is
   topdown(removeClass): removeClass fails at the root, which is an Add, so
   topdown fails there at once, main fails and the term stays as it was; the
   profile shows removeClass applied once instead of at every node.

   Every strategy application is a dsprof event of type Strategy named after its
   combinator (rule, seq, choice, attempt, all, topdown, bottomup); every rule
   application is an event of type Rule named after the rule.  Their dimensions:
   strategy (the strategy applied, through a formatter: `attempt(removeClass)`;
   a named strategy inside another shows by its name, `all(desugar)`), subject
   (the term, through a formatter) and result (whether it succeeded).  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dsprof.h>

/* ---- terms ----------------------------------------------------------------- */

enum op { NUM, ADD, MUL, EXP, TERM, FACTOR };
static const char *const op_names[] = { "Num", "Add", "Mul", "Exp", "Term", "Factor" };

struct term
{
  enum op op;
  long num;                      /* NUM */
  int arity;                     /* 0, 1 (class wrappers) or 2 (ADD, MUL) */
  struct term *kid[2];
};

static struct term *
mk (enum op op, long num, struct term *a, struct term *b)
{
  struct term *t = malloc (sizeof *t);
  if (!t)
    {
      perror ("rewrite");
      exit (1);
    }
  t->op = op;
  t->num = num;
  t->arity = op == NUM ? 0 : op == ADD || op == MUL ? 2 : 1;
  t->kid[0] = a;
  t->kid[1] = b;
  return t;
}

/* T's text, prefix form, into BUF of SIZE bytes; the length it needs.  */
static size_t
show_term (const struct term *t, char *buf, size_t size)
{
  size_t n;
  if (t->op == NUM)
    return (size_t) snprintf (buf, size, "Num(%ld)", t->num);
  n = (size_t) snprintf (buf, size, "%s(", op_names[t->op]);
  for (int i = 0; i < t->arity; i++)
    {
      if (i > 0)
        n += (size_t) snprintf (buf + (n < size ? n : size), n < size ? size - n : 0,
                                ",");
      n += show_term (t->kid[i], buf + (n < size ? n : size), n < size ? size - n : 0);
    }
  n += (size_t) snprintf (buf + (n < size ? n : size), n < size ? size - n : 0, ")");
  return n;
}

/* The formatter of dimension subject: a struct term ** whose term is shown.  */
static size_t
show_subject (const void *p, char *buf, size_t size)
{
  return show_term (*(struct term *const *) p, buf, size);
}

/* ---- the parser: exp ::= term ('+' term)*, term ::= factor ('*' factor)*,
   factor ::= NUM | '(' exp ')'.  An operand is wrapped in its class.  */

static const char *input;

static void
skip_space (void)
{
  while (*input == ' ')
    input++;
}

static struct term *parse_exp (void);

static struct term *
parse_factor (void)
{
  skip_space ();
  if (*input == '(')
    {
      input++;
      struct term *e = parse_exp ();
      skip_space ();
      if (*input++ != ')')
        {
          fprintf (stderr, "rewrite: ')' expected\n");
          exit (1);
        }
      return e;
    }
  if (*input < '0' || *input > '9')
    {
      fprintf (stderr, "rewrite: number expected at '%s'\n", input);
      exit (1);
    }
  char *end;
  long n = strtol (input, &end, 10);
  input = end;
  return mk (NUM, n, 0, 0);
}

static struct term *
parse_term (void)
{
  struct term *t = parse_factor ();
  for (skip_space (); *input == '*'; skip_space ())
    {
      input++;
      struct term *r = parse_factor ();
      t = mk (MUL, 0, mk (TERM, 0, t, 0), mk (FACTOR, 0, r, 0));
    }
  return t;
}

static struct term *
parse_exp (void)
{
  struct term *t = parse_term ();
  for (skip_space (); *input == '+'; skip_space ())
    {
      input++;
      struct term *r = parse_term ();
      t = mk (ADD, 0, mk (EXP, 0, t, 0), mk (TERM, 0, r, 0));
    }
  return t;
}

/* ---- rules: each rewrites *SUBJECT and returns 1, or returns 0 ------------- */

static int
is_num (const struct term *t, long n)
{
  return t->op == NUM && t->num == n;
}

/* Exp(x) -> x, Term(x) -> x, Factor(x) -> x */
DSPROF_EVENT_TYPE ("Rule") static _Bool
removeClass (struct term **subject)
{
  struct term *t = *subject;
  if (t->op != EXP && t->op != TERM && t->op != FACTOR)
    return 0;
  *subject = t->kid[0];
  return 1;
}

/* Add(Num(0),x) -> x, Add(x,Num(0)) -> x */
DSPROF_EVENT_TYPE ("Rule") static _Bool
addZero (struct term **subject)
{
  struct term *t = *subject;
  if (t->op != ADD)
    return 0;
  if (is_num (t->kid[0], 0))
    *subject = t->kid[1];
  else if (is_num (t->kid[1], 0))
    *subject = t->kid[0];
  else
    return 0;
  return 1;
}

/* Mul(Num(1),x) -> x, Mul(x,Num(1)) -> x */
DSPROF_EVENT_TYPE ("Rule") static _Bool
mulOne (struct term **subject)
{
  struct term *t = *subject;
  if (t->op != MUL)
    return 0;
  if (is_num (t->kid[0], 1))
    *subject = t->kid[1];
  else if (is_num (t->kid[1], 1))
    *subject = t->kid[0];
  else
    return 0;
  return 1;
}

/* Add(Num(a),Num(b)) -> Num(a+b), Mul(Num(a),Num(b)) -> Num(a*b) */
DSPROF_EVENT_TYPE ("Rule") static _Bool
fold (struct term **subject)
{
  struct term *t = *subject;
  if ((t->op != ADD && t->op != MUL) || t->kid[0]->op != NUM || t->kid[1]->op != NUM)
    return 0;
  long a = t->kid[0]->num, b = t->kid[1]->num;
  *subject = mk (NUM, t->op == ADD ? a + b : a * b, 0, 0);
  return 1;
}

/* ---- strategies ------------------------------------------------------------- */

enum kind { S_RULE, S_SEQ, S_CHOICE, S_ATTEMPT, S_ALL, S_TOPDOWN, S_BOTTOMUP };

struct strategy
{
  enum kind kind;
  const char *name;              /* a rule's name, or a named strategy's; or 0 */
  _Bool (*rule) (struct term **);
  const struct strategy *s1, *s2;
};

static struct strategy *
strategy_new (enum kind kind, const struct strategy *s1, const struct strategy *s2)
{
  struct strategy *s = calloc (1, sizeof *s);
  if (!s)
    {
      perror ("rewrite");
      exit (1);
    }
  s->kind = kind;
  s->s1 = s1;
  s->s2 = s2;
  return s;
}

static struct strategy *
s_rule (const char *name, _Bool (*rule) (struct term **))
{
  struct strategy *s = strategy_new (S_RULE, 0, 0);
  s->name = name;
  s->rule = rule;
  return s;
}

static struct strategy *
s_seq (const struct strategy *a, const struct strategy *b)
{
  return strategy_new (S_SEQ, a, b);
}

static struct strategy *
s_choice (const struct strategy *a, const struct strategy *b)
{
  return strategy_new (S_CHOICE, a, b);
}

static struct strategy *
s_attempt (const struct strategy *a)
{
  return strategy_new (S_ATTEMPT, a, 0);
}

static struct strategy *
s_all (const struct strategy *a)
{
  return strategy_new (S_ALL, a, 0);
}

/* topdown(s) and bottomup(s) keep s in s1 and all(themselves) in s2.  */
static struct strategy *
s_traversal (enum kind kind, const struct strategy *a)
{
  struct strategy *s = strategy_new (kind, a, 0);
  s->s2 = s_all (s);
  return s;
}

static struct strategy *
named (const char *name, struct strategy *s)
{
  s->name = name;
  return s;
}

/* S's text into BUF of SIZE bytes (the length it needs); named strategies inside
   it (NESTED) show by their names.  */
static size_t
show_strategy_in (const struct strategy *s, int nested, char *buf, size_t size)
{
  if (s->name && (nested || s->kind == S_RULE))
    return (size_t) snprintf (buf, size, "%s", s->name);
  static const char *const fn[] = { 0, 0, 0, "attempt", "all", "topdown", "bottomup" };
  size_t n = 0;
#define MORE buf + (n < size ? n : size), n < size ? size - n : 0
  switch (s->kind)
    {
    case S_SEQ:
    case S_CHOICE:
      {
        /* Both operators associate to the right; a different one inside an
           operand, or the same one on the left, is parenthesised.  */
        int lp = (s->s1->kind == S_SEQ || s->s1->kind == S_CHOICE) && !s->s1->name;
        int rp = (s->s2->kind == S_SEQ || s->s2->kind == S_CHOICE) && !s->s2->name
                 && s->s2->kind != s->kind;
        n += (size_t) snprintf (MORE, "%s", lp ? "(" : "");
        n += show_strategy_in (s->s1, 1, MORE);
        n += (size_t) snprintf (MORE, "%s %s %s", lp ? ")" : "",
                                s->kind == S_SEQ ? "<*" : "<+", rp ? "(" : "");
        n += show_strategy_in (s->s2, 1, MORE);
        n += (size_t) snprintf (MORE, "%s", rp ? ")" : "");
        return n;
      }
    default:
      n += (size_t) snprintf (MORE, "%s(", fn[s->kind]);
      n += show_strategy_in (s->s1, 1, MORE);
      n += (size_t) snprintf (MORE, ")");
      return n;
    }
#undef MORE
}

/* The formatter of dimension strategy.  */
static size_t
show_strategy (const void *p, char *buf, size_t size)
{
  return show_strategy_in (p, 0, buf, size);
}

/* The strategy interpreter: each combinator is an event.  On success *SUBJECT
   is the rewritten term; on failure it is unchanged.  */

static _Bool apply (const struct strategy *strategy, struct term **subject);

DSPROF_EVENT_TYPE ("Strategy") static _Bool
rule (const struct strategy *strategy, struct term **subject)
{
  return strategy->rule (subject);
}

DSPROF_EVENT_TYPE ("Strategy") static _Bool
seq (const struct strategy *strategy, struct term **subject)
{
  struct term *t = *subject;
  if (!apply (strategy->s1, &t) || !apply (strategy->s2, &t))
    return 0;
  *subject = t;
  return 1;
}

DSPROF_EVENT_TYPE ("Strategy") static _Bool
choice (const struct strategy *strategy, struct term **subject)
{
  return apply (strategy->s1, subject) || apply (strategy->s2, subject);
}

DSPROF_EVENT_TYPE ("Strategy") static _Bool
attempt (const struct strategy *strategy, struct term **subject)
{
  apply (strategy->s1, subject);
  return 1;
}

DSPROF_EVENT_TYPE ("Strategy") static _Bool
all (const struct strategy *strategy, struct term **subject)
{
  struct term *t = *subject, *kid[2] = { 0, 0 };
  int changed = 0;
  for (int i = 0; i < t->arity; i++)
    {
      kid[i] = t->kid[i];
      if (!apply (strategy->s1, &kid[i]))
        return 0;
      changed |= kid[i] != t->kid[i];
    }
  if (changed)
    *subject = mk (t->op, t->num, kid[0], kid[1]);
  return 1;
}

DSPROF_EVENT_TYPE ("Strategy") static _Bool
topdown (const struct strategy *strategy, struct term **subject)
{
  struct term *t = *subject;
  if (!apply (strategy->s1, &t) || !apply (strategy->s2, &t))
    return 0;
  *subject = t;
  return 1;
}

DSPROF_EVENT_TYPE ("Strategy") static _Bool
bottomup (const struct strategy *strategy, struct term **subject)
{
  struct term *t = *subject;
  if (!apply (strategy->s2, &t) || !apply (strategy->s1, &t))
    return 0;
  *subject = t;
  return 1;
}

static _Bool
apply (const struct strategy *strategy, struct term **subject)
{
  switch (strategy->kind)
    {
    case S_RULE:
      return rule (strategy, subject);
    case S_SEQ:
      return seq (strategy, subject);
    case S_CHOICE:
      return choice (strategy, subject);
    case S_ATTEMPT:
      return attempt (strategy, subject);
    case S_ALL:
      return all (strategy, subject);
    case S_TOPDOWN:
      return topdown (strategy, subject);
    default:
      return bottomup (strategy, subject);
    }
}

int
main (int argc, char **argv)
{
  int buggy = argc > 1 && !strcmp (argv[1], "-b");
  if (argc > 1 + buggy)
    {
      fprintf (stderr, "usage: rewrite [-b]\n"
               "Simplifies 0 + (1 * (5 + 4) + 0); -b: desugar lacks its attempt.\n");
      return 1;
    }
  dsprof_set_formatter ("subject", show_subject);
  dsprof_set_formatter ("strategy", show_strategy);

  input = "0 + (1 * (5 + 4) + 0)";
  struct term *t = parse_exp ();

  struct strategy *removeClassR = s_rule ("removeClass", removeClass);
  struct strategy *desugar
    = named ("desugar", s_traversal (S_TOPDOWN, buggy ? removeClassR
                                                     : s_attempt (removeClassR)));
  struct strategy *rules
    = s_choice (s_rule ("addZero", addZero),
                s_choice (s_rule ("mulOne", mulOne), s_rule ("fold", fold)));
  struct strategy *simplify
    = named ("simplify", s_traversal (S_BOTTOMUP, s_attempt (rules)));
  struct strategy *top = named ("main", s_seq (desugar, simplify));

  char text[512];
  show_term (t, text, sizeof text);
  printf ("term:   %s\n", text);
  show_strategy (top, text, sizeof text);
  printf ("main:   %s\n", text);
  show_strategy (desugar, text, sizeof text);
  printf ("desugar = %s\n", text);
  show_strategy (simplify, text, sizeof text);
  printf ("simplify = %s\n", text);
  if (!apply (top, &t))
    {
      printf ("main failed; the term is unchanged\n");
      return 0;
    }
  show_term (t, text, sizeof text);
  printf ("result: %s\n", text);
  return 0;
}
