/* expr.c - the attribute-grammar example of Sloane & Roberts' domain-specific
   profiling paper, in C: an expression tree for 3 + 4 * 5 with two attributes,

     value (e)   the value of an expression, cached: computed once per node
     iszero (e)  whether an expression's value is zero

   The program evaluates iszero at the root, then value at the root.  Each
   attribute evaluation is a dsprof event of type AttrEval whose dimensions are
   the attribute's name, its subject (shown through a formatter as Num(3),
   Add(Num(3),Mul(...)) ...), its result and whether the value came from the cache.
   Expected profile: 7 records; iszero once, demanding value at the root
   (cached = false), which demands the five nodes' values; then value at the root
   once more at top level, from the cache (cached = true).  */

#include <stdio.h>
#include <string.h>

#include <dsprof.h>

enum kind { NUM, ADD, MUL };

struct node
{
  enum kind kind;
  long num;
  struct node *left, *right;
  int has_value;                 /* the cache of attribute value */
  long value;
};

static size_t
show_node (const void *p, char *buf, size_t size)
{
  const struct node *n = p;
  if (n->kind == NUM)
    return (size_t) snprintf (buf, size, "Num(%ld)", n->num);
  char l[128], r[128];
  show_node (n->left, l, sizeof l);
  show_node (n->right, r, sizeof r);
  return (size_t) snprintf (buf, size, "%s(%s,%s)", n->kind == ADD ? "Add" : "Mul",
                            l, r);
}

DSPROF_EVENT_TYPE ("AttrEval") long
value (struct node *subject)
{
  if (subject->has_value)
    {
      dsprof_dim_bool ("cached", 1);
      return subject->value;
    }
  dsprof_dim_bool ("cached", 0);
  long v;
  switch (subject->kind)
    {
    case NUM:
      v = subject->num;
      break;
    case ADD:
      v = value (subject->left) + value (subject->right);
      break;
    default:
      v = value (subject->left) * value (subject->right);
      break;
    }
  subject->value = v;
  subject->has_value = 1;
  return v;
}

DSPROF_EVENT_TYPE ("AttrEval") _Bool
iszero (struct node *subject)
{
  return value (subject) == 0;
}

int
main (void)
{
  struct node three = { NUM, 3, 0, 0, 0, 0 }, four = { NUM, 4, 0, 0, 0, 0 };
  struct node five = { NUM, 5, 0, 0, 0, 0 };
  struct node mul = { MUL, 0, &four, &five, 0, 0 };
  struct node add = { ADD, 0, &three, &mul, 0, 0 };
  dsprof_set_formatter ("subject", show_node);
  int z = iszero (&add);
  long v = value (&add);
  printf ("iszero = %s, value = %ld\n", z ? "true" : "false", v);
  return 0;
}
