/* export.h - the renderers of `dsprof export` (docs/contract.md §5.8), one
   per format, each in a file of its own (render/export-FORMAT.c, lcov.c,
   cobertura.c); cmd-export.c's table names them.

   A renderer renders the model its format asks for (enum export_model),
   which the command builds: the event exports (chrome, perfetto, csv)
   stream the profiles' events as the decoder delivers them, folded and
   pprof render stacks.h's tree of name paths, lcov and Cobertura the line
   counts model (linecount.h) with coverage.h's figures.

   A new format: its file here (render/export-FORMAT.c), its declaration
   below, its row in cmd-export.c's table.  */

#ifndef DSPROF_EXPORT_H
#define DSPROF_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "linecount.h"
#include "profile.h"
#include "stacks.h"

/* The model a format renders.  */
enum export_model
{
  EXPORT_EVENTS,                 /* the events of SET, streamed */
  EXPORT_STACKS,                 /* STACKS: the tree of name paths (st_build) */
  EXPORT_SAMPLES,                /* STACKS keyed by --dim, with the variants of
                                    the --label dimensions (pprof's) */
  EXPORT_LINES                   /* LINES: the line counts (lc_build) */
};

/* What a renderer gets: the profiles, and the model of its format.  */
struct export_input
{
  struct pf_set *set;
  const struct stacks *stacks;   /* EXPORT_STACKS, EXPORT_SAMPLES */
  const struct lc_model *lines;  /* EXPORT_LINES */
};

/* A renderer: IN to OUT.  Return 0, or EXIT_DATA after a message.  */
typedef int export_render (const struct export_input *in, FILE *out);

export_render export_chrome, export_folded, export_lcov, export_cobertura,
  export_csv, export_pprof, export_perfetto;

/* ---- what the exports share (export-common.c) ------------------------------------ */

/* An open event's dimensions added since Start (dsprof_dim_*), as the format
   writes them (chrome: JSON members, each after a comma; perfetto: debug
   annotations), and their names, each once (the first value wins, as in the
   record).  */
struct added
{
  char *bytes;
  size_t len;
  char **names;
  uint32_t nnames;
};

/* A stack of the open events' struct added; push returns the new top, zeroed.  */
struct added_stack
{
  struct added *open;
  uint32_t depth, size;
};

/* Whether dimension NAME was added to the open event O; add it.  */
bool added_before (const struct added *o, const char *name);
void added_name (struct added *o, const char *name);
void added_free (struct added *o);
struct added *added_push (struct added_stack *st);

/* Free the open events left (a stream's end).  */
void added_clear (struct added_stack *st);

/* The start of the earliest process of SET (CLOCK_REALTIME ns): the exports'
   time 0.  */
uint64_t first_start (const struct pf_set *set);

/* The pid process I of SET is shown with: its own, unless an earlier profile
   has the same one.  */
int64_t process_pid (const struct pf_set *set, uint32_t i);

#endif /* DSPROF_EXPORT_H */
