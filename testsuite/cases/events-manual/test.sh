# events-manual: dsprof_start / dsprof_finish (docs/contract.md §4.3, §4.4): manual events
# nest with each other and with annotated functions; a finish of an event that
# is not innermost closes the ones inside it complete=false and is counted in
# `dsprof info` (repaired events), as is a manual event an annotated function
# leaves open; late and zero ids change nothing.  expected.txt is derived from
# manual.c by hand.  Then 60000 manual events with added dimensions, over
# several event chunks: every one intact.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/manual.c" .
dscc -O2 -o manual manual.c || fail "manual.c does not compile"
for f in leaf opens wrap; do
  echo "s/@$f@/$(grep -n "^$f (" manual.c | cut -d: -f1)/g"
done >subst.sed
sed -f subst.sed "$CASE/expected.txt" >expected

mkdir fixed && cd fixed
../manual || fail "manual exited with status $?"
run_dsprof records >records.raw 2>err || fail "dsprof records: status $? ($(cat err))"
sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
expect_same ../expected records
run_dsprof info --count >info 2>err || fail "dsprof info: status $? ($(cat err))"
# 16 records, 3 of them closed by repair (E, F, Leaked); no dimension was
# added outside an event.
for want in 'threads: 1' 'events: 32' 'records: 16' 'dropped events: 0' \
            'repaired events: 3' 'stray dimensions: 0'; do
  grep -Eq "^$want( |\$)" info || fail "dsprof info lacks '$want': $(cat info)"
done
cd ..

mkdir many && cd many
../manual many 60000 || fail "manual many exited with status $?"
run_dsprof records >records 2>err || fail "dsprof records (many): status $? ($(cat err))"
awk '{ want = "#" NR " "; if (index($0, want) != 1) { print "numbering: " $0; exit 1 }
       sub(/^#[0-9]+ [0-9]+ns /, "")
       if ($0 != "event=Step name=Step thread=1 i=" NR - 1 " tag=x complete=true") {
         print "record " NR ": " $0; exit 1 } }
     END { if (NR != 60000) { print NR " records, not 60000"; exit 1 } }' records >&2 \
  || fail "many: the Step records are not as expected"
run_dsprof info --count >info 2>err || fail "dsprof info (many): status $? ($(cat err))"
size=$(awk '/^file:/ { print $2 }' info)
[ "$size" -gt $((2 * 1024 * 1024)) ] || fail "many: $size bytes, not several event chunks"
cd ..
exit 0
