/* opt_test.c - the option parser of the commands (report/util/opt.h) and the
   output-format table (report/render/formats.h).  */

#include <CUnit/CUnit.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit.h"
#include "formats.h"
#include "opt.h"

struct t_opts
{
  const char *out, *fmt;
  bool raw, all;
  struct opt_list src;
  long n;
};

static int
t_set_n (const char *cmd, char *arg, void *field)
{
  char *end;
  *(long *) field = strtol (arg, &end, 10);
  return *end || !*arg ? usage_error (cmd, "--number wants a number, not '%s'",
                                      arg) : 0;
}

static const struct opt t_table[] = {
  { .name = "output", .letter = 'o', .arg = "FILE", .kind = OPT_STRING,
    .off = offsetof (struct t_opts, out), .help = "write to FILE" },
  { .name = "raw", .letter = 'r', .kind = OPT_FLAG,
    .off = offsetof (struct t_opts, raw), .help = "raw times" },
  { .name = "all", .letter = 'a', .kind = OPT_FLAG,
    .off = offsetof (struct t_opts, all), .help = "all of them,\nevery one" },
  { .name = "source", .arg = "F", .kind = OPT_LIST,
    .off = offsetof (struct t_opts, src), .help = "a source (repeatable)" },
  { .name = "number", .letter = 'n', .arg = "N", .kind = OPT_FUNC,
    .set = t_set_n, .off = offsetof (struct t_opts, n), .help = "a number" },
  { .name = "format", .arg_text = format_names, .kind = OPT_FUNC,
    .set = format_set, .off = offsetof (struct t_opts, fmt),
    .help = "the format" },
  { .name = "hidden", .kind = OPT_IGNORED },
  { 0 }
};

static const struct opt_cmd t_cmd = {
  .name = "report", .usage = "usage: dsprof report [OPTIONS]\n\n",
  .opts = t_table, .after = "(the end)\n"
};

/* Parse the NUL-terminated words WORDS as a command line of t_cmd into *O and
   *OPS; its stderr (or stdout with TO_STDOUT) into ERR (SIZE bytes).  */

static int
t_parse (const char **words, struct t_opts *o, struct opt_operands *ops,
         bool to_stdout, char *err, size_t size)
{
  char *argv[32];
  int argc = 0;
  argv[argc++] = (char *) "report";
  for (; *words; words++)
    argv[argc++] = (char *) *words;
  argv[argc] = NULL;
  memset (o, 0, sizeof *o);
  FILE *f = tmpfile ();
  FILE *stream = to_stdout ? stdout : stderr;
  fflush (stream);
  int fd = fileno (stream), saved = dup (fd);
  dup2 (fileno (f), fd);
  int rc = opt_parse (&t_cmd, argc, argv, o, ops);
  fflush (stream);
  dup2 (saved, fd);
  close (saved);
  rewind (f);
  size_t n = fread (err, 1, size - 1, f);
  err[n] = '\0';
  fclose (f);
  return rc;
}

static void
test_opt_forms (void)
{
  const char *w[] = { "a.data", "--output", "x", "-r", "--source=s1", "b",
                      "--sou", "s2", "-nh7", NULL };
  struct t_opts o;
  struct opt_operands ops;
  char err[256];
  /* -nh7: -n's argument is "h7", not -h.  */
  int rc = t_parse (w, &o, &ops, false, err, sizeof err);
  CU_ASSERT_EQUAL (rc, EXIT_USAGE);
  CU_ASSERT_STRING_EQUAL (err, "dsprof report: --number wants a number, not 'h7'\n"
                          "(see 'dsprof report --help')\n");
  free (ops.v);
  free (o.src.v);
  const char *v[] = { "a.data", "--output", "x", "-ra", "--source=s1", "b",
                      "--sou", "s2", "-n7", "--format", "csv", "-",
                      "--", "-r", "--output", NULL };
  rc = t_parse (v, &o, &ops, false, err, sizeof err);
  CU_ASSERT_EQUAL (rc, 0);
  CU_ASSERT_STRING_EQUAL (err, "");
  CU_ASSERT_STRING_EQUAL (o.out, "x");
  CU_ASSERT (o.raw && o.all);
  CU_ASSERT_EQUAL (o.src.n, 2);
  CU_ASSERT (o.src.n == 2 && !strcmp (o.src.v[0], "s1") && !strcmp (o.src.v[1], "s2"));
  CU_ASSERT_EQUAL (o.n, 7);
  CU_ASSERT_STRING_EQUAL (o.fmt, "csv");
  /* Operands in order; after `--` the options are operands too.  */
  CU_ASSERT_EQUAL (ops.n, 5);
  CU_ASSERT_EQUAL (ops.dashdash, 3);
  const char *want[] = { "a.data", "b", "-", "-r", "--output" };
  for (int i = 0; i < 5 && i < ops.n; i++)
    CU_ASSERT_STRING_EQUAL (ops.v[i], want[i]);
  CU_ASSERT_PTR_NULL (ops.v[ops.n]);
  free (ops.v);
  free (o.src.v);
}

/* WORDS give the usage error WANT (its first line).  */

static void
t_refused (const char **words, const char *want)
{
  struct t_opts o;
  struct opt_operands ops;
  char err[512], line[512];
  int rc = t_parse (words, &o, &ops, false, err, sizeof err);
  CU_ASSERT_EQUAL (rc, EXIT_USAGE);
  snprintf (line, sizeof line, "dsprof report: %s\n(see 'dsprof report --help')\n",
            want);
  CU_ASSERT_STRING_EQUAL (err, line);
  free (ops.v);
  free (o.src.v);
}

static void
test_opt_errors (void)
{
  t_refused ((const char *[]) { "--output", NULL },
             "option '--output' needs an argument");
  t_refused ((const char *[]) { "-r", "-o", NULL },
             "option '-o' needs an argument");
  t_refused ((const char *[]) { "--bogus", NULL }, "unknown option '--bogus'");
  t_refused ((const char *[]) { "--raw=1", NULL }, "unknown option '--raw=1'");
  t_refused ((const char *[]) { "-rx", NULL }, "unknown option '-rx'");
  /* --o is --output; --h... is --hidden or --help: neither.  */
  t_refused ((const char *[]) { "--h", NULL }, "unknown option '--h'");
  t_refused ((const char *[]) { "--format", "xml", NULL },
             "--format must be text, csv or json, not 'xml'");
  /* The first error ends the parse.  */
  t_refused ((const char *[]) { "-n", "x", "--bogus", NULL },
             "--number wants a number, not 'x'");
}

static void
test_opt_help (void)
{
  struct t_opts o;
  struct opt_operands ops;
  char out[1024];
  int rc = t_parse ((const char *[]) { "-r", "--he", "--bogus", NULL }, &o, &ops,
                    true, out, sizeof out);
  CU_ASSERT_EQUAL (rc, OPT_HELP);
  CU_ASSERT_STRING_EQUAL (out,
    "usage: dsprof report [OPTIONS]\n\n"
    "  -o, --output FILE    write to FILE\n"
    "  -r, --raw            raw times\n"
    "  -a, --all            all of them,\n"
    "                       every one\n"
    "      --source F       a source (repeatable)\n"
    "  -n, --number N       a number\n"
    "      --format text|csv|json\n"
    "                       the format\n"
    "(the end)\n");
  free (ops.v);
}

static int t_main_calls;

static int
t_main (void *opts, int argc, char **argv)
{
  struct t_opts *o = opts;
  t_main_calls++;
  return argc == 1 && !strcmp (argv[0], "p") && o->src.n == 2 ? 7 : 8;
}

/* opt_run: MAIN after a good parse only; its status, 0 after --help.  */

static void
test_opt_run (void)
{
  char *good[] = { (char *) "report", (char *) "--source", (char *) "a",
                   (char *) "p", (char *) "--source=b", NULL };
  char *help[] = { (char *) "report", (char *) "-h", (char *) "p", NULL };
  char *bad[] = { (char *) "report", (char *) "p", (char *) "-n", NULL };
  struct t_opts o;
  memset (&o, 0, sizeof o);
  CU_ASSERT_EQUAL (opt_run (&t_cmd, 5, good, &o, t_main), 7);
  CU_ASSERT_EQUAL (t_main_calls, 1);
  FILE *f = tmpfile ();
  fflush (stdout);
  int saved = dup (1);
  dup2 (fileno (f), 1);
  memset (&o, 0, sizeof o);
  int rc = opt_run (&t_cmd, 3, help, &o, t_main);
  fflush (stdout);
  dup2 (saved, 1);
  close (saved);
  CU_ASSERT_EQUAL (rc, 0);
  CU_ASSERT_EQUAL (t_main_calls, 1);
  fflush (stderr);
  saved = dup (2);
  dup2 (fileno (f), 2);
  memset (&o, 0, sizeof o);
  rc = opt_run (&t_cmd, 3, bad, &o, t_main);
  dup2 (saved, 2);
  close (saved);
  fclose (f);
  CU_ASSERT_EQUAL (rc, EXIT_USAGE);
  CU_ASSERT_EQUAL (t_main_calls, 1);
}

static void
test_formats (void)
{
  CU_ASSERT_PTR_NOT_NULL (format_find ("report", "json"));
  CU_ASSERT_PTR_NOT_NULL (format_find ("diff", "csv"));
  CU_ASSERT_PTR_NULL (format_find ("report", "xml"));
  CU_ASSERT_PTR_NULL (format_find ("records", "csv"));
  CU_ASSERT_PTR_NULL (format_find ("repo", "csv"));
  CU_ASSERT_STRING_EQUAL (format_names ("shell"), "text|csv|json");
  CU_ASSERT_STRING_EQUAL (format_names ("records"), "");
  const struct out_format *f = format_find ("report", "text");
  CU_ASSERT (f && f->report == rpt_print_text && f->diff == diff_print_text);
}

void
opt_test_register (void)
{
  CU_pSuite s = CU_add_suite ("opt", NULL, NULL);
  CU_add_test (s, "long, short, clustered, abbreviated; operands", test_opt_forms);
  CU_add_test (s, "usage errors: their messages", test_opt_errors);
  CU_add_test (s, "--help from the table", test_opt_help);
  CU_add_test (s, "opt_run: the command after a good parse", test_opt_run);
  CU_add_test (s, "output formats by command", test_formats);
}
