/* off: a unit built with counters=off, linked with one built with counters.  */
int
off_loop (int n)
{
  int i, s = 0;
  for (i = 0; i < n; i++)
    s += i; /* OFF */
  return s;
}
