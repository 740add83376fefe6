/* shared GO N: start (the runtime makes its profile), wait until the file GO
   exists, then run step () N times, an event each, and print "done".  */
#include <dsprof.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

DSPROF_EVENT static int
step (int i)
{
  return i * 2; /* STEP */
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    return 2;
  int n = atoi (argv[2]), s = 0;
  while (access (argv[1], F_OK) != 0)
    usleep (1000);
  for (int i = 0; i < n; i++)
    s += step (i);
  printf ("done %d\n", s > 0);
  return 0;
}
