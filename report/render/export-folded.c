/* export-folded.c - `dsprof export --format folded` (docs/contract.md
   §5.8): folded stacks ("a;b;c SELF_NS") for flame-graph tools, the stack
   by name (its innermost ST_MAX_FRAMES frames), from stacks.h's tree of
   name paths.  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "export.h"

/* The stacks are stacks.h's tree of name paths; each line is a node with self
   time, its path's names written as frames.  */

/* A name as a frame, interned in FRAMES: frames are separated by ';' and end
   at the last blank, so a name's ';' and control characters are written as
   \xHH; an empty name as "".  */

static const char *
frame_name (htab_t frames, const char *s, size_t len)
{
  char *t = XNEWVEC (char, 4 * len + 3), *q = t;
  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) s[i];
      if (c == ';' || c < 0x20 || c == 0x7f)
        q += sprintf (q, "\\x%02x", c);
      else
        *q++ = (char) c;
    }
  *q = '\0';
  if (!*t)
    strcpy (t, "\"\"");
  void **slot = htab_find_slot (frames, t, INSERT);
  if (*slot)
    free (t);
  else
    *slot = t;
  return *slot;
}

/* Folded lines come sorted by stack, as strcmp sorts the whole stack strings
   (a line deeper than ST_MAX_FRAMES, cut, at the place of its whole stack), written
   from a walk of the tree that keeps one stack string (the path to the node
   walked) and no string per line: memory linear in the tree, time in the
   output.  Below a node at path P, a child C contributes its own line "P;C"
   and the lines of its descendants, "P;C;...", which sort as one run at the
   place of "P;C;" (no name holds a ';'), not always next to "P;C": a sibling
   "C0" sorts between the two.  So each child is two items among its
   siblings: its line, keyed by its name, and its descendants, by its name
   and ';'.  */

struct fitem
{
  const char *name;
  uint32_t node;
  bool below;                    /* the node's descendants, not its line */
};

static int
cmp_fitem (const void *p, const void *q)
{
  const struct fitem *a = p, *b = q;
  const unsigned char *x = (const unsigned char *) a->name;
  const unsigned char *y = (const unsigned char *) b->name;
  while (*x && *x == *y)
    x++, y++;
  /* The descendants' key goes on with a ';' past the name.  */
  int cx = *x ? *x : a->below ? ';' : 0;
  int cy = *y ? *y : b->below ? ';' : 0;
  if (cx != cy || (!*x && !*y))
    return cx - cy;
  /* One name ended where the other has a ';': a name holds none, so the
     other name ended there too, or is longer.  */
  return *x ? 1 : -1;
}

/* One level of the walk: the sorted items below a node, the next to write.  */
struct flevel
{
  struct fitem *items;
  uint32_t nitems, next;
  size_t path_len;               /* of the path to the node, its ';' included */
};

/* The walk: tree S, each node's FRAME, whether its subtree has a LINE, the
   path to the node walked (PATH, its SIZE), the LEVELS down to it.  */
struct fwalk
{
  const struct stacks *s;
  FILE *out;
  htab_t frames;
  const char **frame;
  bool *lines;
  char *path;
  size_t path_size;
  struct flevel *levels;
  size_t levels_size;
  uint32_t depth;
};

/* Each node's name as a frame, interned, and whether its subtree has a line:
   its self time or a descendant's.  */

static void
fwalk_init (struct fwalk *w, const struct stacks *s, FILE *out)
{
  uint32_t nnodes = st_nnodes (s);
  memset (w, 0, sizeof *w);
  w->s = s;
  w->out = out;
  w->frames = htab_create_alloc (64, htab_hash_string, htab_eq_string, free,
                                 xcalloc, free);
  w->frame = XNEWVEC (const char *, nnodes);
  w->frame[0] = "";
  for (uint32_t i = 1; i < nnodes; i++)
    w->frame[i] = frame_name (w->frames, st_node (s, i)->name, st_node (s, i)->len);
  w->lines = XCNEWVEC (bool, nnodes);
  for (uint32_t i = nnodes - 1; i > 0; i--)
    if (st_node (s, i)->self_ns || w->lines[i])
      w->lines[i] = w->lines[st_node (s, i)->parent] = true;
  w->path_size = 256;
  w->levels_size = 64;
  w->path = XNEWVEC (char, w->path_size);
  w->levels = XNEWVEC (struct flevel, w->levels_size);
}

static void
fwalk_free (struct fwalk *w)
{
  free (w->levels);
  free (w->path);
  free (w->lines);
  free (w->frame);
  htab_delete (w->frames);
}

/* Enter NODE, at PATH_LEN: a level of its children's items, sorted.  */

static void
fwalk_enter (struct fwalk *w, uint32_t node, size_t path_len)
{
  const struct stacks *s = w->s;
  if (w->depth == w->levels_size)
    {
      w->levels_size *= 2;
      w->levels = XRESIZEVEC (struct flevel, w->levels, w->levels_size);
    }
  struct flevel *l = &w->levels[w->depth++];
  const struct st_node *nd = st_node (s, node);
  l->items = XNEWVEC (struct fitem, 2 * (size_t) nd->nkids + 1);
  l->nitems = l->next = 0;
  l->path_len = path_len;
  for (uint32_t c = nd->first; c; c = st_node (s, c)->next)
    {
      const struct st_node *cn = st_node (s, c);
      if (cn->self_ns)
        l->items[l->nitems++] = (struct fitem) { w->frame[c], c, false };
      if (cn->first && w->lines[c])
        l->items[l->nitems++] = (struct fitem) { w->frame[c], c, true };
    }
  if (l->nitems > 1)
    qsort (l->items, l->nitems, sizeof *l->items, cmp_fitem);
}

/* The line of item IT of level L (the deepest), its name N bytes long,
   written after the path: DEPTH frames, past ST_MAX_FRAMES the outer ones
   cut.  */

static void
fwalk_line (struct fwalk *w, const struct flevel *l, const struct fitem *it,
            size_t n)
{
  size_t from = 0;
  if (w->depth > ST_MAX_FRAMES)
    {
      char cut[48];
      from = w->levels[w->depth - ST_MAX_FRAMES].path_len;
      fprintf (w->out, "%s;", st_cut_frame (cut, sizeof cut,
                                           w->depth - ST_MAX_FRAMES));
    }
  fwrite (w->path + from, 1, l->path_len + n - from, w->out);
  fprintf (w->out, " %" PRIu64 "\n", st_node (w->s, it->node)->self_ns);
}

/* Write the items of the deepest levels until one goes down a level (return
   its node, the path then ending in its frame and ';' at *PATH_LEN), or none
   is left (return 0).  */

static uint32_t
fwalk_items (struct fwalk *w, size_t *path_len)
{
  while (w->depth)
    {
      struct flevel *l = &w->levels[w->depth - 1];
      if (l->next == l->nitems)
        {
          free (l->items);
          w->depth--;
          continue;
        }
      struct fitem *it = &l->items[l->next++];
      size_t n = strlen (it->name);
      if (l->path_len + n + 2 > w->path_size)
        {
          while (l->path_len + n + 2 > w->path_size)
            w->path_size *= 2;
          w->path = XRESIZEVEC (char, w->path, w->path_size);
        }
      memcpy (w->path + l->path_len, it->name, n);
      if (!it->below)
        {
          fwalk_line (w, l, it, n);
          continue;
        }
      w->path[l->path_len + n] = ';';
      *path_len = l->path_len + n + 1;
      return it->node;
    }
  return 0;
}

/* Write the lines of tree S to OUT.  */

static void
write_folded (const struct stacks *s, FILE *out)
{
  struct fwalk w;
  fwalk_init (&w, s, out);
  uint32_t node = 0;
  size_t path_len = 0;
  do
    fwalk_enter (&w, node, path_len);
  while ((node = fwalk_items (&w, &path_len)));
  fwalk_free (&w);
}

int
export_folded (const struct export_input *in, FILE *out)
{
  write_folded (in->stacks, out);
  return 0;
}
