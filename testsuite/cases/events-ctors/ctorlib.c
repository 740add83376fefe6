/* ctorlib.c - an instrumented shared library whose constructors, destructors
   and atexit handler record lib_event (N) for N = 1, 2, 3, 4 and 30.  Its
   first constructor also calls the program's main_event (40), if the program
   has one, before the program's own constructors ran: that event cannot be
   recorded, and is counted as dropped.  */
#include <stdlib.h>

#include <dsprof.h>

int main_event (int n) __attribute__ ((weak));

DSPROF_EVENT int
lib_event (int n)
{
  return n;
}

static void
lib_atexit (void)
{
  lib_event (30);
}

__attribute__ ((constructor (101))) static void
lib_ctor_101 (void)
{
  lib_event (1);
  if (main_event)
    main_event (40);
  atexit (lib_atexit);
}

__attribute__ ((constructor)) static void
lib_ctor (void)
{
  lib_event (2);
}

__attribute__ ((destructor (101))) static void
lib_dtor_101 (void)
{
  lib_event (3);
}

__attribute__ ((destructor)) static void
lib_dtor (void)
{
  lib_event (4);
}
