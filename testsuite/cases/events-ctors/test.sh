# events-ctors: events recorded before main and after it.  A program and the
# shared library it links record events from their constructors (priority 101
# and default), destructors and atexit handlers (ctors.c lists them): every
# call is a complete record, and the recorder's cost per pair is measured (not
# 0.0 ns); the one call that cannot be recorded, the library's constructor
# calling the program's event before the program's constructors ran, is
# counted as dropped.  A program whose only events are manual ones,
# the first in a constructor, gets its cost measured too.  At -O0 and -O2.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE"/*.c .

# overhead_measured INFO: the "overhead per event pair" line of INFO is not 0.
overhead_measured () {
  local ns
  ns=$(awk '/^overhead per event pair:/ { print $5 }' "$1")
  [ -n "$ns" ] || fail "$1 has no overhead line: $(cat "$1")"
  awk -v ns="$ns" 'BEGIN { exit !(ns > 0) }' || fail "$1: overhead per event pair $ns ns"
}

for O in -O0 -O2; do
  mkdir "run$O" && cd "run$O"
  dscc $O -fPIC -shared -o libctor.so ../ctorlib.c || fail "ctorlib.c ($O) does not build"
  dscc $O -o ctors ../ctors.c -L. -lctor -Wl,-rpath,'$ORIGIN' || fail "ctors.c ($O) does not build"
  ./ctors >out 2>err || fail "ctors ($O) exited with status $? ($(cat err))"
  [ "$(cat out)" = 0 ] || fail "ctors ($O) printed '$(cat out)'"
  [ ! -s err ] || fail "ctors ($O) wrote to stderr: $(cat err)"
  run_dsprof info --count >info 2>err || fail "dsprof info ($O): status $? ($(cat err))"
  for want in 'events: 30' 'records: 15 \(0 incomplete\)' 'dropped events: 1'; do
    grep -Eq "^$want( |\$)" info || fail "dsprof info ($O) lacks '$want': $(cat info)"
  done
  overhead_measured info
  run_dsprof report name n --format csv >report.csv 2>err \
    || fail "dsprof report ($O): status $? ($(cat err))"
  awk -F, '$1 == 2 { print $2, $3, $10 }' report.csv | sort -k2n >counts
  for n in 0 11 13 14 16 20 22; do echo "main_event $n 1"; done >counts.expected
  for n in 1 2 3 4 12 15 21 30; do echo "lib_event $n 1"; done >>counts.expected
  sort -k2n counts.expected -o counts.expected
  expect_same counts.expected counts
  cd ..
done

dscc -O2 -o manual manual.c || fail "manual.c does not build"
./manual >out 2>err || fail "manual exited with status $? ($(cat err))"
run_dsprof info --count >info 2>err || fail "dsprof info (manual): status $? ($(cat err))"
grep -Eq '^records: 2 \(0 incomplete\)$' info || fail "dsprof info (manual): $(cat info)"
overhead_measured info
exit 0
