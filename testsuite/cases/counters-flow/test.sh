# counters-flow: block counts derived from counters on control-flow edges
# (include/dsprof-format.h, section 3a) where the flow does not simply take the
# edges: blocks entered by longjmp, siglongjmp, __builtin_longjmp, a computed
# goto or a nested function's goto (abnormal.c); calls that return, and calls
# that may not (exit three calls deep, longjmp, a volatile access, a vfork'd
# child that _exits), recursion, calls through a pointer (leave.c).  Each is
# built at -O0, -O2, -O3 and -Os (with -fexceptions: cleanups); its annotated
# listing must equal expected/<file>.c.bb and its `dsprof lines'
# expected/<file>.lines, which are those of a counter in every block (as dsprof
# counted before it counted edges), each count checked by hand against the
# program's logic (e.g. abnormal.c:28, setjmp's line, is 100 calls + 25
# longjmps back, 100 for the block of the call, 125 after it; leave.c:100, the
# loop's test, ran 151 times, as the program exits in its 151st iteration).
# A line after a call that did not return counts how often control came back
# (leave.c:69, `return leaf (x)' after maybe_exit, 136 of 137; leave.c:89, the
# test after vfork, 8: 4 times in the parents and 4 in the children, which
# share the parents' memory and so their counters, until they _exit).
# The body of an OpenMP loop,
# outlined by GCC before dsprof counts it, is counted too (omp.c).
. "$(dirname "$0")/../../lib.sh"

for f in abnormal leave; do
  cp "$CASE/$f.c" .
  for o in -O0 -O2 -O3 -Os; do
    dscc $o -fexceptions -o "$f" "$f.c" || fail "$f.c does not compile with the plugin at $o"
    rm -f "$f.data"
    DSPROF_OUT=$f.data ./"$f" >"$f.out" || fail "$f ($o) exited with status $?"
    expect_same "$CASE/expected/$f.out" "$f.out"
    rm -rf bb && run_dsprof annotate -o bb "$f.data" || fail "dsprof annotate $f.data ($o): status $?"
    expect_same "$CASE/expected/$f.c.bb" "bb/$f.c.bb"
    run_dsprof lines "$f.data" >"$f.lines" || fail "dsprof lines $f.data ($o): status $?"
    expect_same "$CASE/expected/$f.lines" "$f.lines"
  done
done

cp "$CASE/omp.c" .
dscc -O2 -fopenmp -fplugin-arg-dsprof-update=atomic -o omp omp.c \
  || fail "omp.c does not compile with the plugin and -fopenmp"
DSPROF_OUT=omp.data ./omp >omp.out || fail "omp exited with status $?"
[ "$(cat omp.out)" = 332667 ] || fail "omp printed $(cat omp.out), not 332667"
run_dsprof lines omp.data >omp.lines || fail "dsprof lines omp.data: status $?"
body=$(grep -n '/\* BODY \*/' omp.c | cut -d: -f1)
grep -qx "omp.c:$((body - 1)): 1000" omp.lines \
  || fail "omp.c:$((body - 1)), the loop body's test, not counted 1000 times: $(cat omp.lines)"
grep -qx "omp.c:$body: 666" omp.lines \
  || fail "omp.c:$body not counted 666 times: $(cat omp.lines)"
exit 0
