/* recordtree.h - the record tree `dsprof html` draws as an icicle graph
   (render/html-icicle.c), in one of two forms.  With at most --records
   records, one node per record (struct rnode): each thread's top-level
   records in a lane, each record's descendants below it, with its name, its
   times and the tooltip that shows its dimensions.  With more, stacks.h's
   name paths (a record and its ancestors' names, their records' summed
   times); with --diff, the base's name paths too, each path matched with
   the base's of the same names.  Times are as recorded.  */

#ifndef DSPROF_RECORDTREE_H
#define DSPROF_RECORDTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"
#include "stacks.h"

/* A record, in the per-record form.  */
struct rnode
{
  uint64_t start, end;
  char *name, *tip;
  bool complete, done;
  struct rnode **kids;
  uint32_t nkids, cap;
};

/* The top-level records of one thread of one process.  */
struct lane
{
  int64_t pid;
  uint32_t thread;
  struct rnode **tops;
  uint32_t ntops, cap;
};

/* A path of no match in the base.  */
enum { RT_NO_BASE = UINT32_MAX };

struct rtree
{
  struct stacks *paths;          /* the name paths (stacks.h) */
  struct stacks *base;           /* with --diff: the base's name paths */
  uint32_t *base_of;             /* with --diff: each path's node in base, or
                                    RT_NO_BASE */
  uint64_t records;
  /* records */
  struct lane *lanes;
  uint32_t nlanes;
  bool exact;                     /* the records drawn, not the name paths */
};

/* The record tree of SET into *F: one node per record (F->exact) when there are
   at most MAX_RECORDS, else one per name path.  Return 0 or EXIT_DATA; free F
   with rtree_free either way.  */
int rtree_build (struct pf_set *set, uint64_t max_records, struct rtree *f);

/* With --diff: F's name paths and BASE's, each path of F matched with the
   base's path of the same names (F->base_of), drawn by name path whatever
   their number.  Return 0 or EXIT_DATA; free F with rtree_free either way.  */
int rtree_build_diff (struct pf_set *set, struct pf_set *base, struct rtree *f);

void rtree_free (struct rtree *f);

#endif /* DSPROF_RECORDTREE_H */
