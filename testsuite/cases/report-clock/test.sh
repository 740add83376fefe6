# report-clock: a thread's times across its event chunks (docs/contract.md §4.4: time is
# monotonic).  Ticks run on from chunk to chunk; each chunk also carries a clock
# pair read when it was set up, and mapping each chunk by its own pair made the
# times jump at chunk boundaries, backwards as well as forwards (tens of us in
# a VM).  Two threads of 200,000 mid records with two leaves each write several
# 1 MB chunks apiece: `dsprof trace` must show each thread's times in order,
# and `dsprof records` every mid record at least as long as its two leaves.
. "$(dirname "$0")/../../lib.sh"

dscc -O2 -o chunks "$CASE/chunks.c" || fail "chunks.c does not compile"
./chunks 200000 >out.txt || fail "chunks exited with $?"
[ "$(cat out.txt)" = 409949440 ] || fail "chunks printed $(cat out.txt)"

run_dsprof info --count >info.txt || fail "info: status $?"
grep -q '^threads: 2$' info.txt || fail "not two threads: $(cat info.txt)"
bytes=$(sed -n 's/^events: 2400000 (\([0-9]*\) bytes of stream.*/\1/p' info.txt)
[ -n "$bytes" ] && [ "$bytes" -gt $((4 * 1048576)) ] \
  || fail "expected 2400000 events in more than 4 MB of stream: $(grep '^events' info.txt)"

run_dsprof trace >trace.txt || fail "trace: status $?"
awk '{
  t = substr($1, 1, length($1) - 2) + 0; th = $2; n[th]++
  if ((th in last) && t < last[th]) {
    if (++bad <= 5) print "thread " th ": event " n[th] " at " t " ns after " last[th] " ns"
  }
  last[th] = t
}
END { if (length(n) != 2) { print length(n) " threads in the trace"; bad++ }
      exit bad > 0 }' trace.txt >back.txt || fail "times go back in the trace: $(cat back.txt)"
[ "$(wc -l <trace.txt)" = 2400000 ] || fail "trace has $(wc -l <trace.txt) events, not 2400000"

run_dsprof records --where name=mid >mid.txt || fail "records: status $?"
run_dsprof records --where name=leaf >leaf.txt || fail "records: status $?"
awk 'FNR == NR { d[substr($1, 2)] = substr($2, 1, length($2) - 2) + 0; next }
{
  kids = 0; sum = 0
  for (i = 3; i <= NF; i++) if ($i == "->") { for (k = i + 1; k <= NF; k++) { kids++; sum += d[substr($k, 2)] } }
  m = substr($2, 1, length($2) - 2) + 0
  if (kids != 2) { print $1 ": " kids " children"; bad++ }
  else if (m < sum) { if (++bad <= 5) print $1 ": " m " ns, its leaves " sum " ns" }
  n++
}
END { if (n != 400000) { print n " mid records"; bad++ } exit bad > 0 }' leaf.txt mid.txt >short.txt \
  || fail "mid records shorter than their leaves: $(cat short.txt)"

# merge maps a stream's ticks to ns as the readers do (one mapping for the
# stream, not one per chunk): a profile merged alone reads exactly as itself.
run_dsprof merge -o m.data dsprof.data || fail "merge: status $?"
run_dsprof trace m.data >mtrace.txt || fail "trace of the merge: status $?"
cmp -s trace.txt mtrace.txt || fail "the merge's trace differs: $(diff trace.txt mtrace.txt | head -4)"
for q in "report name --raw --unit ns --format csv" "records"; do
  # shellcheck disable=SC2086
  run_dsprof $q dsprof.data >a.txt && run_dsprof $q m.data >b.txt || fail "$q: status $?"
  cmp -s a.txt b.txt || fail "$q of the merge differs: $(diff a.txt b.txt | head -4)"
done
exit 0
