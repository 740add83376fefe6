# runtime-out-kinds: the runtime replaces only a regular file that holds a dsprof
# profile (dsprof(1), ENVIRONMENT).  DSPROF_OUT naming a character device, a fifo, a
# socket, a source file, an empty file, a symbolic link (to a profile, to a
# source file, to nowhere) leaves it exactly as it was: the program runs on with
# the same output and exit status and one `dsprof:` warning naming it, and no
# profile is written through the link.  A fifo does not block the program.  A
# profile left by an earlier run is replaced; a new profile gets mode 0666 minus
# the umask.
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/prog.c" .
dscc -o prog prog.c || fail "prog.c does not compile"
LOOP=$(grep -n '/\* LOOP \*/' prog.c | cut -d: -f1)

DSPROF_OUT=ref.data ./prog >ref.out 2>ref.err || [ $? -eq 3 ] || fail "prog's reference run failed"
[ "$(cat ref.err)" = "err 15" ] || fail "prog's reference run: $(cat ref.err)"
grep -qx "prog.c:$LOOP: 6" <(run_dsprof lines ref.data) || fail "ref.data: prog.c:$LOOP not counted 6 times"

# left_alone NAME: run prog with DSPROF_OUT=NAME (within 20 s, a fifo must not
# block it): status 3, the reference output, one dsprof: warning naming NAME.
left_alone () {
  local name=$1 status
  set +e
  DSPROF_OUT=$name timeout 20 ./prog >"run.out" 2>"run.err"
  status=$?
  set -e
  [ "$status" -eq 3 ] || fail "DSPROF_OUT=$name: exit status $status, not 3 (stderr: $(cat run.err))"
  cmp -s ref.out run.out || fail "DSPROF_OUT=$name: stdout differs: $(cat run.out)"
  [ "$(grep -v '^dsprof:' run.err)" = "err 15" ] \
    || fail "DSPROF_OUT=$name: stderr has more than the program's line and a warning: $(cat run.err)"
  [ "$(grep -c "^dsprof: .*'$PWD/$name'" run.err)" -eq 1 ] \
    || fail "DSPROF_OUT=$name: not one dsprof: warning naming it: $(cat run.err)"
  echo "$name: $(grep '^dsprof:' run.err)"
  ls -A | grep -q "^$name\.tmp" && fail "DSPROF_OUT=$name: a temporary file is left: $(ls -A)"
  return 0
}

# A source file and an empty file: not profiles.
cp prog.c source.c
left_alone source.c
cmp -s prog.c source.c || fail "source.c was changed"
: >empty
left_alone empty
[ -f empty ] && [ ! -s empty ] || fail "empty was changed: $(ls -l empty)"

# A fifo: neither waited for nor replaced.
mkfifo fifo
left_alone fifo
[ -p fifo ] || fail "fifo is no longer a fifo: $(ls -l fifo)"

# A socket.
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")'
left_alone sock
[ -S sock ] || fail "sock is no longer a socket: $(ls -l sock)"

# A character device (a copy of /dev/full, which root could otherwise turn
# into a regular file).
if [ "$(id -u)" -eq 0 ]; then
  mknod full c 1 7
  left_alone full
  [ -c full ] || fail "full is no longer a character device: $(ls -l full)"
else
  echo "not root: the device scenario is skipped"
fi

# Symbolic links: to a profile, to a source file, to nowhere.  Nothing is
# written through them and they stay links.
cp ref.data target.data
ln -s target.data link.data
left_alone link.data
[ -L link.data ] && cmp -s ref.data target.data || fail "link.data or its profile was changed"
ln -s source.c link.c
left_alone link.c
[ -L link.c ] && cmp -s prog.c source.c || fail "link.c or source.c was changed"
ln -s nowhere.data dangling.data
left_alone dangling.data
[ -L dangling.data ] && [ ! -e nowhere.data ] || fail "dangling.data was followed or replaced"

# A profile of an earlier run is replaced, silently; new profiles get 0666 minus
# the umask.
cp ref.data old.data
DSPROF_OUT=old.data ./prog >/dev/null 2>old.err || [ $? -eq 3 ] || fail "prog (old.data) failed"
[ "$(cat old.err)" = "err 15" ] || fail "DSPROF_OUT=old.data: $(cat old.err)"
grep -qx "prog.c:$LOOP: 6" <(run_dsprof lines old.data) || fail "old.data: not the new run's counts"
[ "$(stat -c %a ref.data)" = "$(printf '%o' $((0666 & ~$(umask))))" ] \
  || fail "ref.data has mode $(stat -c %a ref.data) under umask $(umask)"
(umask 077 && DSPROF_OUT=private.data ./prog >/dev/null 2>&1) || [ $? -eq 3 ] || fail "prog (umask 077) failed"
[ "$(stat -c %a private.data)" = 600 ] || fail "private.data has mode $(stat -c %a private.data) under umask 077"
exit 0
