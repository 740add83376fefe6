/* opt.h - the one option parser of the dsprof commands.  A command describes
   its options in a table (struct opt, designated initializers); opt_parse
   parses a command line by it, and its --help and the man page's OPTIONS
   section (`dsprof help --man`) are printed from it.  docs/contract.md §5.  */

#ifndef DSPROF_OPT_H
#define DSPROF_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What an option sets in the command's options (a struct, at OFF).  */
enum opt_kind
{
  OPT_FLAG,                      /* a bool: true */
  OPT_STRING,                    /* a const char *: the argument */
  OPT_LIST,                      /* a struct opt_list: the argument appended */
  OPT_FUNC,                      /* SET checks the argument and sets */
  OPT_IGNORED                    /* nothing */
};

struct opt
{
  const char *name;              /* --NAME */
  char letter;                   /* -LETTER too, or 0 */
  const char *arg;               /* the argument in the help; NULL: none */
  /* or the argument's text made, for command CMD (the output formats) */
  const char *(*arg_text) (const char *cmd);
  const char *help;              /* its help, lines by '\n'; NULL: unlisted */
  enum opt_kind kind;
  size_t off;                    /* offsetof the field it sets */
  /* OPT_FUNC: check ARG (NULL for an option without one) of command CMD
     and set it into FIELD, the options at OFF; 0, or EXIT_USAGE after a
     message.  */
  int (*set) (const char *cmd, char *arg, void *field);
};

/* A repeatable option's arguments, in order; free V.  */
struct opt_list
{
  int n;
  char **v;
};

/* A command's options: its name, the text of its --help before the options
   (the usage lines and what it does) and after them, its table (ending in a
   zero entry; --help and -h are every command's).  */
struct opt_cmd
{
  const char *name;
  const char *usage;
  void (*usage_fn) (FILE *out);  /* or the usage printed */
  const struct opt *opts;
  const char *after;
  void (*after_fn) (FILE *out);  /* printed after AFTER, if not NULL */
};

/* The operands, in order; those from V[DASHDASH] on came after `--`.  */
struct opt_operands
{
  int n;
  char **v;
  int dashdash;
};

/* opt_parse's return for --help, which it printed.  */
enum { OPT_HELP = -1 };

/* Parse ARGV[1 .. ARGC) of command C into OPTS: options (--NAME ARG,
   --NAME=ARG, a unique prefix of NAME, -L ARG, -LARG, -LM...) anywhere
   before `--`; the operands into *OPS (V to free).  Return 0, OPT_HELP
   after the help, or EXIT_USAGE after the message.  */
int opt_parse (const struct opt_cmd *c, int argc, char **argv, void *opts,
               struct opt_operands *ops);

/* A command's work once its options are parsed: OPTS, its operands
   ARGV[0 .. ARGC).  Return its exit status.  */
typedef int opt_main_fn (void *opts, int argc, char **argv);

/* opt_parse, then MAIN if all went well; the operands and the lists of C's
   OPT_LIST options are freed after.  Return MAIN's status, 0 after --help,
   or EXIT_USAGE after the message.  */
int opt_run (const struct opt_cmd *c, int argc, char **argv, void *opts,
             opt_main_fn *main);

/* Print C's --help to OUT.  */
void opt_help (const struct opt_cmd *c, FILE *out);

/* Print C's options as the man page lists them (troff, a .TP each).  */
void opt_man (const struct opt_cmd *c, FILE *out);

/* Add ARG to the list L.  */
void opt_list_add (struct opt_list *l, char *arg);

#endif /* DSPROF_OPT_H */
