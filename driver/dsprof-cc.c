/* dsprof-cc.c - `dsprof-cc` and `dsprof-c++`: gcc and g++ with dsprof added, a
   compiler a build system takes as it is (CC=dsprof-cc ./configure,
   -DCMAKE_C_COMPILER=dsprof-cc, CC=dsprof-cc meson setup).

   It runs the compiler ($DSPROF_GCC, default gcc; as dsprof-c++ $DSPROF_GXX,
   default g++) with

     -fplugin=PLUGIN -specs=SPECS [plugin arguments] ARGS... -IINCLUDE

   ARGS being its own arguments unchanged, but for its --dsprof-KEY[=VALUE]
   options, which become -fplugin-arg-dsprof-KEY[=VALUE] after those the
   environment gives (DSPROF_ARG_KEY=VALUE: -fplugin-arg-dsprof-key=VALUE; an
   empty VALUE: -fplugin-arg-dsprof-key).  The specs file appends libdsprof to
   gcc's library spec, used by every link (executable or shared object) after
   its objects and by no compile, between --push-state --no-as-needed and
   --pop-state, so neither --as-needed nor the order of the arguments drops it.
   The include directory comes last: the build's own -I directories go first
   (the build tree's runtime/ holds more headers than dsprof.h), the system's
   after it.

   A build system's probe (autoconf's conftest, CMake's try_compile under
   CMakeFiles/, Meson's checks under meson-private/) is compiled and linked
   without the plugin, and its -fplugin-arg-dsprof- arguments left out: it
   counts nothing and writes no profile (docs/contract.md §2a).

   The plugin, the specs file and the include directory are found from the
   driver's own path: in the build tree (driver/ beside plugin/ and runtime/),
   or installed (bin/ beside lib/dsprof/ and include/).  */

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DSPROF_GCC_MAJOR
#error "DSPROF_GCC_MAJOR (the major version of the GCC the plugin is built for) is needed"
#endif

extern char **environ;

#define ARG_ENV "DSPROF_ARG_"
#define ARG_OPT "--dsprof-"
#define PLUGIN_ARG "-fplugin-arg-dsprof-"

/* Where the three files lie, relative to the driver's directory: the build
   tree's layout, then the installed one.  */
struct layout
{
  const char *plugin, *specs, *include;
};

static const struct layout layouts[] = {
  { "../plugin/dsprof.so", "../runtime/dsprof.specs", "../runtime" },
  { "../lib/dsprof/gcc-" DSPROF_GCC_MAJOR "/dsprof.so", "../lib/dsprof/dsprof.specs",
    "../include" },
};

/* What marks a probe: a directory of the working directory's path (CMake runs
   its checks in CMakeFiles/CMakeScratch/..., where a target's objects are only
   named, never compiled from), a directory of a file argument's path (Meson's
   checks write meson-private/tmpXXXX/testfile.c), or the start of a file
   argument's base name (autoconf's conftest.c, conftest.o, conftest).  */
static const char *const probe_cwd_dirs[] = { "/CMakeFiles/", "/meson-private/" };
static const char *const probe_arg_dirs[] = { "meson-private/" };
static const char *const probe_files[] = { "conftest" };
#define NELEMS(a) (sizeof (a) / sizeof (a)[0])

static const char *prog = "dsprof-cc";

static void __attribute__ ((noreturn, format (printf, 1, 2)))
die (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fprintf (stderr, "%s: ", prog);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
  exit (1);
}

static void *
xmalloc (size_t n)
{
  void *p = malloc (n);
  if (!p)
    die ("out of memory");
  return p;
}

static char *
concat (const char *a, const char *b, const char *c)
{
  size_t la = strlen (a), lb = strlen (b), lc = strlen (c);
  char *s = xmalloc (la + lb + lc + 1);
  memcpy (s, a, la);
  memcpy (s + la, b, lb);
  memcpy (s + la + lb, c, lc + 1);
  return s;
}

/* The directory of the running executable, with a trailing '/'.  */
static char *
self_dir (void)
{
  char buf[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    die ("cannot find its own path: %s", strerror (errno));
  buf[n] = '\0';
  char *slash = strrchr (buf, '/');
  slash[1] = '\0';
  return concat (buf, "", "");
}

/* Set *PLUGIN, *SPECS and *INCLUDE to the first layout whose plugin and specs
   file exist, as absolute paths.  */
static void
find_files (char **plugin, char **specs, char **include)
{
  char *dir = self_dir ();
  for (size_t i = 0; i < NELEMS (layouts); i++)
    {
      char *p = concat (dir, layouts[i].plugin, "");
      char *s = concat (dir, layouts[i].specs, "");
      char *inc = concat (dir, layouts[i].include, "");
      *plugin = realpath (p, NULL);
      *specs = realpath (s, NULL);
      *include = realpath (inc, NULL);
      free (p), free (s), free (inc);
      if (*plugin && *specs && *include)
        return;
      free (*plugin), free (*specs), free (*include);
    }
  die ("no plugin and specs file beside '%s' (looked for %s and %s)", dir,
       layouts[0].plugin, layouts[1].plugin);
}

static int
starts_with (const char *s, const char *prefix)
{
  return strncmp (s, prefix, strlen (prefix)) == 0;
}

/* Whether a file argument (or -o's value) ARG names a probe's file.  */
static int
probe_file (const char *arg)
{
  const char *base = strrchr (arg, '/');
  base = base ? base + 1 : arg;
  for (size_t i = 0; i < NELEMS (probe_files); i++)
    if (starts_with (base, probe_files[i]))
      return 1;
  for (size_t i = 0; i < NELEMS (probe_arg_dirs); i++)
    if (strstr (arg, probe_arg_dirs[i]))
      return 1;
  return 0;
}

/* Whether this call compiles or links a build system's probe.  */
static int
is_probe (int argc, char **argv)
{
  char cwd[PATH_MAX];
  if (getcwd (cwd, sizeof cwd - 1))
    {
      strcat (cwd, "/");
      for (size_t i = 0; i < NELEMS (probe_cwd_dirs); i++)
        if (strstr (cwd, probe_cwd_dirs[i]))
          return 1;
    }
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "-o") == 0 && i + 1 < argc && probe_file (argv[i + 1]))
        return 1;
      if (argv[i][0] != '-' && probe_file (argv[i]))
        return 1;
    }
  return 0;
}

/* Append to ARGS the plugin arguments of the environment's DSPROF_ARG_KEY
   variables, in their order in the environment.  */
static int
env_plugin_args (char **args, int n)
{
  for (char **e = environ; *e; e++)
    {
      if (!starts_with (*e, ARG_ENV))
        continue;
      const char *key = *e + strlen (ARG_ENV), *eq = strchr (key, '=');
      if (!eq || eq == key)
        continue;
      char *arg = xmalloc (strlen (PLUGIN_ARG) + strlen (key) + 1);
      char *p = stpcpy (arg, PLUGIN_ARG);
      for (const char *k = key; k < eq; k++)
        *p++ = (*k >= 'A' && *k <= 'Z') ? *k - 'A' + 'a' : *k;
      if (eq[1])
        strcpy (p, eq);
      else
        *p = '\0';
      args[n++] = arg;
    }
  return n;
}

static int
count_env_args (void)
{
  int n = 0;
  for (char **e = environ; *e; e++)
    n += starts_with (*e, ARG_ENV);
  return n;
}

int
main (int argc, char **argv)
{
  const char *base = strrchr (argv[0], '/');
  base = base ? base + 1 : argv[0];
  int cxx = strlen (base) >= 2 && strcmp (base + strlen (base) - 2, "++") == 0;
  prog = cxx ? "dsprof-c++" : "dsprof-cc";
  const char *cc = getenv (cxx ? "DSPROF_GXX" : "DSPROF_GCC");
  if (!cc || !*cc)
    cc = cxx ? "g++" : "gcc";

  char *plugin, *specs, *include;
  find_files (&plugin, &specs, &include);
  int probe = is_probe (argc, argv);

  char **args = xmalloc ((size_t) (argc + count_env_args () + 8) * sizeof *args);
  int n = 0;
  args[n++] = (char *) cc;
  if (!probe)
    args[n++] = concat ("-fplugin=", plugin, "");
  args[n++] = concat ("-specs=", specs, "");
  if (!probe)
    n = env_plugin_args (args, n);
  for (int i = 1; i < argc; i++)
    {
      if (starts_with (argv[i], ARG_OPT))
        {
          if (!argv[i][strlen (ARG_OPT)] || argv[i][strlen (ARG_OPT)] == '=')
            die ("option '%s' names no plugin argument (%sKEY[=VALUE])",
                 argv[i], ARG_OPT);
          if (!probe)
            args[n++] = concat (PLUGIN_ARG, argv[i] + strlen (ARG_OPT), "");
        }
      else if (!(probe && starts_with (argv[i], PLUGIN_ARG)))
        args[n++] = argv[i];
    }
  args[n++] = concat ("-I", include, "");
  args[n] = NULL;
  execvp (cc, args);
  die ("cannot run '%s': %s", cc, strerror (errno));
}
