/* callgraph_test.c - the strongly connected components of the call graph
   (report/model/callgraph.h, cg_scc): which values form a cycle, whatever the
   order of the arcs, and the walk's order (a call between two components goes
   to the lower number), on small graphs and on a 100,000-long chain and
   cycle (no recursion).  */

#include <CUnit/CUnit.h>
#include <stdlib.h>

#include "libiberty.h"
#include "callgraph.h"

/* The components of the N values and the NARCS arcs ARCS into COMP (N + 1);
   check the sizes against COMP, and the walk's order on every arc.  Return the
   number of components.  */

static uint32_t
scc (uint32_t n, const struct cg_arc *arcs, uint32_t narcs, uint32_t *comp)
{
  uint32_t *sizes;
  uint32_t ncomp = cg_scc (n, arcs, narcs, comp, &sizes);
  CU_ASSERT_EQUAL (comp[0], 0);
  uint32_t *count = XCNEWVEC (uint32_t, ncomp + 2);
  for (uint32_t v = 1; v <= n; v++)
    {
      CU_ASSERT (comp[v] >= 1 && comp[v] <= ncomp);
      if (comp[v] >= 1 && comp[v] <= ncomp)
        count[comp[v]]++;
    }
  for (uint32_t k = 1; k <= ncomp; k++)
    CU_ASSERT_EQUAL (count[k], sizes[k]);
  for (uint32_t i = 0; i < narcs; i++)
    if (arcs[i].from)
      CU_ASSERT (comp[arcs[i].from] >= comp[arcs[i].to]);
  free (count);
  free (sizes);
  return ncomp;
}

/* A chain 1 -> 2 -> 3 with top-level calls of 1 and a self-call of 2: three
   components, the callee's completed first.  */
static void
test_chain (void)
{
  static const struct cg_arc arcs[] = { { 0, 1, 1 }, { 1, 2, 1 }, { 2, 2, 5 },
                                        { 2, 3, 1 }, { 0, 1, 1 } };
  uint32_t comp[4];
  CU_ASSERT_EQUAL (scc (3, arcs, 5, comp), 3);
  CU_ASSERT (comp[3] < comp[2] && comp[2] < comp[1]);
}

/* Two cycles, 1 2 3 and 4 5, the first calling the second, and 6 alone
   calling into both: three components, of 3, 2 and 1 values.  */
static void
test_two_cycles (void)
{
  static const struct cg_arc arcs[] = {
    { 6, 1, 1 }, { 3, 4, 1 }, { 1, 2, 1 }, { 5, 4, 1 }, { 2, 3, 1 },
    { 4, 5, 1 }, { 3, 1, 1 }, { 6, 5, 1 }, { 0, 6, 1 } };
  uint32_t comp[7];
  CU_ASSERT_EQUAL (scc (6, arcs, 9, comp), 3);
  CU_ASSERT (comp[1] == comp[2] && comp[2] == comp[3]);
  CU_ASSERT (comp[4] == comp[5]);
  CU_ASSERT (comp[1] != comp[4] && comp[6] != comp[1] && comp[6] != comp[4]);
  CU_ASSERT (comp[4] < comp[1] && comp[1] < comp[6]);
}

/* A cycle reached only through a value visited later than its members' first
   (a low index handed up a path): 1 -> 2 -> 3 -> 4 -> 2, 4 -> 5.  */
static void
test_cycle_down_a_path (void)
{
  static const struct cg_arc arcs[] = { { 1, 2, 1 }, { 2, 3, 1 }, { 3, 4, 1 },
                                        { 4, 2, 1 }, { 4, 5, 1 } };
  uint32_t comp[6];
  CU_ASSERT_EQUAL (scc (5, arcs, 5, comp), 3);
  CU_ASSERT (comp[2] == comp[3] && comp[3] == comp[4]);
  CU_ASSERT (comp[1] != comp[2] && comp[5] != comp[2] && comp[1] != comp[5]);
}

/* 100,000 values in a chain, then the same closed into one cycle.  */
static void
test_long (void)
{
  enum { N = 100000 };
  struct cg_arc *arcs = XNEWVEC (struct cg_arc, N);
  uint32_t *comp = XNEWVEC (uint32_t, N + 1);
  for (uint32_t v = 1; v < N; v++)
    arcs[v - 1] = (struct cg_arc) { v, v + 1, 1 };
  CU_ASSERT_EQUAL (scc (N, arcs, N - 1, comp), N);
  arcs[N - 1] = (struct cg_arc) { N, 1, 1 };
  CU_ASSERT_EQUAL (scc (N, arcs, N, comp), 1);
  free (comp);
  free (arcs);
}

void
callgraph_test_register (void)
{
  CU_pSuite s = CU_add_suite ("callgraph", NULL, NULL);
  CU_add_test (s, "a chain: a component per value", test_chain);
  CU_add_test (s, "two cycles and a caller of both", test_two_cycles);
  CU_add_test (s, "a cycle entered down a path", test_cycle_down_a_path);
  CU_add_test (s, "a 100,000-long chain and cycle without recursion", test_long);
}
