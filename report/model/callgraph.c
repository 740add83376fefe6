/* callgraph.c - the call graph of profile records (callgraph.h), the model
   `dsprof callgraph` (docs/contract.md §5.7), `dsprof dot` (§5.8) and `dsprof
   html` render.

   Records are grouped by the value of one dimension D (default `name`); a record
   directly inside another is a call from the outer record's value to the inner
   one's.  Times are exact, taken from the record tree rather than estimated
   from call counts as gprof does:

     self(r)   r's duration minus its direct descendants' (the recorder's cost
               deducted as in the dimension report, unless --raw)
     entry     a record whose parent is not of its node (a node is a value, or a
               cycle: the values of one strongly connected component of two or
               more values); Total(node) = the summed durations of its entries
     an arc's time, for the calls that enter a node: the self time of that
               node's records inside the entered records (self), the rest
               (children)

   Records arrive innermost first and a record's own dimensions (Finish's
   included) are known only at its completion, so an open record collects, per
   value of its direct descendants, their count, their durations and their
   node's self time inside them; at its completion the record turns these into
   arcs.  Memory is bounded by the depth of the tree times the values that occur
   in it, not by the number of records.  Which values form a cycle is known only
   after every record was seen: the call graph then walks the records twice.  */

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "callgraph.h"
#include "aggregate.h"
#include "exit.h"
#include "files.h"
#include "profile.h"
#include "query.h"
#include "text.h"
#include "intmap.h"
#include "strkey.h"

/* ---- the graph ---------------------------------------------------------------- */

/* What an open record gathers from its direct descendants of one value.  */
struct pend_entry
{
  uint32_t value;
  uint64_t count, adj_ns, same_ns;
};

struct pend
{
  uint64_t child_ns;
  struct agg_desc desc;
  struct intmap index;           /* value -> entry + 1 */
  struct pend_entry *v;
  uint32_t n, size;
  struct pend *next;             /* in the pool */
  struct pend *all;              /* every one made, for freeing */
};

struct arc
{
  uint32_t from, to;             /* value ids; from 0: top-level records */
  uint64_t count, self_ns, desc_ns;
};

struct vtext
{
  char *text;
  uint32_t id;
};
_Static_assert (offsetof (struct vtext, text) == 0, "keyed by its first member (strkey.h)");

struct graph
{
  const char *dim;
  bool raw;
  struct agg_costs costs;        /* this stream's */
  htab_t vindex;                 /* text -> struct vtext */
  char **text;                   /* by value id; [0] unused */
  uint64_t *self_ns, *count, *out_ns;
  uint32_t *comp;                /* node of each value; NULL: the value itself */
  uint32_t nvalues, vsize;
  struct intmap aindex;          /* from << 32 | to -> arc + 1 */
  struct arc *arcs;
  uint32_t narcs, asize;
  uint64_t profiled_ns, records;
  struct pend *pool, *all;
  struct agg_carry carry;        /* whether a record carries dim */
};

static void
vtext_free (void *p)
{
  free (p);                      /* the text belongs to graph.text */
}

static void
graph_init (struct graph *g, const char *dim, bool raw)
{
  memset (g, 0, sizeof *g);
  g->dim = dim;
  g->raw = raw;
  g->vindex = htab_create_alloc (64, strkey_hash, strkey_eq, vtext_free, xcalloc,
                                 free);
  g->vsize = 64;
  g->text = XCNEWVEC (char *, g->vsize);
  g->self_ns = XCNEWVEC (uint64_t, g->vsize);
  g->count = XCNEWVEC (uint64_t, g->vsize);
  g->out_ns = XCNEWVEC (uint64_t, g->vsize);
  g->text[0] = xstrdup ("<spontaneous>");
  agg_carry_want (&g->carry, dim);
}

static void
graph_free (struct graph *g)
{
  for (uint32_t i = 0; i <= g->nvalues; i++)
    free (g->text[i]);
  free (g->text);
  free (g->self_ns);
  free (g->count);
  free (g->out_ns);
  free (g->comp);
  free (g->carry.names);
  htab_delete (g->vindex);
  intmap_free (&g->aindex);
  free (g->arcs);
  while (g->all)
    {
      struct pend *p = g->all;
      g->all = p->all;
      intmap_free (&p->index);
      free (p->v);
      free (p);
    }
}

static uint32_t
value_id (struct graph *g, const char *text)
{
  struct vtext key = { (char *) text, 0 };
  void **slot = htab_find_slot (g->vindex, &key, INSERT);
  if (*slot)
    return ((struct vtext *) *slot)->id;
  if (g->nvalues + 1 >= g->vsize)
    {
      uint32_t old = g->vsize;
      g->vsize *= 2;
      g->text = XRESIZEVEC (char *, g->text, g->vsize);
      g->self_ns = XRESIZEVEC (uint64_t, g->self_ns, g->vsize);
      g->count = XRESIZEVEC (uint64_t, g->count, g->vsize);
      g->out_ns = XRESIZEVEC (uint64_t, g->out_ns, g->vsize);
      memset (g->self_ns + old, 0, (g->vsize - old) * sizeof *g->self_ns);
      memset (g->count + old, 0, (g->vsize - old) * sizeof *g->count);
      memset (g->out_ns + old, 0, (g->vsize - old) * sizeof *g->out_ns);
    }
  uint32_t id = ++g->nvalues;
  g->text[id] = xstrdup (text);
  struct vtext *v = XNEW (struct vtext);
  v->text = g->text[id];
  v->id = id;
  *slot = v;
  return id;
}

static struct arc *
arc_of (struct graph *g, uint32_t from, uint32_t to)
{
  uint64_t *slot = intmap_slot (&g->aindex, (uint64_t) from << 32 | to);
  if (!*slot)
    {
      if (g->narcs == g->asize)
        {
          g->asize = g->asize ? 2 * g->asize : 64;
          g->arcs = XRESIZEVEC (struct arc, g->arcs, g->asize);
        }
      struct arc *a = &g->arcs[g->narcs++];
      memset (a, 0, sizeof *a);
      a->from = from;
      a->to = to;
      *slot = g->narcs;
    }
  return &g->arcs[*slot - 1];
}

static uint32_t
node_of (const struct graph *g, uint32_t v)
{
  return g->comp ? g->comp[v] : v;
}

static struct pend *
pend_new (struct graph *g)
{
  struct pend *p = g->pool;
  if (p)
    {
      g->pool = p->next;
      return p;
    }
  p = XCNEW (struct pend);
  p->all = g->all;
  g->all = p;
  return p;
}

static void
pend_release (struct graph *g, struct pend *p)
{
  p->child_ns = 0;
  p->desc = (struct agg_desc) { 0, 0 };
  intmap_clear (&p->index);
  p->n = 0;
  if (p->size > 1024)
    {
      free (p->v);
      p->v = NULL;
      p->size = 0;
    }
  p->next = g->pool;
  g->pool = p;
}

static struct pend_entry *
pend_entry (struct pend *p, uint32_t value)
{
  uint64_t *slot = intmap_slot (&p->index, value);
  if (!*slot)
    {
      if (p->n == p->size)
        {
          p->size = p->size ? 2 * p->size : 8;
          p->v = XRESIZEVEC (struct pend_entry, p->v, p->size);
        }
      struct pend_entry *e = &p->v[p->n++];
      memset (e, 0, sizeof *e);
      e->value = value;
      *slot = p->n;
    }
  return &p->v[*slot - 1];
}

static void
graph_begin (const struct pf_process *p, const struct ev_stream *s, void *arg)
{
  struct graph *g = arg;
  agg_costs_of (p, s, g->raw, &g->costs);
}

static int
graph_record (struct ev_record *r, void *arg)
{
  struct graph *g = arg;
  struct pend *st = r->user;
  char buf[EV_VALUE_SIZE];
  agg_carry_record (&g->carry, r);
  const char *t = agg_dim_text (r, g->dim, buf, sizeof buf);
  uint32_t v = value_id (g, t ? t : "");
  uint32_t node = node_of (g, v);

  /* Its time as the dimension report takes it.  */
  struct agg_desc desc = st ? st->desc : (struct agg_desc) { 0, 0 };
  uint64_t child_ns = st ? st->child_ns : 0;
  uint64_t adj = agg_record_time (&g->costs, r, &desc, child_ns, NULL);
  uint64_t self = adj - child_ns;

  /* same: the self time of this node's records in r's subtree (they all hang
     from r through records of the node: the graph of nodes has no cycle).  */
  uint64_t same = self, out = 0;
  for (uint32_t i = 0; st && i < st->n; i++)
    {
      const struct pend_entry *e = &st->v[i];
      struct arc *a = arc_of (g, v, e->value);
      a->count += e->count;
      if (node_of (g, e->value) == node)
        same += e->same_ns;
      else
        {
          a->self_ns += e->same_ns;
          a->desc_ns += e->adj_ns > e->same_ns ? e->adj_ns - e->same_ns : 0;
          out += e->adj_ns;
        }
    }
  g->self_ns[v] += self;
  g->count[v]++;
  g->out_ns[v] += out;
  g->records++;

  if (r->parent)
    {
      struct pend *ps = r->parent->user;
      if (!ps)
        r->parent->user = ps = pend_new (g);
      struct pend_entry *e = pend_entry (ps, v);
      e->count++;
      e->adj_ns += adj;
      e->same_ns += same;
      ps->child_ns += adj;
      agg_desc_add (&ps->desc, &g->costs, r, &desc);
    }
  else
    {
      struct arc *a = arc_of (g, 0, v);
      a->count++;
      a->self_ns += same;
      a->desc_ns += adj > same ? adj - same : 0;
      g->profiled_ns += adj;
    }
  if (st)
    pend_release (g, st);
  r->user = NULL;
  return 0;
}

/* Walk every record of SET into G.  Return 0 or EXIT_DATA.  */

static int
graph_walk (struct graph *g, struct pf_set *set)
{
  /* Keep children only for a dimension made from them (depends-on, a derive
     library): the graph itself needs none.  */
  const char *dims[1] = { g->dim };
  struct agg *probe = agg_new (1, dims, 0, NULL);
  bool children = agg_needs_children (probe);
  agg_free (probe);
  int rc = pf_walk_streams (set, NULL, graph_record, graph_begin, g,
                            children ? EV_KEEP_CHILDREN : 0);
  /* States left by a stream that ended in corruption go back to the pool.  */
  g->pool = NULL;
  for (struct pend *p = g->all; p; p = p->all)
    pend_release (g, p);
  return rc;
}

/* Forget the times and counts, keeping the values and arcs.  */

static void
graph_reset (struct graph *g)
{
  memset (g->self_ns, 0, g->vsize * sizeof *g->self_ns);
  memset (g->count, 0, g->vsize * sizeof *g->count);
  memset (g->out_ns, 0, g->vsize * sizeof *g->out_ns);
  for (uint32_t i = 0; i < g->narcs; i++)
    g->arcs[i].count = g->arcs[i].self_ns = g->arcs[i].desc_ns = 0;
  g->profiled_ns = g->records = 0;
}

/* ---- strongly connected components (Tarjan, without recursion) ---------------- */

/* The successors of each of the values 1..N (self-loops and top-level arcs of
   ARCS left out), in compressed rows: those of V are SUCC[FIRST[V] ..
   FIRST[V + 1]).  */

struct succ_rows
{
  uint32_t *first, *succ;
};

static void
succ_rows (uint32_t n, const struct cg_arc *arcs, uint32_t narcs,
           struct succ_rows *r)
{
  r->first = XCNEWVEC (uint32_t, n + 2);
  r->succ = XNEWVEC (uint32_t, narcs + 1);
  for (uint32_t i = 0; i < narcs; i++)
    if (arcs[i].from && arcs[i].from != arcs[i].to)
      r->first[arcs[i].from + 1]++;
  for (uint32_t v = 1; v <= n + 1; v++)
    r->first[v] += r->first[v - 1];
  uint32_t *fill = XNEWVEC (uint32_t, n + 2);
  memcpy (fill, r->first, (n + 2) * sizeof *fill);
  for (uint32_t i = 0; i < narcs; i++)
    if (arcs[i].from && arcs[i].from != arcs[i].to)
      r->succ[fill[arcs[i].from]++] = arcs[i].to;
  free (fill);
}

/* Tarjan's walk: the visit order and lowest reachable index of each value,
   the stack of visited values not yet in a component (ON: on it), and the
   path of values being visited (CALL, each with its NEXT successor).  */

struct tarjan
{
  uint32_t *comp;
  struct succ_rows r;
  uint32_t *index, *low, *stack, *call, *next, *size;
  bool *on;
  uint32_t counter, sp, ncomp, depth;
};

/* Visit W: push it on the stack and the path.  */

static void
tarjan_visit (struct tarjan *t, uint32_t w)
{
  t->index[w] = t->low[w] = ++t->counter;
  t->next[w] = t->r.first[w];
  t->stack[t->sp++] = w;
  t->on[w] = true;
  t->call[t->depth++] = w;
}

/* V's successors are done: if it is a component's root, pop the component;
   then hand its lowest index to the value that visited it.  */

static void
tarjan_leave (struct tarjan *t, uint32_t v)
{
  if (t->low[v] == t->index[v])
    {
      t->ncomp++;
      uint32_t w;
      do
        {
          w = t->stack[--t->sp];
          t->on[w] = false;
          t->comp[w] = t->ncomp;
          t->size[t->ncomp]++;
        }
      while (w != v);
    }
  t->depth--;
  if (t->depth)
    {
      uint32_t u = t->call[t->depth - 1];
      if (t->low[v] < t->low[u])
        t->low[u] = t->low[v];
    }
}

uint32_t
cg_scc (uint32_t n, const struct cg_arc *arcs, uint32_t narcs, uint32_t *comp,
        uint32_t **sizes)
{
  struct tarjan t;
  memset (&t, 0, sizeof t);
  t.comp = comp;
  comp[0] = 0;
  succ_rows (n, arcs, narcs, &t.r);
  t.index = XCNEWVEC (uint32_t, n + 1);
  t.low = XNEWVEC (uint32_t, n + 1);
  t.stack = XNEWVEC (uint32_t, n + 1);
  t.call = XNEWVEC (uint32_t, n + 1);
  t.next = XNEWVEC (uint32_t, n + 1);     /* next successor to visit */
  t.on = XCNEWVEC (bool, n + 1);
  t.size = XCNEWVEC (uint32_t, n + 2);
  for (uint32_t root = 1; root <= n; root++)
    {
      if (t.index[root])
        continue;
      tarjan_visit (&t, root);
      while (t.depth)
        {
          uint32_t v = t.call[t.depth - 1];
          if (t.next[v] < t.r.first[v + 1])
            {
              uint32_t w = t.r.succ[t.next[v]++];
              if (!t.index[w])
                tarjan_visit (&t, w);
              else if (t.on[w] && t.index[w] < t.low[v])
                t.low[v] = t.index[w];
              continue;
            }
          tarjan_leave (&t, v);
        }
    }
  free (t.r.first);
  free (t.r.succ);
  free (t.index);
  free (t.low);
  free (t.stack);
  free (t.call);
  free (t.next);
  free (t.on);
  *sizes = t.size;
  return t.ncomp;
}

/* Set G->comp: component numbers from 1 for values 1..n, comp[0] = 0.  Return
   the number of components; their sizes in *SIZES (by component).  */

static uint32_t
graph_scc (struct graph *g, uint32_t **sizes)
{
  struct cg_arc *arcs = XNEWVEC (struct cg_arc, g->narcs + 1);
  for (uint32_t i = 0; i < g->narcs; i++)
    arcs[i] = (struct cg_arc) { g->arcs[i].from, g->arcs[i].to, g->arcs[i].count };
  g->comp = XCNEWVEC (uint32_t, g->nvalues + 1);
  uint32_t ncomp = cg_scc (g->nvalues, arcs, g->narcs, g->comp, sizes);
  free (arcs);
  return ncomp;
}

/* S as a record value is shown: bare when safe, else quoted with C escapes.  */

static char *
show_value (const char *s)
{
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream (&text, &size);
  if (!f)
    return xstrdup (s);
  text_value (f, s);
  fclose (f);
  return text;
}

/* ---- the call graph's entries ------------------------------------------------- */

enum entry_kind { ENTRY_VALUE, ENTRY_MEMBER, ENTRY_CYCLE };

struct entry
{
  enum entry_kind kind;
  uint32_t id;                   /* value id, or component for a cycle */
  uint64_t self_ns, desc_ns, total_ns;
  uint64_t called, inner;        /* from outside the node; from inside (self
                                    calls for a value, calls among members for a
                                    cycle) */
  uint32_t index;                /* [n] */
  const char *sort_name;
};

struct callgraph
{
  struct graph *g;
  uint32_t *comp_size;           /* by component */
  uint32_t *cycle_no;            /* by component: 0, or N of <cycle N> */
  uint32_t *entry_of_value;      /* entry number of each value */
  uint32_t *entry_of_cycle;      /* by component */
  uint64_t *called;              /* by value: calls from outside its node */
  uint64_t *inner;               /* by value: calls from inside its node */
  uint64_t *entered_ns;          /* by value: time of the calls from outside */
  char **shown;                  /* by value: show_value */
  uint32_t ncomp;                /* components */
  uint64_t *cycle_total;         /* by component: the time of a cycle's calls */
  uint32_t *cycles;              /* the cycles' components, by <cycle N> */
  uint32_t ncycles;
  char **cycle_sort_names;       /* by <cycle N> - 1: its entry's sort name */
  struct entry *entries;
  uint32_t nentries;
  uint32_t *by_to, *to_first;    /* arcs grouped by callee */
  uint32_t *by_from, *from_first;/* arcs grouped by caller */
  struct cg_entry *cur;          /* the entry whose lines are being added */
};

static bool
in_cycle (const struct callgraph *c, uint32_t v)
{
  return v && c->comp_size[c->g->comp[v]] > 1;
}

static bool
same_node (const struct callgraph *c, uint32_t u, uint32_t v)
{
  return u && v && c->g->comp[u] == c->g->comp[v];
}

static int
cmp_entry (const void *a, const void *b)
{
  const struct entry *x = a, *y = b;
  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  uint64_t cx = x->called + x->inner, cy = y->called + y->inner;
  if (cx != cy)
    return cx > cy ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind == ENTRY_CYCLE ? -1 : y->kind == ENTRY_CYCLE ? 1 : 0;
  return strcmp (x->sort_name, y->sort_name);
}

/* The name of the line just added (add_line): value V as a line shows it,
   value [<cycle N>] [index].  */

static void
add_name (const struct callgraph *c, uint32_t v)
{
  struct cg_line *l = &c->cur->lines[c->cur->nlines - 1];
  if (v == 0)
    l->name = xstrdup ("<spontaneous>");
  else if (in_cycle (c, v))
    l->name = xasprintf ("%s <cycle %u> [%u]", c->shown[v],
                         c->cycle_no[c->g->comp[v]],
                         c->entries[c->entry_of_value[v]].index);
  else
    l->name = xasprintf ("%s [%u]", c->shown[v],
                         c->entries[c->entry_of_value[v]].index);
}

/* Add a line to the current entry: the entry's own when PRIMARY, its % time
   PCT (< 0: none), self and children when TIMES (else counts only), CALLED;
   add_name gives its name.  */

static void
add_line (struct callgraph *c, bool primary, double pct, bool times,
          uint64_t self, uint64_t desc, const char *called)
{
  struct cg_entry *e = c->cur;
  e->lines = XRESIZEVEC (struct cg_line, e->lines, e->nlines + 1);
  struct cg_line *l = &e->lines[e->nlines++];
  memset (l, 0, sizeof *l);
  l->primary = primary;
  l->pct = pct;
  l->times = times;
  l->self_ns = times ? self : 0;
  l->desc_ns = times ? desc : 0;
  snprintf (l->called, sizeof l->called, "%s", called);
}

static double
percent (const struct callgraph *c, uint64_t ns)
{
  return c->g->profiled_ns ? 100.0 * (double) ns / (double) c->g->profiled_ns : 0.0;
}

/* Arc order: parents ascending (counts-only lines first), children descending
   (counts-only lines last); by time, then count, then name.  */

struct arc_order
{
  const struct callgraph *c;
  bool by_from;                  /* the other end of the arc is `from` */
};

static int
cmp_arc (const void *p, const void *q, void *arg)
{
  const struct arc_order *o = arg;
  const struct callgraph *c = o->c;
  const struct arc *x = &c->g->arcs[*(const uint32_t *) p];
  const struct arc *y = &c->g->arcs[*(const uint32_t *) q];
  bool tx = !same_node (c, x->from, x->to), ty = !same_node (c, y->from, y->to);
  if (tx != ty)
    return tx ? 1 : -1;
  uint64_t ax = x->self_ns + x->desc_ns, ay = y->self_ns + y->desc_ns;
  if (ax != ay)
    return ax < ay ? -1 : 1;
  if (x->count != y->count)
    return x->count < y->count ? -1 : 1;
  uint32_t ox = o->by_from ? x->from : x->to, oy = o->by_from ? y->from : y->to;
  return strcmp (c->g->text[ox], c->g->text[oy]);
}

static void
value_entry_lines (struct callgraph *c, const struct entry *e)
{
  struct graph *g = c->g;
  uint32_t v = e->id;
  char called[48];
  /* Parents, ascending.  */
  for (uint32_t k = c->to_first[v]; k < c->to_first[v + 1]; k++)
    {
      const struct arc *a = &g->arcs[c->by_to[k]];
      if (same_node (c, a->from, v))
        {
          snprintf (called, sizeof called, "%" PRIu64, a->count);
          add_line (c, false, -1, false, 0, 0, called);
        }
      else
        {
          snprintf (called, sizeof called, "%" PRIu64 "/%" PRIu64, a->count,
                    c->called[v]);
          add_line (c, false, -1, true, a->self_ns, a->desc_ns, called);
        }
      add_name (c, a->from);
    }
  if (e->inner)
    snprintf (called, sizeof called, "%" PRIu64 "+%" PRIu64, e->called, e->inner);
  else
    snprintf (called, sizeof called, "%" PRIu64, e->called);
  add_line (c, true, percent (c, e->total_ns), true, e->self_ns, e->desc_ns, called);
  add_name (c, v);
  /* Children, descending.  */
  for (uint32_t k = c->from_first[v + 1]; k-- > c->from_first[v];)
    {
      const struct arc *a = &g->arcs[c->by_from[k]];
      if (same_node (c, v, a->to))
        {
          snprintf (called, sizeof called, "%" PRIu64, a->count);
          add_line (c, false, -1, false, 0, 0, called);
        }
      else
        {
          snprintf (called, sizeof called, "%" PRIu64 "/%" PRIu64, a->count,
                    c->called[a->to]);
          add_line (c, false, -1, true, a->self_ns, a->desc_ns, called);
        }
      add_name (c, a->to);
    }
}

struct cycle_parent
{
  uint32_t from;
  uint64_t count, self_ns, desc_ns;
};

static int
cmp_cycle_parent (const void *p, const void *q, void *cg)
{
  const struct callgraph *c = cg;
  const struct cycle_parent *x = p, *y = q;
  uint64_t ax = x->self_ns + x->desc_ns, ay = y->self_ns + y->desc_ns;
  if (ax != ay)
    return ax < ay ? -1 : 1;
  if (x->count != y->count)
    return x->count < y->count ? -1 : 1;
  return strcmp (c->g->text[x->from], c->g->text[y->from]);
}

static int
cmp_member (const void *p, const void *q, void *cg)
{
  const struct callgraph *c = cg;
  const struct entry *x = &c->entries[c->entry_of_value[*(const uint32_t *) p]];
  const struct entry *y = &c->entries[c->entry_of_value[*(const uint32_t *) q]];
  return x->index < y->index ? -1 : x->index > y->index;
}

static void
cycle_entry_lines (struct callgraph *c, const struct entry *e)
{
  struct graph *g = c->g;
  uint32_t comp = e->id;
  char called[48];
  /* Parents: the callers from outside, over all members.  */
  struct cycle_parent *ps = NULL;
  uint32_t np = 0;
  struct intmap index = { 0 };
  uint32_t *members = NULL, nm = 0;
  for (uint32_t v = 1; v <= g->nvalues; v++)
    {
      if (g->comp[v] != comp)
        continue;
      members = XRESIZEVEC (uint32_t, members, nm + 1);
      members[nm++] = v;
      for (uint32_t k = c->to_first[v]; k < c->to_first[v + 1]; k++)
        {
          const struct arc *a = &g->arcs[c->by_to[k]];
          if (same_node (c, a->from, v))
            continue;
          uint64_t *slot = intmap_slot (&index, a->from);
          if (!*slot)
            {
              ps = XRESIZEVEC (struct cycle_parent, ps, np + 1);
              memset (&ps[np], 0, sizeof *ps);
              ps[np].from = a->from;
              *slot = ++np;
            }
          struct cycle_parent *p = &ps[*slot - 1];
          p->count += a->count;
          p->self_ns += a->self_ns;
          p->desc_ns += a->desc_ns;
        }
    }
  intmap_free (&index);
  if (np)
    qsort_r (ps, np, sizeof *ps, cmp_cycle_parent, c);
  for (uint32_t i = 0; i < np; i++)
    {
      snprintf (called, sizeof called, "%" PRIu64 "/%" PRIu64, ps[i].count,
                e->called);
      add_line (c, false, -1, true, ps[i].self_ns, ps[i].desc_ns, called);
      add_name (c, ps[i].from);
    }
  free (ps);
  if (e->inner)
    snprintf (called, sizeof called, "%" PRIu64 "+%" PRIu64, e->called, e->inner);
  else
    snprintf (called, sizeof called, "%" PRIu64, e->called);
  add_line (c, true, percent (c, e->total_ns), true, e->self_ns, e->desc_ns,
            called);
  c->cur->lines[c->cur->nlines - 1].name
    = xasprintf ("<cycle %u as a whole> [%u]", c->cycle_no[comp], e->index);
  /* Members, in entry order: their own time and the calls from the cycle.  */
  if (nm)
    qsort_r (members, nm, sizeof *members, cmp_member, c);
  for (uint32_t i = 0; i < nm; i++)
    {
      const struct entry *m = &c->entries[c->entry_of_value[members[i]]];
      snprintf (called, sizeof called, "%" PRIu64, c->inner[members[i]]);
      add_line (c, false, -1, true, m->self_ns, m->desc_ns, called);
      add_name (c, members[i]);
    }
  free (members);
}

static int
cmp_index_name (const void *p, const void *q)
{
  const struct entry *x = *(const struct entry *const *) p;
  const struct entry *y = *(const struct entry *const *) q;
  int r = strcmp (x->sort_name, y->sort_name);
  return r ? r : x->index < y->index ? -1 : x->index > y->index;
}

/* Group the arcs of C by callee (to_first, by_to) and by caller.  */

static void
group_arcs (struct callgraph *c)
{
  struct graph *g = c->g;
  uint32_t n = g->nvalues;
  c->to_first = XCNEWVEC (uint32_t, n + 2);
  c->from_first = XCNEWVEC (uint32_t, n + 2);
  c->by_to = XNEWVEC (uint32_t, g->narcs + 1);
  c->by_from = XNEWVEC (uint32_t, g->narcs + 1);
  for (uint32_t i = 0; i < g->narcs; i++)
    {
      c->to_first[g->arcs[i].to + 1]++;
      c->from_first[g->arcs[i].from + 1]++;
    }
  for (uint32_t v = 1; v <= n + 1; v++)
    {
      c->to_first[v] += c->to_first[v - 1];
      c->from_first[v] += c->from_first[v - 1];
    }
  uint32_t *ft = XNEWVEC (uint32_t, n + 2), *ff = XNEWVEC (uint32_t, n + 2);
  memcpy (ft, c->to_first, (n + 2) * sizeof *ft);
  memcpy (ff, c->from_first, (n + 2) * sizeof *ff);
  for (uint32_t i = 0; i < g->narcs; i++)
    {
      c->by_to[ft[g->arcs[i].to]++] = i;
      c->by_from[ff[g->arcs[i].from]++] = i;
    }
  free (ft);
  free (ff);
  struct arc_order parents = { c, true }, children = { c, false };
  for (uint32_t v = 0; v <= n; v++)
    {
      qsort_r (c->by_to + c->to_first[v], c->to_first[v + 1] - c->to_first[v],
               sizeof *c->by_to, cmp_arc, &parents);
      qsort_r (c->by_from + c->from_first[v],
               c->from_first[v + 1] - c->from_first[v], sizeof *c->by_from,
               cmp_arc, &children);
    }
}

/* Cycles by total time, then by the name of their first member.  */
struct cycle_order
{
  const uint64_t *totals;        /* by component */
  const char *const *names;
};

static int
cycle_sort_total (const void *p, const void *q, void *arg)
{
  const struct cycle_order *o = arg;
  uint32_t x = *(const uint32_t *) p, y = *(const uint32_t *) q;
  if (o->totals[x] != o->totals[y])
    return o->totals[x] > o->totals[y] ? -1 : 1;
  return strcmp (o->names[x], o->names[y]);
}

/* The calls of each value from outside its node and from inside, and the time
   of the former.  */

static void
count_calls (struct callgraph *c)
{
  const struct graph *g = c->g;
  uint32_t n = g->nvalues;
  c->called = XCNEWVEC (uint64_t, n + 1);
  c->inner = XCNEWVEC (uint64_t, n + 1);
  c->entered_ns = XCNEWVEC (uint64_t, n + 1);
  for (uint32_t i = 0; i < g->narcs; i++)
    {
      const struct arc *a = &g->arcs[i];
      if (same_node (c, a->from, a->to))
        c->inner[a->to] += a->count;
      else
        {
          c->called[a->to] += a->count;
          c->entered_ns[a->to] += a->self_ns + a->desc_ns;
        }
    }
}

/* The cycles (components of two values or more), numbered by their total time,
   then by their first member's name.  */

static void
number_cycles (struct callgraph *c)
{
  const struct graph *g = c->g;
  c->cycle_no = XCNEWVEC (uint32_t, c->ncomp + 1);
  c->cycle_total = XCNEWVEC (uint64_t, c->ncomp + 1);
  c->cycles = XNEWVEC (uint32_t, c->ncomp + 1);
  const char **cname = XCNEWVEC (const char *, c->ncomp + 1);
  for (uint32_t v = 1; v <= g->nvalues; v++)
    {
      uint32_t k = g->comp[v];
      if (c->comp_size[k] < 2)
        continue;
      c->cycle_total[k] += c->entered_ns[v];
      if (!cname[k])
        c->cycles[c->ncycles++] = k;
      if (!cname[k] || strcmp (g->text[v], cname[k]) < 0)
        cname[k] = g->text[v];
    }
  struct cycle_order order = { c->cycle_total, cname };
  if (c->ncycles)
    qsort_r (c->cycles, c->ncycles, sizeof *c->cycles, cycle_sort_total, &order);
  for (uint32_t i = 0; i < c->ncycles; i++)
    c->cycle_no[c->cycles[i]] = i + 1;
  free (cname);
}

/* The entry of value V.  */

static void
value_entry (struct callgraph *c, uint32_t v, struct entry *e)
{
  const struct graph *g = c->g;
  e->id = v;
  e->self_ns = g->self_ns[v];
  e->called = c->called[v];
  e->sort_name = g->text[v];
  if (in_cycle (c, v))
    {
      e->kind = ENTRY_MEMBER;
      e->desc_ns = g->out_ns[v];
      e->total_ns = e->self_ns + e->desc_ns;
      e->inner = 0;              /* set by make_entries: its direct recursion */
    }
  else
    {
      e->kind = ENTRY_VALUE;
      e->total_ns = c->entered_ns[v];
      e->desc_ns = e->total_ns > e->self_ns ? e->total_ns - e->self_ns : 0;
      e->inner = c->inner[v];
    }
}

/* The entry of cycle I (<cycle I + 1>) as a whole.  */

static void
cycle_entry (struct callgraph *c, uint32_t i, struct entry *e)
{
  const struct graph *g = c->g;
  uint32_t k = c->cycles[i];
  e->kind = ENTRY_CYCLE;
  e->id = k;
  for (uint32_t v = 1; v <= g->nvalues; v++)
    if (g->comp[v] == k)
      {
        e->self_ns += g->self_ns[v];
        e->called += c->called[v];
        e->inner += c->inner[v];
      }
  e->total_ns = c->cycle_total[k];
  e->desc_ns = e->total_ns > e->self_ns ? e->total_ns - e->self_ns : 0;
  c->cycle_sort_names[i] = xasprintf ("<cycle %u as a whole>", i + 1);
  e->sort_name = c->cycle_sort_names[i];
}

/* Every value's entry and every cycle's as a whole, sorted and numbered.  */

static void
make_entries (struct callgraph *c)
{
  const struct graph *g = c->g;
  uint32_t n = g->nvalues;
  c->entries = XCNEWVEC (struct entry, n + c->ncycles + 1);
  c->cycle_sort_names = XCNEWVEC (char *, c->ncycles + 1);
  for (uint32_t v = 1; v <= n; v++)
    value_entry (c, v, &c->entries[c->nentries++]);
  for (uint32_t i = 0; i < g->narcs; i++)     /* entries[v - 1] is value v */
    if (g->arcs[i].from && g->arcs[i].from == g->arcs[i].to
        && in_cycle (c, g->arcs[i].to))
      c->entries[g->arcs[i].to - 1].inner = g->arcs[i].count;
  for (uint32_t i = 0; i < c->ncycles; i++)
    cycle_entry (c, i, &c->entries[c->nentries++]);
  qsort (c->entries, c->nentries, sizeof *c->entries, cmp_entry);
  c->entry_of_value = XCNEWVEC (uint32_t, n + 1);
  c->entry_of_cycle = XCNEWVEC (uint32_t, c->ncomp + 1);
  for (uint32_t i = 0; i < c->nentries; i++)
    {
      c->entries[i].index = i + 1;
      if (c->entries[i].kind == ENTRY_CYCLE)
        c->entry_of_cycle[c->entries[i].id] = i;
      else
        c->entry_of_value[c->entries[i].id] = i;
    }
}

/* M's index by name: "[n] name" for every entry.  */

static void
index_by_name (const struct callgraph *c, struct cg_model *m)
{
  const struct entry **byname = XNEWVEC (const struct entry *, c->nentries + 1);
  for (uint32_t i = 0; i < c->nentries; i++)
    byname[i] = &c->entries[i];
  qsort (byname, c->nentries, sizeof *byname, cmp_index_name);
  m->by_name = XCNEWVEC (char *, c->nentries + 1);
  for (uint32_t i = 0; i < c->nentries; i++)
    {
      const struct entry *e = byname[i];
      if (e->kind == ENTRY_CYCLE)
        m->by_name[i] = xasprintf ("[%u] <cycle %u as a whole>", e->index,
                                   c->cycle_no[e->id]);
      else if (e->kind == ENTRY_MEMBER)
        m->by_name[i] = xasprintf ("[%u] %s <cycle %u>", e->index, c->shown[e->id],
                                   c->cycle_no[c->g->comp[e->id]]);
      else
        m->by_name[i] = xasprintf ("[%u] %s", e->index, c->shown[e->id]);
    }
  free (byname);
}

static void
callgraph_free (struct callgraph *c)
{
  for (uint32_t v = 1; v <= c->g->nvalues; v++)
    free (c->shown[v]);
  for (uint32_t i = 0; i < c->ncycles; i++)
    free (c->cycle_sort_names[i]);
  free (c->cycle_sort_names);
  free (c->shown);
  free (c->called);
  free (c->inner);
  free (c->entered_ns);
  free (c->cycle_no);
  free (c->cycle_total);
  free (c->cycles);
  free (c->entries);
  free (c->entry_of_value);
  free (c->entry_of_cycle);
  free (c->to_first);
  free (c->from_first);
  free (c->by_to);
  free (c->by_from);
}

/* The entries of the call graph of G (walked with its NCOMP components, of
   COMP_SIZE values each) into M.  */

static void
graph_entries (struct graph *g, uint32_t ncomp, uint32_t *comp_size,
               struct cg_model *m)
{
  struct callgraph c;
  memset (&c, 0, sizeof c);
  c.g = g;
  c.comp_size = comp_size;
  c.ncomp = ncomp;
  c.shown = XCNEWVEC (char *, g->nvalues + 1);
  for (uint32_t v = 1; v <= g->nvalues; v++)
    c.shown[v] = show_value (g->text[v]);
  count_calls (&c);
  number_cycles (&c);
  make_entries (&c);
  group_arcs (&c);

  m->nentries = c.nentries;
  m->entries = XCNEWVEC (struct cg_entry, c.nentries + 1);
  for (uint32_t i = 0; i < c.nentries; i++)
    {
      c.cur = &m->entries[i];
      c.cur->index = c.entries[i].index;
      if (c.entries[i].kind == ENTRY_CYCLE)
        cycle_entry_lines (&c, &c.entries[i]);
      else
        value_entry_lines (&c, &c.entries[i]);
    }
  index_by_name (&c, m);
  callgraph_free (&c);
}

int
cg_build (struct pf_set *set, const char *dim, bool raw, bool note,
          struct cg_model *m)
{
  memset (m, 0, sizeof *m);
  struct graph g;
  graph_init (&g, dim, raw);
  int rc = graph_walk (&g, set);
  if (!rc && note)
    agg_carry_note (&g.carry);
  if (!rc)
    {
      uint32_t *comp_size;
      uint32_t ncomp = graph_scc (&g, &comp_size);
      bool cycles = false;
      for (uint32_t k = 1; k <= ncomp; k++)
        cycles |= comp_size[k] > 1;
      /* Each value its own node was right unless there are cycles.  */
      if (cycles)
        {
          graph_reset (&g);
          rc = graph_walk (&g, set);
        }
      if (!rc)
        {
          m->dim = dim;
          m->raw = raw;
          m->records = g.records;
          m->profiled_ns = g.profiled_ns;
          graph_entries (&g, ncomp, comp_size, m);
        }
      free (comp_size);
    }
  graph_free (&g);
  return rc;
}

void
cg_free (struct cg_model *m)
{
  for (uint32_t i = 0; i < m->nentries; i++)
    {
      for (uint32_t j = 0; j < m->entries[i].nlines; j++)
        free (m->entries[i].lines[j].name);
      free (m->entries[i].lines);
      free (m->by_name[i]);
    }
  free (m->entries);
  free (m->by_name);
  memset (m, 0, sizeof *m);
}

/* ---- the graph of values, for dot ------------------------------------------------ */

int
cg_graph_build (struct pf_set *set, const char *dim, bool raw,
                struct cg_graph *out)
{
  memset (out, 0, sizeof *out);
  struct graph g;
  graph_init (&g, dim, raw);
  int rc = graph_walk (&g, set);
  if (!rc)
    {
      agg_carry_note (&g.carry);
      out->dim = dim;
      out->raw = raw;
      out->records = g.records;
      out->profiled_ns = g.profiled_ns;
      out->nvalues = g.nvalues;
      out->values = XCNEWVEC (struct cg_value, g.nvalues + 1);
      for (uint32_t v = 1; v <= g.nvalues; v++)
        out->values[v] = (struct cg_value) { show_value (g.text[v]), g.count[v],
                                             g.self_ns[v] };
      out->arcs = XCNEWVEC (struct cg_arc, g.narcs + 1);
      for (uint32_t i = 0; i < g.narcs; i++)
        out->arcs[i] = (struct cg_arc) { g.arcs[i].from, g.arcs[i].to,
                                         g.arcs[i].count };
      out->narcs = g.narcs;
    }
  graph_free (&g);
  return rc;
}

void
cg_graph_free (struct cg_graph *g)
{
  for (uint32_t v = 1; v <= g->nvalues; v++)
    free (g->values[v].name);
  free (g->values);
  free (g->arcs);
  memset (g, 0, sizeof *g);
}
