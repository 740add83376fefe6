/* sq: a shared library built with the plugin.  */
int
sq_sum (int n)
{
  int i, s = 0;
  for (i = 1; i <= n; i++)
    s += i * i; /* SQ */
  return s;
}
