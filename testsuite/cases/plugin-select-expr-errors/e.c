/* e.c - plugin-select-expr-errors: the function and dispatch function whose
   parameters and variables the selection files' expressions name.  */
struct pos
{
  const char *file;
  int line;
  unsigned flag : 1;
};

struct node
{
  int kind;
  struct pos at;
  struct node *left;
  void *data;
};

int
eval (struct node *n)
{
  return n->kind;
}

int
run (const unsigned char *code)
{
  const unsigned char *pc = code;
  long stack[16] = { 0 };
  int acc = 0;
  for (;;)
    switch (*pc++)
      {
      case 0:
        return acc;
      case 1:
        acc += stack[acc & 15]++;
        break;
      case 2:
        acc--;
        break;
      }
}
