/* order.c - events whose names sort around the folded frame separator ';':
   each name with a child event "x", so that a name's own line and its
   children's lines are separated by a sibling's ("b", "b!", "b0" and "b;x"
   sort b < b! < b!;x < b0 < b0;x < b;x).  */

#include <dsprof.h>

static volatile unsigned long sink;

static void
spin (void)
{
  for (int i = 0; i < 20000; i++)
    sink += (unsigned long) i;
}

int
main (void)
{
  static const char *const names[] = { "b", "b0", "b!", "b~", "a b", "b x", "c" };
  for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
    {
      dsprof_id id = dsprof_start (names[i]);
      spin ();
      dsprof_id child = dsprof_start ("x");
      spin ();
      dsprof_finish (child);
      spin ();
      dsprof_finish (id);
    }
  return 0;
}
