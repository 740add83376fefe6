/* oplines.h - the op records of a bytecode VM's dispatch function by their
   label's line (docs/vm.md): `dsprof lines --ops` prints them, `dsprof
   annotate` notes them beside the lines' counts (render/lines.c).  */

#ifndef DSPROF_OPLINES_H
#define DSPROF_OPLINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* The op records of a profile set by their label's line (docs/vm.md): the
   record count of each opcode name on each file's line, beside the block
   counts, which are gcov's and stay so.  */
struct op_line
{
  const char *file;              /* the file as given to the compiler */
  uint32_t line;
  const char *name;
  uint64_t count;
};

struct op_lines
{
  struct op_line *v;             /* by file, line, name */
  size_t n;
};

/* Count SET's op records into OPS (to be freed: free (OPS->v)), one entry
   per file, line and name, the sites of several units and processes summed.
   Return 0 or EXIT_DATA.  */
int op_lines_build (struct pf_set *set, struct op_lines *ops);

/* Whether SET has op sites (a unit built with dispatch=FUNC).  */
bool op_sites_p (const struct pf_set *set);

#endif /* DSPROF_OPLINES_H */
