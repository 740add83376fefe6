/* g: the unit whose counters full.c's child first touches on a full disk.  */
int
g (int x)
{
  return 2 * x; /* G */
}
