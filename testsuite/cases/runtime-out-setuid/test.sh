# runtime-out-setuid: a set-user-ID program (any AT_SECURE process) ignores
# DSPROF_OUT and writes its profile with its real user's rights (dsprof(1),
# Environment): run as nobody, a root-owned setuid copy of a profiled program
# with DSPROF_OUT naming a root-owned profile leaves that profile intact and
# writes nothing where nobody could not; where nobody can write, it writes
# dsprof.data owned by nobody.  Needs root (else skipped).  nobody must reach
# the files, and the checkout may be under a 0700 directory: the setuid part
# runs in a fresh 0755 directory under /tmp.
. "$(dirname "$0")/../../lib.sh"

if [ "$(id -u)" -ne 0 ]; then
  echo "not root: skipped (a setuid-root program and a run as nobody need root)"
  exit 0
fi
cp "$FIXTURES/prog.c" .
LOOP=$(grep -n '/\* LOOP \*/' prog.c | cut -d: -f1)
dir=$(mktemp -d /tmp/dsprof-setuid.XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
# Linked with the static runtime: the loader ignores LD_LIBRARY_PATH for a
# setuid program.
gcc -fplugin="$PLUGIN" -I"$TOP/runtime" -o "$dir/prog" prog.c "$TOP/runtime/libdsprof.a" -lpthread \
  || fail "prog.c does not compile"

# A root-owned profile, the one an unprivileged user would like replaced.
(cd "$dir" && DSPROF_OUT=$dir/root.data ./prog >/dev/null 2>&1) || [ $? -eq 3 ] || fail "prog as root failed"
grep -qx "prog.c:$LOOP: 6" <(run_dsprof lines "$dir/root.data") || fail "root.data: prog.c:$LOOP not counted 6 times"
cp "$dir/root.data" root.data.orig
chmod 4755 "$dir/prog"
mkdir "$dir/nobody" && chown 65534:65534 "$dir/nobody"

as_nobody () {
  setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# In a directory nobody cannot write to.
set +e
(cd "$dir" && DSPROF_OUT=$dir/root.data as_nobody ./prog) >out 2>err
status=$?
set -e
[ "$status" -eq 3 ] || fail "setuid prog as nobody: exit status $status (stderr: $(cat err))"
[ "$(cat out)" = "out 15" ] || fail "setuid prog as nobody printed $(cat out)"
cmp -s root.data.orig "$dir/root.data" || fail "the root-owned profile was replaced by a setuid program run as nobody"
[ "$(ls -A "$dir")" = "$(printf 'nobody\nprog\nroot.data')" ] \
  || fail "the setuid program wrote where nobody cannot: $(ls -lA "$dir")"
[ "$(grep -v '^dsprof:' err)" = "err 15" ] && [ "$(grep -c "^dsprof: cannot write profile '$dir/dsprof.data': " err)" -eq 1 ] \
  || fail "setuid prog as nobody: not one warning about $dir/dsprof.data: $(cat err)"
echo "as nobody in $dir: $(grep '^dsprof:' err)"

# Where nobody can write: the default name, owned by nobody.
(cd "$dir/nobody" && DSPROF_OUT=$dir/root.data as_nobody ../prog >/dev/null 2>err) || [ $? -eq 3 ] \
  || fail "setuid prog as nobody in nobody/: status $?"
cmp -s root.data.orig "$dir/root.data" || fail "the root-owned profile was replaced (from nobody/)"
[ -f "$dir/nobody/dsprof.data" ] || fail "no dsprof.data in nobody/: $(ls -lA "$dir/nobody"; cat "$dir/nobody/err")"
[ "$(stat -c %u "$dir/nobody/dsprof.data")" = 65534 ] \
  || fail "nobody/dsprof.data is owned by $(stat -c %U "$dir/nobody/dsprof.data"), not nobody"
grep -qx "prog.c:$LOOP: 6" <(run_dsprof lines "$dir/nobody/dsprof.data") \
  || fail "nobody/dsprof.data: prog.c:$LOOP not counted 6 times"
exit 0
