/* intmap_test.c - the report's integer map (report/util/intmap.h): lookups and
   insertion order on both sides of the switch from the list to the htab,
   emptying and refilling, moving a map by copying it, and the extreme keys.  */

#include <CUnit/CUnit.h>
#include <stdlib.h>

#include "intmap.h"

#define BIG 100000

/* Key I of a run of distinct keys: KIND 0 spreads them over 64 bits (key 0 is
   key 0, key 1 is UINT64_MAX), KIND 1 differs only in the upper half, as the
   call graph's arcs from << 32 | to do.  */

static uint64_t
key_of (int kind, uint32_t i)
{
  if (kind == 1)
    return (uint64_t) i << 32 | 7;
  return i == 1 ? UINT64_MAX : (uint64_t) i * 0x9e3779b97f4a7c15ull;
}

/* Fill M with keys [0, N) of KIND, key I -> I + 1, then check that each is
   found with its value and in insertion order, without adding any entry.  */

static void
fill_check (struct intmap *m, int kind, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    {
      uint64_t *v = intmap_slot (m, key_of (kind, i));
      CU_ASSERT_EQUAL_FATAL (*v, 0);
      *v = i + 1;
    }
  CU_ASSERT_EQUAL_FATAL (m->n, n);
  for (uint32_t i = 0; i < n; i++)
    {
      CU_ASSERT_EQUAL_FATAL (*intmap_slot (m, key_of (kind, i)), i + 1);
      const struct intmap_entry *e = intmap_at (m, i);
      CU_ASSERT_EQUAL_FATAL (e->key, key_of (kind, i));
      CU_ASSERT_EQUAL_FATAL (e->val, i + 1);
    }
  CU_ASSERT_EQUAL_FATAL (m->n, n);
}

static void
test_intmap_sizes (void)
{
  static const uint32_t sizes[] = { 0, 1, INTMAP_SMALL - 1, INTMAP_SMALL,
                                    INTMAP_SMALL + 1, 2 * INTMAP_SMALL,
                                    2 * INTMAP_SMALL + 1, 1000, BIG };
  for (int kind = 0; kind < 2; kind++)
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
      {
        struct intmap m = { 0 };
        fill_check (&m, kind, sizes[s]);
        CU_ASSERT_EQUAL (m.tab != NULL, sizes[s] > INTMAP_SMALL);
        /* A key not in the map is new: 0, and one more entry.  */
        uint64_t *v = intmap_slot (&m, 12345);
        CU_ASSERT_EQUAL (*v, 0);
        CU_ASSERT_EQUAL (m.n, sizes[s] + 1);
        intmap_free (&m);
        CU_ASSERT_EQUAL (m.n, 0);
        CU_ASSERT_PTR_NULL (m.small);
        CU_ASSERT_PTR_NULL (m.tab);
      }
}

/* 0, UINT32_MAX and UINT64_MAX as the first entry, in the list and in the
   table, are keys like any other (an empty slot is not a key of 0).  */

static void
test_intmap_extreme_keys (void)
{
  static const uint64_t keys[] = { 0, UINT32_MAX, UINT64_MAX };
  for (uint32_t at = 0; at < 3 * INTMAP_SMALL; at++)
    {
      struct intmap m = { 0 };
      for (uint32_t i = 0; i < at; i++)
        *intmap_slot (&m, 100 + i) = 1;
      for (int k = 0; k < 3; k++)
        *intmap_slot (&m, keys[k]) = 10 + k;
      for (uint32_t i = 0; i < INTMAP_SMALL; i++)
        *intmap_slot (&m, 1000 + i) = 2;
      CU_ASSERT_EQUAL (m.n, at + 3 + INTMAP_SMALL);
      for (int k = 0; k < 3; k++)
        {
          CU_ASSERT_EQUAL (*intmap_slot (&m, keys[k]), 10 + k);
          CU_ASSERT_EQUAL (intmap_at (&m, at + k)->key, keys[k]);
        }
      CU_ASSERT_EQUAL (m.n, at + 3 + INTMAP_SMALL);
      intmap_free (&m);
    }
}

/* Emptied, a map finds none of its old keys and refills as new, below and
   above INTMAP_KEEP; it keeps its memory only below.  */

static void
test_intmap_clear (void)
{
  static const uint32_t sizes[] = { 3, INTMAP_SMALL, INTMAP_SMALL + 1, 500,
                                    INTMAP_KEEP, INTMAP_KEEP + 1, BIG };
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
    {
      struct intmap m = { 0 };
      for (int round = 0; round < 3; round++)
        {
          /* Rounds 0 and 2 use spread keys, round 1 the other kind.  */
          fill_check (&m, round & 1, sizes[s]);
          intmap_clear (&m);
          CU_ASSERT_EQUAL_FATAL (m.n, 0);
          CU_ASSERT_EQUAL (m.small != NULL, sizes[s] <= INTMAP_KEEP);
          uint64_t *v = intmap_slot (&m, key_of (round & 1, sizes[s] - 1));
          CU_ASSERT_EQUAL (*v, 0);
          CU_ASSERT_EQUAL (m.n, 1);
          intmap_clear (&m);
        }
      intmap_free (&m);
    }
}

/* Swapping two maps by copying their structs, as the dimension report merges a
   smaller map into a larger one, leaves both whole.  */

static void
test_intmap_swap (void)
{
  struct intmap a = { 0 }, b = { 0 };
  fill_check (&a, 0, 3 * INTMAP_SMALL);
  fill_check (&b, 1, 5);
  struct intmap t = a;
  a = b;
  b = t;
  for (uint32_t i = 0; i < 3 * INTMAP_SMALL; i++)
    CU_ASSERT_EQUAL (*intmap_slot (&b, key_of (0, i)), i + 1);
  for (uint32_t i = 0; i < 5; i++)
    CU_ASSERT_EQUAL (*intmap_slot (&a, key_of (1, i)), i + 1);
  CU_ASSERT_EQUAL (a.n, 5);
  CU_ASSERT_EQUAL (b.n, 3 * INTMAP_SMALL);
  intmap_free (&a);
  intmap_free (&b);
}

void
intmap_test_register (void)
{
  CU_pSuite s = CU_add_suite ("intmap", NULL, NULL);
  CU_add_test (s, "found in insertion order, list and table", test_intmap_sizes);
  CU_add_test (s, "keys 0, UINT32_MAX, UINT64_MAX", test_intmap_extreme_keys);
  CU_add_test (s, "emptied and refilled", test_intmap_clear);
  CU_add_test (s, "swapped by copying", test_intmap_swap);
}
