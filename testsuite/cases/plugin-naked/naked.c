/* plugin-naked: naked functions (x86-64) are left alone: no counters, no
   event hooks, even annotated.  seven () returns 7 in %eax by its asm alone;
   code put before it would run on main's frame and registers.  */
#include <dsprof.h>
#include <stdio.h>

__attribute__ ((naked, noinline)) static int
seven (void)
{
  __asm__ ("movl $7, %eax\n\tret");
}

__attribute__ ((naked, noinline)) DSPROF_EVENT static long
add3 (long x)
{
  __asm__ ("leaq 3(%rdi), %rax\n\tret");
}

int
main (void)
{
  long sum = 0;
  for (int i = 0; i < 5; i++)
    sum += seven () + add3 (i);                     /* LOOP */
  printf ("%ld\n", sum);
  return 0;
}
