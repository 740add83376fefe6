/* plugin-naked: an event function that is always_inline.  */
#include <dsprof.h>

DSPROF_EVENT static inline __attribute__ ((always_inline)) int
twice (int x)
{
  return 2 * x;
}

int
main (int argc, char **argv)
{
  (void) argv;
  return twice (argc) - 2 * argc;
}
