/* ctors.c - events before main and after it: the program's constructors
   (priority 101 and default), destructors and atexit handlers (one
   registered by a constructor, one by main) call its event main_event and
   ctorlib.c's lib_event, whose library records from its own.  Each N is
   recorded once:
     constructors   1 2 (ctorlib.c), 11 12 (priority 101), 13
     main           0
     atexit         22 (registered by main), 20 21 (by a constructor), 30
                    (ctorlib.c)
     destructors    14 15 (priority 101), 16, 3 4 (ctorlib.c)
   and main_event (40) is called by ctorlib.c's first constructor, before the
   program's constructors ran (dropped and counted).  Prints 0.  */
#include <stdio.h>
#include <stdlib.h>

#include <dsprof.h>

int lib_event (int n);

DSPROF_EVENT int
main_event (int n)
{
  return n;
}

static void
ctor_atexit (void)
{
  main_event (20);
  lib_event (21);
}

static void
main_atexit (void)
{
  main_event (22);
}

__attribute__ ((constructor (101))) static void
ctor_101 (void)
{
  main_event (11);
  lib_event (12);
  atexit (ctor_atexit);
}

__attribute__ ((constructor)) static void
ctor (void)
{
  main_event (13);
}

__attribute__ ((destructor (101))) static void
dtor_101 (void)
{
  main_event (14);
  lib_event (15);
}

__attribute__ ((destructor)) static void
dtor (void)
{
  main_event (16);
}

int
main (void)
{
  atexit (main_atexit);
  printf ("%d\n", main_event (0));
  return 0;
}
