/* select.cc - the selection file of -fplugin-arg-dsprof-select=FILE: what to
   instrument, said outside the program's sources (docs/select.md).

     # comment
     include PAT...                 as include=PAT:...; exclude likewise
     exclude PAT...
     event PAT [file=FPAT] [type=T] [dims=all|none|ITEM,...] [result=keep|drop]
     call PAT[(NAME|_, ...)] [in=PAT] [file=FPAT] [type=T] [result=keep|drop]
     dispatch FUNC[@LINE] [file=FPAT] [dims=ITEM,...]

   ITEM: a parameter's NAME, or NAME=EXPR, an expression over the variables
   in scope that dim-expr.cc compiles (docs/select.md, "Expressions").

   The file is read once, when the plugin starts; the first error in it is
   the compilation's one error, "dsprof: FILE:LINE: what is wrong".  Its
   include and exclude patterns join those of the plugin arguments
   (dsprof_opts), which dsprof_selected_p applies; `event' directives make
   functions events (events.cc asks select_event_for); `call' directives make
   the calls of outside functions events in their callers (call-sites.cc asks
   select_call_for); `dispatch' directives are kept for the dispatch
   instrumentation (select_dispatch_spec).  */

#include "gcc-compat.h"
#include "dsprof-plugin.h"
#include "dim-expr.h"

#include <fnmatch.h>

enum select_dims
{
  SELECT_DIMS_ALL,
  SELECT_DIMS_NONE,
  SELECT_DIMS_LIST
};

/* What every directive has: where it is written.  */
struct select_where
{
  const char *file;
  int line;
};

struct select_event
{
  struct select_where where;
  char *pattern, *file, *type;   /* FILE and TYPE NULL if not given */
  enum select_dims dims;
  vec<char *> names;             /* the dims of SELECT_DIMS_LIST */
  vec<dim_expr> exprs;           /* and its NAME=EXPR items */
  bool result;
  /* In the unit being compiled: how many functions it made events, and
     which of NAMES is a parameter of one of them, which of EXPRS had its
     variables in one of them (else why not, in UNKNOWN).  */
  unsigned matched;
  vec<bool> seen;
  vec<bool> expr_seen;
  vec<char *> unknown;
};

struct select_call
{
  struct select_where where;
  char *pattern, *in, *file, *type;
  vec<char *> args;              /* positional names, NULL for `_' */
  bool result;
  bool reported;                 /* an error about its use has been given */
};

struct select_dispatch
{
  struct select_where where;
  char *func, *file;
  int line;                      /* 0: the whole function */
  vec<dim_expr> exprs;           /* dims=: a variable is NAME=NAME */
};

static vec<select_event *> events;
static vec<select_call *> calls;
static vec<select_dispatch> dispatches;

/* The file being read and the current line, for the messages.  */
static struct select_where here;

/* ---- reading ------------------------------------------------------------ */

/* Split LINE into whitespace-separated words, in place; a word goes on through
   blanks inside parentheses (`realloc(ptr, size)'), and a `#' that starts a
   word starts a comment.  Return false if a parenthesis is not closed.  */

static bool
split_words (char *line, vec<char *> *words)
{
  char *p = line;
  for (;;)
    {
      while (ISSPACE (*p))
        p++;
      if (*p == '\0' || *p == '#')
        return true;
      char *start = p;
      int depth = 0;
      for (; *p && (depth > 0 || !ISSPACE (*p)); p++)
        if (*p == '(')
          depth++;
        else if (*p == ')')
          depth--;
      if (depth > 0)
        {
          error ("dsprof: %s:%d: missing %<)%> in %qs", here.file, here.line,
                 start);
          return false;
        }
      words->safe_push (start);
      if (*p)
        *p++ = '\0';
    }
}

static bool
ident_char_p (char c)
{
  return ISALNUM (c) || c == '_';
}

/* Whether S is a C identifier.  */

static bool
identifier_p (const char *s)
{
  if (!*s || ISDIGIT (*s))
    return false;
  for (; *s; s++)
    if (!ident_char_p (*s))
      return false;
  return true;
}

/* Whether S is an fnmatch pattern: not empty, every `[' closed; of function
   names if FUNCTIONS: identifier characters and * ? [...] only.  */

static bool
pattern_p (const char *s, bool functions)
{
  if (!*s)
    return false;
  for (; *s; s++)
    if (*s == '[')
      {
        const char *close = strchr (s + 1, ']');
        if (!close || close == s + 1)
          return false;
        s = close;
      }
    else if (functions && !ident_char_p (*s) && *s != '*' && *s != '?')
      return false;
  return true;
}

static bool
check_function_pattern (const char *directive, const char *pat)
{
  if (pattern_p (pat, true))
    return true;
  error ("dsprof: %s:%d: %qs: bad function pattern %qs (a C identifier, or "
         "an fnmatch pattern of one)", here.file, here.line, directive, pat);
  return false;
}

static bool
check_file_pattern (const char *directive, const char *pat)
{
  if (pattern_p (pat, false))
    return true;
  error ("dsprof: %s:%d: %qs: bad file pattern %qs", here.file, here.line,
         directive, pat);
  return false;
}

/* If WORD is KEY=VALUE, return VALUE, else NULL.  */

static const char *
option_value (const char *word, const char *key)
{
  size_t n = strlen (key);
  return strncmp (word, key, n) == 0 && word[n] == '=' ? word + n + 1 : NULL;
}

/* The options of a directive: the words after its pattern, each KEY=VALUE
   with KEY one of VALID (comma-separated, for the message).  */

struct select_options
{
  const char *file, *type, *dims, *result, *in;
};

static bool
parse_options (const char *directive, vec<char *> &words, unsigned from,
               const char *valid, struct select_options *o)
{
  memset (o, 0, sizeof *o);
  for (unsigned i = from; i < words.length (); i++)
    {
      const char *w = words[i], *v;
      const char **slot = NULL;
      char key[8];
      static const char *const keys[] = { "file", "type", "dims", "result",
                                          "in" };
      const char **slots[] = { &o->file, &o->type, &o->dims, &o->result,
                               &o->in };
      for (unsigned k = 0; k < ARRAY_SIZE (keys) && !slot; k++)
        {
          snprintf (key, sizeof key, "%s=", keys[k]);
          if ((v = option_value (w, keys[k])) && strstr (valid, key))
            slot = slots[k];
        }
      if (!slot)
        {
          error ("dsprof: %s:%d: %qs: unknown option %qs (valid: %s)",
                 here.file, here.line, directive, w, valid);
          return false;
        }
      if (*slot)
        {
          error ("dsprof: %s:%d: %qs: option %qs given twice", here.file,
                 here.line, directive, w);
          return false;
        }
      if (!*v)
        {
          error ("dsprof: %s:%d: %qs: option %qs needs a value", here.file,
                 here.line, directive, w);
          return false;
        }
      *slot = v;
    }
  if (o->file && !check_file_pattern (directive, o->file))
    return false;
  if (o->in && !check_function_pattern (directive, o->in))
    return false;
  return true;
}

/* RESULT=keep or drop into *KEEP (keep if not given).  */

static bool
parse_result (const char *directive, const char *value, bool *keep)
{
  *keep = true;
  if (!value || strcmp (value, "keep") == 0)
    return true;
  if (strcmp (value, "drop") == 0)
    {
      *keep = false;
      return true;
    }
  error ("dsprof: %s:%d: %qs: bad value %qs for %<result=%> (valid: keep, "
         "drop)", here.file, here.line, directive, value);
  return false;
}

/* Whether NAMES already holds NAME.  */

static bool
has_name (vec<char *> &names, const char *name)
{
  for (unsigned i = 0; i < names.length (); i++)
    if (names[i] && strcmp (names[i], name) == 0)
      return true;
  return false;
}

/* Split the comma-separated LIST into NAMES: identifiers, distinct, not
   `result' (the result's own dimension), or `_' (a NULL) where ALLOW_SKIP.  */

static bool
parse_names (const char *directive, const char *list, bool allow_skip,
             vec<char *> *names)
{
  char *copy = xstrdup (list);
  bool ok = true;
  char *save = NULL;
  if (*list == '\0' && !allow_skip)
    ok = false;
  for (char *s = strtok_r (copy, ",", &save); s && ok;
       s = strtok_r (NULL, ",", &save))
    {
      while (ISSPACE (*s))
        s++;
      char *e = s + strlen (s);
      while (e > s && ISSPACE (e[-1]))
        *--e = '\0';
      if (allow_skip && strcmp (s, "_") == 0)
        names->safe_push (NULL);
      else if (!identifier_p (s) || strcmp (s, "result") == 0
               || has_name (*names, s))
        {
          error ("dsprof: %s:%d: %qs: bad dimension name %qs (a C identifier "
                 "named once, not %<result%>%s)", here.file, here.line,
                 directive, s, allow_skip ? ", or _ to skip an argument" : "");
          ok = false;
        }
      else
        names->safe_push (xstrdup (s));
    }
  /* "a,,b", ",a" or "a,": strtok_r skips empty fields.  */
  size_t len = strlen (list);
  if (ok && len && (strstr (list, ",,") || list[0] == ',' || list[len - 1] == ','))
    {
      error ("dsprof: %s:%d: %qs: empty name in %qs", here.file, here.line,
             directive, list);
      ok = false;
    }
  free (copy);
  return ok;
}

/* The dimensions the report gives every record or derives (docs/contract.md
   §4.2, §5): a computed one of that name would be hidden.  */
#define RESERVED_DIMS "event, name, file, line, function, thread, " \
  "complete, result, depth, parent, location, children, site"

static bool
reserved_dim_p (const char *name)
{
  static const char *const reserved[] = {
    "event", "name", "file", "line", "function", "thread", "complete",
    "result", "depth", "parent", "location", "children", "site"
  };
  for (unsigned i = 0; i < ARRAY_SIZE (reserved); i++)
    if (strcmp (name, reserved[i]) == 0)
      return true;
  return false;
}

/* Split the comma-separated dims= LIST of DIRECTIVE into parameter NAMES
   and NAME=EXPR items, parsed, in EXPRS; with NAMES NULL (dispatch) a NAME
   alone is the item NAME=NAME.  Names are identifiers, distinct, not
   `result'.  */

static bool
parse_dim_items (const char *directive, const char *list, vec<char *> *names,
                 vec<dim_expr> *exprs)
{
  auto_vec<char *> all;
  char *copy = xstrdup (list);
  bool ok = true;
  for (char *s = copy, *next; s && ok; s = next)
    {
      next = strchr (s, ',');
      if (next)
        *next++ = '\0';
      char *eq = strchr (s, '=');
      if (eq)
        *eq = '\0';
      if (!*s)
        {
          error ("dsprof: %s:%d: %qs: empty name in %qs", here.file, here.line,
                 directive, list);
          ok = false;
        }
      else if (!identifier_p (s) || strcmp (s, "result") == 0
               || has_name (all, s))
        {
          error ("dsprof: %s:%d: %qs: bad dimension name %qs (a C identifier "
                 "named once, not %<result%>)", here.file, here.line,
                 directive, s);
          ok = false;
        }
      else if (!eq && names)
        names->safe_push (xstrdup (s));
      else if (reserved_dim_p (s))
        {
          error ("dsprof: %s:%d: %qs: dimension name %qs is one dsprof gives "
                 "every record (%s): name it otherwise", here.file, here.line,
                 directive, s, RESERVED_DIMS);
          ok = false;
        }
      else
        {
          const char *text = eq ? eq + 1 : s;
          char *why = NULL;
          dim_node *ast = dim_expr_parse (text, &why);
          if (!ast)
            {
              error ("dsprof: %s:%d: %qs: bad expression %qs in %<%s=%s%>: %s",
                     here.file, here.line, directive, text, s, text, why);
              ok = false;
            }
          dim_expr e = { xstrdup (s), xstrdup (text), ast };
          exprs->safe_push (e);
        }
      all.safe_push (s);
    }
  free (copy);
  return ok;
}

static bool
parse_event (vec<char *> &words)
{
  if (words.length () < 2)
    {
      error ("dsprof: %s:%d: %<event%> needs a function pattern", here.file,
             here.line);
      return false;
    }
  struct select_options o;
  if (!check_function_pattern ("event", words[1])
      || !parse_options ("event", words, 2, "file=, type=, dims=, result=",
                         &o))
    return false;
  select_event *e = XCNEW (select_event);
  e->where = here;
  e->pattern = xstrdup (words[1]);
  e->file = o.file ? xstrdup (o.file) : NULL;
  e->type = o.type ? xstrdup (o.type) : NULL;
  e->dims = SELECT_DIMS_ALL;
  events.safe_push (e);
  if (!parse_result ("event", o.result, &e->result))
    return false;
  if (!o.dims || strcmp (o.dims, "all") == 0)
    return true;
  if (strcmp (o.dims, "none") == 0)
    {
      e->dims = SELECT_DIMS_NONE;
      return true;
    }
  e->dims = SELECT_DIMS_LIST;
  if (!parse_dim_items ("event", o.dims, &e->names, &e->exprs))
    return false;
  e->seen.safe_grow_cleared (e->names.length ());
  e->expr_seen.safe_grow_cleared (e->exprs.length ());
  e->unknown.safe_grow_cleared (e->exprs.length ());
  return true;
}

static bool
parse_call (vec<char *> &words)
{
  if (words.length () < 2)
    {
      error ("dsprof: %s:%d: %<call%> needs a function pattern", here.file,
             here.line);
      return false;
    }
  select_call *c = XCNEW (select_call);
  c->where = here;
  calls.safe_push (c);
  char *spec = words[1];
  char *open = strchr (spec, '(');
  if (open)
    {
      char *close = strrchr (open, ')');
      if (!close || close[1] != '\0' || strchr (open + 1, '(')
          || strchr (open, ')') != close)
        {
          error ("dsprof: %s:%d: %<call%>: bad argument list in %qs (as in "
                 "%<realloc(p, _)%>)", here.file, here.line, spec);
          return false;
        }
      *open = *close = '\0';
      if (!parse_names ("call", open + 1, true, &c->args))
        return false;
    }
  struct select_options o;
  if (!check_function_pattern ("call", spec)
      || !parse_options ("call", words, 2, "in=, file=, type=, result=", &o)
      || !parse_result ("call", o.result, &c->result))
    return false;
  c->pattern = xstrdup (spec);
  c->in = o.in ? xstrdup (o.in) : NULL;
  c->file = o.file ? xstrdup (o.file) : NULL;
  c->type = o.type ? xstrdup (o.type) : NULL;
  return true;
}

static bool
parse_dispatch (vec<char *> &words)
{
  if (words.length () < 2)
    {
      error ("dsprof: %s:%d: %<dispatch%> needs a function name (FUNC or "
             "FUNC@LINE)", here.file, here.line);
      return false;
    }
  char *func = xstrdup (words[1]);
  char *at = strchr (func, '@');
  long line = 0;
  if (at)
    {
      char *end;
      *at = '\0';
      errno = 0;
      line = strtol (at + 1, &end, 10);
      if (!ISDIGIT (at[1]) || *end || errno || line <= 0 || line > INT_MAX)
        {
          error ("dsprof: %s:%d: %<dispatch%>: bad line %qs in %qs (a line "
                 "number from 1)", here.file, here.line, at + 1, words[1]);
          return false;
        }
    }
  if (!identifier_p (func))
    {
      error ("dsprof: %s:%d: %<dispatch%>: bad function name %qs (a C "
             "identifier, optionally @LINE)", here.file, here.line, func);
      return false;
    }
  struct select_options o;
  if (!parse_options ("dispatch", words, 2, "file=, dims=", &o))
    return false;
  select_dispatch d = { here, func, o.file ? xstrdup (o.file) : NULL,
                        (int) line, vNULL };
  if (o.dims && !parse_dim_items ("dispatch", o.dims, NULL, &d.exprs))
    return false;
  dispatches.safe_push (d);
  return true;
}

/* include PAT... or exclude PAT...: add to the plugin arguments' list LIST.  */

static bool
parse_patterns (vec<char *> &words, char ***list)
{
  if (words.length () < 2)
    {
      error ("dsprof: %s:%d: %qs needs one or more patterns", here.file,
             here.line, words[0]);
      return false;
    }
  for (unsigned i = 1; i < words.length (); i++)
    if (!check_file_pattern (words[0], words[i]))
      return false;
  unsigned n = 0;
  while (*list && (*list)[n])
    n++;
  *list = XRESIZEVEC (char *, *list, n + words.length ());
  for (unsigned i = 1; i < words.length (); i++)
    (*list)[n++] = xstrdup (words[i]);
  (*list)[n] = NULL;
  return true;
}

static bool
parse_line (char *line)
{
  auto_vec<char *> words;
  if (!split_words (line, &words))
    return false;
  if (words.is_empty ())
    return true;
  const char *d = words[0];
  if (strcmp (d, "event") == 0)
    return parse_event (words);
  if (strcmp (d, "call") == 0)
    return parse_call (words);
  if (strcmp (d, "dispatch") == 0)
    return parse_dispatch (words);
  if (strcmp (d, "include") == 0)
    return parse_patterns (words, &dsprof_opts.include);
  if (strcmp (d, "exclude") == 0)
    return parse_patterns (words, &dsprof_opts.exclude);
  error ("dsprof: %s:%d: unknown directive %qs (valid: event, call, dispatch, "
         "include, exclude)", here.file, here.line, d);
  return false;
}

/* The most bytes a selection file may hold: far more than any selection needs,
   and read whole into memory.  */
#define SELECT_MAX_BYTES (1024 * 1024)

/* What a file of mode MODE that is not a regular file is, for the message.  */

static const char *
file_kind (mode_t mode)
{
  return S_ISDIR (mode) ? "a directory, not a regular file"
         : S_ISFIFO (mode) ? "a fifo, not a regular file"
         : S_ISCHR (mode) ? "a character device, not a regular file"
         : S_ISBLK (mode) ? "a block device, not a regular file"
         : S_ISSOCK (mode) ? "a socket, not a regular file" : "not a regular file";
}

/* The text of the selection file PATH, NUL-terminated, its length in *LEN; or
   NULL after the one error.  Only a regular file of at most SELECT_MAX_BYTES
   is read; nothing waits (a fifo is refused before it is read).  */

static char *
select_slurp (const char *path, size_t *len)
{
  static const char too_big[] = "larger than 1 MiB (1048576 bytes), the most a "
                                "selection file holds";
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  const char *why = NULL;
  if (fd < 0 || fstat (fd, &st) != 0)
    why = xstrerror (errno);
  else if (!S_ISREG (st.st_mode))
    why = file_kind (st.st_mode);
  else if (st.st_size > SELECT_MAX_BYTES)
    why = too_big;
  /* xmalloc ends the compilation with a message if it cannot.  */
  char *text = why ? NULL : XNEWVEC (char, SELECT_MAX_BYTES + 1);
  ssize_t n = 0;
  *len = 0;
  /* The file may grow while it is read: read one byte more than the bound.  */
  while (!why && (n = read (fd, text + *len, SELECT_MAX_BYTES + 1 - *len)) > 0
         && (*len += (size_t) n) <= SELECT_MAX_BYTES)
    ;
  if (!why && n < 0)
    why = xstrerror (errno);
  else if (!why && *len > SELECT_MAX_BYTES)
    why = too_big;
  if (fd >= 0)
    close (fd);
  if (why)
    {
      error ("dsprof: cannot read selection file %qs: %s", path, why);
      free (text);
      return NULL;
    }
  text[*len] = '\0';
  return text;
}

/* Read the selection file PATH.  Return false after the first error, which
   is the one message given.  */

bool
select_read (const char *path)
{
  size_t len;
  char *text = select_slurp (path, &len);
  if (!text)
    return false;
  here.file = xstrdup (path);
  here.line = 0;
  bool ok = true;
  for (char *line = text; ok && line < text + len;)
    {
      char *nl = (char *) memchr (line, '\n', (size_t) (text + len - line));
      char *end = nl ? nl : text + len;
      *end = '\0';
      here.line++;
      if (strlen (line) != (size_t) (end - line))
        {
          error ("dsprof: %s:%d: a NUL byte in the line", here.file,
                 here.line);
          ok = false;
        }
      else
        ok = parse_line (line);
      line = end + 1;
    }
  free (text);
  return ok;
}

/* ---- the directives' uses --------------------------------------------- */

/* The first `event' directive that selects FNDECL, or NULL.  */

select_event *
select_event_for (tree fndecl)
{
  const char *name = lang_hooks.decl_printable_name (fndecl, 0);
  for (unsigned i = 0; i < events.length (); i++)
    if (fnmatch (events[i]->pattern, name, 0) == 0
        && (!events[i]->file
            || dsprof_file_matches_p (events[i]->file, dsprof_decl_file (fndecl))))
      return events[i];
  return NULL;
}

/* The event type E gives FNDECL.  */

const char *
select_event_type (select_event *e, tree fndecl)
{
  return e->type ? e->type : lang_hooks.decl_printable_name (fndecl, 0);
}

bool
select_event_result_p (select_event *e)
{
  return e->result;
}

/* Whether E makes parameter PARM of the function it selected a dimension;
   E's named dimensions that PARM is are noted for select_check_unit.  */

bool
select_event_dim_p (select_event *e, tree parm)
{
  if (e->dims != SELECT_DIMS_LIST)
    return e->dims == SELECT_DIMS_ALL;
  if (!DECL_NAME (parm))
    return false;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (parm));
  for (unsigned i = 0; i < e->names.length (); i++)
    if (strcmp (e->names[i], name) == 0)
      {
        e->seen[i] = true;
        return true;
      }
  return false;
}

/* The parameters of the function DATA (and `result', its result), for the
   expressions of an `event' directive.  */

static tree
param_lookup (const char *name, void *data)
{
  tree fndecl = (tree) data;
  for (tree p = DECL_ARGUMENTS (fndecl); p; p = DECL_CHAIN (p))
    if (DECL_NAME (p) && strcmp (IDENTIFIER_POINTER (DECL_NAME (p)), name) == 0)
      return p;
  if (strcmp (name, "result") == 0
      && !VOID_TYPE_P (TREE_TYPE (TREE_TYPE (fndecl))))
    return DECL_RESULT (fndecl);
  return NULL_TREE;
}

/* Give the error WHY about the expression E of the directive at WHERE
   (DIRECTIVE PATTERN), at LOC.  */

static void
expr_error (location_t loc, select_where where, const char *directive,
            const char *pattern, const dim_expr &e, const char *why)
{
  error_at (loc, "dsprof: %s:%d: %<%s %s%>: dimension %<%s=%s%>: %s",
            where.file, where.line, directive, pattern, e.name, e.text, why);
}

/* Compile the NAME=EXPR items of E for FNDECL, a function it made an event:
   those over its parameters into START, evaluated at its Start, those that
   read `result' into FINISH, at its Finish.  An item whose variables
   FNDECL does not have is left out (select_check_unit tells if no function
   has them).  Return false after an error.  */

bool
select_event_exprs (select_event *e, tree fndecl, dim_prog *start,
                    dim_prog *finish)
{
  bool ok = true;
  for (unsigned i = 0; i < e->exprs.length (); i++)
    {
      const dim_expr &x = e->exprs[i];
      dim_prog *prog = dim_expr_uses (x.ast, "result") ? finish : start;
      char *why = NULL;
      bool unknown = false;
      if (dim_expr_compile (&x, param_lookup, fndecl, prog, &why, &unknown))
        e->expr_seen[i] = true;
      else if (unknown)
        {
          if (!e->unknown[i])
            e->unknown[i] = why;
          else
            free (why);
        }
      else
        {
          expr_error (DECL_SOURCE_LOCATION (fndecl), e->where, "event",
                      e->pattern, x, why);
          free (why);
          ok = false;
        }
    }
  return ok;
}

/* Note that E made FNDECL an event in this unit.  */

void
select_event_used (select_event *e)
{
  e->matched++;
}

/* At the end of the unit: an error for each named dimension of an `event'
   directive that is a parameter of none of the functions it made events
   here (a directive that made none is not checked: another unit has
   them).  Return false if there was one.  */

bool
select_check_unit (void)
{
  bool ok = true;
  for (unsigned i = 0; i < events.length (); i++)
    {
      select_event *e = events[i];
      if (!e->matched)
        continue;
      for (unsigned k = 0; k < e->exprs.length (); k++)
        if (!e->expr_seen[k] && e->unknown[k])
          {
            expr_error (UNKNOWN_LOCATION, e->where, "event", e->pattern,
                        e->exprs[k], concat (e->unknown[k], " in any function "
                                             "it selects in '", main_input_filename,
                                             "'", NULL));
            ok = false;
          }
      for (unsigned k = 0; k < e->names.length (); k++)
        if (!e->seen[k])
          {
            error_at (UNKNOWN_LOCATION,
                      "dsprof: %s:%d: %<event %s%>: no function it selects in "
                   "%qs has a parameter %qs", e->where.file, e->where.line,
                   e->pattern, main_input_filename, e->names[k]);
            ok = false;
          }
    }
  return ok;
}

/* The first `call' directive that selects the call of CALLEE, at LOC in
   CALLER, or NULL.  */

const select_call *
select_call_for (tree caller, tree callee, location_t loc)
{
  if (calls.is_empty ())
    return NULL;
  const char *name = lang_hooks.decl_printable_name (callee, 0);
  const char *cname = lang_hooks.decl_printable_name (caller, 0);
  expanded_location x = expand_location (loc);
  const char *file = x.file ? x.file : dsprof_decl_file (caller);
  for (unsigned i = 0; i < calls.length (); i++)
    {
      select_call *c = calls[i];
      if (fnmatch (c->pattern, name, 0) == 0
          && (!c->in || fnmatch (c->in, cname, 0) == 0)
          && (!c->file || dsprof_file_matches_p (c->file, file)))
        return c;
    }
  return NULL;
}

const char *
select_call_type (const select_call *c, tree callee)
{
  return c->type ? c->type : lang_hooks.decl_printable_name (callee, 0);
}

bool
select_call_result_p (const select_call *c)
{
  return c->result;
}

/* How many arguments C names (or skips), and the name of argument I, NULL
   if skipped.  */

unsigned
select_call_nargs (const select_call *c)
{
  return c->args.length ();
}

const char *
select_call_arg (const select_call *c, unsigned i)
{
  return c->args[i];
}

/* Give the error that C's use at a call of CALLEE at LOC is wrong: MSG
   says how.  Once per directive.  */

void
select_call_error (const select_call *c, tree callee, location_t loc,
                   const char *msg)
{
  if (c->reported)
    return;
  const_cast<select_call *> (c)->reported = true;
  error_at (loc, "dsprof: %s:%d: %<call %s%>: %qs %s", c->where.file, c->where.line,
         c->pattern, lang_hooks.decl_printable_name (callee, 0), msg);
}

/* The `dispatch' directives, in the order of the file: function I's name,
   with its *FILE pattern (NULL if not given) and *LINE (0 if not given).  */

unsigned
select_dispatch_count (void)
{
  return dispatches.length ();
}

const char *
select_dispatch_spec (unsigned i, const char **file, int *line)
{
  *file = dispatches[i].file;
  *line = dispatches[i].line;
  return dispatches[i].func;
}

/* The variables in scope at the dispatch of a dispatch function: those of
   the blocks around it, innermost first (without a block, those of every
   block of the function, outermost first), then its parameters.  */

struct dispatch_scope
{
  tree block, fndecl;
};

static tree
block_var (tree block, const char *name)
{
  for (tree v = BLOCK_VARS (block); v; v = DECL_CHAIN (v))
    if (VAR_P (v) && DECL_NAME (v)
        && strcmp (IDENTIFIER_POINTER (DECL_NAME (v)), name) == 0)
      return v;
  return NULL_TREE;
}

/* NAME in BLOCK or the blocks inside it, outermost first.  */

static tree
any_block_var (tree block, const char *name)
{
  auto_vec<tree> work;
  work.safe_push (block);
  for (unsigned i = 0; i < work.length (); i++)
    {
      if (tree v = block_var (work[i], name))
        return v;
      for (tree sub = BLOCK_SUBBLOCKS (work[i]); sub; sub = BLOCK_CHAIN (sub))
        work.safe_push (sub);
    }
  return NULL_TREE;
}

static tree
scope_lookup (const char *name, void *data)
{
  dispatch_scope *sc = (dispatch_scope *) data;
  tree outer = DECL_INITIAL (sc->fndecl);
  if (!sc->block && outer && TREE_CODE (outer) == BLOCK)
    if (tree v = any_block_var (outer, name))
      return v;
  for (tree b = sc->block; b && TREE_CODE (b) == BLOCK;
       b = BLOCK_SUPERCONTEXT (b))
    if (tree v = block_var (b, name))
      return v;
  for (tree p = DECL_ARGUMENTS (sc->fndecl); p; p = DECL_CHAIN (p))
    if (DECL_NAME (p) && strcmp (IDENTIFIER_POINTER (DECL_NAME (p)), name) == 0)
      return p;
  return NULL_TREE;
}

/* Compile into PROG the dims= items of the `dispatch' directive that names
   FNDECL, over the variables in scope at BLOCK (the dispatch's).  Return
   false after an error: one a directive, naming it, the expression and what
   is wrong.  */

bool
select_dispatch_exprs (tree fndecl, tree block, dim_prog *prog)
{
  const char *name = lang_hooks.decl_printable_name (fndecl, 0);
  for (unsigned i = 0; i < dispatches.length (); i++)
    {
      select_dispatch &d = dispatches[i];
      if (strcmp (d.func, name) != 0
          || (d.file && !dsprof_file_matches_p (d.file,
                                                dsprof_decl_file (fndecl))))
        continue;
      dispatch_scope sc = { block, fndecl };
      for (unsigned k = 0; k < d.exprs.length (); k++)
        {
          char *why = NULL;
          bool unknown;
          if (!dim_expr_compile (&d.exprs[k], scope_lookup, &sc, prog, &why,
                                 &unknown))
            {
              expr_error (DECL_SOURCE_LOCATION (fndecl), d.where, "dispatch",
                          d.func, d.exprs[k],
                          unknown ? concat (why, " in scope at the dispatch",
                                            NULL) : why);
              free (why);
              return false;
            }
        }
      return true;
    }
  return true;
}
