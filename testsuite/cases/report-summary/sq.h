/* sq.h - a function both units of the report-summary program compile: its
   blocks are counted once per unit.  */
static inline int
sq (int x)
{
  if (x < 0)
    return -x * x;
  return x * x;
}
