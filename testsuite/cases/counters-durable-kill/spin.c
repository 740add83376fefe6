/* spin FILE: a tight loop without calls that stores its iteration number in the
   shared mapping of FILE each time round (low 32 bits, then high 32 bits), until
   killed.  The stores are of 32-bit words, which cannot alias the plugin's 64-bit
   counters, so at -O2 nothing but the plugin's own care keeps the loop's count in
   memory (rather than in a register until a loop exit that never comes).  */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  int fd = open (argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ftruncate (fd, 8) != 0)
    return 1;
  volatile uint32_t *shared
    = mmap (NULL, 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (shared == MAP_FAILED)
    return 1;
  for (uint64_t i = 1;; i++)
    shared[0] = (uint32_t) i, shared[1] = (uint32_t) (i >> 32); /* SPIN */
}
