#!/usr/bin/env bash
# make-seeds.sh [DIR] - (re)build the fuzz seed corpus (default testsuite/fuzz/seeds):
# real profiles of examples/expr (-O0, -O2), examples/vm (-O2), seedprog.c
# (-O1) and the forked child of seedfork.c (-O1), built with the plugin and
# compacted (compact.c), and the hand-built images of gen-image.c; then one of
# each other kind of profile the runtime and `dsprof merge` write (seedkinds.c):
# threads' shards (update=thread), counters=off, op records (dispatch=run),
# accumulated (DSPROF_ACCUMULATE=1: a fork, an exec), a control log (`dsprof
# ctl`) and a merge.  Needs `make` to have built the plugin, runtime and dsprof.
set -eu
FUZZ=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$FUZZ/../.." && pwd)
OUT=$(mkdir -p "${1:-$FUZZ/seeds}" && cd "${1:-$FUZZ/seeds}" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
export LD_LIBRARY_PATH=$TOP/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
unset DSPROF_OUT DSPROF_EVENTS

gcc -O1 -I"$TOP/include" -o compact "$FUZZ/compact.c"
gcc -O1 -I"$TOP/include" -o gen-image "$FUZZ/gen-image.c"
./gen-image "$OUT"

dscc () {
  gcc -fplugin="$TOP/plugin/dsprof.so" -I"$TOP/runtime" "$@" -L"$TOP/runtime" \
    -ldsprof -lpthread
}
# NAME SOURCE OPT [ARGS...]: build SOURCE at OPT, run it, keep its profile.
seed () {
  local name=$1 src=$2 opt=$3
  shift 3
  rm -f dsprof.data
  cp "$src" .
  # shellcheck disable=SC2086
  dscc "$opt" ${FLAGS:-} -o prog "$(basename "$src")"
  ./prog "$@" >/dev/null
  ./compact dsprof.data "$OUT/$name.data"
}
seed expr-O0 "$TOP/examples/expr/expr.c" -O0
seed expr-O2 "$TOP/examples/expr/expr.c" -O2
seed vm-O2 "$TOP/examples/vm/vm.c" -O2 20
seed seedprog-O1 "$FUZZ/seedprog.c" -O1
# A forked child's profile: its units in one units chunk.
rm -f dsprof.data dsprof.data.*
cp "$FUZZ/seedfork.c" "$TOP/testsuite/fixtures/g.c" .
dscc -O1 -o prog seedfork.c g.c
./prog >/dev/null
./compact dsprof.data.* "$OUT/fork-child-O1.data"

# The other kinds (seedkinds.c), each a few steps so the seeds stay small.
FLAGS=-fplugin-arg-dsprof-dispatch=run seed dispatch-O2 "$TOP/examples/vm/vm.c" -O2 3
FLAGS=-fplugin-arg-dsprof-counters=off seed counters-off-O1 "$FUZZ/seedkinds.c" -O1 threads 5
seed threads-shards-O1 "$FUZZ/seedkinds.c" -O1 threads 5   # ./prog: seedkinds
# Accumulated: every process a chunk of its own in one file (not compacted:
# compact.c knows a single process's file).
for kind in fork exec; do
  rm -f acc.data
  DSPROF_ACCUMULATE=1 DSPROF_OUT=acc.data ./prog $kind 3 >/dev/null
  cp acc.data "$OUT/accumulated-$kind-O1.data"
done
# A control log: events switched off then on while the program runs.
rm -f dsprof.data go
./prog wait go 3 >wait.out &
pid=$!
for _ in $(seq 200); do grep -q waiting wait.out && break; sleep 0.05; done
"$TOP/report/dsprof" ctl dsprof.data events off >/dev/null
"$TOP/report/dsprof" ctl dsprof.data events on >/dev/null
touch go
wait $pid
./compact dsprof.data "$OUT/control-log-O1.data"
# A merge of two kinds: what `dsprof merge` writes.
"$TOP/report/dsprof" merge -o "$OUT/merged.data" "$OUT/seedprog-O1.data" \
  "$OUT/threads-shards-O1.data"
ls -l "$OUT"
