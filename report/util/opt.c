/* opt.c - the one option parser of the dsprof commands (opt.h).  */

#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "exit.h"
#include "opt.h"

/* --help, -h: every command's, in no table.  */
static const struct opt help_opt = { .name = "help", .letter = 'h' };

void
opt_list_add (struct opt_list *l, char *arg)
{
  l->v = XRESIZEVEC (char *, l->v, l->n + 1);
  l->v[l->n++] = arg;
}

/* The option of C named NAME[0 .. LEN): exactly, else the one it is a prefix
   of (NULL if none, or several).  */

static const struct opt *
find_long (const struct opt_cmd *c, const char *name, size_t len)
{
  const struct opt *found = NULL;
  int nfound = 0;
  for (const struct opt *o = c->opts;; o++)
    {
      if (!o->name)
        o = &help_opt;
      if (!strncmp (o->name, name, len))
        {
          if (!o->name[len])
            return o;
          found = o;
          nfound++;
        }
      if (o == &help_opt)
        break;
    }
  return nfound == 1 ? found : NULL;
}

static const struct opt *
find_short (const struct opt_cmd *c, char letter)
{
  for (const struct opt *o = c->opts; o->name; o++)
    if (o->letter == letter)
      return o;
  return letter == 'h' ? &help_opt : NULL;
}

/* Set option O of C from ARG into OPTS.  Return 0, OPT_HELP or EXIT_USAGE.  */

static int
opt_apply (const struct opt_cmd *c, const struct opt *o, char *arg, void *opts)
{
  if (o == &help_opt)
    {
      opt_help (c, stdout);
      return OPT_HELP;
    }
  if (o->kind == OPT_IGNORED)
    return 0;
  char *field = (char *) opts + o->off;
  switch (o->kind)
    {
    case OPT_FLAG:
      *(bool *) field = true;
      return 0;
    case OPT_STRING:
      *(const char **) field = arg;
      return 0;
    case OPT_LIST:
      opt_list_add ((struct opt_list *) field, arg);
      return 0;
    default:
      return o->set (c->name, arg, field);
    }
}

static bool
takes_arg (const struct opt *o)
{
  return o->arg || o->arg_text;
}

/* The long option ARGV[*I] (past its "--"): its argument after '=' or the
   next argument (*I then past it).  */

static int
parse_long (const struct opt_cmd *c, int argc, char **argv, int *i, void *opts)
{
  char *name = argv[*i] + 2, *eq = strchr (name, '=');
  const struct opt *o = find_long (c, name, eq ? (size_t) (eq - name)
                                              : strlen (name));
  if (!o || (eq && !takes_arg (o)))
    return usage_error (c->name, "unknown option '%s'", argv[*i]);
  char *arg = NULL;
  if (eq)
    arg = eq + 1;
  else if (takes_arg (o))
    {
      if (*i + 1 >= argc)
        return usage_error (c->name, "option '%s' needs an argument", argv[*i]);
      arg = argv[++*i];
    }
  return opt_apply (c, o, arg, opts);
}

/* The short options ARGV[*I] (past its '-'): letters without an argument,
   then perhaps one with its argument, the rest or the next argument.  */

static int
parse_short (const struct opt_cmd *c, int argc, char **argv, int *i, void *opts)
{
  char *s = argv[*i] + 1;
  int rc = 0;
  for (; !rc && *s; s++)
    {
      const struct opt *o = find_short (c, *s);
      if (!o)
        return usage_error (c->name, "unknown option '%s'", argv[*i]);
      if (!takes_arg (o))
        {
          rc = opt_apply (c, o, NULL, opts);
          continue;
        }
      char *arg = s[1] ? s + 1 : NULL;
      if (!arg && *i + 1 >= argc)
        return usage_error (c->name, "option '%s' needs an argument", argv[*i]);
      if (!arg)
        arg = argv[++*i];
      return opt_apply (c, o, arg, opts);
    }
  return rc;
}

int
opt_parse (const struct opt_cmd *c, int argc, char **argv, void *opts,
           struct opt_operands *ops)
{
  ops->n = 0;
  ops->v = XNEWVEC (char *, argc + 1);
  ops->dashdash = argc;
  int rc = 0;
  bool dashdash = false;
  for (int i = 1; !rc && i < argc; i++)
    {
      char *a = argv[i];
      if (dashdash || a[0] != '-' || !a[1])
        ops->v[ops->n++] = a;
      else if (!strcmp (a, "--"))
        {
          dashdash = true;
          ops->dashdash = ops->n;
        }
      else if (a[1] == '-')
        rc = parse_long (c, argc, argv, &i, opts);
      else
        rc = parse_short (c, argc, argv, &i, opts);
    }
  if (ops->dashdash > ops->n)
    ops->dashdash = ops->n;
  ops->v[ops->n] = NULL;
  return rc;
}

int
opt_run (const struct opt_cmd *c, int argc, char **argv, void *opts,
         opt_main_fn *main)
{
  struct opt_operands ops;
  int rc = opt_parse (c, argc, argv, opts, &ops);
  if (!rc)
    rc = main (opts, ops.n, ops.v);
  free (ops.v);
  for (const struct opt *o = c->opts; o->name; o++)
    if (o->kind == OPT_LIST)
      free (((struct opt_list *) ((char *) opts + o->off))->v);
  return rc == OPT_HELP ? 0 : rc;
}

/* ---- help and man page ------------------------------------------------------- */

static const char *
arg_of (const struct opt_cmd *c, const struct opt *o)
{
  return o->arg_text ? o->arg_text (c->name) : o->arg;
}

/* The column of the help texts, and the indent of an option without a letter
   in a table where some have one.  */
enum { HELP_COLUMN = 23 };

void
opt_help (const struct opt_cmd *c, FILE *out)
{
  bool letters = false;
  for (const struct opt *o = c->opts; o->name; o++)
    letters |= o->letter && o->help;
  if (c->usage_fn)
    c->usage_fn (out);
  else
    fputs (c->usage, out);
  for (const struct opt *o = c->opts; o->name; o++)
    {
      if (!o->help)
        continue;
      int n = 0;
      if (o->letter)
        n = fprintf (out, "  -%c, --%s", o->letter, o->name);
      else
        n = fprintf (out, "%s--%s", letters ? "      " : "  ", o->name);
      if (takes_arg (o))
        n += fprintf (out, " %s", arg_of (c, o));
      /* A long option and argument: the help below it.  */
      if (n > HELP_COLUMN - 2)
        fprintf (out, "\n%*s", HELP_COLUMN, "");
      else
        fprintf (out, "%*s", HELP_COLUMN - n, "");
      for (const char *h = o->help, *nl;; h = nl + 1)
        {
          nl = strchr (h, '\n');
          fprintf (out, "%.*s\n", (int) (nl ? nl - h : (long) strlen (h)), h);
          if (!nl)
            break;
          fprintf (out, "%*s", HELP_COLUMN, "");
        }
    }
  if (c->after)
    fputs (c->after, out);
  if (c->after_fn)
    c->after_fn (out);
}

/* S as troff text: '-' as \-, '\' as \e, lines joined; a leading '.' or
   '\'' is no request.  */

static void
troff (const char *s, FILE *out)
{
  if (*s == '.' || *s == '\'')
    fputs ("\\&", out);
  for (; *s; s++)
    if (*s == '-')
      fputs ("\\-", out);
    else if (*s == '\\')
      fputs ("\\e", out);
    else if (*s == '\n')
      putc (' ', out);
    else
      putc (*s, out);
}

void
opt_man (const struct opt_cmd *c, FILE *out)
{
  for (const struct opt *o = c->opts; o->name; o++)
    {
      if (!o->help)
        continue;
      fputs (".TP\n", out);
      if (o->letter)
        fprintf (out, "\\fB\\-%c\\fR, ", o->letter);
      fputs ("\\fB\\-\\-", out);
      troff (o->name, out);
      fputs ("\\fR", out);
      if (takes_arg (o))
        {
          fputs (" \\fI", out);
          troff (arg_of (c, o), out);
          fputs ("\\fR", out);
        }
      putc ('\n', out);
      troff (o->help, out);
      putc ('\n', out);
    }
}
