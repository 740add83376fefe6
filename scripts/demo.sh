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
echo
echo "(files are in $out)"
