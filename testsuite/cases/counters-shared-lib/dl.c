/* dl LIB: dlopen LIB, call its plug_run (3), dlclose it, then again with
   plug_run (4); then run a loop of its own 5 times.  */
#include <dlfcn.h>
#include <stdio.h>

static int
run_once (const char *lib, int n)
{
  void *h = dlopen (lib, RTLD_NOW);
  if (!h)
    {
      fprintf (stderr, "%s\n", dlerror ());
      return -1;
    }
  int (*run) (int) = (int (*) (int)) dlsym (h, "plug_run");
  int s = run ? run (n) : -1;
  dlclose (h);
  return s;
}

int
main (int argc, char **argv)
{
  int i, s = run_once (argv[1], 3) + run_once (argv[1], 4);
  for (i = 0; i < 5; i++)
    s += i; /* DL */
  printf ("%d\n", s);
  return 0;
}
