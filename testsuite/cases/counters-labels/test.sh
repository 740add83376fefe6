# counters-labels: a line holding a case, default or named label, or a macro
# that expands to one (vmcase (OP_ADD) as in Lua's lvm.c), has the count of the
# block the label starts, as gcov gives it: in `dsprof annotate' (##### for a
# label never reached), in `dsprof lines' (the block's line is the label's) and
# in the lcov export (DA:LINE,COUNT).  At -O0 and -O2.  The expected count of
# each label is written beside it in labels.c (/* NAME COUNT */), worked out by
# hand: the program runs the code twice, halting at each OP_HALT.
. "$(dirname "$0")/../../lib.sh"

marked_counts labels.c 2 6
exit 0
