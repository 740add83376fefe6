# report-memory: the report streams over the record tree (issue: memory bounded
# by the tree's depth and the buckets, not by the records).  A record with three
# million direct descendants is reported in a few MB; keeping the records would
# take over a gigabyte.  `depends-on` needs the children's names and still works.
. "$(dirname "$0")/../../lib.sh"

dscc -O2 -o flat "$CASE/flat.c" || fail "flat.c does not compile"
./flat 3000000 >out.txt || fail "flat exited with $?"
[ "$(cat out.txt)" = 10500000 ] || fail "flat printed $(cat out.txt)"

/usr/bin/time -f %M -o rss.txt "$DSPROF" report name --format csv >name.csv \
  || fail "report: status $?"
grep -q '^1,step,.*,3000000,' name.csv || fail "step count: $(cat name.csv)"
grep -q '^1,run,.*,1,' name.csv || fail "run count: $(cat name.csv)"
rss=$(cat rss.txt)
[ "$rss" -lt 65536 ] || fail "report name used $rss KB for 3,000,001 records"

"$DSPROF" report name depends-on --format csv >dep.csv || fail "depends-on: $?"
grep -q '^2,run,step,' dep.csv || fail "run depends on step: $(cat dep.csv)"
grep -q '^2,step,(none),' dep.csv || fail "step depends on nothing: $(cat dep.csv)"
exit 0
