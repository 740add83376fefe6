/* case-names.cc - the names of a dispatch switch's case labels as the source
   writes them (dispatch.cc, docs/vm.md "The rules in full").

   By GIMPLE a case value is a folded number: `case INST_PUSH1:' (a macro),
   `case OP_ADD:' (an enumerator of any enum) and `case 3:' all read 3, and the
   CFG has merged `case 52: case 53:' into one range 52 ... 53.  So the front
   end's case labels are noted as the dispatch functions are parsed, each with
   the text written after its `case' keyword, read from the source file at the
   keyword's location:

     case INST_PUSH1:             INST_PUSH1
     case OP_ADD:                 OP_ADD
     case A + 1:                  A + 1      (white space made single spaces,
                                              comments dropped)
     case 'x':                    'x'
     case 1 ... 3:                1..3
     vmcase(OP_ADD)               OP_ADD     (#define vmcase(l) case l:)

   A `case' spelled in a macro's definition is read there, and the macro's
   parameters in that text are replaced by the arguments written at the
   macro's invocation (`##' pastes).  A GIMPLE case label is named after the
   noted labels of its switch (the one on the same line) whose values it
   holds, in the order of their values; dsprof_case_name gives NULL, and the
   caller names the label by its value, where a text cannot be read: a
   source file gone, a `case' not found where the location says (#line), an
   integer literal that does not read as the value, a comment across lines,
   a variadic macro.  dsprof_case_split gives the noted labels of a GIMPLE
   range one by one where they are single values following each other
   (`case A: case B:').  An address-taken label that a macro writes from its
   arguments is named by them (dsprof_label_name).  */

#include "gcc-plugin.h"
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "c-family/c-common.h"
#include "gcc-compat.h"
#include "dsprof-plugin.h"

namespace {

/* A case label of a switch of a dispatch function, as the front end has it.  */
struct noted_case
{
  unsigned sw;                  /* index into switches */
  HOST_WIDE_INT low, high;      /* the values, low == high for one */
  char *name;                   /* as written, NULL if unread */
  location_t loc;               /* the `case' keyword's */
};

/* A switch of a dispatch function: its function, file and line (of the
   expansion point), whether it is on a _Bool, how many case labels it has
   besides a default.  */
struct noted_switch
{
  tree fndecl;
  const char *file;
  int line;
  bool on_bool;
  unsigned ncases;
};

vec<noted_case> cases;
vec<noted_switch> switches;

/* Lines of source read from LINE of FILE on: one char at a time, a comment
   read as a space, a backslash-newline as nothing, a line's end as a
   space, at most MAX_LINES lines.  */
const int max_lines = 8;

struct reader
{
  const char *file;
  int line, first;
  const char *text;
  size_t i, n;
};

bool
reader_line (reader *r, int line)
{
  if (line >= r->first + max_lines)
    return false;
  char_span text = location_get_source_line (r->file, line);
  if (!text)
    return false;
  r->text = text.get_buffer ();
  r->line = line;
  r->i = 0;
  r->n = text.length ();
  return true;
}

/* Start R at column COL (1-based) of LINE of FILE.  */

bool
reader_start (reader *r, const char *file, int line, int col)
{
  r->file = file;
  r->first = line;
  if (!file || line <= 0 || !reader_line (r, line) || col < 1
      || (size_t) col > r->n + 1)
    return false;
  r->i = col - 1;
  return true;
}

/* The next char: -1 at the end, -2 for a comment that does not end on its
   line; RAW: comments are text (inside a literal).  */

int
reader_get (reader *r, bool raw)
{
  bool splice = r->i + 1 == r->n && r->text[r->i] == '\\';
  if (r->i >= r->n || splice)
    {
      if (!reader_line (r, r->line + 1))
        return -1;
      return splice ? reader_get (r, raw) : ' ';
    }
  char c = r->text[r->i++];
  if (raw || c != '/' || r->i >= r->n)
    return (unsigned char) c;
  if (r->text[r->i] == '/')
    {
      r->i = r->n;
      return ' ';
    }
  if (r->text[r->i] != '*')
    return c;
  for (size_t j = r->i + 1; j + 1 < r->n; j++)
    if (r->text[j] == '*' && r->text[j + 1] == '/')
      {
        r->i = j + 2;
        return ' ';
      }
  return -2;
}

/* Read from R to the first char of STOPS outside brackets and literals (a
   ':' closing a '?' is no stop), into a new string with its white space made
   single spaces, trimmed; the stop in *STOP.  NULL if none is found.  */

char *
read_until (reader *r, const char *stops, int *stop)
{
  auto_vec<char, 64> out;
  int depth = 0, questions = 0;
  bool space = false;
  for (int c = reader_get (r, false); c >= 0; c = reader_get (r, false))
    {
      if (ISSPACE (c))
        {
          space = true;
          continue;
        }
      if (depth == 0 && strchr (stops, c) && !(c == ':' && questions-- > 0))
        {
          *stop = c;
          out.safe_push ('\0');
          return xstrdup (out.address ());
        }
      if (space && !out.is_empty ())
        out.safe_push (' ');
      space = false;
      out.safe_push (c);
      if (c == '(' || c == '[' || c == '{')
        depth++;
      else if ((c == ')' || c == ']' || c == '}') && --depth < 0)
        return NULL;
      else if (c == '?')
        questions++;
      else if (c == '\'' || c == '"')
        {
          int d, q = c;
          while ((d = reader_get (r, true)) >= 0 && d != q)
            {
              out.safe_push (d);
              if (d == '\\' && (d = reader_get (r, true)) >= 0)
                out.safe_push (d);
            }
          if (d < 0)
            return NULL;
          out.safe_push (q);
        }
    }
  return NULL;
}

bool
ident_char_p (int c)
{
  return ISALNUM (c) || c == '_';
}

/* Whether the text at R is the keyword KW; if so R is after it.  */

bool
read_keyword (reader *r, const char *kw)
{
  size_t n = strlen (kw);
  if (r->i + n > r->n || strncmp (r->text + r->i, kw, n) != 0
      || (r->i + n < r->n && ident_char_p (r->text[r->i + n])))
    return false;
  r->i += n;
  return true;
}

/* The text after the `case' at LOC, a spelling location, up to its colon.  */

char *
case_text (location_t loc)
{
  expanded_location x = expand_location (loc);
  reader r;
  int stop;
  if (!reader_start (&r, x.file, x.line, x.column) || !read_keyword (&r, "case"))
    return NULL;
  return read_until (&r, ":", &stop);
}

/* The spelling location of the token at LOC, and in *MAP the macro
   expansion whose definition spells it (NULL: none, the token is written
   where it is used or in a macro's argument).  */

location_t
spelling (location_t loc, const line_map_macro **map)
{
  *map = NULL;
  loc = get_pure_location (line_table, loc);
  for (int depth = 0;
       depth < 64 && linemap_location_from_macro_expansion_p (line_table, loc);
       depth++)
    {
      const line_map_macro *m
        = linemap_check_macro (linemap_lookup (line_table, loc));
      unsigned k = loc - MAP_START_LOCATION (m);
      if (k >= MACRO_MAP_NUM_MACRO_TOKENS (m))
        return UNKNOWN_LOCATION;
      location_t spell = MACRO_MAP_LOCATIONS (m)[2 * k];
      *map = spell == MACRO_MAP_LOCATIONS (m)[2 * k + 1] ? m : NULL;
      loc = get_pure_location (line_table, spell);
    }
  return loc;
}

/* Read into NAMES the comma-separated list in parentheses at R, after its
   '(' : a macro's parameters or the arguments of its invocation.  */

bool
read_list (reader *r, vec<char *> *names)
{
  for (int stop = ','; stop == ',';)
    {
      char *s = read_until (r, ",)", &stop);
      if (!s)
        return false;
      names->safe_push (s);
    }
  return true;
}

/* Skip white space at R; then whether the next char is C (and skip it).  */

bool
read_char (reader *r, int c)
{
  int d;
  while ((d = reader_get (r, false)) >= 0 && ISSPACE (d))
    ;
  return d == c;
}

/* The parameters of macro NAME, whose definition holds line LINE of FILE:
   1, or 0 for an object-like macro, -1 if its #define cannot be read.  */

int
macro_params (const char *name, const char *file, int line, vec<char *> *params)
{
  /* Back to the line of the #define: the lines before LINE end with '\'.  */
  for (int k = 0; k < max_lines && line > 1; k++)
    {
      char_span prev = location_get_source_line (file, line - 1);
      if (!prev || !prev.length () || prev[prev.length () - 1] != '\\')
        break;
      line--;
    }
  reader r;
  if (!reader_start (&r, file, line, 1) || !read_char (&r, '#'))
    return -1;
  while (r.i < r.n && ISSPACE (r.text[r.i]))
    r.i++;
  if (!read_keyword (&r, "define"))
    return -1;
  while (r.i < r.n && ISSPACE (r.text[r.i]))
    r.i++;
  if (!read_keyword (&r, name))
    return -1;
  if (r.i >= r.n || r.text[r.i] != '(')
    return 0;
  r.i++;
  return read_list (&r, params) ? 1 : -1;
}

/* The arguments of the invocation of macro NAME spelled at LOC.  */

bool
macro_args (const char *name, location_t loc, vec<char *> *args)
{
  expanded_location x = expand_location (loc);
  reader r;
  return reader_start (&r, x.file, x.line, x.column) && read_keyword (&r, name)
         && read_char (&r, '(') && read_list (&r, args);
}

/* TEXT with each identifier that is one of PARAMS replaced by the argument
   of ARGS at its index, and `##' pasting.  */

char *
substitute (const char *text, vec<char *> &params, vec<char *> &args)
{
  auto_vec<char, 64> out;
  for (const char *p = text; *p;)
    {
      size_t n = 0;
      while (ident_char_p (p[n]))
        n++;
      const char *with = NULL;
      if (n && !ISDIGIT (*p))
        for (unsigned i = 0; i < params.length () && i < args.length (); i++)
          if (strlen (params[i]) == n && strncmp (params[i], p, n) == 0)
            with = args[i];
      const char *from = with ? with : p;
      size_t len = with ? strlen (with) : n ? n : 1;
      for (size_t i = 0; i < len; i++)
        out.safe_push (from[i]);
      p += n ? n : 1;
    }
  /* Paste: drop each `##' and the spaces around it.  */
  auto_vec<char, 64> pasted;
  for (unsigned i = 0; i < out.length (); i++)
    if (out[i] == '#' && i + 1 < out.length () && out[i + 1] == '#')
      {
        while (!pasted.is_empty () && pasted.last () == ' ')
          pasted.pop ();
        for (i += 2; i < out.length () && out[i] == ' '; i++)
          ;
        i--;
      }
    else
      pasted.safe_push (out[i]);
  pasted.safe_push ('\0');
  return xstrdup (pasted.address ());
}

void
free_all (vec<char *> *v)
{
  for (unsigned i = 0; i < v->length (); i++)
    free ((*v)[i]);
  v->release ();
}

/* TEXT, written in the definition at SPELLED of the macro whose expansion
   MAP is, as its invocation makes it, and the invocation as the macros
   around it make it in turn (an invocation in another macro's
   definition); NULL if that cannot be read.  TEXT is taken.  */

char *
expand_params (char *text, const line_map_macro *map, location_t spelled,
               int depth)
{
  const char *name = (const char *) NODE_NAME (MACRO_MAP_MACRO (map));
  expanded_location def = expand_location (spelled);
  const line_map_macro *outer;
  location_t at = spelling (MACRO_MAP_EXPANSION_POINT_LOCATION (map), &outer);
  vec<char *> params = vNULL, args = vNULL;
  char *s = NULL;
  int kind = macro_params (name, def.file, def.line, &params);
  bool variadic = false;
  for (unsigned i = 0; i < params.length (); i++)
    variadic |= strstr (params[i], "...") != NULL;
  if (kind == 0 || (kind == 1 && params.length () == 1 && !*params[0]))
    s = xstrdup (text);
  else if (kind == 1 && !variadic && macro_args (name, at, &args)
           && args.length () == params.length ())
    s = substitute (text, params, args);
  free_all (&params);
  free_all (&args);
  free (text);
  if (s && outer && depth < 16)
    return expand_params (s, outer, at, depth + 1);
  return s;
}

/* Whether TEXT, if it is an integer or a plain char literal, reads as
   VALUE: a check that the text read is the label's.  */

bool
literal_matches_p (const char *text, HOST_WIDE_INT value)
{
  if (ISDIGIT (text[0]))
    {
      char *end;
      errno = 0;
      unsigned long long v = strtoull (text, &end, 0);
      while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
        end++;
      return *end || errno || (HOST_WIDE_INT) v == value;
    }
  if (text[0] == '\'' && text[1] && text[1] != '\\' && text[2] == '\''
      && !text[3])
    return (unsigned char) text[1] == (unsigned HOST_WIDE_INT) value
           || (signed char) text[1] == value;
  return true;
}

/* The name of the front end's case label C, at the `case' keyword's LOC.  */

char *
written_name (tree c, location_t loc)
{
  const line_map_macro *map;
  location_t spelled = spelling (loc, &map);
  if (spelled == UNKNOWN_LOCATION)
    return NULL;
  char *text = case_text (spelled);
  if (text && map)
    text = expand_params (text, map, spelled, 0);
  if (!text || !*text)
    {
      free (text);
      return NULL;
    }
  const char *dots = CASE_HIGH (c) ? strstr (text, "...") : NULL;
  if (dots)
    {
      char *low = xstrndup (text, dots - text);
      const char *high = dots + 3;
      size_t n = strlen (low);
      while (n && low[n - 1] == ' ')
        low[--n] = '\0';
      while (*high == ' ')
        high++;
      char *s = concat (low, "..", high, NULL);
      free (low);
      free (text);
      text = s;
    }
  if (!CASE_HIGH (c) && !literal_matches_p (text, tree_to_shwi (CASE_LOW (c))))
    {
      free (text);
      return NULL;
    }
  return text;
}

struct note_data
{
  tree fndecl;
  unsigned sw;
};

/* Note the case labels of the switch walked (not those of a switch inside
   it, noted on their own).  */

tree
note_case (tree *tp, int *walk_subtrees, void *data)
{
  note_data *d = (note_data *) data;
  tree t = *tp;
  if (TREE_CODE (t) == SWITCH_STMT || TREE_CODE (t) == SWITCH_EXPR || TYPE_P (t))
    *walk_subtrees = 0;
  else if (TREE_CODE (t) == CASE_LABEL_EXPR && CASE_LOW (t))
    {
      switches[d->sw].ncases++;
      tree low = CASE_LOW (t), high = CASE_HIGH (t) ? CASE_HIGH (t) : low;
      if (TREE_CODE (low) != INTEGER_CST || TREE_CODE (high) != INTEGER_CST
          || !tree_fits_shwi_p (low) || !tree_fits_shwi_p (high))
        return NULL_TREE;
      noted_case nc = { .sw = d->sw, .low = tree_to_shwi (low),
                        .high = tree_to_shwi (high),
                        .name = written_name (t, EXPR_LOCATION (t)),
                        .loc = EXPR_LOCATION (t) };
      cases.safe_push (nc);
    }
  return NULL_TREE;
}

tree
note_switch (tree *tp, int *walk_subtrees, void *data)
{
  tree t = *tp;
  if (TYPE_P (t))
    *walk_subtrees = 0;
  if (TREE_CODE (t) != SWITCH_STMT)
    return NULL_TREE;
  expanded_location x = expand_location (EXPR_LOCATION (t));
  tree type = SWITCH_STMT_TYPE (t);
  noted_switch ns = { .fndecl = (tree) data, .file = x.file, .line = x.line,
                      .on_bool = type && TREE_CODE (type) == BOOLEAN_TYPE,
                      .ncases = 0 };
  switches.safe_push (ns);
  note_data d = { .fndecl = (tree) data, .sw = switches.length () - 1 };
  walk_tree_without_duplicates (&SWITCH_STMT_BODY (t), note_case, &d);
  return NULL_TREE;
}

/* The first noted switch of FNDECL (at LINE, unless 0), or NULL.  */

const noted_switch *
find_switch (tree fndecl, int line)
{
  for (unsigned i = 0; i < switches.length (); i++)
    if (switches[i].fndecl == fndecl && (!line || switches[i].line == line))
      return &switches[i];
  return NULL;
}

} // namespace

/* Note the case labels of the switches of FNDECL, a dispatch function, as
   the front end has them (before genericization).  */

void
dsprof_note_cases (tree fndecl)
{
  walk_tree_without_duplicates (&DECL_SAVED_TREE (fndecl), note_switch, fndecl);
}

namespace {

/* The noted labels of the switch at SWITCH_LOC whose values the case label
   LOW .. HIGH (HIGH NULL: LOW alone) holds, in HITS in the order of their
   values; false if one of them cannot be read, or none is noted.  */

bool
case_hits (location_t switch_loc, tree low, tree high, vec<noted_case *> *hits)
{
  expanded_location x = expand_location (switch_loc);
  if (!high)
    high = low;
  if (!x.file || !tree_fits_shwi_p (low) || !tree_fits_shwi_p (high))
    return false;
  HOST_WIDE_INT lo = tree_to_shwi (low), hi = tree_to_shwi (high);
  for (unsigned i = 0; i < cases.length (); i++)
    {
      const noted_switch &s = switches[cases[i].sw];
      if (s.line != x.line || strcmp (s.file, x.file) != 0
          || cases[i].high < lo || cases[i].low > hi
          || (!hits->is_empty () && (*hits)[0]->sw != cases[i].sw))
        continue;
      if (!cases[i].name)
        return false;
      unsigned at = hits->length ();
      while (at > 0 && (*hits)[at - 1]->low > cases[i].low)
        at--;
      hits->safe_insert (at, &cases[i]);
    }
  return !hits->is_empty ();
}

} // namespace

/* The name of the case label LOW .. HIGH (HIGH NULL: LOW alone) of the
   switch at SWITCH_LOC as the source writes it: the noted labels of the
   switch on its line whose values it holds, joined by ","; NULL if one of
   them cannot be read, or none is noted.  */

char *
dsprof_case_name (location_t switch_loc, tree low, tree high)
{
  auto_vec<noted_case *> hits;
  if (!case_hits (switch_loc, low, high, &hits))
    return NULL;
  char *s = xstrdup (hits[0]->name);
  for (unsigned i = 1; i < hits.length (); i++)
    {
      char *t = concat (s, ",", hits[i]->name, NULL);
      free (s);
      s = t;
    }
  return s;
}

/* Whether the case label LOW .. HIGH of the switch at SWITCH_LOC is the
   range GCC made of several labels of the source, one value each (`case
   OP_NOP1: case OP_NOP2:'): then their names, in the order of their values
   LOW, LOW + 1, ..., in NAMES (to be freed), and their locations in LOCS.  */

bool
dsprof_case_split (location_t switch_loc, tree low, tree high,
                   vec<char *> *names, vec<location_t> *locs)
{
  auto_vec<noted_case *> hits;
  if (!high || !case_hits (switch_loc, low, high, &hits) || hits.length () < 2)
    return false;
  HOST_WIDE_INT lo = tree_to_shwi (low), hi = tree_to_shwi (high);
  for (unsigned i = 0; i < hits.length (); i++)
    if (hits[i]->low != hits[i]->high || hits[i]->low != lo + (HOST_WIDE_INT) i)
      return false;
  if (hits.last ()->low != hi)
    return false;
  for (unsigned i = 0; i < hits.length (); i++)
    {
      names->safe_push (xstrdup (hits[i]->name));
      locs->safe_push (hits[i]->loc);
    }
  return true;
}

/* The name of the address-taken label LABEL written by a macro from its
   arguments, as a case label a macro writes is named: the parameters the
   label's spelling holds, replaced by the invocation's arguments (`#define
   vmcase(l) L_##l:' makes `vmcase(OP_ADD)' OP_ADD).  NULL for a label
   written where it is used, or by a macro from no parameter: the caller
   names it by its identifier.  */

char *
dsprof_label_name (tree label)
{
  const line_map_macro *map;
  location_t spelled = spelling (DECL_SOURCE_LOCATION (label), &map);
  if (spelled == UNKNOWN_LOCATION || !map)
    return NULL;
  expanded_location x = expand_location (spelled);
  reader r;
  int stop;
  char *text = reader_start (&r, x.file, x.line, x.column)
               ? read_until (&r, ":", &stop) : NULL;
  const char *name = (const char *) NODE_NAME (MACRO_MAP_MACRO (map));
  vec<char *> params = vNULL;
  if (!text || macro_params (name, x.file, x.line, &params) != 1)
    {
      free (text);
      free_all (&params);
      return NULL;
    }
  /* The label's text less what is not a parameter: "L_##l" -> "l".  */
  auto_vec<char, 64> kept;
  for (const char *p = text; *p;)
    {
      size_t n = 0;
      while (ident_char_p (p[n]))
        n++;
      for (unsigned i = 0; n && !ISDIGIT (*p) && i < params.length (); i++)
        if (strlen (params[i]) == n && strncmp (params[i], p, n) == 0)
          {
            if (!kept.is_empty ())
              kept.safe_push (' ');
            for (size_t j = 0; j < n; j++)
              kept.safe_push (p[j]);
          }
      p += n ? n : 1;
    }
  free_all (&params);
  free (text);
  if (kept.is_empty ())
    return NULL;
  kept.safe_push ('\0');
  char *s = expand_params (xstrdup (kept.address ()), map, spelled, 0);
  if (s && !*s)
    {
      free (s);
      return NULL;
    }
  return s;
}

/* Why FNDECL, a dispatch function, has no GIMPLE switch (at LINE, unless 0)
   when its source has one: NULL if it has none either, else a reason for
   the message, its switch's line in *SWITCH_LINE.  */

const char *
dsprof_lost_switch (tree fndecl, int line, int *switch_line)
{
  const noted_switch *s = find_switch (fndecl, line);
  if (!s)
    return NULL;
  *switch_line = s->line;
  if (s->on_bool)
    return "is on a '_Bool'";
  if (s->ncases == 0)
    return "has only a 'default'";
  if (s->ncases == 1)
    return "has a single case";
  return "has too few cases";
}
