/* server.c - a threaded server's shape for the sampler (report-sampled,
   DSPROF_SAMPLE): 4 workers each wait in epoll_wait on a pipe of their own,
   handle a request (handle(), an event, some 30 us of work) and reply on a
   second pipe; the main thread sends each 2000 requests and waits in poll
   for each reply.  Any failed call is fatal, EINTR too, as in a program
   that does not retry: prints "served 8000" and exits 0, or says which
   call failed and exits 1.  */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "dsprof.h"

#define WORKERS 4
#define REQUESTS 2000

static int req[WORKERS][2], rep[WORKERS][2];
static volatile unsigned long sink;

DSPROF_EVENT __attribute__ ((noipa)) static void
handle (int v)
{
  for (int k = 0; k < 15000; k++)
    sink += k ^ v;
}

static void
die (const char *what)
{
  fprintf (stderr, "%s: %s\n", what, errno == EINTR ? "EINTR" : "failed");
  exit (1);
}

static void *
worker (void *arg)
{
  int w = (int) (long) arg, ep = epoll_create1 (0);
  struct epoll_event ev = { EPOLLIN, { .fd = req[w][0] } };
  if (ep < 0 || epoll_ctl (ep, EPOLL_CTL_ADD, req[w][0], &ev) != 0)
    die ("epoll_ctl");
  for (;;)
    {
      struct epoll_event got;
      int v;
      if (epoll_wait (ep, &got, 1, -1) != 1)
        die ("epoll_wait");
      if (read (req[w][0], &v, sizeof v) != sizeof v)
        die ("read");
      if (v < 0)
        return NULL;
      handle (v);
      if (write (rep[w][1], &v, sizeof v) != sizeof v)
        die ("write");
    }
}

int
main (void)
{
  pthread_t th[WORKERS];
  for (int w = 0; w < WORKERS; w++)
    if (pipe (req[w]) != 0 || pipe (rep[w]) != 0
        || pthread_create (&th[w], NULL, worker, (void *) (long) w) != 0)
      die ("setup");
  for (int i = 0; i < REQUESTS; i++)
    for (int w = 0; w < WORKERS; w++)
      {
        struct pollfd p = { rep[w][0], POLLIN, 0 };
        int v;
        if (write (req[w][1], &i, sizeof i) != sizeof i)
          die ("send");
        if (poll (&p, 1, -1) != 1)
          die ("poll");
        if (read (rep[w][0], &v, sizeof v) != sizeof v || v != i)
          die ("reply");
      }
  int stop = -1;
  for (int w = 0; w < WORKERS; w++)
    if (write (req[w][1], &stop, sizeof stop) != sizeof stop
        || pthread_join (th[w], NULL) != 0)
      die ("stop");
  printf ("served %d\n", REQUESTS * WORKERS);
  return 0;
}
