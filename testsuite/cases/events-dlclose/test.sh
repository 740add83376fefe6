# events-dlclose: a program built without the plugin dlopens an instrumented
# library (which pulls in libdsprof.so), records events in it from threads,
# dlcloses it while four of those threads still run, lets them end, and then
# starts and ends more threads.  Every thread that recorded runs the runtime's
# thread-exit code when it ends, after the dlclose: the runtime stays loaded
# (it is linked -z nodelete), so the program exits 0 as it does without the
# plugin, and its profile reads back with all 7 records.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/dlclose.c" "$CASE/work.c" .
gcc -O2 -o dlclose dlclose.c -ldl -lpthread || fail "dlclose.c does not compile"
gcc -O2 -shared -fPIC -I"$TOP/runtime" -o libplain.so work.c || fail "work.c does not build plain"
dscc -O2 -shared -fPIC -o libwork.so work.c || fail "work.c does not build with the plugin"

[ "$(./dlclose ./libplain.so)" = 294 ] || fail "the plain build does not print 294"
status=0
./dlclose ./libwork.so >out 2>err || status=$?
[ "$status" -eq 0 ] || fail "dlclose exited with status $status, not 0 ($(cat err))"
[ "$(cat out)" = 294 ] || fail "dlclose printed '$(cat out)', not 294"
[ ! -s err ] || fail "dlclose wrote to stderr: $(cat err)"

run_dsprof info --count >info 2>err || fail "dsprof info: status $? ($(cat err))"
for want in 'threads: 7' 'events: 14' 'records: 7 \(0 incomplete\)' 'dropped events: 0'; do
  grep -Eq "^$want( |\$)" info || fail "dsprof info lacks '$want': $(cat info)"
done
run_dsprof report n --format csv >report.csv 2>err \
  || fail "dsprof report n: status $? ($(cat err))"
sed 1d report.csv | awk -F, '{ print $2, $9 }' | sort -n >counts
printf '%s 1\n' 0 1 10 11 12 13 100 >counts.expected
expect_same counts.expected counts
exit 0
