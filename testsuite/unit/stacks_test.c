/* stacks_test.c - the tree of name paths (report/model/stacks.h) and the record-name
   rule (ev_record_name).  Records are handed to st_record innermost first, as
   ev_decode_stream does, each with its name as its only dimension (trec.h).  */

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "stacks.h"
#include "trec.h"

/* The node of path PATH ("a;b;c"), or NULL: found by walking the children
   lists from the root.  */

static const struct st_node *
find (const struct stacks *s, const char *path)
{
  const struct st_node *n = st_node (s, 0);
  while (*path)
    {
      size_t len = strcspn (path, ";");
      uint32_t c;
      for (c = n->first; c; c = st_node (s, c)->next)
        if (st_node (s, c)->len == len && !memcmp (st_node (s, c)->name, path, len))
          break;
      if (!c)
        return NULL;
      n = st_node (s, c);
      path += len + (path[len] == ';');
    }
  return n;
}

/* No cost to deduct; and 10 ns a Start/Finish pair, as the start-up figure
   of a profile without measurements gives it.  */
static const struct agg_costs no_costs;
static const struct agg_costs pair_10ns = { .pair_ns = 10.0 };

/* Two streams, a(b) and a(b c): the paths they share are one node each, with
   the records of both.  */
static void
test_shared_paths (void)
{
  struct stacks *s = st_new (true);
  struct trec a, b, c;
  st_begin_stream (s, &no_costs);
  trec_init (&a, NULL, "a", 0, 100);
  trec_init (&b, &a, "b", 10, 50);
  st_record (&b.r, s);
  st_record (&a.r, s);
  st_begin_stream (s, &no_costs);
  trec_init (&a, NULL, "a", 0, 200);
  trec_init (&b, &a, "b", 10, 30);
  st_record (&b.r, s);
  trec_init (&c, &a, "c", 40, 100);
  st_record (&c.r, s);
  st_record (&a.r, s);

  CU_ASSERT_EQUAL (st_nnodes (s), 4);
  const struct st_node *na = find (s, "a"), *nb = find (s, "a;b"),
    *nc = find (s, "a;c");
  CU_ASSERT_FATAL (na && nb && nc);
  CU_ASSERT_EQUAL (na->count, 2);
  CU_ASSERT_EQUAL (na->total_ns, 300);
  CU_ASSERT_EQUAL (nb->count, 2);
  CU_ASSERT_EQUAL (nb->total_ns, 60);
  CU_ASSERT_EQUAL (nc->count, 1);
  CU_ASSERT_EQUAL (nc->total_ns, 60);
  /* Children in the order they first occurred.  */
  CU_ASSERT_EQUAL (na->first, nb->id);
  CU_ASSERT_EQUAL (nb->next, nc->id);
  CU_ASSERT_EQUAL (nc->next, 0);
  CU_ASSERT_EQUAL (na->nkids, 2);
  CU_ASSERT_EQUAL (st_node (s, 0)->count, 5);
  CU_ASSERT_EQUAL (st_node (s, 0)->total_ns, 300);
  CU_ASSERT_EQUAL (nb->parent, na->id);
  CU_ASSERT_STRING_EQUAL (nb->name, "b");
  st_free (s);
}

/* a(a(a)): a recursion is a path per level, not one node.  */
static void
test_recursion (void)
{
  struct stacks *s = st_new (true);
  struct trec r[3];
  st_begin_stream (s, &no_costs);
  trec_init (&r[0], NULL, "a", 0, 90);
  trec_init (&r[1], &r[0], "a", 10, 80);
  trec_init (&r[2], &r[1], "a", 20, 70);
  r[2].r.complete = false;
  for (int i = 2; i >= 0; i--)
    st_record (&r[i].r, s);
  CU_ASSERT_EQUAL (st_nnodes (s), 4);
  const char *paths[] = { "a", "a;a", "a;a;a" };
  const uint64_t self[] = { 20, 20, 50 };
  for (int i = 0; i < 3; i++)
    {
      const struct st_node *n = find (s, paths[i]);
      CU_ASSERT_FATAL (n != NULL);
      CU_ASSERT_EQUAL (n->count, 1);
      CU_ASSERT_EQUAL (n->self_ns, self[i]);
      CU_ASSERT_EQUAL (n->incomplete, i == 2);
    }
  CU_ASSERT_PTR_NULL (find (s, "a;a;a;a"));
  st_free (s);
}

/* Self = total - children's, raw; with the recorder's cost deducted as the
   report does (agg_deduct), 10 ns a pair: the leaf 100 - 5 = 95, the parent
   300 - 15 = 285 of which 285 - 95 = 190 its own.  */
static void
test_self (void)
{
  for (int raw = 0; raw < 2; raw++)
    {
      struct stacks *s = st_new (raw);
      struct trec p, c;
      st_begin_stream (s, &pair_10ns);
      trec_init (&p, NULL, "p", 0, 300);
      trec_init (&c, &p, "c", 100, 200);
      st_record (&c.r, s);
      st_record (&p.r, s);
      const struct st_node *np = find (s, "p"), *nc = find (s, "p;c");
      CU_ASSERT_FATAL (np && nc);
      CU_ASSERT_EQUAL (np->total_ns, 300);
      CU_ASSERT_EQUAL (nc->total_ns, 100);
      CU_ASSERT_EQUAL (nc->self_ns, raw ? 100 : 95);
      CU_ASSERT_EQUAL (np->self_ns, raw ? 200 : 190);
      st_free (s);
    }
}

/* A chain 100,000 deep, its innermost record first: settled and summed
   without recursion.  */
static void
test_deep_chain (void)
{
  enum { DEPTH = 100000 };
  struct trec *r = XNEWVEC (struct trec, DEPTH);
  for (uint32_t i = 0; i < DEPTH; i++)
    trec_init (&r[i], i ? &r[i - 1] : NULL, "f", i, 2 * (uint64_t) DEPTH - i);
  struct stacks *s = st_new (true);
  st_begin_stream (s, &no_costs);
  for (uint32_t i = DEPTH; i-- > 0;)
    st_record (&r[i].r, s);
  CU_ASSERT_EQUAL (st_nnodes (s), DEPTH + 1);
  const struct st_node *n = st_node (s, 0);
  CU_ASSERT_EQUAL (n->total_ns, 2 * (uint64_t) DEPTH);
  uint32_t depth = 0;
  bool ok = true;
  for (; n->first; n = st_node (s, n->first), depth++)
    ok &= n->nkids == 1;
  CU_ASSERT (ok);
  CU_ASSERT_EQUAL (depth, DEPTH);
  /* Each record lasts 2 ns more than its child: its own time.  */
  CU_ASSERT_EQUAL (n->self_ns, 2);
  CU_ASSERT_EQUAL (n->total_ns, 2);
  CU_ASSERT_EQUAL (st_node (s, n->parent)->self_ns, 2);
  st_free (s);
  free (r);
}

/* The name rule: a string `name`, else the type - for a NULL string or a
   `name` of another type too; the first `name` counts.  */
static void
test_record_name (void)
{
  struct ev_dim dims[3];
  trec_str_dim (&dims[0], "event", "E", 1);
  trec_str_dim (&dims[1], "name", "x\0y", 3);
  trec_str_dim (&dims[2], "name", "later", 5);
  size_t len = 0;
  CU_ASSERT_PTR_EQUAL (ev_name_of_dims (dims, 3, "T", &len), dims[1].v.s);
  CU_ASSERT_EQUAL (len, 3);
  dims[1].v.s = NULL;
  CU_ASSERT_STRING_EQUAL (ev_name_of_dims (dims, 3, "Type", &len), "Type");
  CU_ASSERT_EQUAL (len, 4);
  dims[1].v.type = DSPROF_DIM_INT;
  dims[1].v.i = 7;
  CU_ASSERT_STRING_EQUAL (ev_name_of_dims (dims, 3, "T", &len), "T");
  CU_ASSERT_STRING_EQUAL (ev_name_of_dims (dims, 1, "T", &len), "T");
  struct ev_record r;
  memset (&r, 0, sizeof r);
  r.type = "R";
  r.dims = dims;
  r.ndims = 3;
  CU_ASSERT_STRING_EQUAL (ev_record_name (&r, NULL), "R");
  trec_str_dim (&dims[1], "name", "n", 1);
  CU_ASSERT_STRING_EQUAL (ev_record_name (&r, &len), "n");
  CU_ASSERT_EQUAL (len, 1);
}

/* Record T with a second dimension, the integer "x" = X (in DIMS, which it
   keeps using).  */
static void
with_x (struct trec *t, struct ev_dim dims[2], int64_t x)
{
  dims[0] = t->dim;
  memset (&dims[1], 0, sizeof dims[1]);
  dims[1].name = "x";
  dims[1].v.type = DSPROF_DIM_INT;
  dims[1].v.i = x;
  t->r.dims = dims;
  t->r.ndims = 2;
}

/* The variant of node N whose dimension set is DIMS (LEN bytes), or NULL.  */
static const struct st_variant *
variant (const struct stacks *s, const struct st_node *n, const char *dims,
         size_t len)
{
  for (uint32_t v = n->variants; v; v = st_variant (s, v)->next)
    if (st_variant (s, v)->dims_len == len
        && !memcmp (st_variant (s, v)->dims, dims, len))
      return st_variant (s, v);
  return NULL;
}

/* a(b x=1), a(b x=2), a(b x=1): node a;b has a variant per set of
   dimensions, whose figures add up to the node's; integers are kind 'n'.  */
static void
test_variants (void)
{
  struct stacks *s = st_new (true);
  st_keep_variants (s, -1, NULL);
  st_begin_stream (s, &no_costs);
  static const int64_t xs[3] = { 1, 2, 1 };
  struct trec a, b;
  struct ev_dim dims[2];
  for (int i = 0; i < 3; i++)
    {
      trec_init (&a, NULL, "a", 100 * i, 100 * i + 50);
      trec_init (&b, &a, "b", 100 * i + 10, 100 * i + 20 + i);
      with_x (&b, dims, xs[i]);
      st_record (&b.r, s);
      st_record (&a.r, s);
    }
  const struct st_node *na = find (s, "a"), *nb = find (s, "a;b");
  CU_ASSERT_FATAL (na && nb);
  static const char one[] = "sname\0b\0nx\0" "1", two[] = "sname\0b\0nx\0" "2";
  const struct st_variant *v1 = variant (s, nb, one, sizeof one);
  const struct st_variant *v2 = variant (s, nb, two, sizeof two);
  CU_ASSERT_FATAL (v1 && v2);
  CU_ASSERT_EQUAL (v1->count, 2);
  CU_ASSERT_EQUAL (v1->total_ns, 10 + 12);
  CU_ASSERT_EQUAL (v2->count, 1);
  CU_ASSERT_EQUAL (v2->self_ns, 11);
  CU_ASSERT_EQUAL (v1->self_ns + v2->self_ns, nb->self_ns);
  uint32_t nvariants = 0;
  for (uint32_t v = nb->variants; v; v = st_variant (s, v)->next)
    nvariants++;
  CU_ASSERT_EQUAL (nvariants, 2);
  const struct st_variant *va = variant (s, na, "sname\0a", sizeof "sname\0a");
  CU_ASSERT_FATAL (va != NULL);
  CU_ASSERT_EQUAL (va->count, 3);
  CU_ASSERT_EQUAL (va->self_ns, na->self_ns);
  CU_ASSERT_EQUAL (va->next, 0);
  st_free (s);
}

/* Keyed by x: a(x=1) holding b(x=2) and c without x is the paths 1 and 1;2
   and 1; (the empty value).  */
static void
test_key (void)
{
  struct stacks *s = st_new (true);
  st_set_key (s, "x");
  st_begin_stream (s, &no_costs);
  struct trec a, b, c;
  struct ev_dim da[2], db[2];
  trec_init (&a, NULL, "a", 0, 100);
  with_x (&a, da, 1);
  trec_init (&b, &a, "b", 10, 20);
  with_x (&b, db, 2);
  st_record (&b.r, s);
  trec_init (&c, &a, "c", 30, 40);
  st_record (&c.r, s);
  st_record (&a.r, s);
  CU_ASSERT_EQUAL (st_nnodes (s), 4);
  const struct st_node *n1 = find (s, "1"), *n2 = find (s, "1;2");
  CU_ASSERT_FATAL (n1 && n2);
  CU_ASSERT_EQUAL (n1->nkids, 2);
  CU_ASSERT_EQUAL (n2->total_ns, 10);
  const struct st_node *ne = st_node (s, n2->next);
  CU_ASSERT_EQUAL (ne->len, 0);
  CU_ASSERT_EQUAL (ne->total_ns, 10);
  CU_ASSERT_EQUAL (n1->self_ns, 80);
  st_free (s);
}

void
stacks_test_register (void)
{
  CU_pSuite s = CU_add_suite ("stacks", NULL, NULL);
  CU_add_test (s, "two streams share their paths", test_shared_paths);
  CU_add_test (s, "a recursion a;a;a is a path per level", test_recursion);
  CU_add_test (s, "self = total - children, deducted unless raw", test_self);
  CU_add_test (s, "a 100,000-deep chain without recursion", test_deep_chain);
  CU_add_test (s, "a record's name: a string name, else its type",
               test_record_name);
  CU_add_test (s, "variants: a node's records by their dimensions", test_variants);
  CU_add_test (s, "paths of another dimension's values", test_key);
}
