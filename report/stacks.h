/* stacks.h - the records as a tree of name paths: a node per distinct path
   a;b;c of names (ev_record_name) from a top-level record down to a record,
   with the summed figures of the records at that path.  Folded export writes
   its lines from it, the html flame graph draws its boxes.

   Built from records as ev_decode_stream delivers them, innermost first.  A
   record's node is (its parent's node, its name), found in a libiberty htab;
   the node of a record and of each of its ancestors is settled the first time
   it is needed (the record's own completion or its first descendant's) and
   kept in the record's `user`, so the names of the open ancestors are those
   known then.  No recursion: a chain of any depth is walked in a loop.
   Memory: the distinct paths, plus the nesting depth for the open records.  */

#ifndef DSPROF_STACKS_H
#define DSPROF_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "events.h"
#include "aggregate.h"
#include "profile.h"

/* A name path.  Node 0 is the root (the empty path): its total_ns is the time
   of the top-level records, its count the records.  */
struct st_node
{
  uint32_t id;
  uint32_t parent;               /* 0: a top-level name (and the root's own) */
  uint32_t first, next;          /* first child, next sibling; 0: none.  In the
                                    order the paths first occurred.  */
  uint32_t nkids;
  uint32_t len;                  /* of name */
  const char *name;              /* interned, NUL-terminated (also past LEN) */
  uint64_t total_ns;             /* the records' durations, as recorded */
  uint64_t self_ns;              /* their self times, the recorder's cost
                                    deducted (agg_deduct) unless raw */
  uint64_t count, incomplete;    /* records, those closed by repair */
};

struct stacks;

/* An empty tree: with RAW, self times as recorded, else deducted.  */
struct stacks *st_new (bool raw);

/* Start a stream whose hooks cost COSTS (agg_costs_of; not deducted if the
   tree is raw).  */
void st_begin_stream (struct stacks *s, const struct agg_costs *costs);

/* The ev_record_fn adding record R to the tree (the stacks as its argument);
   R's `user` is the tree's from its first completed descendant on.  */
int st_record (struct ev_record *r, void *stacks);

/* The tree of every stream of SET, RAW as st_new.  Return NULL with *RC set to
   the walk's status if a stream is corrupt.  */
struct stacks *st_build (struct pf_set *set, bool raw, int *rc);

/* The nodes: ids 0 (the root) .. st_nnodes - 1, each after its parent.  */
uint32_t st_nnodes (const struct stacks *s);
const struct st_node *st_node (const struct stacks *s, uint32_t id);

void st_free (struct stacks *s);

#endif /* DSPROF_STACKS_H */
