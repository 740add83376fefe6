# counters-killloop: a program killed in a loop without calls (include/
# dsprof-format.h, section 3a).  Its blocks have no fake edge of their own,
# but the loop's latch gets one, so the counts outside the loop are exact
# (the line before the loop ran once, the line after it never) and
# each line in the loop is within one of its exact count, which the loop's
# progress in a shared file tells: after S iterations stored, the thread is in
# iteration S or S + 1, so line THEN ran S - S/3 or S + 1 - (S + 1)/3 times.
# At -O2, where the loop is compiled without a load or store of its own but
# the counters, and at -O0; each killed three times at different moments.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/loop.c" .
line_of () { grep -n "/\\* $1 \\*/" loop.c | cut -d: -f1; }
BEFORE=$(line_of BEFORE) LOOP=$(line_of LOOP) THEN=$(line_of THEN)
ELSE=$(line_of ELSE) STORE=$(line_of STORE) AFTER=$(line_of AFTER)

pid=
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true' EXIT

# within NAME LINE LOW HIGH: the largest count dsprof lines gives LINE is in
# [LOW, HIGH].
within () {
  local c
  c=$(awk -F': ' -v at="loop.c:$2" '$1 == at { if ($2 + 0 > m) m = $2 + 0; found = 1 }
    END { if (!found) exit 1; print m + 0 }' lines.out) \
    || fail "$1: dsprof lines has no line loop.c:$2: $(head -5 lines.out)"
  [ "$c" -ge "$3" ] && [ "$c" -le "$4" ] \
    || fail "$1: loop.c:$2 has count $c, not in [$3, $4] ($(tr '\n' ' ' <lines.out))"
}

for o in -O2 -O0; do
  dscc $o -o loop loop.c || fail "loop.c does not compile at $o"
  for wait in 1000000 3000000 7000000; do
    rm -f progress.bin loop.data
    DSPROF_OUT=loop.data ./loop progress.bin &
    pid=$!
    wait_progress progress.bin $wait "$o: the loop"
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null && fail "$o: the killed loop exited normally"
    pid=
    s=$(progress progress.bin)
    run_dsprof lines loop.data >lines.out 2>lines.err \
      || fail "$o: dsprof lines: status $? ($(cat lines.err))"
    t="$o, killed after $s iterations"
    within "$t" "$BEFORE" 1 1
    within "$t" "$AFTER" 0 0
    within "$t" "$LOOP" $((s - 1)) $((s + 2))
    within "$t" "$STORE" $((s - 1)) $((s + 2))
    within "$t" "$THEN" $((s - s / 3 - 1)) $((s + 1 - (s + 1) / 3 + 1))
    within "$t" "$ELSE" $((s / 3 - 1)) $(((s + 1) / 3 + 1))
  done
done
exit 0
