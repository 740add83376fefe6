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
   Memory: the distinct paths, plus the nesting depth for the open records.

   Two options make it the model of the pprof export: paths of another
   dimension's values instead of names (st_set_key), and, per node, its
   records' figures split by the whole set of their dimensions, or by some
   (st_keep_variants: a variant per distinct set, so memory grows with the
   distinct sets too); st_build_samples builds it so.  */

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
  const struct ev_site *site;    /* of its first record from an event site, or
                                    NULL (manual events only) */
  uint32_t variants;             /* its first variant (st_keep_variants); 0:
                                    none */
};

/* The records of one node whose dimensions are one set: DIMS holds, for each
   dimension in the records' order, a kind byte ('n' for an integer value that
   fits an int64_t, else 's'), the name and the value as ev_format_value
   shows it, each NUL-terminated.  */
struct st_variant
{
  uint32_t next;                 /* the node's next variant; 0: none */
  uint32_t dims_len;
  const char *dims;              /* interned */
  uint64_t count;
  uint64_t self_ns;              /* as the node's */
  uint64_t total_ns;             /* the records' times, deducted as self_ns is */
};

struct stacks;

/* An empty tree: with RAW, self times as recorded, else deducted.  */
struct stacks *st_new (bool raw);

/* Make the paths of the values of dimension DIM (agg_dim_text; a record
   without it has the empty value) instead of the names; "name" keeps the
   names.  Before the first record.  */
void st_set_key (struct stacks *s, const char *dim);

/* Print agg_carry_note's note if no record carried st_set_key's dimension.  */
void st_note_uncarried (struct stacks *s);

/* Keep each node's variants, by all the records' dimensions (NDIMS < 0) or
by the NDIMS dimensions DIMS only (kept, not copied; 0: one variant per
node).  Before the first record.  */
void st_keep_variants (struct stacks *s, int ndims, const char *const *dims);

/* Add every stream of SET to S.  Return 0 or the walk's status.  */
int st_walk (struct pf_set *set, struct stacks *s);

/* Variant ID (>= 1) of S.  */
const struct st_variant *st_variant (const struct stacks *s, uint32_t id);

/* Start a stream whose hooks cost COSTS (agg_costs_of; not deducted if the
   tree is raw).  */
void st_begin_stream (struct stacks *s, const struct agg_costs *costs);

/* The ev_record_fn adding record R to the tree (the stacks as its argument);
   R's `user` is the tree's from its first completed descendant on.  */
int st_record (struct ev_record *r, void *stacks);

/* The tree of every stream of SET, RAW as st_new.  Return NULL with *RC set to
   the walk's status if a stream is corrupt.  */
struct stacks *st_build (struct pf_set *set, bool raw, int *rc);

/* The pprof export's model: the tree of SET's paths of DIM's values (NULL:
   names), with the variants of the NDIMS dimensions DIMS (NDIMS < 0: all);
   say if no record carried DIM.  On failure (*RC EXIT_DATA) NULL.  */
struct stacks *st_build_samples (struct pf_set *set, bool raw, const char *dim,
                                 int ndims, const char *const *dims, int *rc);

/* The nodes: ids 0 (the root) .. st_nnodes - 1, each after its parent.  */
uint32_t st_nnodes (const struct stacks *s);
const struct st_node *st_node (const struct stacks *s, uint32_t id);

void st_free (struct stacks *s);

/* The deepest stack the exports write (pprof, folded): the innermost
   ST_MAX_FRAMES frames of a deeper one, after one frame for the N outer
   frames cut, named as st_cut_frame writes it: "[truncated N frames]".  */
#define ST_MAX_FRAMES 128
const char *st_cut_frame (char *buf, size_t size, uint32_t n);

#endif /* DSPROF_STACKS_H */
