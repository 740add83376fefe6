# runtime-fork-cost: a forked child's profile costs what the child touches
# (docs/reliability.md, "Threads, processes, signals"): its counters are a hole
# in its file, allocated as it counts.  A program of 64 units forks 20 children;
# child k calls the function of unit k once, and every other child kills itself
# with SIGKILL after that (it loses nothing).  Each child's profile has every
# unit (its metadata, packed with the others' in one chunk, and a page of
# counters each) but no more disk blocks than the header, the metadata and a
# few pages it counted in; the counts of all the profiles add up exactly.  And
# a child whose disk is full when it first counts in a unit runs on.
. "$(dirname "$0")/../../lib.sh"

N=64 FORKS=20
"$FIXTURES/gen.sh" $N $FORKS
# update=single: the units' counter pages (update=thread's shards in a child:
# counters-thread-shards).
dscc -O1 -fplugin-arg-dsprof-update=single -o prog main.c u*.c \
  || fail "the program does not compile"

DSPROF_OUT=prof.data ./prog >pids || fail "prog exited with status $?"
[ "$(wc -l <pids)" -eq $FORKS ] || fail "prog printed $(wc -l <pids) pids, not $FORKS"
page=4096
while read -r pid; do
  f=prof.data.$pid
  [ -f "$f" ] || fail "no $f: $(ls)"
  size=$(stat -c %s "$f") alloc=$(($(stat -c %b "$f") * $(stat -c %B "$f")))
  # The header, the metadata (a unit's is about 200 bytes here), the counters
  # of the N units and of main.c.
  meta=$((size - (N + 2) * page))
  [ "$meta" -gt 0 ] || fail "$f: $size bytes, less than the units need"
  [ "$meta" -le $((N * 512)) ] || fail "$f: $meta bytes of metadata for $N units, more than 512 a unit"
  # tmpfs allocates a hole when it is read through a mapping: no holes there.
  [ "$(stat -f -c %T .)" = tmpfs ] || [ "$alloc" -le $((page + meta + 4 * page)) ] \
    || fail "$f: $alloc bytes on disk for $size, more than the header, the metadata and 4 pages"
done <pids
echo "a child's profile: $size bytes, $meta of them metadata, $alloc on disk"

# calls PROFILE...: the calls of the units' functions (each is one line: the
# largest count of its blocks).
calls () {
  run_dsprof lines "$@" | awk -F': ' '$1 ~ /^u[0-9]+\.c:/ && $2 + 0 > m[$1] { m[$1] = $2 + 0 }
    END { for (l in m) s += m[l]; print s + 0 }'
}

# Every unit's function once in the parent and once per child that called it.
total=$(calls prof.data prof.data.*)
[ "$total" -eq $((N + FORKS)) ] || fail "the units' lines add up to $total, not $((N + FORKS))"
while read -r pid; do
  [ "$(calls "prof.data.$pid")" -eq 1 ] \
    || fail "prof.data.$pid: not one call of a unit's function"
done <pids

# A child whose disk is full before it first counts in a unit (on a small ext4
# file system: tmpfs has no holes here): the page becomes anonymous memory, the
# child runs on with one warning, its profile says TRUNCATED and the counts
# that reached it are exact.  Needs root and a loop device (else skipped).
cp "$CASE/full.c" "$FIXTURES/g.c" .
dscc -fplugin-arg-dsprof-update=single -o full full.c g.c || fail "full.c does not compile"
CHILD=$(grep -n '/\* CHILD \*/' full.c | cut -d: -f1)
mkdir disk
truncate -s 8M disk.img
if [ "$(id -u)" -eq 0 ] && mkfs.ext4 -q -F disk.img 2>/dev/null && mount -o loop disk.img disk 2>/dev/null; then
  trap 'umount "$PWD/disk" 2>/dev/null || true' EXIT
  (cd disk && DSPROF_OUT=full.data ../full fill >../full.out 2>../full.err) || fail "full exited with status $?"
  [ "$(sort full.out)" = "$(printf 'child 20\nparent 0')" ] || fail "full printed: $(cat full.out full.err)"
  [ "$(grep -c '^dsprof:' full.err)" -eq 1 ] && [ "$(grep -vc '^dsprof:' full.err)" -eq 0 ] \
    || fail "full: not one warning: $(cat full.err)"
  echo "full: $(cat full.err)"
  set -- disk/full.data.*
  [ $# -eq 1 ] && [ -f "$1" ] || fail "not one child profile: $(ls disk)"
  run_dsprof info "$1" | grep -q TRUNCATED || fail "$1 is not marked TRUNCATED"
  # Into a file: a process substitution's reader may still hold the profile open
  # when grep -q has its line, and the umount finds the disk busy.
  run_dsprof lines "$1" >full.lines || fail "dsprof lines $1: status $?"
  grep -qx "full.c:$CHILD: 5" full.lines || fail "$1: full.c:$CHILD not counted 5 times"
  umount disk
  trap - EXIT
else
  echo "no ext4 loop mount (not root, or no loop device): the full-disk scenario is skipped"
fi
exit 0
