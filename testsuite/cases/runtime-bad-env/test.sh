# runtime-bad-env: a profile that cannot be written (DSPROF_OUT in a missing or read-only
# directory, or naming a directory, or beyond `ulimit -f`) leaves the program
# unharmed: same output, same exit status, and exactly one `dsprof:` warning line
# on stderr (docs/contract.md §4.5).  DSPROF_OUT with %p names the file after the pid.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/env.c" .
dscc -o env env.c || fail "env.c does not compile"
LOOP=$(grep -n '/\* LOOP \*/' env.c | cut -d: -f1)

# A profile that can be written: the reference output.
set +e
DSPROF_OUT=ok.data ./env >ok.out 2>ok.err
status=$?
set -e
[ "$status" -eq 3 ] || fail "env: exit status $status, not 3"
[ -s ok.out ] && [ "$(cat ok.err)" = "err 15" ] || fail "env's reference run: $(cat ok.out ok.err)"
[ -f ok.data ] || fail "no ok.data"
grep -q "^env\.c:$LOOP: 6\$" <(run_dsprof lines ok.data) || fail "ok.data: env.c:$LOOP not counted 6 times"

# unharmed NAME [RUNNER...]: run env (by RUNNER) with DSPROF_OUT=$OUT.
unharmed () {
  local name=$1
  shift
  set +e
  DSPROF_OUT=$OUT "$@" ./env >"$name.out" 2>"$name.err"
  status=$?
  set -e
  [ "$status" -eq 3 ] || fail "$name: exit status $status, not 3 (stderr: $(cat "$name.err"))"
  cmp -s ok.out "$name.out" || fail "$name: stdout differs: $(cat "$name.out")"
  [ "$(grep -c '^dsprof:' "$name.err")" -eq 1 ] \
    || fail "$name: not exactly one dsprof: warning on stderr: $(cat "$name.err")"
  [ "$(grep -v '^dsprof:' "$name.err")" = "err 15" ] \
    || fail "$name: stderr has more than the program's line and one warning: $(cat "$name.err")"
  echo "$name: $(grep '^dsprof:' "$name.err")"
}

# A directory that does not exist.
OUT=$PWD/no/such/dir/prof.data
unharmed missing
[ ! -e no ] || fail "missing: something made $PWD/no"

# A read-only directory (root ignores the mode bits, so run the program as nobody).
# nobody may not reach this checkout (it can be under a 0700 directory such as
# /root), so that run happens in a directory of its own under /tmp, with its own
# copy of the program and of libdsprof.so.
runner= rodir=$PWD
if [ "$(id -u)" -eq 0 ]; then
  rodir=$(mktemp -d /tmp/dsprof-bad-env.XXXXXX)
  trap 'rm -rf "$rodir"' EXIT
  chmod 755 "$rodir"
  cp env ok.out "$TOP/runtime/libdsprof.so" "$rodir/"
  runner="env LD_LIBRARY_PATH=$rodir setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
mkdir "$rodir/ro" && chmod 555 "$rodir/ro"
OUT=$rodir/ro/prof.data
# shellcheck disable=SC2086
(cd "$rodir" && unharmed readonly $runner) || exit 1
cp "$rodir"/readonly.* .
[ -z "$(ls -A "$rodir/ro")" ] || fail "readonly: files in ro/: $(ls -A "$rodir/ro")"

# DSPROF_OUT naming a directory.
mkdir adir
OUT=adir
unharmed isdir
[ -z "$(ls -A adir)" ] || fail "isdir: files in adir/: $(ls -A adir)"

# A file size limit smaller than any profile (the "disk fills" case).  What was
# written must not crash the reader.
OUT=big.data
unharmed fsize bash -c 'ulimit -f 4; exec "$@"' fsize
set +e
run_dsprof lines big.data >big.lines 2>big.err
status=$?
set -e
[ "$status" -eq 0 ] || [ "$status" -eq 2 ] || fail "dsprof lines on the truncated profile: status $status"

# %p: replaced by the pid, every time it occurs.
DSPROF_OUT=prof.%p.data ./env pid >pid.out 2>pid.err || [ $? -eq 3 ] || fail "env pid failed"
pid=$(sed -n 1p pid.out)
[ -f "prof.$pid.data" ] || fail "DSPROF_OUT=prof.%p.data: no prof.$pid.data: $(ls)"
grep -q '^dsprof:' pid.err && fail "DSPROF_OUT=prof.%p.data: a warning: $(cat pid.err)"
grep -q "^env\.c:$LOOP: 6\$" <(run_dsprof lines "prof.$pid.data") || fail "prof.$pid.data: env.c:$LOOP not counted 6 times"
DSPROF_OUT=a%p-b%p.data ./env pid >pid2.out 2>pid2.err || [ $? -eq 3 ] || fail "env pid failed"
pid=$(sed -n 1p pid2.out)
[ -f "a$pid-b$pid.data" ] || fail "DSPROF_OUT=a%p-b%p.data: no a$pid-b$pid.data: $(ls)"
ls | grep -q % && fail "a file with % in its name: $(ls | grep %)"
exit 0
