# events-exit: a process that ends with events open leaves them complete=false
# (docs/contract.md §4.4), whether it calls exit() (an atexit handler's event nests in the
# open one), _exit() or abort(), returns from main inside a manual event, or
# calls exit() while another thread is inside an event.  The expected records
# (*.txt) are derived from exit.c by hand.
. "$(dirname "$0")/../../lib.sh"

ulimit -c 0   # abort () leaves no core file
cp "$CASE/exit.c" .
dscc -O2 -o exit exit.c || fail "exit.c does not compile"
for f in work cleanup leave level blocked; do
  echo "s/@$f@/$(grep -n "^$f (" exit.c | cut -d: -f1)/g"
done >subst.sed

# check MODE EXPECTED STATUS REPAIRED: run `exit MODE` in its own directory.
check () {
  local mode=$1 expected=$2 want_status=$3 repaired=$4 status=0
  mkdir "run$mode" && cd "run$mode"
  ../exit "$mode" >out 2>&1 || status=$?
  [ "$status" -eq "$want_status" ] || fail "exit $mode: status $status, not $want_status"
  sed -f ../subst.sed "$CASE/$expected" >expected
  run_dsprof records >records.raw 2>err || fail "dsprof records ($mode): status $? ($(cat err))"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
  expect_same expected records
  if [ -n "$repaired" ]; then
    run_dsprof info >info 2>err || fail "dsprof info ($mode): status $? ($(cat err))"
    grep -q "^repaired events: $repaired\$" info \
      || fail "dsprof info ($mode): not 'repaired events: $repaired': $(cat info)"
  fi
  cd ..
}

# exit () and return close the open events at normal exit (counted as
# repaired); after _exit and abort the profile simply ends inside them.
check exit exit.txt 0 4
check return return.txt 0 1
check _exit abrupt.txt 0 ""
check abort abrupt.txt 134 ""
check thread thread.txt 0 ""
exit 0
