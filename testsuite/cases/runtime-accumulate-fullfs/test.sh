# runtime-accumulate-fullfs: an accumulated profile on a full tmpfs stays
# readable (include/dsprof-format.h, section 2a).  A chunk whose space its
# writer could not allocate is a hole, a later chunk of another process
# extends the file past it, and on a full tmpfs reading a hole through a
# mapping needs a page it cannot give (SIGBUS): readers step over holes.
# 1. Made step by step on a 2 MB tmpfs: A runs; the tmpfs is filled but for
#    two pages; B joins (its process chunk fits, its unit chunk does not: a
#    hole, one `dsprof:` line); the filler goes; C runs, past the hole; the
#    tmpfs is filled again.  info, lines, records and merge read the profile
#    as they read a copy of it elsewhere: A's and C's 200 steps, 3 processes.
# 2. 20 accumulating runs at once on the 2 MB tmpfs, 3 times over: whatever
#    did not fit, the profile reads as its copy does.
# The tmpfs is mounted in a mount namespace of the case's own (unshare -m,
# or unshare -rm when not root), which takes it away when the case ends.
. "$(dirname "$0")/../../lib.sh"

if [ -z "${DSPROF_FULLFS_NS:-}" ]; then
  # In a chroot whose root is no mount point (make check-fresh's) the root's
  # propagation cannot change: the namespace keeps the mounts' own (the
  # chroot's namespace is private already), and the tmpfs is unmounted at exit.
  if [ "$(id -u)" -eq 0 ] && unshare -m --propagation private true 2>/dev/null; then
    exec env DSPROF_FULLFS_NS=1 unshare -m --propagation private bash "$0"
  elif [ "$(id -u)" -eq 0 ]; then
    exec env DSPROF_FULLFS_NS=1 unshare -m --propagation unchanged bash "$0"
  elif unshare -rm true 2>/dev/null; then
    exec env DSPROF_FULLFS_NS=1 unshare -rm bash "$0"
  fi
  echo "not root and no user namespaces: skipped (a tmpfs must be mounted)"
  exit 0
fi

cp "$FIXTURES/acc.c" .
dscc -O2 -o acc acc.c || fail "acc.c does not compile"
STEP=$(grep -n '/\* STEP \*/' acc.c | cut -d: -f1)
mkdir t
mount -t tmpfs -o size=2m tmpfs t || fail "cannot mount a tmpfs"
trap 'umount "$PWD/t" 2>/dev/null || true' EXIT
export DSPROF_ACCUMULATE=1

fill () {  # fill the tmpfs; then give back $1 pages of it
  dd if=/dev/zero of=t/fill bs=4096 2>/dev/null && fail "t/fill: the tmpfs did not fill"
  [ "$1" = 0 ] || truncate -s -$(($1 * 4096)) t/fill
}
# same PROFILE: every command reads PROFILE (on the full tmpfs) as its copy
same () {
  cp "$1" copy.data
  local cmd
  for cmd in "info" "lines" "records" "report name"; do
    # shellcheck disable=SC2086
    run_dsprof $cmd "$1" >got.out 2>got.err || fail "dsprof $cmd $1: status $? ($(cat got.err))"
    # shellcheck disable=SC2086
    run_dsprof $cmd copy.data >want.out 2>want.err || fail "dsprof $cmd on the copy: status $? ($(cat want.err))"
    sed -i "s|$1|PROFILE|g; s|copy.data|PROFILE|g" got.out want.out
    expect_same want.out got.out
  done
  run_dsprof merge -o merged.data "$1" 2>got.err || fail "dsprof merge $1: $(cat got.err)"
}
holes () {  # holes FILE: how many holes below its size
  python3 - "$1" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
size, off, n = os.fstat(fd).st_size, 0, 0
while off < size:
    hole = os.lseek(fd, off, os.SEEK_HOLE)
    if hole >= size:
        break
    n += 1
    try:
        off = os.lseek(fd, hole, os.SEEK_DATA)
    except OSError:
        break
print(n)
PY
}

# ---- 1. step by step ----
DSPROF_OUT=t/acc.data ./acc 100 >/dev/null 2>a.err || fail "A: status $?"
[ ! -s a.err ] || fail "A: $(cat a.err)"
fill 2
DSPROF_OUT=t/acc.data ./acc 100 >b.out 2>b.err || fail "B: status $?"
[ "$(cat b.out)" = "done 100" ] || fail "B printed $(cat b.out)"
[ "$(wc -l <b.err)" = 1 ] && grep -q "^dsprof: cannot write profile '.*t/acc.data': No space left on device" b.err ||
  fail "B: not one line saying the tmpfs is full: $(cat b.err)"
rm t/fill
DSPROF_OUT=t/acc.data ./acc 100 >/dev/null 2>c.err || fail "C: status $?"
[ ! -s c.err ] || fail "C: $(cat c.err)"
[ "$(holes t/acc.data)" -ge 1 ] || fail "no hole in t/acc.data: B's chunk did fit"
fill 0
same t/acc.data
run_dsprof lines t/acc.data | awk -F': ' -v at="acc.c:$STEP" '$1 == at { s += $2 } END { print s + 0 }' >steps
[ "$(cat steps)" = 200 ] || fail "t/acc.data: $(cat steps) steps, not 200"
[ "$(run_dsprof info t/acc.data | grep -c '^pid:')" = 3 ] || fail "t/acc.data: not 3 processes"
echo "step by step: $(holes t/acc.data) hole(s), 200 steps, 3 processes"

# ---- 2. 20 at once, 3 times ----
for round in 1 2 3; do
  rm -f t/fill t/acc.data
  pids=()
  for k in $(seq 20); do
    DSPROF_OUT=t/acc.data ./acc 20000 go >/dev/null 2>"err.$k" &
    pids+=($!)
  done
  touch go
  for p in "${pids[@]}"; do
    wait "$p" || fail "round $round: process $p: status $?"
  done
  rm go
  fill 0
  same t/acc.data
  echo "round $round: $(grep -l 'No space' err.* | wc -l) of 20 out of space, $(holes t/acc.data) hole(s), $(run_dsprof info t/acc.data | grep -c '^pid:') processes read"
done
