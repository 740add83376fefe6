/* driver.c - runs the fuzz harness (harness.c) over files, without libFuzzer:
   `fuzz-run FILE|DIR...` feeds every file named, and every file of every
   directory named, to LLVMFuzzerTestOneInput once.  Built with the sanitizers,
   a bad input ends the run with their report and a non-zero status; otherwise
   it prints how many inputs it ran and exits 0.  */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

static unsigned long ran;

static void
run_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (!f)
    {
      perror (path);
      exit (2);
    }
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc (cap);
  size_t got;
  while (buf && (got = fread (buf + n, 1, cap - n, f)) > 0)
    {
      n += got;
      if (n == cap)
        buf = realloc (buf, cap *= 2);
    }
  if (!buf || ferror (f))
    {
      perror (path);
      exit (2);
    }
  fclose (f);
  fprintf (stderr, "%s\n", path);
  LLVMFuzzerTestOneInput (buf, n);
  free (buf);
  ran++;
}

static int
cmp_name (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
run_path (const char *path)
{
  struct stat st;
  if (stat (path, &st) < 0)
    {
      perror (path);
      exit (2);
    }
  if (!S_ISDIR (st.st_mode))
    {
      run_file (path);
      return;
    }
  DIR *d = opendir (path);
  if (!d)
    {
      perror (path);
      exit (2);
    }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir (d)))
    if (e->d_name[0] != '.')
      {
        names = realloc (names, (n + 1) * sizeof *names);
        names[n++] = strdup (e->d_name);
      }
  closedir (d);
  qsort (names, n, sizeof *names, cmp_name);
  for (size_t i = 0; i < n; i++)
    {
      char *p = malloc (strlen (path) + strlen (names[i]) + 2);
      sprintf (p, "%s/%s", path, names[i]);
      run_path (p);
      free (p);
      free (names[i]);
    }
  free (names);
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: fuzz-run FILE|DIR...\n");
      return 1;
    }
  for (int i = 1; i < argc; i++)
    run_path (argv[i]);
  fprintf (stderr, "fuzz-run: %lu inputs, no problem found\n", ran);
  return 0;
}
