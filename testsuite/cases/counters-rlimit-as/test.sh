# counters-rlimit-as: update=thread (the default) does not change a program
# that runs under RLIMIT_AS, and never loses counts silently
# (docs/reliability.md, "Shards, threads and warnings").  Under a 1 GiB
# limit with 8 MiB thread stacks: 24 threads alive and a malloc of 600 MB,
# and 100 threads alive, print what the plain build prints, with exact
# counts and no warning (a thread's shard reserves the counters it maps and a
# little headroom, not the whole counter space, and the runtime's records
# come from pages of its own, not from malloc, whose first call in a thread
# would give it an arena of 64 MiB of address space).  When the threads'
# first counted code finds no address space left at all, they count in
# another thread's shard: the output is the plain build's, the runtime
# warns, and the profile says increments may have been lost.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/rlimit.c" .
gcc -O2 -o plain rlimit.c -lpthread || fail "the plain build fails"
dscc -O2 -fplugin-arg-dsprof-exclude='uncounted_*' -o rlimit rlimit.c \
  || fail "rlimit.c does not compile with the plugin"
WORK=rlimit.c:$(grep -n '/\* WORK \*/' rlimit.c | cut -d: -f1)

limited () { bash -c 'ulimit -s 8192 && ulimit -v 1048576 && exec "$@"' limited "$@"; }

for run in "24 600" "100 0"; do
  set -- $run
  limited ./plain $1 $2 >plain.out 2>&1 || fail "the plain build ($run): status $? $(cat plain.out)"
  [ "$(head -1 plain.out)" = "malloc ok" ] || fail "the plain build ($run) under RLIMIT_AS: $(cat plain.out)"
  rm -f p.data
  DSPROF_OUT=p.data limited ./rlimit $1 $2 >out 2>err || fail "rlimit $run: status $? $(cat out err)"
  expect_same plain.out out
  [ ! -s err ] || fail "rlimit $run warns: $(cat err)"
  run_dsprof lines p.data >lines 2>lines.err || fail "dsprof lines ($run): status $?"
  [ ! -s lines.err ] || fail "dsprof lines ($run) warns: $(cat lines.err)"
  grep -qx "$WORK: $(($1 * 100))" lines \
    || fail "rlimit $run: $WORK counted $(grep "^$WORK:" lines | head -1), not $(($1 * 100))"
done

# No address space left for the threads' shards.
limited ./plain 24 0 starve >plain.out 2>&1 || fail "the plain build (starve): status $?"
rm -f s.data
DSPROF_OUT=s.data limited ./rlimit 24 0 starve >out 2>err || fail "rlimit starve: status $? $(cat out err)"
expect_same plain.out out
grep -q "^dsprof: no memory for a thread's counter shard" err \
  || fail "rlimit starve: no warning: $(cat err)"
run_dsprof info s.data >info.out || fail "dsprof info: status $?"
grep -q "increments may be lost" info.out || fail "the profile does not say increments may be lost: $(cat info.out)"
run_dsprof lines s.data >lines 2>lines.err || fail "dsprof lines (starve): status $?"
grep -q "counts may be low" lines.err || fail "dsprof lines does not warn: $(cat lines.err)"
c=$(grep "^$WORK:" lines | head -1 | awk '{print $2}')
[ -n "$c" ] && [ "$c" -gt 0 ] && [ "$c" -le 2400 ] || fail "rlimit starve: $WORK counted $c times (of 2400)"
exit 0
