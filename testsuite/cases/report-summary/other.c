/* other.c - the second unit of the report-summary program.  */
#include "sq.h"

int
other (int x)
{
  return sq (x) + 1;
}
