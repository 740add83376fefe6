# counters-noreturn: a line after a call that did not return (exit in a
# function of the unit, longjmp out of one) has the count of how often control
# came back and reached it, as gcov ends a block after every call that may not
# return: `my_exit (0);' then `break;' shows ##### on the break, not the count
# of the block that called my_exit.  In `dsprof annotate', `dsprof lines' and
# the lcov export, at -O0 and -O2.  The expected count of each marked line is
# written beside it in noreturn.c (/* NAME COUNT */): steps 0 to 4 run, 0 and 3
# longjmp back to main, 4 exits.
. "$(dirname "$0")/../../lib.sh"

marked_counts noreturn.c 14 5
exit 0
