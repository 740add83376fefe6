/* helper: built without the plugin.  */
int
helper (int n)
{
  int i, s = 0;
  for (i = 0; i < n; i++)
    s += i; /* HELPER */
  return s;
}
