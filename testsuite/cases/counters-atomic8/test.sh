# counters-atomic8: update=atomic keeps counts exact under heavy contention
# (docs/contract.md §2, §3): 8 threads on the machine's cores, each executing its loop body
# 10^7 times (8 x 10^7 body executions, 8 x (10^7 + 1) loop tests), at -O2.  The
# program's run time is printed for the log; the whole case must stay well under
# a minute.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/threads8.c" .
BODY=$(grep -n '/\* BODY \*/' threads8.c | cut -d: -f1)
FOR=$((BODY - 1))
WORK=$(grep -n '^work (void \*arg)$' threads8.c | cut -d: -f1)
MAIN=$(grep -n '^main (void)$' threads8.c | cut -d: -f1)

dscc -O2 -fplugin-arg-dsprof-update=atomic -o threads8 threads8.c \
  || fail "threads8.c does not compile with update=atomic"
start=$(date +%s%N)
out=$(DSPROF_OUT=t8.data ./threads8) || fail "threads8: exit status $?"
echo "threads8 (update=atomic, 8 x 10^7): $(( ($(date +%s%N) - start) / 1000000 )) ms"
[ "$out" = 80000000 ] || fail "threads8 printed $out, not 80000000"

run_dsprof annotate -o bb t8.data || fail "dsprof annotate t8.data: status $?"
for want in "$MAIN 1" "$WORK 8" "$FOR 80000008" "$BODY 80000000"; do
  set -- $want
  got=$(sed -n "$1p" bb/threads8.c.bb | cut -d: -f1 | tr -d ' ')
  [ "$got" = "$2" ] || fail "threads8.c:$1 counted $got times, not $2"
done
# dsprof lines: the body's block, and the sum over all blocks on the for line
# (entry part i = 0: 8, test: 8 x (10^7 + 1); the increment shares the body's block
# or has its own with 8 x 10^7).
run_dsprof lines t8.data >t8.lines || fail "dsprof lines t8.data: status $?"
grep -qx "threads8.c:$BODY: 80000000" t8.lines \
  || fail "dsprof lines: threads8.c:$BODY is not 80000000: $(grep "^threads8.c:$BODY:" t8.lines)"

# For the log: the same program with update=single usually loses updates, which
# shows that the threads did run interleaved (no check: that is a race).
dscc -O2 -o threads8s threads8.c || fail "threads8.c does not compile"
DSPROF_OUT=t8s.data ./threads8s >/dev/null || fail "threads8s: exit status $?"
echo "update=single: $(run_dsprof lines t8s.data | grep "^threads8.c:$BODY:")"
exit 0
