/* ast.c - a small AST interpreter, with no annotation: plugin-select-expr
   records its eval by the evaluated node's data, through ast.sel's
   NAME=EXPR dims alone (docs/select.md, "Expressions").

   The tree holds a leaf whose `left' is NULL (n->left->kind is "(null)")
   and leaves whose `left' points into a page the program cannot read (a
   PROT_NONE mapping) or at an address no program can (a non-canonical
   one on x86-64): n->left->kind is "(unreadable)"; leaves never look at
   `left'.
   For each call of eval and find it prints what its record must say:
   eval KIND LINE FILE LEFTKIND TAG0 WEIGHT TAG, find WANT FOUND; then the
   result.  */

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum kind
{
  K_NUM, K_ADD, K_MUL, K_NEG
};

static const char *const kind_name[] = { "K_NUM", "K_ADD", "K_MUL", "K_NEG" };

struct pos
{
  const char *file;
  int line;
};

struct node
{
  enum kind kind;
  struct pos at;
  struct node *left, *right;
  long value;
  double weight;
  char tag[8];
};

static struct node *bad_page;   /* in a PROT_NONE page */
#define BAD_ADDR ((struct node *) 0xdead000000000040ull)

static const char *
left_kind (const struct node *n)
{
  if (!n->left)
    return "(null)";
  if (n->left == bad_page || n->left == BAD_ADDR)
    return "(unreadable)";
  return kind_name[n->left->kind];
}

long
eval (struct node *n)
{
  printf ("eval %s %d %s %s %d %g %s\n", kind_name[n->kind], n->at.line,
          n->at.file, left_kind (n), n->tag[0], n->weight, n->tag);
  switch (n->kind)
    {
    case K_NUM:
      return n->value;
    case K_ADD:
      return eval (n->left) + eval (n->right);
    case K_MUL:
      return eval (n->left) * eval (n->right);
    case K_NEG:
      return -eval (n->left);
    }
  return 0;
}

/* Print what find's record must say, and return F.  */
static struct node *
found (int want, struct node *f)
{
  printf ("find %d %s\n", want, f ? f->tag : "(null)");
  return f;
}

struct node *
find (struct node *n, int want)
{
  if (!n || n->left == bad_page || n->left == BAD_ADDR)
    return found (want, NULL);
  if (n->at.line == want)
    return found (want, n);
  if (n->kind == K_NUM)
    return found (want, NULL);
  struct node *f = find (n->left, want);
  return found (want, f ? f : find (n->right, want));
}

static struct node *
mk (enum kind k, const char *file, int line, struct node *l, struct node *r,
    long v, const char *tag)
{
  struct node *n = calloc (1, sizeof *n);
  n->kind = k;
  n->at.file = file;
  n->at.line = line;
  n->left = l;
  n->right = r;
  n->value = v;
  n->weight = line / 4.0;
  snprintf (n->tag, sizeof n->tag, "%s", tag);
  return n;
}

int
main (void)
{
  long page = sysconf (_SC_PAGESIZE);
  char *m = mmap (NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return 2;
  bad_page = (struct node *) (m + 64);

  /* (2 + 3) * -(4 + 5) */
  struct node *two = mk (K_NUM, "a.calc", 2, NULL, NULL, 2, "two");
  struct node *three = mk (K_NUM, "a.calc", 3, bad_page, NULL, 3, "three");
  struct node *four = mk (K_NUM, "b.calc", 4, NULL, NULL, 4, "four");
  struct node *five = mk (K_NUM, "b.calc", 5, BAD_ADDR, NULL, 5, "five");
  struct node *sum = mk (K_ADD, "a.calc", 10, two, three, 0, "sum");
  struct node *sum2 = mk (K_ADD, "b.calc", 11, four, five, 0, "sum2");
  struct node *neg = mk (K_NEG, "b.calc", 12, sum2, NULL, 0, "neg");
  struct node *root = mk (K_MUL, "main.calc", 20, sum, neg, 0, "root");
  for (int i = 0; i < 3; i++)
    eval (i == 1 ? sum2 : root);
  int lines[] = { 4, 11, 99 };
  for (int i = 0; i < 3; i++)
    find (root, lines[i]);
  printf ("result %ld\n", eval (root));
  return 0;
}
