/* diff.h - what `dsprof diff` compares (docs/contract.md §5.9): two sides,
   BASE and NEW, each a set of profiles, and the model of their difference,
   rendered by `dsprof diff` (text, CSV, JSON) and `dsprof html --diff`.

   The dimension report of one query is built on each side by rpt_build; the
   diff pairs the two trees of tables: a table of the diff holds the union of
   the values of the two tables it pairs (the tables under the paired rows
   above), each row with the base row and the new row of its value, either
   NULL when the value is on one side only (`new`, `gone`).  A row's change is
   its new figure minus its base figure, a missing row counting 0.  Rows are
   sorted by the size of the change of the measure (Total, Self or Count),
   then of Count, growth before shrinking, then by value.  */

#ifndef DSPROF_DIFF_H
#define DSPROF_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "linecount.h"
#include "model.h"

enum diff_measure { DIFF_TOTAL, DIFF_SELF, DIFF_COUNT };

/* Their names: total, self, count.  */
extern const char *const diff_measures[];

struct diff_table;

struct diff_row
{
  const char *value;
  const struct rpt_row *base, *new;  /* NULL: not on that side */
  struct diff_table *sub;            /* NULL at the last dimension */
};

struct diff_table
{
  int level;
  uint32_t nrows;
  struct diff_row *rows;
};

struct diff_model
{
  struct rpt_model base, new;
  enum diff_measure by;
  struct diff_table *top;
};

/* Load a side given as the N arguments ARGS into SET: each a profile, or a
   directory standing for the profiles in it - its regular files that begin
   with dsprof's magic (DSPROF_MAGIC), by name; names starting with '.' are
   left out, and so is every file of another kind.  Return 0, or EXIT_DATA
   after a message (an argument unreadable or not a profile, a directory
   holding none); SET is then empty.  */
int diff_load_side (int n, char **args, struct pf_set *set);

/* The diff of the reports of Q over BASE and NEW into *M, sorted by the
   change of BY.  Return 0, or EXIT_DATA after a message.  */
int diff_build (struct pf_set *base, struct pf_set *new, const struct query *q,
                enum diff_measure by, struct diff_model *m);

/* diff_build's pairing of M->base and M->new, reports of one query already
   built (`dsprof top` keeps a snapshot's report for the next refresh).  */
void diff_pair (struct diff_model *m, enum diff_measure by);

void diff_free (struct diff_model *m);

/* The number of rows of T a view shows with TOP (0: all).  */
uint32_t diff_shown (const struct diff_table *t, long top);

/* As rpt_each_table, over the tables of the diff.  */
void diff_each_table (const struct diff_model *m, int level, long top,
                      const char **path,
                      void (*fn) (const struct diff_table *t, const char **path,
                                  void *arg),
                      void *arg);

/* The change NEW - BASE of a figure in percent of BASE into *PCT; false when
   BASE is 0 (no percentage).  */
bool diff_pct (uint64_t base, uint64_t new, double *pct);

/* Whether a figure grew by more than LIMIT percent: from BASE to NEW, or,
   when there was no base (HAD_BASE false) or it was 0, to anything above 0.  */
bool diff_grew (bool had_base, uint64_t base, uint64_t new, double limit);

/* Say on stderr, one line each, which rows of M (every row, shown or not)
   grew by more than LIMIT percent in M's measure; return how many.  */
uint32_t diff_fail_check (const struct diff_model *m, double limit);

/* ---- line counts ---------------------------------------------------------------- */

/* A line whose count changed: of the source file as given to the compiler
   (the first unit's), by the by line rule of linecount.h; a line on one side
   only counts 0 on the other.  Sources are paired by their path as found
   (lc_resolve).  */
struct diff_line
{
  const char *given;
  uint32_t line;
  uint64_t base, new;
};

struct diff_lines
{
  struct lc_model base, new;
  size_t n;
  struct diff_line *lines;       /* by the size of the change, growth first,
                                    then by file and line */
};

/* The changed lines of BASE and NEW into *L.  Return 0, or EXIT_DATA after a
   message; *L is then empty.  */
int diff_lines_build (struct pf_set *base, struct pf_set *new, struct diff_lines *l);

/* diff_lines_build's pairing of L->base and L->new, already built.  */
void diff_lines_pair (struct diff_lines *l);

void diff_lines_free (struct diff_lines *l);

/* The source of M found at PATH (lc_resolve's), or NULL.  */
const struct lc_source *diff_find_source (const struct lc_model *m, const char *path);

#endif /* DSPROF_DIFF_H */
