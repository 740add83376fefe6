#!/usr/bin/env bash
# demo.sh - build the bundled example runtimes with the dsprof plugin, run them and
# show what dsprof makes of them (run by `make demo`).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/demo
rm -rf "$out" && mkdir -p "$out"
cd "$out"
cp "$top/examples/vm/vm.c" .

step () { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "compile the bytecode VM with the plugin, at -O2"
echo "gcc -O2 -fplugin=plugin/dsprof.so -c vm.c && gcc vm.o -ldsprof"
gcc -O2 -fplugin="$top/plugin/dsprof.so" -I"$top/runtime" -c vm.c
gcc vm.o -o vm "$top/runtime/libdsprof.a" -lpthread

step "run it: the counts go to ./dsprof.data"
./vm 1000

step "dsprof lines | sort -t: -k3 -nr | head   (zprof-style, hottest blocks first)"
"$top/report/dsprof" lines | sort -t: -k3 -nr | head -12

step "dsprof annotate; the interpreter loop of vm.c.bb"
"$top/report/dsprof" annotate
sed -n '/^.*: *31:/,/^.*: *57:/p' vm.c.bb

step "dsprof info"
"$top/report/dsprof" info

step "run it again with 2000: dsprof diff --lines dsprof.data vm2000.data | head   (changed line counts)"
DSPROF_OUT=vm2000.data ./vm 2000
"$top/report/dsprof" diff --lines dsprof.data vm2000.data | head -8

step "the same VM with op records for its dispatch: -fplugin-arg-dsprof-dispatch=run"
echo "gcc -O2 -fplugin=plugin/dsprof.so -fplugin-arg-dsprof-dispatch=run vm.c -ldsprof"
mkdir -p ops && cp vm.c ops/
gcc -O2 -fplugin="$top/plugin/dsprof.so" -fplugin-arg-dsprof-dispatch=run \
  -I"$top/runtime" -o ops/vm ops/vm.c "$top/runtime/libdsprof.a" -lpthread
(cd ops && ./vm 1000)

step "dsprof report name --where event=op   (one record per opcode run)"
(cd ops && "$top/report/dsprof" report name --where event=op)

# The example DSL runtimes: each in its own directory with its own dsprof.data.
build () {   # build NAME: examples/NAME/NAME.c with the plugin, into ./NAME/
  mkdir -p "$1" && cp "$top/examples/$1/$1.c" "$1/"
  gcc -O2 -fplugin="$top/plugin/dsprof.so" -I"$top/runtime" -o "$1/$1" "$1/$1.c" \
    "$top/runtime/libdsprof.a" -lpthread
}
report () { (cd "$1" && shift && "$top/report/dsprof" report "$@"); }

step "expr: attribute grammar, 3 + 4 * 5; dsprof report name cached"
build expr
(cd expr && ./expr)
report expr name cached

step "rewrite: strategies simplify 0 + (1 * (5 + 4) + 0); dsprof report name"
build rewrite
(cd rewrite && ./rewrite)
report rewrite name

step "rewrite -b: desugar = topdown(removeClass), the missing attempt; dsprof report name"
mkdir -p rewrite-b
(cd rewrite-b && ../rewrite/rewrite -b)
report rewrite-b name

step "what did the change do? dsprof diff rewrite-b rewrite --change count   (the directories' profiles)"
"$top/report/dsprof" diff rewrite-b rewrite --change count

step "names: name analysis, PicoJava-like; dsprof report name parameter --top 4"
build names
(cd names && ./names >/dev/null)
report names name parameter --top 4

step "names: dsprof report name depends-on --top 3"
report names name depends-on --top 3
echo
echo "(files are in $out)"
