/* loop FILE: a loop without calls or volatile accesses, until killed.  Its
   progress goes to the shared mapping of FILE by relaxed atomic stores, which
   are neither calls nor volatile accesses, so dsprof gives the loop's blocks
   no fake edge of their own.  The test finds the lines it checks by the words
   at their ends.  */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  int fd = open (argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ftruncate (fd, 8) != 0)
    return 1;
  uint64_t *shared = mmap (NULL, 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (shared == MAP_FAILED)
    return 1;
  uint64_t x = 0; /* BEFORE */
  for (uint64_t i = 1; i < (uint64_t) 1 << 62; i++) /* LOOP */
    {
      if (i % 3)
        x += i; /* THEN */
      else
        x ^= i; /* ELSE */
      __atomic_store_n (shared, i, __ATOMIC_RELAXED); /* STORE */
    }
  printf ("%llu\n", (unsigned long long) x); /* AFTER */
  return 0;
}
