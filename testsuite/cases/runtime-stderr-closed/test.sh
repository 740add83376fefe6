# runtime-stderr-closed: the runtime writes its warnings only to the stderr the
# program was started with (docs/reliability.md, "Shards, threads and
# warnings").  Started with `2>&-`, the program's first open gets descriptor 2;
# its profile is deleted while it runs, which the runtime reports at exit: the
# warning must not land in the program's file.  Started with stderr open, the
# warning is written there.  A program that moves its stderr itself (dup2 onto
# descriptor 2) gets the warnings there, as before.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/closed.c" .
dscc -O2 -o closed closed.c || fail "closed.c does not compile"
gcc -O2 -o closed-plain closed.c || fail "closed.c does not compile without the plugin"

# The plain build's output, the reference.
touch plain.data
./closed-plain plain.out plain.data >plain.stdout 2>&- || fail "plain build: status $?"
[ "$(cat plain.stdout)" = "fd 2" ] || fail "plain build: $(cat plain.stdout)"

DSPROF_OUT=p.data ./closed out p.data >stdout 2>&- || fail "closed: status $?"
[ "$(cat stdout)" = "fd 2" ] || fail "the program's file did not get descriptor 2: $(cat stdout)"
expect_same plain.out out

# stderr open: the warning is written, once.
DSPROF_OUT=q.data ./closed out2 q.data >stdout2 2>err2 || fail "closed (stderr open): status $?"
[ "$(cat stdout2)" = "fd 3" ] || fail "stderr open: $(cat stdout2)"
expect_same plain.out out2
grep -q "^dsprof: profile '.*/q.data' was deleted while the program ran" err2 \
  || fail "no warning on the program's stderr: $(cat err2)"
[ "$(wc -l < err2)" -eq 1 ] || fail "more than a line on stderr: $(cat err2)"

# Closed at the start, and a warning the runtime prints early (a bad
# DSPROF_STRMAX, read at start-up): none in the program's file either.
touch r.data
DSPROF_STRMAX=bad DSPROF_OUT=r.data ./closed out3 r.data >stdout3 2>&- || fail "closed (DSPROF_STRMAX=bad): status $?"
expect_same plain.out out3
exit 0
