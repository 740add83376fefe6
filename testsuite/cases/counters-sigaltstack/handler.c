/* handler.c - counters-sigaltstack: the signal handler, a unit of its own,
   so that the first signal runs the first counted code of this unit in the
   thread (with update=thread, the call that takes the thread's place in its
   shard).  */
#include <signal.h>

volatile sig_atomic_t handled;

void
on_signal (int sig)
{
  if (sig == SIGUSR1)
    handled++;                  /* HANDLED */
}
