/* plug: a library built with the plugin, loaded with dlopen.  */
int
plug_run (int n)
{
  int i, s = 0;
  for (i = 0; i < n; i++)
    s += i; /* PLUG */
  return s;
}
