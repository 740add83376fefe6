# events-off-guard: with DSPROF_EVENTS=0 an event function tests the runtime's
# flag at entry and calls no hook (dsprof-format.h, section 1), so a call
# costs a few instructions more than without dsprof, not the ~80 more of
# building the values and calling both hooks.  Here a call costs about 21
# with the loop, its block counters, the call and the guard; it cost over 100
# when the hooks were called.  Measured deterministically: callgrind's
# instruction counts of 10,000 and 20,000 calls, whose difference is the cost
# of 10,000 calls (the program's start and end cancel out).  With events on,
# the same binary still records every call, Start and Finish paired.
. "$(dirname "$0")/../../lib.sh"

command -v valgrind >/dev/null || fail "valgrind is not installed (make deps)"
cp "$CASE/cost.c" .
dscc -O2 -o cost cost.c || fail "cost.c does not compile"

# instructions N: callgrind's count of instructions of cost N, events off.
instructions () {
  DSPROF_EVENTS=0 DSPROF_OUT=off.dsprof valgrind --tool=callgrind \
    --callgrind-out-file=/dev/null ./cost "$1" >out 2>cg \
    || fail "cost $1 under callgrind exited with status $? ($(cat cg))"
  sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' cg
}
small=$(instructions 10000)
large=$(instructions 20000)
[ -n "$small" ] && [ -n "$large" ] || fail "no callgrind counts: $(cat cg)"
per_call=$(( (large - small) / 10000 ))
[ "$per_call" -lt 30 ] \
  || fail "a call with events off costs $per_call instructions (loop included), not under 30"

# Events on: every call is recorded, Start and Finish paired.
DSPROF_OUT=on.dsprof ./cost 100 >out || fail "cost 100 exited with status $?"
run_dsprof info --count on.dsprof >info 2>err || fail "dsprof info: status $? ($(cat err))"
grep -qx 'records: 100 (0 incomplete)' info \
  || fail "dsprof info lacks 'records: 100 (0 incomplete)': $(cat info)"

# The flag turned off inside outer, whose Start was recorded: outer's Finish
# is still recorded (the guard tests what it read at entry), inner called then
# records nothing; with the flag on again, inner records.
cp "$CASE/toggle.c" .
dscc -O2 -o toggle toggle.c || fail "toggle.c does not compile"
DSPROF_OUT=toggle.dsprof ./toggle >out || fail "toggle exited with status $?"
[ "$(cat out)" = 15 ] || fail "toggle printed $(cat out), not 15"
run_dsprof info --count toggle.dsprof >info 2>err || fail "dsprof info: status $? ($(cat err))"
grep -qx 'records: 2 (0 incomplete)' info \
  || fail "toggle: dsprof info lacks 'records: 2 (0 incomplete)': $(cat info)"
grep -qx 'repaired events: 0' info || fail "toggle: events repaired: $(cat info)"
run_dsprof records toggle.dsprof >records 2>err || fail "dsprof records: status $? ($(cat err))"
[ "$(grep -c 'outer' records)" = 1 ] && [ "$(grep -c 'inner' records)" = 1 ] \
  || fail "toggle: not one outer and one inner record: $(cat records)"
