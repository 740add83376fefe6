/* annotated.c - annotated code and every dsprof.h entry point, for builds with
   and without the plugin (and as C++).  Prototypes carry the annotations, as
   they would in a header; the definitions below are plain.  */

#include <stdio.h>

#include <dsprof.h>

struct point { int x, y; };

DSPROF_EVENT int fib (int n);
DSPROF_EVENT_TYPE ("Shape") double area (const struct point *corner, double scale);

int
fib (int n)
{
  return n < 2 ? n : fib (n - 1) + fib (n - 2);
}

double
area (const struct point *corner, double scale)
{
  dsprof_dim_bool ("scaled", scale != 1.0);
  return corner->x * corner->y * scale;
}

static size_t
show_point (const void *p, char *buf, size_t size)
{
  const struct point *pt = (const struct point *) p;
  return (size_t) snprintf (buf, size, "Point(%d,%d)", pt->x, pt->y);
}

int
main (void)
{
  struct point corner = { 3, 4 };
  dsprof_set_formatter ("corner", show_point);

  /* Outside any event: dropped and counted, six of them.  */
  dsprof_dim_int ("stray", -1);
  dsprof_dim_uint ("stray", 1);
  dsprof_dim_double ("stray", 0.5);
  dsprof_dim_bool ("stray", 1);
  dsprof_dim_str ("stray", "text");
  dsprof_dim_ptr ("stray", &corner);

  dsprof_id phase = dsprof_start ("Phase");
  dsprof_dim_str ("phase", "compute");
  int f = fib (3);
  double a = area (&corner, 2.0);
  dsprof_finish (phase);
  dsprof_finish (0);            /* "nothing was recorded": ignored */

  printf ("fib = %d, area = %g\n", f, a);
  return 0;
}
