# report-badinput: a profile argument that is a directory, a device, a fifo or
# a socket is refused by every command that reads profiles, with one line
# "dsprof: 'NAME': is a directory, not a profile" (a fifo, a character device,
# a socket) and status 2; a fifo is never opened for reading, so nothing waits
# for a writer (each command runs under a 20 s timeout, and takes
# milliseconds).  It said "dsprof: /tmp: Success" and waited on a fifo forever.
. "$(dirname "$0")/../../lib.sh"

dscc -o expr "$TOP/examples/expr/expr.c" && ./expr >/dev/null || fail "expr"
mkdir dir && mkfifo fifo
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")'
[ -S sock ] || fail "no socket made"

for t in "a directory:dir" "a directory:/tmp" "a fifo:fifo" "a socket:sock" \
         "a character device:/dev/zero" "a character device:/dev/null"; do
  what=${t%%:*} name=${t#*:}
  for cmd in lines annotate report dims shell records trace info html callgraph dot summary \
             "export --format csv" "merge -o m.data"; do
    set +e
    # shellcheck disable=SC2086
    timeout 20 "$DSPROF" $cmd "$name" dsprof.data </dev/null >out.txt 2>err.txt
    rc=$?
    set -e
    [ $rc = 2 ] || fail "dsprof $cmd $name: status $rc (124: it hung), $(cat err.txt)"
    [ "$(cat err.txt)" = "dsprof: '$name': is $what, not a profile" ] \
      || fail "dsprof $cmd $name said: $(cat err.txt)"
  done
done
# diff takes a directory as the profiles in it (none in dir); the others as
# above, on either side.
for t in "a fifo:fifo" "a socket:sock" "a character device:/dev/zero" \
         "a character device:/dev/null" "dir:dir"; do
  what=${t%%:*} name=${t#*:}
  msg="dsprof: '$name': is $what, not a profile"
  [ "$what" = dir ] && msg="dsprof: 'dir': a directory holding no dsprof profile"
  for args in "$name dsprof.data" "dsprof.data $name"; do
    set +e
    # shellcheck disable=SC2086
    timeout 20 "$DSPROF" diff $args </dev/null >out.txt 2>err.txt
    rc=$?
    set -e
    [ $rc = 2 ] || fail "dsprof diff $args: status $rc (124: it hung), $(cat err.txt)"
    [ "$(cat err.txt)" = "$msg" ] || fail "dsprof diff $args said: $(cat err.txt)"
  done
done
[ ! -e m.data ] || fail "merge wrote m.data"
# The fifo is still there, unread, and a profile beside it still reads.
[ -p fifo ] || fail "fifo gone"
run_dsprof lines dsprof.data >/dev/null || fail "lines dsprof.data: status $?"
exit 0
