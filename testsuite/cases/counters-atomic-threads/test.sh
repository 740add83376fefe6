# counters-atomic-threads: with -fplugin-arg-dsprof-update=atomic the counts of a
# multithreaded program are exact (docs/contract.md §2, §3): 4 threads each running a loop
# 1,000,000 times at the same moment, at -O0 and at -O2.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/threads.c" .
BODY=$(grep -n '/\* BODY \*/' threads.c | cut -d: -f1)
WORK=$(grep -n '^work (void \*arg)$' threads.c | cut -d: -f1)
FOR=$((BODY - 1))

for level in -O0 -O2; do
  dscc $level -fplugin-arg-dsprof-update=atomic -o threads$level threads.c \
    || fail "threads.c does not compile at $level with update=atomic"
  out=$(DSPROF_OUT=threads$level.data ./threads$level) || fail "threads$level: exit status $?"
  [ "$out" = 6000000 ] || fail "threads$level printed $out"
  run_dsprof annotate -o bb$level threads$level.data || fail "dsprof annotate: status $?"
  for want in "$WORK 4" "$FOR 4000004" "$BODY 4000000"; do
    set -- $want
    got=$(sed -n "$1p" bb$level/threads.c.bb | cut -d: -f1 | tr -d ' ')
    [ "$got" = "$2" ] || fail "$level: threads.c:$1 counted $got times, not $2"
  done
done
exit 0
