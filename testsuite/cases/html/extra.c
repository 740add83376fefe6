/* extra.c - for the html case: a manual event whose type and dimension hold
   markup (the page must show it as text), and a second thread with a worker
   event holding an inner one (two lanes in the record tree).  */

#include <pthread.h>

#include <dsprof.h>

static void *
worker (void *arg)
{
  (void) arg;
  dsprof_id w = dsprof_start ("worker");
  dsprof_id i = dsprof_start ("inner");
  dsprof_finish (i);
  dsprof_finish (w);
  return NULL;
}

int
main (void)
{
  dsprof_id t = dsprof_start ("Tag<img src=x onerror=alert(1)>");
  dsprof_dim_str ("text", "<script>alert(\"x\")</script> & 'q'");
  dsprof_finish (t);
  pthread_t th;
  if (pthread_create (&th, NULL, worker, NULL) != 0)
    return 1;
  pthread_join (th, NULL);
  return 0;
}
