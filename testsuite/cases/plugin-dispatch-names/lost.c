/* lost.c - switches GCC compiles as plain branches, for
   plugin-dispatch-names (on a _Bool, with only a default, with a single
   case): a dispatch=FUNC naming one gets a message saying why it has no
   dispatch.  */

int
on_bool (_Bool b, int x)
{
  switch (b)
    {
    case 0:
      return x + 1;
    case 1:
      return x - 1;
    }
  return x;
}

int
only_default (int op, int x)
{
  switch (op)
    {
    default:
      x++;
    }
  return x;
}

int
one_case (int op, int x)
{
  switch (op)
    {
    case 3:
      x++;
      break;
    default:
      x--;
    }
  return x;
}
