# runtime-fds: the runtime holds none of the program's file descriptors while it
# runs (docs/reliability.md, "Files"); it takes one only for a moment, to add a
# chunk.  Under `ulimit -n 5` (0, 1, 2 and two free), the program records an
# event and then opens two files: both open, the counts are exact, the event is
# there and no warning is printed.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/fds.c" .
dscc -o fds fds.c || fail "fds.c does not compile"
LOOP=$(grep -n '/\* LOOP \*/' fds.c | cut -d: -f1)

DSPROF_OUT=prof.data bash -c 'ulimit -n 5 && exec ./fds fds.c fds' >out 2>err \
  || fail "fds exited with status $? (stderr: $(cat err))"
[ "$(cat out)" = "opened 2" ] || fail "under ulimit -n 5 the program could not open its files: $(cat out err)"
[ ! -s err ] || fail "a message on stderr: $(cat err)"
grep -qx "fds.c:$LOOP: 6" <(run_dsprof lines prof.data) || fail "prof.data: fds.c:$LOOP not counted 6 times"
[ "$(run_dsprof records prof.data | grep -c ' name=work ')" -eq 1 ] \
  || fail "prof.data: not one record of work: $(run_dsprof records prof.data)"
exit 0
