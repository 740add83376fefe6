/* shape.c - plugin-cc's shared library libshape.so.  */
int
shape (int x)
{
  int r = 0;
  for (int i = 0; i < x; i++)
    r += i;
  return r;
}
