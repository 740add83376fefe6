#!/usr/bin/env bash
# make-seeds.sh [DIR] - (re)build the fuzz seed corpus (default testsuite/fuzz/seeds):
# real profiles of examples/expr (-O0, -O2), examples/vm (-O2), seedprog.c
# (-O1) and the forked child of seedfork.c (-O1), built with the plugin and
# compacted (compact.c), and the hand-built images of gen-image.c.  Needs `make` to have built the plugin and runtime.
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
  dscc "$opt" -o prog "$(basename "$src")"
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
ls -l "$OUT"
