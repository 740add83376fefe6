/* stacks.c - the tree of name paths (stacks.h).  */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "hashtab.h"
#include "aggregate.h"
#include "stacks.h"

/* Nodes live in blocks that never move, so the path table can hold pointers
   to them.  */
enum { ST_BLOCK = 1024 };

/* An interned name: its bytes, NUL-terminated.  */
struct st_name
{
  const char *s;
  uint32_t len;
};

/* What a record at one depth of the open chain has gathered from its finished
   direct children: their deducted times and their count with their
   descendants'.  */
struct st_open
{
  uint64_t child_ns;
  struct agg_desc desc;
};

/* A variant's key in the variants table.  */
struct st_vkey
{
  uint32_t node;
  const char *dims;              /* interned */
  uint32_t id;
};

struct stacks
{
  bool raw;
  const char *key;               /* st_set_key's dimension, or NULL: names */
  bool children;                 /* the key needs the records' children */
  struct agg_carry carry;        /* whether a record carries the key */
  htab_t vtab;                   /* struct st_vkey, or NULL: no variants */
  int nvdims;                    /* the variants' dimensions: < 0 all */
  const char *const *vdims;
  struct st_variant *variants;   /* [1 .. nvariants] */
  uint32_t nvariants, variants_size;
  char *sig;                     /* a record's dimension set, being built */
  size_t sig_size;
  struct agg_costs costs;        /* of the current stream */
  htab_t names;                  /* struct st_name */
  htab_t paths;                  /* struct st_node, by (parent, name) */
  struct st_node **blocks;
  uint32_t nnodes, nblocks;
  uint32_t *last;                /* each node's last child, for appending */
  uint32_t last_size;
  struct st_open *open;          /* by depth: [d] gathers for the open record
                                    at depth d - 1 (0 for the top level) */
  uint32_t open_size;
  struct ev_record **chain;      /* node_of's records without a node yet */
  uint32_t chain_size;
};

static hashval_t
name_hash (const void *p)
{
  const struct st_name *n = p;
  return iterative_hash (n->s, n->len, 0);
}

static int
name_eq (const void *p, const void *q)
{
  const struct st_name *a = p, *b = q;
  return a->len == b->len && !memcmp (a->s, b->s, a->len);
}

static void
name_free (void *p)
{
  struct st_name *n = p;
  free ((char *) n->s);
  free (n);
}

/* Names are interned, so a path is (parent id, name address).  */

static hashval_t
path_hash (const void *p)
{
  const struct st_node *n = p;
  return htab_hash_pointer (n->name) ^ (n->parent * 0x9e3779b9u);
}

static int
path_eq (const void *p, const void *q)
{
  const struct st_node *a = p, *b = q;
  return a->parent == b->parent && a->name == b->name;
}

const struct st_node *
st_node (const struct stacks *s, uint32_t id)
{
  return &s->blocks[id / ST_BLOCK][id % ST_BLOCK];
}

static struct st_node *
node_at (struct stacks *s, uint32_t id)
{
  return &s->blocks[id / ST_BLOCK][id % ST_BLOCK];
}

uint32_t
st_nnodes (const struct stacks *s)
{
  return s->nnodes;
}

/* A new node, zeroed but for its id.  */

static struct st_node *
new_node (struct stacks *s)
{
  uint32_t id = s->nnodes++;
  if (id / ST_BLOCK == s->nblocks)
    {
      s->blocks = XRESIZEVEC (struct st_node *, s->blocks, s->nblocks + 1);
      s->blocks[s->nblocks++] = XNEWVEC (struct st_node, ST_BLOCK);
    }
  if (id == s->last_size)
    {
      s->last_size = s->last_size ? 2 * s->last_size : 256;
      s->last = XRESIZEVEC (uint32_t, s->last, s->last_size);
    }
  s->last[id] = 0;
  struct st_node *n = node_at (s, id);
  memset (n, 0, sizeof *n);
  n->id = id;
  return n;
}

struct stacks *
st_new (bool raw)
{
  struct stacks *s = XCNEW (struct stacks);
  s->raw = raw;
  s->names = htab_create_alloc (64, name_hash, name_eq, name_free, xcalloc, free);
  s->paths = htab_create_alloc (64, path_hash, path_eq, NULL, xcalloc, free);
  new_node (s)->name = "";
  return s;
}

void
st_begin_stream (struct stacks *s, const struct agg_costs *costs)
{
  static const struct agg_costs none;
  s->costs = s->raw ? none : *costs;
  if (s->open_size)
    memset (s->open, 0, s->open_size * sizeof *s->open);
}

/* The interned copy of the LEN bytes at NAME.  */

static const struct st_name *
intern (struct stacks *s, const char *name, uint32_t len)
{
  struct st_name nk = { name, len };
  void **slot = htab_find_slot (s->names, &nk, INSERT);
  if (!*slot)
    {
      struct st_name *n = XNEW (struct st_name);
      char *copy = XNEWVEC (char, len + 1);
      memcpy (copy, name, len);
      copy[len] = '\0';
      n->s = copy;
      n->len = len;
      *slot = n;
    }
  return *slot;
}

/* The node of path PARENT;NAME (LEN bytes), made if new.  */

static uint32_t
child_of (struct stacks *s, uint32_t parent, const char *name, uint32_t len)
{
  const struct st_name *in = intern (s, name, len);
  struct st_node pk;
  pk.parent = parent;
  pk.name = in->s;
  void **slot = htab_find_slot (s->paths, &pk, INSERT);
  if (*slot)
    return ((struct st_node *) *slot)->id;
  struct st_node *n = new_node (s);
  n->parent = parent;
  n->name = in->s;
  n->len = in->len;
  *slot = n;
  struct st_node *p = node_at (s, parent);
  if (s->last[parent])
    node_at (s, s->last[parent])->next = n->id;
  else
    p->first = n->id;
  s->last[parent] = n->id;
  p->nkids++;
  return n->id;
}

/* The node of R, settled with its ancestors' if not yet: the records without
   one, innermost first, then their nodes from the outermost down.  Node ids
   are >= 1, so a record's `user` holding one is not NULL.  */

static uint32_t
node_of (struct stacks *s, struct ev_record *r)
{
  uint32_t n = 0;
  for (struct ev_record *a = r; a && !a->user; a = a->parent)
    {
      if (n == s->chain_size)
        {
          s->chain_size = s->chain_size ? 2 * s->chain_size : 64;
          s->chain = XRESIZEVEC (struct ev_record *, s->chain, s->chain_size);
        }
      s->chain[n++] = a;
    }
  while (n)
    {
      struct ev_record *a = s->chain[--n];
      uint32_t parent = a->parent ? (uint32_t) (uintptr_t) a->parent->user : 0;
      size_t len;
      const char *name;
      char buf[EV_VALUE_SIZE];
      if (s->key)
        {
          name = agg_dim_text (a, s->key, buf, sizeof buf);
          name = name ? name : "";
          len = strlen (name);
        }
      else
        name = ev_record_name (a, &len);
      /* A name's length is a string value's (uint32_t) or a type's.  */
      a->user = (void *) (uintptr_t) child_of (s, parent, name, (uint32_t) len);
    }
  return (uint32_t) (uintptr_t) r->user;
}

/* Append the N bytes at P to the dimension set being built, at *LEN.  */

static void
sig_put (struct stacks *s, size_t *len, const char *p, size_t n)
{
  if (*len + n > s->sig_size)
    {
      s->sig_size = s->sig_size ? s->sig_size : 1024;
      while (*len + n > s->sig_size)
        s->sig_size *= 2;
      s->sig = XRESIZEVEC (char, s->sig, s->sig_size);
    }
  memcpy (s->sig + *len, p, n);
  *len += n;
}

/* Whether dimension NAME is one of the variants' dimensions.  */

static bool
wanted (const struct stacks *s, const char *name)
{
  for (int i = 0; i < s->nvdims; i++)
    if (!strcmp (s->vdims[i], name))
      return true;
  return false;
}

/* The variant of node N for the dimensions of R, made if new.  */

static struct st_variant *
variant_of (struct stacks *s, struct st_node *n, const struct ev_record *r)
{
  size_t len = 0;
  char buf[EV_VALUE_SIZE];
  for (uint32_t i = 0; i < r->ndims; i++)
    {
      if (s->nvdims >= 0 && !wanted (s, r->dims[i].name))
        continue;
      const struct ev_value *v = &r->dims[i].v;
      bool num = v->type == DSPROF_DIM_INT
                 || (v->type == DSPROF_DIM_UINT && v->u <= INT64_MAX);
      const char *t = ev_format_value (v, buf, sizeof buf);
      sig_put (s, &len, num ? "n" : "s", 1);
      sig_put (s, &len, r->dims[i].name, strlen (r->dims[i].name) + 1);
      sig_put (s, &len, t, strlen (t) + 1);
    }
  /* A set's length: its values are cut at EV_VALUE_SIZE, and few.  */
  const struct st_name *dims = intern (s, s->sig ? s->sig : "", (uint32_t) len);
  struct st_vkey k = { n->id, dims->s, 0 };
  void **slot = htab_find_slot (s->vtab, &k, INSERT);
  if (*slot)
    return &s->variants[((struct st_vkey *) *slot)->id];
  if (s->nvariants + 1 >= s->variants_size)
    {
      s->variants_size = s->variants_size ? 2 * s->variants_size : 256;
      s->variants = XRESIZEVEC (struct st_variant, s->variants, s->variants_size);
    }
  uint32_t id = ++s->nvariants;
  struct st_vkey *nk = XNEW (struct st_vkey);
  *nk = (struct st_vkey) { n->id, dims->s, id };
  *slot = nk;
  struct st_variant *v = &s->variants[id];
  memset (v, 0, sizeof *v);
  v->dims = dims->s;
  v->dims_len = dims->len;
  v->next = n->variants;
  n->variants = id;
  return v;
}

void
st_note_uncarried (struct stacks *s)
{
  agg_carry_note (&s->carry);
}

const struct st_variant *
st_variant (const struct stacks *s, uint32_t id)
{
  return &s->variants[id];
}

int
st_record (struct ev_record *r, void *arg)
{
  struct stacks *s = arg;
  struct st_node *n = node_at (s, node_of (s, r));
  uint32_t d = r->depth;
  agg_carry_record (&s->carry, r);
  if ((uint64_t) d + 2 > s->open_size)
    {
      uint32_t size = s->open_size ? 2 * s->open_size : 64;
      while (size < (uint64_t) d + 2)
        size *= 2;
      s->open = XRESIZEVEC (struct st_open, s->open, size);
      memset (s->open + s->open_size, 0, (size - s->open_size) * sizeof *s->open);
      s->open_size = size;
    }
  /* R's children have all finished: what they gathered is R's, and the slot
     is the next record's at that depth.  */
  struct st_open kids = s->open[d + 1];
  s->open[d + 1] = (struct st_open) { 0, { 0, 0 } };
  uint64_t dur = r->end_ns - r->start_ns;
  uint64_t adj = agg_record_time (&s->costs, r, &kids.desc, kids.child_ns,
                                  NULL);
  n->total_ns += dur;
  n->self_ns += adj - kids.child_ns;
  n->count++;
  n->incomplete += !r->complete;
  if (!n->site)
    n->site = r->site;
  if (s->vtab)
    {
      struct st_variant *v = variant_of (s, n, r);
      v->count++;
      v->self_ns += adj - kids.child_ns;
      v->total_ns += adj;
    }
  s->open[d].child_ns += adj;
  agg_desc_add (&s->open[d].desc, &s->costs, r, &kids.desc);
  struct st_node *root = node_at (s, 0);
  root->count++;
  if (!r->parent)
    root->total_ns += dur;
  return 0;
}

static void
begin (const struct pf_process *p, const struct ev_stream *st, void *arg)
{
  struct agg_costs costs;
  agg_costs_of (p, st, false, &costs);
  st_begin_stream (arg, &costs);
}

static hashval_t
vkey_hash (const void *p)
{
  const struct st_vkey *k = p;
  return htab_hash_pointer (k->dims) ^ (k->node * 0x9e3779b9u);
}

static int
vkey_eq (const void *p, const void *q)
{
  const struct st_vkey *a = p, *b = q;
  return a->node == b->node && a->dims == b->dims;
}

void
st_set_key (struct stacks *s, const char *dim)
{
  if (!strcmp (dim, "name"))
    return;
  s->key = dim;
  agg_carry_want (&s->carry, dim);
  /* Keep children only for a key made from them (depends-on, a derive
     library).  */
  struct agg *probe = agg_new (1, &dim, 0, NULL);
  s->children = agg_needs_children (probe);
  agg_free (probe);
}

void
st_keep_variants (struct stacks *s, int ndims, const char *const *dims)
{
  s->nvdims = ndims;
  s->vdims = dims;
  s->vtab = htab_create_alloc (256, vkey_hash, vkey_eq, free, xcalloc, free);
}

int
st_walk (struct pf_set *set, struct stacks *s)
{
  return pf_walk_streams (set, NULL, st_record, begin, s,
                          s->children ? EV_KEEP_CHILDREN : 0);
}

struct stacks *
st_build (struct pf_set *set, bool raw, int *rc)
{
  struct stacks *s = st_new (raw);
  *rc = st_walk (set, s);
  if (*rc)
    {
      st_free (s);
      return NULL;
    }
  return s;
}

struct stacks *
st_build_samples (struct pf_set *set, bool raw, const char *dim, int ndims,
                  const char *const *dims, int *rc)
{
  struct stacks *s = st_new (raw);
  if (dim)
    st_set_key (s, dim);
  st_keep_variants (s, ndims, dims);
  *rc = st_walk (set, s);
  if (*rc)
    {
      st_free (s);
      return NULL;
    }
  st_note_uncarried (s);
  return s;
}

void
st_free (struct stacks *s)
{
  if (!s)
    return;
  htab_delete (s->paths);
  htab_delete (s->names);
  if (s->vtab)
    htab_delete (s->vtab);
  free (s->variants);
  free (s->sig);
  free (s->carry.names);
  for (uint32_t i = 0; i < s->nblocks; i++)
    free (s->blocks[i]);
  free (s->blocks);
  free (s->last);
  free (s->open);
  free (s->chain);
  free (s);
}

const char *
st_cut_frame (char *buf, size_t size, uint32_t n)
{
  snprintf (buf, size, "[truncated %" PRIu32 " frame%s]", n, n == 1 ? "" : "s");
  return buf;
}
