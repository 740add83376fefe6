/* linecount_test.c - the line counts model (report/model/linecount.h) over units built
   in memory: a line held by two blocks, a function's entry count, two units
   sharing a header.  */

#include <CUnit/CUnit.h>
#include <string.h>

#include "linecount.h"

/* Unit 1 (compiled in /src): main.c and h.h.
     f, main.c:3   block 0 at line 3 ran 10 times,
                   block 1 at line 5 (and line 6) 7 times,
                   block 2 at line 5 9 times;
     g, h.h:1      block 0 at line 2 4 times.
   Unit 2 (compiled in /src): other.c, and h.h named by its absolute path.
     g, h.h:1      block 0 at line 2 6 times, block 1 at line 0 1 time;
     k, other.c:7  block 0 at line 8 0 times.  */

static struct pf_loc f_b0[] = { { 0, 3 } }, f_b1[] = { { 0, 5 }, { 0, 6 } },
  f_b2[] = { { 0, 5 } }, g1_b0[] = { { 1, 2 } }, g2_b0[] = { { 1, 2 } },
  g2_b1[] = { { 1, 0 } }, k_b0[] = { { 0, 8 } };
static struct pf_block f_blocks[] = { { 1, f_b0 }, { 2, f_b1 }, { 1, f_b2 } },
  g1_blocks[] = { { 1, g1_b0 } }, g2_blocks[] = { { 1, g2_b0 }, { 1, g2_b1 } },
  k_blocks[] = { { 1, k_b0 } };
static struct pf_function u1_functions[] = {
  { "f", 0, 3, 0, 3, f_blocks, NULL, 0, NULL, 0 },
  { "g", 1, 1, 3, 1, g1_blocks, NULL, 0, NULL, 0 },
};
static struct pf_function u2_functions[] = {
  { "g", 1, 1, 0, 2, g2_blocks, NULL, 0, NULL, 0 },
  { "k", 0, 7, 2, 1, k_blocks, NULL, 0, NULL, 0 },
};
static const char *u1_files[] = { "main.c", "h.h" };
static const char *u2_files[] = { "other.c", "/src/h.h" };
static uint64_t u1_counts[] = { 10, 7, 9, 4 }, u2_counts[] = { 6, 1, 0 };
static struct pf_unit u1 = { "main.c", "/src", 2, u1_files, 2, u1_functions, 4,
                             u1_counts, NULL, 0, 0, 0 };
static struct pf_unit u2 = { "other.c", "/src", 2, u2_files, 2, u2_functions, 3,
                             u2_counts, NULL, 0, 0, 1 };

static const struct lc_source *
find_source (const struct lc_model *m, const char *path)
{
  for (size_t i = 0; i < m->nsources; i++)
    if (!strcmp (m->sources[i]->path, path))
      return m->sources[i];
  return NULL;
}

static void
build (struct lc_model *m)
{
  static struct pf_unit *units[] = { &u1, &u2 };
  struct pf_set set;
  memset (&set, 0, sizeof set);
  set.nunits = 2;
  set.units = units;
  CU_ASSERT_EQUAL_FATAL (lc_build (&set, m), 0);
}

/* Line 5 holds blocks of 7 and 9: by line it counts 9, by block it is two
   entries; line 6, held by the second location of a block, counts 7.  */
static void
test_two_blocks (void)
{
  struct lc_model m;
  build (&m);
  const struct lc_source *s = find_source (&m, "/src/main.c");
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  CU_ASSERT_STRING_EQUAL (s->given, "main.c");
  CU_ASSERT_EQUAL_FATAL (s->nlines, 3);
  CU_ASSERT_EQUAL (s->lines[0].line, 3);
  CU_ASSERT_EQUAL (s->lines[0].count, 10);
  CU_ASSERT_EQUAL (s->lines[1].line, 5);
  CU_ASSERT_EQUAL (s->lines[1].count, 9);
  CU_ASSERT_EQUAL (s->lines[2].line, 6);
  CU_ASSERT_EQUAL (s->lines[2].count, 7);

  /* By block: every block once at its own line, in unit, function and block
     order.  */
  CU_ASSERT_EQUAL_FATAL (m.nblocks, 7);
  static const uint32_t lines[] = { 3, 5, 5, 2, 2, 0, 8 };
  static const uint64_t counts[] = { 10, 7, 9, 4, 6, 1, 0 };
  for (int i = 0; i < 7; i++)
    {
      CU_ASSERT_EQUAL (m.blocks[i].line, lines[i]);
      CU_ASSERT_EQUAL (m.blocks[i].count, counts[i]);
    }
  CU_ASSERT_STRING_EQUAL (m.blocks[4].given, "/src/h.h");
  lc_free (&m);
}

/* A function's entry count is its block 0's; one that never ran counts 0.  Its
   blocks are counted, those that ran too, and its lines in its own file are
   merged as the source's are.  */
static void
test_entry_count (void)
{
  struct lc_model m;
  build (&m);
  const struct lc_source *s = find_source (&m, "/src/main.c");
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  CU_ASSERT_EQUAL_FATAL (s->nfuncs, 1);
  CU_ASSERT_STRING_EQUAL (s->funcs[0].name, "f");
  CU_ASSERT_EQUAL (s->funcs[0].line, 3);
  CU_ASSERT_EQUAL (s->funcs[0].count, 10);
  CU_ASSERT_EQUAL (s->funcs[0].nblocks, 3);
  CU_ASSERT_EQUAL (s->funcs[0].blocks_hit, 3);
  CU_ASSERT_EQUAL_FATAL (s->funcs[0].nlines, 3);
  CU_ASSERT_EQUAL (s->funcs[0].lines[1].line, 5);
  CU_ASSERT_EQUAL (s->funcs[0].lines[1].count, 9);
  s = find_source (&m, "/src/other.c");
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  CU_ASSERT_EQUAL_FATAL (s->nfuncs, 1);
  CU_ASSERT_EQUAL (s->funcs[0].count, 0);
  CU_ASSERT_EQUAL (s->funcs[0].nblocks, 1);
  CU_ASSERT_EQUAL (s->funcs[0].blocks_hit, 0);
  CU_ASSERT_EQUAL_FATAL (s->funcs[0].nlines, 1);
  CU_ASSERT_EQUAL (s->funcs[0].lines[0].count, 0);
  CU_ASSERT_EQUAL_FATAL (s->nlines, 1);
  CU_ASSERT_EQUAL (s->lines[0].count, 0);      /* held, never ran */
  lc_free (&m);
}

/* h.h, relative in one unit and absolute in the other, is one source: its line
   the larger count, its function the summed entry counts and the blocks of
   both copies, its lines once each, both units.  */
static void
test_shared_header (void)
{
  struct lc_model m;
  build (&m);
  CU_ASSERT_EQUAL_FATAL (m.nsources, 3);
  CU_ASSERT_STRING_EQUAL (m.sources[0]->path, "/src/main.c");
  CU_ASSERT_STRING_EQUAL (m.sources[1]->path, "/src/h.h");
  CU_ASSERT_STRING_EQUAL (m.sources[2]->path, "/src/other.c");
  const struct lc_source *h = m.sources[1];
  CU_ASSERT_STRING_EQUAL (h->given, "h.h");
  CU_ASSERT_EQUAL_FATAL (h->nlines, 2);
  CU_ASSERT_EQUAL (h->lines[0].line, 0);
  CU_ASSERT_EQUAL (h->lines[1].line, 2);
  CU_ASSERT_EQUAL (h->lines[1].count, 6);
  CU_ASSERT_EQUAL_FATAL (h->nfuncs, 1);
  CU_ASSERT_STRING_EQUAL (h->funcs[0].name, "g");
  CU_ASSERT_EQUAL (h->funcs[0].count, 10);
  CU_ASSERT_EQUAL (h->funcs[0].nblocks, 3);
  CU_ASSERT_EQUAL (h->funcs[0].blocks_hit, 3);
  CU_ASSERT_EQUAL_FATAL (h->funcs[0].nlines, 2);
  CU_ASSERT_EQUAL (h->funcs[0].lines[0].line, 0);
  CU_ASSERT_EQUAL (h->funcs[0].lines[1].line, 2);
  CU_ASSERT_EQUAL (h->funcs[0].lines[1].count, 6);
  CU_ASSERT_EQUAL_FATAL (h->nunits, 2);
  CU_ASSERT_PTR_EQUAL (h->units[0], &u1);
  CU_ASSERT_PTR_EQUAL (h->units[1], &u2);
  lc_free (&m);
}

/* A line number as large as a profile can hold costs one entry, not an array
   that long.  */
static void
test_huge_line (void)
{
  static struct pf_loc locs[] = { { 0, UINT32_MAX } };
  static struct pf_block blocks[] = { { 1, locs } };
  static struct pf_function fns[] = {
    { "h", 0, UINT32_MAX, 0, 1, blocks, NULL, 0, NULL, 0 }
  };
  static const char *files[] = { "huge.c" };
  static uint64_t counts[] = { 3 };
  static struct pf_unit u = { "huge.c", "", 1, files, 1, fns, 1, counts, NULL, 0,
                              0, 0 };
  struct pf_unit *units[] = { &u };
  struct pf_set set;
  memset (&set, 0, sizeof set);
  set.nunits = 1;
  set.units = units;
  struct lc_model m;
  CU_ASSERT_EQUAL_FATAL (lc_build (&set, &m), 0);
  CU_ASSERT_EQUAL_FATAL (m.nsources, 1);
  CU_ASSERT_STRING_EQUAL (m.sources[0]->path, "huge.c");
  CU_ASSERT_EQUAL_FATAL (m.sources[0]->nlines, 1);
  CU_ASSERT_EQUAL (m.sources[0]->lines[0].line, UINT32_MAX);
  CU_ASSERT_EQUAL (m.sources[0]->lines[0].count, 3);
  lc_free (&m);
}

void
linecount_test_register (void)
{
  CU_pSuite s = CU_add_suite ("linecount", NULL, NULL);
  CU_add_test (s, "a line held by two blocks", test_two_blocks);
  CU_add_test (s, "a function's entry count", test_entry_count);
  CU_add_test (s, "two units sharing a header", test_shared_header);
  CU_add_test (s, "a line number as large as can be", test_huge_line);
}
