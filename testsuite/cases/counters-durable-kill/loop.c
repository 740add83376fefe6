/* loop MODE [N]: print 1, 2, 3 ... one number a line, flushing each, forever
   (MODE "forever"), or until the N-th iteration ends the process: "abort" calls
   abort (), "exit" calls _exit (7), "segv" writes through a null pointer.  The
   test finds the lines it checks by the words at their ends.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "forever";
  unsigned long n = argc > 2 ? strtoul (argv[2], NULL, 10) : 0;
  volatile int *volatile nowhere = NULL;
  unsigned long i;

  for (i = 1;; i++)
    {
      printf ("%lu\n", i); /* BODY */
      fflush (stdout);
      if (i == n)
        {
          if (strcmp (mode, "abort") == 0)
            abort (); /* ABORT */
          if (strcmp (mode, "exit") == 0)
            _exit (7); /* EXIT */
          if (strcmp (mode, "segv") == 0)
            *nowhere = 1; /* SEGV */
        }
    }
}
