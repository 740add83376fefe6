/* other: an instrumented program that fork.c execs; runs a loop 5 times.  */
int
main (void)
{
  int i, s = 0;
  for (i = 0; i < 5; i++)
    s += i; /* OTHER */
  return s != 10;
}
