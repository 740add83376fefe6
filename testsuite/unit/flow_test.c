/* flow_test.c - block counts from counters on edges (report/format/flow.c) on
   hand-made control-flow graphs, on random graphs walked at random, and on
   truncated, corrupt and hostile records; then a whole profile whose function
   has a DSPROF_TAG_FLOW record, read by the profile reader.

   The graphs are written as the plugin writes them (include/dsprof-format.h,
   section 3a): node 0 is ENTRY and EXIT, node k + 1 is block k; an edge is
   (src, dst, how) with how = 2 + counter for a counted edge, 0 or 1 for a tree
   edge derived at its src or dst, tree edges in the order they are derived.  */

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flow.h"
#include "profile.h"

#define TREE_SRC 0
#define TREE_DST 1
#define COUNTER(k) (2 + (k))

struct rec
{
  unsigned char p[4096];
  size_t n;
};

static void
put (struct rec *r, uint64_t v)
{
  r->n += dsprof_put_uleb (r->p + r->n, v);
}

/* A record of NNODES nodes and the NEDGES edges in E (src, dst, how each).  */
static void
build (struct rec *r, unsigned nnodes, unsigned nedges, const unsigned *e)
{
  r->n = 0;
  put (r, nnodes);
  put (r, nedges);
  for (unsigned i = 0; i < 3 * nedges; i++)
    put (r, e[i]);
}

static int
solve (const struct rec *r, uint32_t nblocks, const uint64_t *counters,
       uint64_t ncounters, uint64_t *out, const char **err)
{
  return flow_block_counts (r->p, r->n, nblocks, counters, ncounters, out, err);
}

/* Solve and compare with WANT (NBLOCKS counts).  */
static void
expect_counts (const struct rec *r, uint32_t nblocks, const uint64_t *counters,
               uint64_t ncounters, const uint64_t *want)
{
  uint64_t out[64];
  const char *err = NULL;
  int rc = solve (r, nblocks, counters, ncounters, out, &err);
  CU_ASSERT_EQUAL (rc, 0);
  if (rc)
    {
      fprintf (stderr, "flow record refused: %s\n", err);
      return;
    }
  for (uint32_t b = 0; b < nblocks; b++)
    if (out[b] != want[b])
      {
        fprintf (stderr, "block %u: count %llu, want %llu\n", b,
                 (unsigned long long) out[b], (unsigned long long) want[b]);
        CU_FAIL ("wrong block count");
      }
}

static void
expect_refused (const struct rec *r, uint32_t nblocks, const uint64_t *counters,
                uint64_t ncounters, const char *needle)
{
  uint64_t out[64];
  const char *err = NULL;
  CU_ASSERT_EQUAL (solve (r, nblocks, counters, ncounters, out, &err), -1);
  CU_ASSERT_PTR_NOT_NULL (err);
  if (err && needle && !strstr (err, needle))
    {
      fprintf (stderr, "error '%s' does not say '%s'\n", err, needle);
      CU_FAIL ("wrong message");
    }
}

/* if (c) B else C: blocks A(1) B(2) C(3) D(4).  Counted: entry, A->C.
   10 calls, 3 take the else.  */
static const unsigned diamond[] = {
  0, 1, COUNTER (0),
  1, 3, COUNTER (1),
  1, 2, TREE_SRC,     /* A: entered 10, left to C 3: 7 to B */
  3, 4, TREE_SRC,     /* C -> D: 3 */
  2, 4, TREE_SRC,     /* B -> D: 7 */
  4, 0, TREE_SRC,     /* D returns 10 */
};

static void
test_diamond (void)
{
  struct rec r;
  build (&r, 5, 6, diamond);
  uint64_t c[] = { 10, 3 };
  uint64_t want[] = { 10, 7, 3, 10 };
  expect_counts (&r, 4, c, 2, want);
  /* Never called.  */
  uint64_t zero[] = { 0, 0 }, none[] = { 0, 0, 0, 0 };
  expect_counts (&r, 4, zero, 2, none);
}

/* A; while (H) B; X: blocks A(1) H(2) B(3) X(4).  Counted: entry, H->B (the
   loop body, once per iteration).  5 calls, 12 iterations in all.  */
static void
test_loop (void)
{
  static const unsigned e[] = {
    0, 1, COUNTER (0),
    2, 3, COUNTER (1),
    1, 2, TREE_SRC,
    3, 2, TREE_SRC,
    2, 4, TREE_SRC,   /* H: in 5 + 12, out 12 to B: 5 leave */
    4, 0, TREE_SRC,
  };
  struct rec r;
  build (&r, 5, 6, e);
  uint64_t c[] = { 5, 12 };
  uint64_t want[] = { 5, 17, 12, 5 };
  expect_counts (&r, 4, c, 2, want);
}

/* for (i) for (j) if (p) T; : blocks A(1) OH(2) IH(3) P(4) T(5) IL(6) OL(7)
   X(8): outer header, inner header, the test, its then, inner latch (j++),
   outer latch (i++).  Counted: entry, OH->IH (outer body), IH->P (inner body),
   P->T.  Tree edges toward the exit, derived from the leaves in.  One call,
   outer 4 times, inner 4 x 6, T 10 times.  */
static void
test_nested_loops (void)
{
  static const unsigned e[] = {
    0, 1, COUNTER (0),
    2, 3, COUNTER (1),
    3, 4, COUNTER (2),
    4, 5, COUNTER (3),
    1, 2, TREE_SRC,   /* A -> OH: 1 */
    5, 6, TREE_SRC,   /* T -> IL: 10 */
    4, 6, TREE_SRC,   /* P -> IL: 24 - 10 */
    6, 3, TREE_SRC,   /* IL -> IH: 24 */
    3, 7, TREE_SRC,   /* IH -> OL: in 4 + 24, out 24 to P: 4 */
    7, 2, TREE_SRC,   /* OL -> OH */
    2, 8, TREE_SRC,   /* OH -> X: in 1 + 4, out 4: 1 */
    8, 0, TREE_SRC,
  };
  struct rec r;
  build (&r, 9, 12, e);
  uint64_t c[] = { 1, 4, 24, 10 };
  uint64_t want[] = { 1, 5, 28, 24, 10, 24, 4, 1 };
  expect_counts (&r, 8, c, 4, want);
}

/* switch (x) { case 1: C1; case 2: C2 (falls into C3); case 3: C3; default: D }
   then J: blocks S(1) C1(2) C2(3) C3(4) D(5) J(6).  Counted: entry and three
   of the four case edges; 20 calls: 4 x 1, 5 x 2, 6 x 3, 5 other.  */
static void
test_switch (void)
{
  static const unsigned e[] = {
    0, 1, COUNTER (0),
    1, 2, COUNTER (1),
    1, 3, COUNTER (2),
    1, 4, COUNTER (3),
    2, 6, TREE_SRC,   /* C1 -> J (break) */
    3, 4, TREE_SRC,   /* C2 falls into C3 */
    4, 6, TREE_SRC,   /* C3 -> J: 6 + 5 */
    1, 5, TREE_SRC,   /* S -> D: 20 - 4 - 5 - 6 */
    5, 6, TREE_SRC,
    6, 0, TREE_SRC,
  };
  struct rec r;
  build (&r, 7, 10, e);
  uint64_t c[] = { 20, 4, 5, 6 };
  uint64_t want[] = { 20, 4, 5, 11, 5, 20 };
  expect_counts (&r, 6, c, 4, want);
}

/* A block nothing jumps to, U(2), after a return: A(1) returns; U -> 0.  Its
   only edge is on the tree and comes out 0.  Also a block without a line, node
   3 past the function's two blocks, between A and the exit.  */
static void
test_unreachable (void)
{
  static const unsigned e[] = {
    0, 1, COUNTER (0),
    1, 3, TREE_SRC,
    3, 0, TREE_SRC,
    2, 0, TREE_SRC,
  };
  struct rec r;
  build (&r, 4, 4, e);
  uint64_t c[] = { 9 };
  uint64_t want[] = { 9, 0 };
  expect_counts (&r, 2, c, 1, want);
}

/* Fake edges.  A(1): if (p) B(2): call that may longjmp out; C(3): return.
   B -> 0 is a fake edge on the tree: B is entered 6 times but reaches C 4
   times.  Counted: entry (10), A -> C (4).  Then an infinite loop L(4)
   without calls, a tree of its own: reached by A -> L, counted.  */
static void
test_fake_edges (void)
{
  static const unsigned e[] = {
    0, 1, COUNTER (0),
    1, 3, COUNTER (1),
    2, 3, COUNTER (2),
    1, 4, COUNTER (3),
    4, 4, COUNTER (4),
    3, 0, TREE_SRC,
    1, 2, TREE_SRC,   /* A: in 10, out 4 to C and 0 to L: 6 to B */
    2, 0, TREE_SRC,   /* fake: B in 6, out 4: 2 left by longjmp */
  };
  struct rec r;
  build (&r, 5, 8, e);
  uint64_t c[] = { 10, 4, 4, 0, 0 };
  uint64_t want[] = { 10, 6, 8, 0 };
  expect_counts (&r, 4, c, 5, want);
  /* The run that ends in the loop: entered once, 1000 times round.  */
  uint64_t c2[] = { 1, 0, 0, 1, 1000 };
  uint64_t want2[] = { 1, 0, 0, 1001 };
  expect_counts (&r, 4, c2, 5, want2);

  /* A computed goto's target T(2), entered by a fake edge from 0: its count
     is what leaves it.  A(1) -> dispatch D(3) (fake edge to 0); T -> D.  */
  static const unsigned g[] = {
    0, 1, COUNTER (0),
    2, 3, COUNTER (1),
    1, 3, TREE_SRC,
    0, 2, TREE_DST,   /* T: out 50, no other in: 50 entries */
    3, 0, TREE_SRC,
  };
  build (&r, 4, 5, g);
  uint64_t c3[] = { 1, 50 };
  uint64_t want3[] = { 1, 50, 51 };
  expect_counts (&r, 3, c3, 2, want3);
}

/* A process killed inside a block without calls: the block was entered once
   more than it was left.  The loop of test_loop killed in B in its 7th
   iteration (the first call): H->B counted 7, nothing returned.  B is exact,
   the header is over by one, nothing is negative.  */
static void
test_killed (void)
{
  static const unsigned e[] = {
    0, 1, COUNTER (0),
    2, 3, COUNTER (1),
    1, 2, TREE_SRC,
    3, 2, TREE_SRC,
    2, 4, TREE_SRC,
    4, 0, TREE_SRC,
  };
  struct rec r;
  build (&r, 5, 6, e);
  uint64_t c[] = { 1, 7 };
  uint64_t want[] = { 1, 8, 7, 1 };   /* exact: 1, 7, 7, 0 */
  expect_counts (&r, 4, c, 2, want);

  /* The diamond with a count that no consistent run gives (more else than
     calls, as lost updates of several threads can leave): the then block
     would be negative and is 0.  */
  build (&r, 5, 6, diamond);
  uint64_t c2[] = { 3, 5 };
  uint64_t want2[] = { 3, 0, 5, 3 };
  expect_counts (&r, 4, c2, 2, want2);
  /* Counts near 2^64 (damaged counters) do not wrap into small ones.  */
  uint64_t c3[] = { 0, UINT64_MAX };
  uint64_t want3[] = { 0, 0, UINT64_MAX, 0 };
  expect_counts (&r, 4, c3, 2, want3);
  uint64_t c4[] = { UINT64_MAX, UINT64_MAX - 1 };
  uint64_t want4[] = { UINT64_MAX, 1, UINT64_MAX - 1, UINT64_MAX };
  expect_counts (&r, 4, c4, 2, want4);
  /* Two of them into one block: the largest count, not a wrapped sum.  */
  static const unsigned join[] = {
    0, 1, COUNTER (0), 1, 2, COUNTER (1), 1, 2, COUNTER (2), 2, 0, TREE_SRC,
    1, 0, TREE_SRC,
  };
  build (&r, 3, 5, join);
  uint64_t c5[] = { 1, UINT64_MAX, UINT64_MAX };
  uint64_t want5[] = { 1, UINT64_MAX };
  expect_counts (&r, 2, c5, 3, want5);
}

/* Random graphs: a random CFG, a random spanning tree of it with its edges
   derived from the leaves in, random runs from entry to exit; the derived
   counts must be the exact ones.  */
static unsigned long long rng_state = 88172645463325252ull;

static unsigned
rnd (unsigned n)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (unsigned) (rng_state % n);
}

static void
test_random_graphs (void)
{
  enum { MAXN = 40, MAXE = 4 * MAXN };
  for (int round = 0; round < 300; round++)
    {
      unsigned n = 2 + rnd (MAXN - 2);   /* nodes, 0 included */
      unsigned src[MAXE], dst[MAXE], ne = 0;
      /* A chain through every block keeps them all reachable, node 0 -> 1
         the entry; the last block returns.  Then random extra edges.  */
      for (unsigned v = 0; v + 1 < n; v++)
        src[ne] = v, dst[ne++] = v + 1;
      src[ne] = n - 1, dst[ne++] = 0;
      unsigned extra = rnd (2 * n);
      for (unsigned k = 0; k < extra && ne < MAXE; k++)
        {
          unsigned s = 1 + rnd (n - 1), d = rnd (n);
          int dup = 0;
          for (unsigned i = 0; i < ne; i++)
            dup |= src[i] == s && dst[i] == d;
          if (!dup)
            src[ne] = s, dst[ne++] = d;
        }

      /* Walk: runs from node 0, a random out-edge at each block, until 0.  */
      uint64_t flow[MAXE] = { 0 }, want[MAXN] = { 0 };
      unsigned runs = 1 + rnd (5);
      for (unsigned run = 0; run < runs; run++)
        {
          unsigned v = 0, steps = 0;
          do
            {
              unsigned outs[MAXE], no = 0;
              for (unsigned i = 0; i < ne; i++)
                if (src[i] == v && (v != 0 || dst[i] == 1))
                  outs[no++] = i;
              /* Past a few hundred steps, head for the exit along the chain.  */
              unsigned i = outs[rnd (no)];
              if (steps++ > 300)
                for (unsigned k = 0; k < no; k++)
                  if (dst[outs[k]] == (v + 1) % n)
                    i = outs[k];
              flow[i]++;
              v = dst[i];
              if (v)
                want[v - 1]++;
            }
          while (v != 0);
        }

      /* A random spanning tree (random edge order, union-find), then its
         edges in an order leaves first: peel nodes with one tree edge left,
         never node 0.  */
      unsigned uf[MAXN], perm[MAXE], intree[MAXE] = { 0 };
      for (unsigned v = 0; v < n; v++)
        uf[v] = v;
      for (unsigned i = 0; i < ne; i++)
        perm[i] = i;
      for (unsigned i = ne; i > 1; i--)
        {
          unsigned j = rnd (i), t = perm[i - 1];
          perm[i - 1] = perm[j], perm[j] = t;
        }
      for (unsigned k = 0; k < ne; k++)
        {
          unsigned i = perm[k], a = src[i], b = dst[i];
          while (uf[a] != a)
            a = uf[a];
          while (uf[b] != b)
            b = uf[b];
          if (a != b)
            uf[a] = b, intree[i] = 1;
        }
      unsigned rec_e[3 * MAXE], nrec = 0, ncounters = 0;
      uint64_t counters[MAXE];
      for (unsigned i = 0; i < ne; i++)
        if (!intree[i])
          {
            counters[ncounters] = flow[i];
            rec_e[3 * nrec] = src[i], rec_e[3 * nrec + 1] = dst[i];
            rec_e[3 * nrec++ + 2] = COUNTER (ncounters++);
          }
      unsigned left = n - 1;
      while (left)
        {
          unsigned before = left;
          for (unsigned v = 1; v < n; v++)
            {
              unsigned deg = 0, last = 0;
              for (unsigned i = 0; i < ne; i++)
                if (intree[i] == 1 && (src[i] == v || dst[i] == v))
                  deg++, last = i;
              if (deg != 1)
                continue;
              intree[last] = 2;
              rec_e[3 * nrec] = src[last], rec_e[3 * nrec + 1] = dst[last];
              rec_e[3 * nrec++ + 2] = src[last] == v ? TREE_SRC : TREE_DST;
              left--;
            }
          CU_ASSERT_FATAL (left < before);
        }
      struct rec r;
      build (&r, n, nrec, rec_e);
      CU_ASSERT_FATAL (r.n < sizeof r.p);
      expect_counts (&r, n - 1, counters, ncounters, want);
    }
}

/* Records that are not the plugin's: every one refused, none read outside its
   bytes (the test runs under AddressSanitizer in make check-sanitize).  */
static void
test_malformed (void)
{
  struct rec r;
  uint64_t c[] = { 10, 3 };
  uint64_t out[8];
  const char *err;

  /* Every truncation of a valid record.  */
  build (&r, 5, 6, diamond);
  size_t full = r.n;
  for (size_t len = 0; len < full; len++)
    {
      unsigned char *copy = malloc (len ? len : 1);
      memcpy (copy, r.p, len);
      err = NULL;
      CU_ASSERT_EQUAL (flow_block_counts (copy, len, 4, c, 2, out, &err), -1);
      CU_ASSERT_PTR_NOT_NULL (err);
      free (copy);
    }
  /* Bytes after the edges.  */
  r.p[r.n++] = 0;
  expect_refused (&r, 4, c, 2, "bytes after");

  /* A counter beyond the unit's: the function's counters end at 1.  */
  build (&r, 5, 6, diamond);
  expect_refused (&r, 4, c, 1, "counter");

  /* A node out of range.  */
  unsigned e[3 * 6];
  memcpy (e, diamond, sizeof e);
  e[3 * 3 + 1] = 5;
  build (&r, 5, 6, e);
  expect_refused (&r, 4, c, 2, "node out of range");

  /* Fewer nodes than blocks; more nodes than the edges can join.  */
  build (&r, 4, 6, diamond);
  expect_refused (&r, 4, c, 2, "fewer nodes");
  build (&r, 5 + 13, 6, diamond);
  expect_refused (&r, 4, c, 2, "more nodes");
  r.n = 0;
  put (&r, UINT64_MAX);
  put (&r, 0);
  expect_refused (&r, 4, c, 2, "more nodes");

  /* More edges than the record's bytes hold; a number past 64 bits.  */
  r.n = 0;
  put (&r, 5);
  put (&r, 1000000000000ull);
  expect_refused (&r, 4, c, 2, "more edges");
  r.n = 0;
  for (int i = 0; i < 11; i++)
    r.p[r.n++] = 0x80;
  r.p[r.n++] = 1;
  expect_refused (&r, 4, c, 2, "truncated");

  /* Tree edges out of order: D -> 0 first, while B and C still feed D.  */
  static const unsigned order[] = {
    0, 1, COUNTER (0), 1, 3, COUNTER (1),
    4, 0, TREE_SRC, 1, 2, TREE_SRC, 3, 4, TREE_SRC, 2, 4, TREE_SRC,
  };
  build (&r, 5, 6, order);
  expect_refused (&r, 4, c, 2, "cannot be derived");

  /* A cycle of tree edges (A -> B -> A), no counted edge on it.  */
  static const unsigned cycle[] = {
    0, 1, COUNTER (0), 1, 2, TREE_SRC, 2, 1, TREE_SRC, 2, 0, TREE_SRC,
  };
  build (&r, 3, 4, cycle);
  expect_refused (&r, 2, c, 2, "cannot be derived");

  /* A self loop on the tree.  */
  static const unsigned self[] = {
    0, 1, COUNTER (0), 1, 1, TREE_SRC, 1, 0, TREE_SRC,
  };
  build (&r, 2, 3, self);
  expect_refused (&r, 1, c, 2, "cannot be derived");

  /* A tree edge derived twice at one node: B -> D at D while D -> 0 is also
     unknown.  */
  static const unsigned twice[] = {
    0, 1, COUNTER (0), 1, 3, COUNTER (1),
    1, 2, TREE_SRC, 3, 4, TREE_SRC, 2, 4, TREE_DST, 4, 0, TREE_SRC,
  };
  build (&r, 5, 6, twice);
  expect_refused (&r, 4, c, 2, "cannot be derived");

  /* An empty function: no edges, no blocks, is fine; a block without edges
     counts 0.  */
  build (&r, 1, 0, NULL);
  CU_ASSERT_EQUAL (flow_block_counts (r.p, r.n, 0, c, 0, out, &err), 0);
  build (&r, 2, 0, NULL);
  out[0] = 99;
  CU_ASSERT_EQUAL (flow_block_counts (r.p, r.n, 1, c, 0, out, &err), 0);
  CU_ASSERT_EQUAL (out[0], 0);

  /* Random bytes: refused or solved, never more.  */
  for (int round = 0; round < 2000; round++)
    {
      r.n = 1 + rnd (40);
      for (size_t i = 0; i < r.n; i++)
        r.p[i] = (unsigned char) (rnd (4) ? rnd (8) : rnd (256));
      int rc = flow_block_counts (r.p, r.n, rnd (4), c, 2, out, &err);
      CU_ASSERT (rc == 0 || rc == -1);
    }
}

/* A whole profile: one unit, function f with blocks A B C D (the diamond) and
   its flow record FLOW, counters 10 and 3; the reader's block counts are the
   derived ones.  A second function g without a flow record keeps a counter
   per block (old profiles).  */
static void
build_image (unsigned char *image, size_t size, const struct rec *flow)
{
  memset (image, 0, size);
  struct dsprof_file_header *h = (void *) image;
  memcpy (h->magic, DSPROF_MAGIC, DSPROF_MAGIC_SIZE);
  h->version = DSPROF_FORMAT_VERSION;
  h->header_size = DSPROF_PAGE;
  h->end = size;
  h->pid = 7;
  h->start_mono_ns = 1000;
  h->stop_mono_ns = 2000;
  h->clock = DSPROF_CLOCK_NS;
  strcpy (h->exe, "/bin/flow");

  unsigned char *meta = image + DSPROF_PAGE + sizeof (struct dsprof_unit_chunk);
  struct rec m, r;
  m.n = 0;
  put (&m, DSPROF_META_VERSION);
  put (&m, 3), memcpy (m.p + m.n, "f.c", 3), m.n += 3;
  put (&m, 1), memcpy (m.p + m.n, "/", 1), m.n += 1;
  put (&m, DSPROF_TAG_FILE);
  put (&m, 4);
  put (&m, 3), memcpy (m.p + m.n, "f.c", 3), m.n += 3;
  /* f: file 0 line 1, first counter 0, four blocks on lines 1, 2, 3, 4.  */
  r.n = 0;
  put (&r, 1), r.p[r.n++] = 'f';
  put (&r, 0), put (&r, 1), put (&r, 0), put (&r, 4);
  for (unsigned b = 0; b < 4; b++)
    put (&r, 1), put (&r, 0), put (&r, 1 + b);
  put (&m, DSPROF_TAG_FUNCTION), put (&m, r.n);
  memcpy (m.p + m.n, r.p, r.n), m.n += r.n;
  put (&m, DSPROF_TAG_FLOW), put (&m, flow->n);
  memcpy (m.p + m.n, flow->p, flow->n), m.n += flow->n;
  /* g: line 9, first counter 2, two blocks with counters 2 and 3.  */
  r.n = 0;
  put (&r, 1), r.p[r.n++] = 'g';
  put (&r, 0), put (&r, 9), put (&r, 2), put (&r, 2);
  put (&r, 1), put (&r, 0), put (&r, 9);
  put (&r, 1), put (&r, 0), put (&r, 10);
  put (&m, DSPROF_TAG_FUNCTION), put (&m, r.n);
  memcpy (m.p + m.n, r.p, r.n), m.n += r.n;
  memcpy (meta, m.p, m.n);

  struct dsprof_unit_chunk *u = (void *) (image + DSPROF_PAGE);
  u->chunk.kind = DSPROF_CHUNK_UNIT;
  u->chunk.size = 2 * DSPROF_PAGE;
  u->chunk.check = dsprof_meta_hash (meta, m.n);
  u->ncounters = DSPROF_COUNTERS_PER_PAGE;
  u->meta_size = (uint32_t) m.n;
  u->counters_offset = 2 * DSPROF_PAGE;
  uint64_t *counters = (void *) (image + 2 * DSPROF_PAGE);
  counters[0] = 10;
  counters[1] = 3;
  counters[2] = 6;
  counters[3] = 4;
}

static void
test_profile (void)
{
  static unsigned char image[3 * DSPROF_PAGE];
  struct rec flow;

  /* A malformed flow record (a tree edge derived where two edges are
     unknown) makes the whole profile unreadable, with the function named, as
     any other damaged table: every command refuses it.  */
  const unsigned bad[] = {
    0, 1, COUNTER (0),
    1, 2, TREE_DST,
    1, 3, TREE_DST,
    2, 4, TREE_SRC,
    3, 4, COUNTER (1),
    4, 0, TREE_SRC,
  };
  build (&flow, 5, 6, bad);
  build_image (image, sizeof image, &flow);
  char buf[256];
  const char *problem = pf_check_image (image, sizeof image, buf, sizeof buf);
  CU_ASSERT_PTR_NOT_NULL (problem);
  if (problem)
    CU_ASSERT_PTR_NOT_NULL (strstr (problem, "function f: flow record"));

  build (&flow, 5, 6, diamond);
  build_image (image, sizeof image, &flow);
  problem = pf_check_image (image, sizeof image, buf, sizeof buf);
  CU_ASSERT_PTR_NULL (problem);
  if (problem)
    {
      fprintf (stderr, "image refused: %s\n", problem);
      return;
    }
  char path[] = "/tmp/dsprof-flow-XXXXXX";
  int fd = mkstemp (path);
  CU_ASSERT_FATAL (fd >= 0);
  CU_ASSERT_EQUAL (write (fd, image, sizeof image), (ssize_t) sizeof image);
  close (fd);
  struct pf_set set;
  memset (&set, 0, sizeof set);
  CU_ASSERT_EQUAL (pf_add (&set, path), 0);
  CU_ASSERT_EQUAL (pf_add (&set, path), 0);   /* summed: twice the counts */
  unlink (path);
  CU_ASSERT_EQUAL_FATAL (set.nunits, 1);
  const struct pf_unit *pu = set.units[0];
  CU_ASSERT_EQUAL_FATAL (pu->nfunctions, 2);
  uint64_t counts[4];
  const char *err = NULL;
  CU_ASSERT_EQUAL (pf_block_counts (pu, &pu->functions[0], counts, &err), 0);
  CU_ASSERT_EQUAL (counts[0], 20);
  CU_ASSERT_EQUAL (counts[1], 14);
  CU_ASSERT_EQUAL (counts[2], 6);
  CU_ASSERT_EQUAL (counts[3], 20);
  CU_ASSERT_EQUAL (pf_block_counts (pu, &pu->functions[1], counts, &err), 0);
  CU_ASSERT_EQUAL (counts[0], 12);
  CU_ASSERT_EQUAL (counts[1], 8);
  pf_free (&set);
}

/* Edge counts of the diamond, and branch records (section 3b) of it: A's
   two ways out, edges 1 (A->C) and 2 (A->B).  */
static void
test_branches (void)
{
  struct rec r, b;
  build (&r, 5, 6, diamond);
  uint64_t c[] = { 10, 3 };
  struct flow_edges e;
  const char *err;
  CU_ASSERT_EQUAL (flow_edge_counts (r.p, r.n, 4, c, 2, &e, &err), 0);
  CU_ASSERT_EQUAL (e.n, 6);
  uint64_t want[] = { 10, 3, 7, 3, 7, 10 }, from[] = { 10, 10, 10, 3, 7, 10 };
  for (size_t i = 0; i < e.n && i < 6; i++)
    {
      CU_ASSERT_EQUAL (e.count[i], want[i]);
      CU_ASSERT_EQUAL (e.from[i], from[i]);
    }
  flow_edges_free (&e);

  /* One block on file 0 line 7: edge 2 falls through, edge 1 does not.  */
  b.n = 0;
  unsigned good[] = { 1, 0, 7, 2, 2, DSPROF_BRANCH_FALLTHROUGH, 1, 0 };
  for (unsigned i = 0; i < 8; i++)
    put (&b, good[i]);
  CU_ASSERT_PTR_NULL (flow_check_branches (b.p, b.n, r.p, r.n, 1));
  struct dsprof_cursor cur = { b.p + 1, b.p + b.n, 0 };
  struct flow_branch fb;
  uint64_t edge, flags;
  CU_ASSERT_EQUAL (flow_branch_next (&cur, &fb), 0);
  CU_ASSERT (fb.file == 0 && fb.line == 7 && fb.narcs == 2);
  CU_ASSERT_EQUAL (flow_branch_arc (&cur, &edge, &flags), 0);
  CU_ASSERT (edge == 2 && flags == DSPROF_BRANCH_FALLTHROUGH);

  /* Refused: a file beyond the unit's, an edge beyond the flow record's,
     every cut, bytes after the blocks.  */
  CU_ASSERT_PTR_NOT_NULL (flow_check_branches (b.p, b.n, r.p, r.n, 0));
  b.p[4] = 6;
  CU_ASSERT_PTR_NOT_NULL (flow_check_branches (b.p, b.n, r.p, r.n, 1));
  b.p[4] = 2;
  for (size_t cut = 0; cut < b.n; cut++)
    CU_ASSERT_PTR_NOT_NULL (flow_check_branches (b.p, cut, r.p, r.n, 1));
  put (&b, 0);
  CU_ASSERT_PTR_NOT_NULL (flow_check_branches (b.p, b.n, r.p, r.n, 1));
}

void
flow_test_register (void)
{
  CU_pSuite s = CU_add_suite ("flow", NULL, NULL);
  CU_add_test (s, "diamond", test_diamond);
  CU_add_test (s, "loop", test_loop);
  CU_add_test (s, "nested loops", test_nested_loops);
  CU_add_test (s, "switch with fall-through", test_switch);
  CU_add_test (s, "unreachable block, block without a line", test_unreachable);
  CU_add_test (s, "fake edges: longjmp, infinite loop, computed goto",
               test_fake_edges);
  CU_add_test (s, "killed mid-run: bounded, never negative", test_killed);
  CU_add_test (s, "random graphs, random runs", test_random_graphs);
  CU_add_test (s, "malformed records refused", test_malformed);
  CU_add_test (s, "profile with a flow record", test_profile);
  CU_add_test (s, "edge counts and branch records", test_branches);
}
