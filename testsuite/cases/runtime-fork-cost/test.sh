# runtime-fork-cost: a forked child's profile costs what the child touches
# (docs/reliability.md, "Threads, processes, signals"): its counters are a hole
# in its file, allocated as it counts.  A program of 64 units forks 20 children;
# child k calls the function of unit k once, and every other child kills itself
# with SIGKILL after that (it loses nothing).  Each child's profile has every
# unit (a page of metadata and a page of counters each) but no more disk
# blocks than the metadata pages, the header and a few pages it counted in;
# the counts of all the profiles add up exactly.
. "$(dirname "$0")/../../lib.sh"

N=64 FORKS=20
"$CASE/gen.sh" $N $FORKS
dscc -O1 -o prog main.c u*.c || fail "the program does not compile"

DSPROF_OUT=prof.data ./prog >pids || fail "prog exited with status $?"
[ "$(wc -l <pids)" -eq $FORKS ] || fail "prog printed $(wc -l <pids) pids, not $FORKS"
page=4096
while read -r pid; do
  f=prof.data.$pid
  [ -f "$f" ] || fail "no $f: $(ls)"
  size=$(stat -c %s "$f") alloc=$(($(stat -c %b "$f") * $(stat -c %B "$f")))
  [ "$size" -ge $(((2 * N + 1) * page)) ] || fail "$f: $size bytes, less than the units need"
  # tmpfs allocates a hole when it is read through a mapping: no holes there.
  [ "$(stat -f -c %T .)" = tmpfs ] || [ "$alloc" -le $(((N + 1 + 4) * page)) ] \
    || fail "$f: $alloc bytes on disk for $size, more than the metadata, the header and 4 pages"
done <pids
echo "a child's profile: $size bytes, $alloc on disk"

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
exit 0
