# events-fork: a forked child's events go to its own file <name>.<pid>, as its
# thread 1; an event open at the fork stays the parent's (docs/contract.md §4.2, §4.5).
# parent.txt and child.txt are derived from fork.c by hand.  Also with
# DSPROF_OUT (and %p: each process's own pid, ev-<child pid>.data).
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/fork.c" .
dscc -O2 -Wno-unused-parameter -o fork fork.c || fail "fork.c does not compile"
WORK=$(grep -n '^work (' fork.c | cut -d: -f1)
SPAWN=$(grep -n '^spawn (' fork.c | cut -d: -f1)
for f in parent child; do
  sed "s/@work@/$WORK/; s/@spawn@/$SPAWN/" "$CASE/$f.txt" >"$f.expected"
done

# records PROFILE OUT: the records of PROFILE without durations.
records () {
  run_dsprof records "$1" >"$2.raw" 2>err || fail "dsprof records $1: status $? ($(cat err))"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' "$2.raw" >"$2"
}

# info_has PROFILE LINE...
info_has () {
  local p=$1
  shift
  run_dsprof info --count "$p" >info 2>err || fail "dsprof info $p: status $? ($(cat err))"
  for want in "$@"; do
    grep -Eq "^$want( |\$)" info || fail "dsprof info $p lacks '$want': $(cat info)"
  done
}

mkdir plain && cd plain
../fork >out &
ppid=$!
wait $ppid || fail "fork exited with status $?"
cpid=$(cat out)
[ -f dsprof.data ] && [ -f "dsprof.data.$cpid" ] || fail "expected dsprof.data and dsprof.data.$cpid: $(ls)"
records dsprof.data parent
expect_same ../parent.expected parent
records "dsprof.data.$cpid" child
expect_same ../child.expected child
# Merged, the child's events keep their sites: merge finds them through the
# child's units chunk.
run_dsprof merge -o merged.data "dsprof.data.$cpid" || fail "merge of the child: status $?"
records merged.data merged
expect_same ../child.expected merged
info_has "dsprof.data.$cpid" "pid: $cpid" 'threads: 1' 'events: 6' 'dropped events: 0' 'repaired events: 0'
info_has dsprof.data "pid: $ppid" 'threads: 2' 'events: 12' 'dropped events: 0' \
  'repaired events: 0'
cd ..

mkdir named && cd named
DSPROF_OUT=ev-%p.data ../fork >out || fail "DSPROF_OUT=ev-%p.data fork exited with status $?"
cpid=$(cat out)
# %p is each process's own pid, the forked child's too.
ppid_file=$(ls ev-*.data | grep -vx "ev-$cpid\.data")
[ "$(ls | grep -c '^ev-')" -eq 2 ] && [ -f "ev-$cpid.data" ] \
  || fail "DSPROF_OUT=ev-%p.data: expected ev-PID.data and ev-$cpid.data: $(ls)"
records "$ppid_file" parent
expect_same ../parent.expected parent
records "ev-$cpid.data" child
expect_same ../child.expected child
exit 0
