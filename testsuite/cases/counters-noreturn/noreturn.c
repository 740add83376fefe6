/* counters-noreturn: lines after calls that did not return, each marked with
   how often control reached it (NAME COUNT in a comment, worked out by hand): the
   program runs steps 0, 1, 2 ... and leaves by my_exit in step 4; a step
   divisible by 3 longjmps out of jump_if, back to main, which goes on with the
   next step.  */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf jb;

static void
my_exit (int rc)
{
  fflush (stdout);
  exit (rc);
}

static void
jump_if (int i)
{
  if (i % 3 == 0)
    longjmp (jb, 1);
}

static int
step (int i)
{
  int r = i;
  jump_if (i);
  r += 10;                                      /* AFTERJUMP 3 */
  switch (i)
    {
    case 4:
      printf ("%d\n", r);
      my_exit (0);
      break;                                    /* BREAK 0 */
    default:
      r++;
    }
  return r;                                     /* RETURN 2 */
}

static volatile int next;
static volatile long sum;

static void
run_steps (void)
{
  while (next < 10)
    {
      int k = next++;
      sum += step (k);
      sum++;                                    /* AFTERSTEP 2 */
    }
  printf ("%ld\n", sum);                        /* END 0 */
}

int
main (void)
{
  setjmp (jb);
  run_steps ();
  return 0;
}
