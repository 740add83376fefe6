#include <stdio.h>
static int f (int x) { if (x % 3 == 0) return 1; return 0; }
static int never (int x) { return x * 2; }
int main (int argc, char **argv) {
  int n = 0;
  for (int i = 0; i < 10; i++) n += f (i);
  if (argc > 5) n += never (n);
  printf ("%d\n", n);
  return 0;
}
