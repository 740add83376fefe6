/* main.c - the export-cobertura program: a branch taken one way only (the
   argc > 5), a switch with a way never taken, a function never called
   (unused) and a function in lib/ (another directory, another package).  */
int scale (int x);

static int
unused (int x)
{
  return x + 1;
}

int
main (int argc, char **argv)
{
  int x = argc;
  (void) argv;
  if (x > 5)
    x = unused (x);
  switch (x)
    {
    case 1: x = scale (x); break;
    case 2: x = 7; break;
    default: x = 0;
    }
  return x & 0;
}
