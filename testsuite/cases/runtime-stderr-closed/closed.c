/* closed.c - runtime-stderr-closed: the program opens OUT (which gets the
   lowest free descriptor: 2 when it was started with stderr closed), writes
   a line, deletes PROFILE (its own profile) and writes a second line; the
   runtime notices the deleted profile at exit, and must not write its
   warning into OUT.  */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int
put (int fd, const char *s)
{
  return write (fd, s, strlen (s)) == (ssize_t) strlen (s) ? 0 : 1;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    return 2;
  int fd = open (argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    return 3;
  int bad = put (fd, "first\n");
  if (unlink (argv[2]) != 0)
    return 5;
  bad |= put (fd, "second\n");
  printf ("fd %d\n", fd);
  return bad;
}
