# runtime-accumulate-owner: DSPROF_ACCUMULATE=1 joins only an accumulated
# profile of the process's own user that no other user can write (dsprof(1),
# Environment): user B makes the accumulated profile a suite names in a
# sticky directory everyone writes (mode 0666, umask 0); user A (umask 077)
# runs with DSPROF_ACCUMULATE=1 and records `password=...`: A's program runs
# as without a profile, with one `dsprof:` line saying the profile belongs to
# another user, B's file is as it was, and nothing of A's is in it.  A's own
# profile that others can write (umask 0) is refused the same way; A's own
# made under umask 002 (its group A's) is joined.  Needs root to run as two
# users (else skipped, saying so); the users are ids without a passwd entry
# (setpriv), in a fresh 1777 directory under /tmp, which both reach.
. "$(dirname "$0")/../../lib.sh"

if [ "$(id -u)" -ne 0 ]; then
  echo "not root: skipped (two users are needed)"
  exit 0
fi
dir=$(mktemp -d /tmp/dsprof-acc-owner.XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 1777 "$dir"
cp "$FIXTURES/acc.c" .
# Linked with the static runtime: the other users need not reach the checkout.
gcc -O2 -fplugin="$PLUGIN" -I"$TOP/runtime" -o "$dir/acc" acc.c "$TOP/runtime/libdsprof.a" -lpthread ||
  fail "acc.c does not compile"
chmod 755 "$dir/acc"
STEP=$(grep -n '/\* STEP \*/' acc.c | cut -d: -f1)

as () {  # as UID UMASK NAME ARGS...: acc ARGS as user UID with DSPROF_OUT=$dir/NAME
  local uid=$1 mask=$2 name=$3
  shift 3
  (cd "$dir" && umask "$mask" && DSPROF_ACCUMULATE=1 DSPROF_OUT=$dir/$name \
     setpriv --reuid="$uid" --regid="$uid" --clear-groups ./acc "$@")
}
steps () {
  run_dsprof lines "$1" | awk -F': ' -v at="acc.c:$STEP" '$1 == at { s += $2 } END { print s + 0 }'
}

# ---- B's profile, A joins ----
as 65534 0 suite.data 10 >/dev/null 2>b.err || fail "B's run: status $? ($(cat b.err))"
[ ! -s b.err ] || fail "B's run: $(cat b.err)"
[ "$(stat -c '%u %a' "$dir/suite.data")" = "65534 666" ] ||
  fail "B's profile: $(stat -c '%u %a' "$dir/suite.data"), not 65534 666"
cp "$dir/suite.data" suite.orig
as 65533 077 suite.data note password=hunter2 >a.out 2>a.err || fail "A's run: status $? ($(cat a.err))"
[ "$(cat a.out)" = noted ] || fail "A's run printed $(cat a.out)"
[ "$(cat a.err)" = "dsprof: cannot write profile '$dir/suite.data': it belongs to another user: not joined" ] ||
  fail "A's run: not one line saying B's profile is not joined: $(cat a.err)"
cmp -s suite.orig "$dir/suite.data" || fail "A's run changed B's profile"
run_dsprof records "$dir/suite.data" >records.out || fail "records of B's profile: status $?"
! grep -q password records.out || fail "B reads A's string: $(grep password records.out)"
[ "$(steps "$dir/suite.data")" = 10 ] || fail "B's profile: $(steps "$dir/suite.data") steps, not 10"
echo "B's profile, A (umask 077): $(cat a.err)"

# ---- A's own profile that others can write ----
as 65533 0 own.data 10 >/dev/null 2>a.err || fail "A's first run: status $?"
[ "$(stat -c '%u %a' "$dir/own.data")" = "65533 666" ] || fail "own.data: $(stat -c '%u %a' "$dir/own.data")"
cp "$dir/own.data" own.orig
as 65533 077 own.data note password=hunter2 >a.out 2>a.err || fail "A's second run: status $?"
[ "$(cat a.err)" = "dsprof: cannot write profile '$dir/own.data': other users can write it: not joined" ] ||
  fail "A's own 0666 profile: $(cat a.err)"
cmp -s own.orig "$dir/own.data" || fail "A's run changed its own 0666 profile"
# A group of A's own writing it (umask 002, the file's group A's): joined.
as 65533 002 grp.data 10 >/dev/null 2>a.err || fail "A's umask 002 run: status $?"
[ "$(stat -c '%u %g %a' "$dir/grp.data")" = "65533 65533 664" ] || fail "grp.data: $(stat -c '%u %g %a' "$dir/grp.data")"
as 65533 002 grp.data note password=hunter2 >/dev/null 2>a.err || fail "A's second umask 002 run: status $?"
[ ! -s a.err ] || fail "A's own 0664 profile: $(cat a.err)"
[ "$(steps "$dir/grp.data")" = 11 ] || fail "grp.data: $(steps "$dir/grp.data") steps, not 11"
run_dsprof records "$dir/grp.data" | grep -q 'password=hunter2' || fail "grp.data lacks A's string"
# root, another user again, joins neither.
(cd "$dir" && umask 077 && DSPROF_ACCUMULATE=1 DSPROF_OUT=$dir/grp.data ./acc 5) >/dev/null 2>r.err ||
  fail "root's run: status $?"
grep -q "it belongs to another user" r.err || fail "root joined A's profile: $(cat r.err)"
[ "$(steps "$dir/grp.data")" = 11 ] || fail "root's run: grp.data $(steps "$dir/grp.data") steps"
