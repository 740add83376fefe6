/* seedprog.c - a small program that puts every kind of event and value into its
   profile, for the fuzz seed corpus (make-seeds.sh): annotated functions with
   parameters and results of every dimension type (enum names, a formatter,
   strings to quote and to truncate, NULL), manual events with dimensions added
   by hand, a mismatched finish (repaired: complete=false), a parameter named
   like an intrinsic dimension, nesting, and a second thread.  */

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <dsprof.h>

enum op { PUSH, ADD = 5, HALT = -1 };
struct cell { int v; };

static size_t
show_cell (const void *p, char *buf, size_t size)
{
  return (size_t) snprintf (buf, size, "Cell(%d)", ((const struct cell *) p)->v);
}

DSPROF_EVENT_TYPE ("Step") int
step (enum op op, unsigned pc, _Bool hot, double w, const char *text,
      struct cell *cell)
{
  dsprof_dim_str ("note", "a \"quoted\"=\\ note\n");
  return op == HALT ? -1 : (int) pc + cell->v;
}

DSPROF_EVENT long
line (int name)
{
  return name * 2L;
}

DSPROF_EVENT double
run (int n)
{
  struct cell c = { 3 };
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += step (i % 2 ? ADD : PUSH, (unsigned) i, i & 1, i / 3.0,
                 i == 1 ? NULL : "0123456789012345678901234567890123456789"
                 "012345678901234567890123456789", &c);
  sum += step (HALT, 99, 0, -0.0, "", &c);
  sum += (double) line (7);
  return sum;
}

static void *
worker (void *arg)
{
  dsprof_id id = dsprof_start ("Worker");
  dsprof_dim_int ("k", -5);
  dsprof_dim_uint ("u", 18446744073709551615ull);
  dsprof_dim_double ("d", 1e300);
  dsprof_dim_bool ("b", 1);
  dsprof_dim_ptr ("p", arg);
  dsprof_dim_ptr ("cell", arg);
  run (2);
  dsprof_finish (id);
  return NULL;
}

int
main (void)
{
  struct cell c = { 1 };
  dsprof_set_formatter ("cell", show_cell);
  pthread_t t;
  pthread_create (&t, NULL, worker, &c);
  pthread_join (t, NULL);

  dsprof_id outer = dsprof_start ("Phase");
  dsprof_dim_str ("phase", "parse");
  dsprof_id inner = dsprof_start ("Pass");
  dsprof_dim_str ("s", NULL);
  run (3);
  (void) inner;
  dsprof_finish (outer);         /* closes Pass incomplete */
  printf ("%g\n", run (1));
  return 0;
}
