# events-threads-many: 3,000 short-lived threads, 100 at a time, each
# recording one event.  A thread's first event chunk is one page, and a
# thread's chunk is unmapped when it ends: the profile takes under 64 MB on
# disk (du) and the process's peak resident set stays under 64 MB (each
# thread took a 1 MB chunk, mapped for good: 3 GB of each), and every event
# is in the report, one thread each.
. "$(dirname "$0")/../../lib.sh"

N=3000
cp "$CASE/many.c" .
dscc -O2 -o many many.c || fail "many.c does not build"
./many $N 100 >out 2>err || fail "many exited with status $? ($(cat err))"
[ "$(sed -n 1p out)" = $((N * (N - 1) / 2)) ] || fail "many printed $(sed -n 1p out)"
rss=$(sed -n 2p out)
[ "$rss" -lt 65536 ] || fail "peak resident set $rss KB, not under 64 MB"
disk=$(du -k dsprof.data | cut -f1)
[ "$disk" -lt 65536 ] || fail "the profile takes $disk KB on disk, not under 64 MB"

run_dsprof info --count >info 2>err || fail "dsprof info: status $? ($(cat err))"
for want in "threads: $N" "events: $((2 * N))" "records: $N \\(0 incomplete\\)" \
            'dropped events: 0'; do
  grep -Eq "^$want( |\$)" info || fail "dsprof info lacks '$want': $(cat info)"
done
# Every thread has one record, of its own value of i.
run_dsprof report i --format csv >report.csv 2>err \
  || fail "dsprof report i: status $? ($(cat err))"
sed 1d report.csv | awk -F, '{ print $2, $9 }' | sort -n >counts
seq 0 $((N - 1)) | sed 's/$/ 1/' >counts.expected
expect_same counts.expected counts
run_dsprof report thread --format csv >threads.csv 2>err \
  || fail "dsprof report thread: status $? ($(cat err))"
[ "$(sed 1d threads.csv | awk -F, '$9 == 1' | wc -l)" -eq $N ] \
  || fail "not $N threads of one record each"
exit 0
