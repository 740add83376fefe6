/* linecount.h - the block counts of a profile set by source line, built once and
   rendered by `dsprof lines` (docs/contract.md §5.1), `dsprof annotate` (§5.2),
   `dsprof export --format lcov` and `dsprof html`'s hottest source lines.

   The model offers the two rules the views use:

     by block   one entry per block at its own line (its first location), in
                unit, function and block order: `dsprof lines`, whose lines are
                the blocks;
     by line    per source file, every line some block holds a statement on (any
                location of the block), with the largest count of those blocks:
                annotate's column, lcov's DA records, html's hottest lines.

   and, per source file, its functions with their entry counts (the count of the
   entry block, summed over the units that hold the function: a header's), their
   counted blocks (each unit's copy of a header's function counts its own) and
   the lines their blocks hold in the function's own file, by the by line rule
   (`dsprof summary`).

   Branches, as gcov counts them (include/dsprof-format.h, section 3b): per
   source file and per function, the ways out of the blocks that end in a
   conditional jump or a switch, by line and gcov's branch number on the line
   (the blocks' order, each block's ways in order); the copies of a function
   in several units are summed branch by branch, as lcov adds the tracefiles
   of several objects (annotate --branches, lcov's BRDA records, summary's
   branch column).

   A source file is the file as annotate finds it: the path given to the
   compiler, below the unit's compilation directory when relative (lc_resolve);
   two units compiling or including the same file share one lc_source.  */

#ifndef DSPROF_LINECOUNT_H
#define DSPROF_LINECOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "hashtab.h"
#include "profile.h"

/* A block at its own line.  */
struct lc_block
{
  const char *given;             /* the file as given to the compiler */
  uint32_t line;
  uint64_t count;
};

/* A line some block holds a statement on.  */
struct lc_line
{
  uint32_t line;
  uint64_t count;                /* the largest count of those blocks */
};

/* A branch: one way out of a block that ends in a conditional jump or a
   switch.  */
struct lc_branch
{
  uint32_t line;
  uint32_t number;               /* on its line, from 0 */
  uint64_t count;                /* how often this way was taken */
  uint64_t block;                /* how often its block ran */
  bool fallthrough;              /* to the next block in the code */
  uint32_t unit, seq;            /* while building: order of the raw entries */
};

struct lc_func
{
  const char *name;
  uint32_t line;                 /* of its definition */
  uint64_t count;                /* its entry count */
  uint32_t nblocks;              /* its counted blocks, over the units */
  uint32_t blocks_hit;           /* those that ran */
  uint32_t nlines;
  struct lc_line *lines;         /* in its own file, by line, each line once */
  uint32_t nbranches;
  struct lc_branch *branches;    /* in its own file, by line and number */
};

struct lc_source
{
  char *path;                    /* as found (lc_resolve) */
  const char *given;             /* as compiled by the first unit holding it */
  uint32_t nlines;
  struct lc_line *lines;         /* by line, each line once */
  uint32_t nfuncs;
  struct lc_func *funcs;         /* by line, then name */
  uint32_t nbranches;
  struct lc_branch *branches;    /* by line and number */
  uint32_t nunits;
  const struct pf_unit **units;  /* the units with a block on it, in set order */
};

struct lc_model
{
  size_t nblocks;
  struct lc_block *blocks;       /* in unit, function and block order */
  size_t nsources;
  struct lc_source **sources;    /* in order of first appearance */
  htab_t by_path;                /* the sources by path */
  uint32_t nseq;                 /* while building: branches seen */
};

/* The line counts of SET into *M.  Return 0, or EXIT_DATA (2) after a message
   naming the unit and function whose counts are malformed; *M is then empty.  */
int lc_build (struct pf_set *set, struct lc_model *m);

void lc_free (struct lc_model *m);

/* The path of GIVEN, a file of unit U, as found: below U's compilation
   directory when relative.  Free it.  */
char *lc_resolve (const struct pf_unit *u, const char *given);

#endif /* DSPROF_LINECOUNT_H */
