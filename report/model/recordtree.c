/* recordtree.c - the record tree `dsprof html`'s icicle graph draws
   (recordtree.h): the records themselves, or their name paths.  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "recordtree.h"
#include "text.h"

#define PUSH(arr, n, cap, x)                                                    \
  do                                                                           \
    {                                                                          \
      if ((n) == (cap))                                                        \
        {                                                                      \
          (cap) = (cap) ? 2 * (cap) : 4;                                       \
          (arr) = XRESIZEVEC (__typeof__ (*(arr)), (arr), (cap));              \
        }                                                                      \
      (arr)[(n)++] = (x);                                                      \
    }                                                                          \
  while (0)

static struct rnode *
rnode_of (struct ev_record *r)
{
  if (!r->user)
    r->user = XCNEW (struct rnode);
  return r->user;
}

static void
lane_begin (const struct pf_process *p, const struct ev_stream *s, void *arg)
{
  struct rtree *f = arg;
  f->lanes = XRESIZEVEC (struct lane, f->lanes, f->nlanes + 1);
  struct lane *l = &f->lanes[f->nlanes++];
  memset (l, 0, sizeof *l);
  l->pid = p->header.pid;
  l->thread = s->thread;
}

/* The tooltip of R: its dimensions as `dsprof records` shows them, its times.  */

static char *
record_tip (const struct ev_record *r)
{
  char *text = NULL;
  size_t size = 0;
  FILE *m = open_memstream (&text, &size);
  if (!m)
    return xstrdup (ev_record_name (r, NULL));
  char buf[EV_VALUE_SIZE];
  /* Start's dimensions, the result, those added, complete.  */
  uint32_t nstart = r->site ? 5 + r->site->ndims : 3;
  nstart = nstart < r->ndims ? nstart : r->ndims;
  for (int pass = 0; pass < 4; pass++)
    for (uint32_t i = pass ? nstart : 0; i < (pass ? r->ndims : nstart); i++)
      {
        bool result = !strcmp (r->dims[i].name, "result");
        bool complete = !strcmp (r->dims[i].name, "complete");
        if (pass && (pass == 1) != result)
          continue;
        if (pass && (pass == 3) != complete)
          continue;
        fprintf (m, "%s=", r->dims[i].name);
        text_value (m, ev_format_value (&r->dims[i].v, buf, sizeof buf));
        putc ('\n', m);
      }
  uint64_t own = r->end_ns - r->start_ns;
  fprintf (m, "time: %s", text_duration (buf, sizeof buf, own));
  fprintf (m, " (from %" PRIu64 " ns to %" PRIu64 " ns)", r->start_ns, r->end_ns);
  fclose (m);
  return text;
}

static int
exact_record (struct ev_record *r, void *arg)
{
  struct rtree *f = arg;
  struct rnode *n = rnode_of (r);
  n->start = r->start_ns;
  n->end = r->end_ns;
  n->name = xstrdup (ev_record_name (r, NULL));
  n->tip = record_tip (r);
  n->complete = r->complete;
  n->done = true;
  if (r->parent)
    {
      struct rnode *p = rnode_of (r->parent);
      PUSH (p->kids, p->nkids, p->cap, n);
    }
  else
    {
      struct lane *l = &f->lanes[f->nlanes - 1];
      PUSH (l->tops, l->ntops, l->cap, n);
    }
  return 0;
}

static void
rnode_free (struct rnode *n)
{
  for (uint32_t i = 0; i < n->nkids; i++)
    rnode_free (n->kids[i]);
  free (n->kids);
  free (n->name);
  free (n->tip);
  free (n);
}

int
rtree_build (struct pf_set *set, uint64_t max_records, struct rtree *f)
{
  memset (f, 0, sizeof *f);
  int rc;
  f->paths = st_build (set, true, &rc);
  f->records = f->paths ? st_node (f->paths, 0)->count : 0;
  f->exact = !rc && f->records <= max_records;
  if (f->exact)
    rc = pf_walk_streams (set, NULL, exact_record, lane_begin, f, 0);
  return rc;
}

void
rtree_free (struct rtree *f)
{
  for (uint32_t i = 0; i < f->nlanes; i++)
    {
      for (uint32_t k = 0; k < f->lanes[i].ntops; k++)
        rnode_free (f->lanes[i].tops[k]);
      free (f->lanes[i].tops);
    }
  free (f->lanes);
  st_free (f->paths);
  if (f->base)
    st_free (f->base);
  free (f->base_of);
}

int
rtree_build_diff (struct pf_set *set, struct pf_set *base, struct rtree *f)
{
  memset (f, 0, sizeof *f);
  int rc;
  f->paths = st_build (set, true, &rc);
  if (!rc)
    f->base = st_build (base, true, &rc);
  if (rc)
    return rc;
  f->records = st_node (f->paths, 0)->count;
  uint32_t n = st_nnodes (f->paths);
  f->base_of = XNEWVEC (uint32_t, n);
  f->base_of[0] = 0;
  /* Each node after its parent: the parent's match is known.  */
  for (uint32_t id = 1; id < n; id++)
    {
      const struct st_node *m = st_node (f->paths, id);
      uint32_t pb = f->base_of[m->parent], found = RT_NO_BASE;
      for (uint32_t c = pb == RT_NO_BASE ? 0 : st_node (f->base, pb)->first;
           c && found == RT_NO_BASE; c = st_node (f->base, c)->next)
        if (!strcmp (st_node (f->base, c)->name, m->name))
          found = c;
      f->base_of[id] = found;
    }
  return 0;
}
