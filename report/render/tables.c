/* tables.c - what the text tables of report and diff share: footnotes for
   long values, table titles, and the --sum figures of JSON rows (tables.h).  */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "tables.h"
#include "text.h"
#include "strkey.h"

/* Values too long or multi-line for a table get numbered footnotes.  */
struct notes
{
  htab_t index;                  /* value -> number (1-based) */
  const char **values;
  uint32_t n;
};

struct note
{
  const char *value;
  uint32_t number;
};
_Static_assert (offsetof (struct note, value) == 0, "keyed by its first member (strkey.h)");

struct notes *
notes_new (void)
{
  struct notes *ns = XCNEW (struct notes);
  ns->index = htab_create_alloc (16, strkey_hash, strkey_eq, free, xcalloc, free);
  return ns;
}

void
notes_print (const struct notes *ns, FILE *out)
{
  if (!ns->n)
    return;
  fputc ('\n', out);
  for (uint32_t i = 0; i < ns->n; i++)
    {
      fprintf (out, "[%u] ", i + 1);
      text_plain (out, ns->values[i]);
      putc ('\n', out);
    }
}

void
notes_free (struct notes *ns)
{
  htab_delete (ns->index);
  free (ns->values);
  free (ns);
}

const char *
notes_shown (struct notes *ns, const char *value, char *buf)
{
  if (text_utf8_chars (value, strlen (value)) <= 25 && !strchr (value, '\n'))
    return value;
  struct note key = { value, 0 };
  void **slot = htab_find_slot (ns->index, &key, INSERT);
  if (!*slot)
    {
      struct note *n = XNEW (struct note);
      n->value = value;
      n->number = ++ns->n;
      *slot = n;
      ns->values = XRESIZEVEC (const char *, ns->values, ns->n);
      ns->values[ns->n - 1] = value;
    }
  sprintf (buf, "[%u]", ((struct note *) *slot)->number);
  return buf;
}

void
table_title (FILE *out, struct notes *ns, const char *dim, int level,
             const char **path)
{
  fputs ("\nBy ", out);
  text_plain (out, dim);
  if (level)
    fputs (" for ", out);
  for (int i = 0; i < level; i++)
    {
      char buf[32];
      fputs (i == 0 ? "" : i + 1 == level ? " and " : ", ", out);
      text_plain (out, notes_shown (ns, path[i], buf));
    }
}

void
json_sums (FILE *out, const struct agg_sum *sums, int nsums)
{
  for (int k = 0; k < nsums; k++)
    {
      char sum[64];
      fputs (k ? "," : ",\"sums\":[", out);
      fputs (agg_sum_finite (&sums[k]) ? agg_sum_text (&sums[k], sum, sizeof sum)
             : "null", out);
    }
  if (nsums)
    putc (']', out);
}
