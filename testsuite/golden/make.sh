#!/usr/bin/env bash
# make.sh - (re)make the golden profiles and the outputs every dsprof command
# gives on them (testsuite/golden/README).  Run after a change that is meant to
# change an output, and commit the result with a word on what changed and why.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../.." && pwd)
fixtures=$TOP/testsuite/fixtures
build=$(mktemp -d /tmp/dsprof-golden.XXXXXX)
trap 'rm -rf "$build"' EXIT

# profile NAME SOURCE [ARGS...]: build SOURCE with the plugin at -O2 (and the
# flags in $FLAGS), run it with ARGS and keep its profile as profiles/NAME.data.
profile () {
  local name=$1 src=$2
  shift 2
  mkdir -p "$build/$name"
  cp "$src" "$build/$name/"
  # shellcheck disable=SC2086
  (cd "$build/$name" &&
     gcc -O2 -fplugin="$TOP/plugin/dsprof.so" ${FLAGS:-} -I"$TOP/runtime" -o prog "$(basename "$src")" \
       "$TOP/runtime/libdsprof.a" -lpthread &&
     ./prog "$@" >out.txt)
  cp "$build/$name/dsprof.data" "$here/profiles/$name.data"
}

if [ "${1:-}" != --outputs ]; then
  rm -rf "$here/profiles" && mkdir -p "$here/profiles"
  profile expr "$TOP/examples/expr/expr.c"
  profile rewrite "$TOP/examples/rewrite/rewrite.c"
  profile names "$TOP/examples/names/names.c"
  profile vm "$TOP/examples/vm/vm.c" 300
  # Op records: the VM's dispatch (plugin argument dispatch=run).
  FLAGS=-fplugin-arg-dsprof-dispatch=run profile vm-dispatch "$TOP/examples/vm/vm.c" 30
  profile threads "$fixtures/threads.c" 3 20
  profile jump "$fixtures/jump.c"
  profile render "$fixtures/render.c"
  profile strings "$here/strings.c"
  # fork: the parent's profile and the child's, written once the child is done.
  profile fork "$fixtures/fork.c"
  child=$(head -1 "$build/fork/out.txt")
  for _ in $(seq 100); do [ -s "$build/fork/dsprof.data.$child" ] && break; sleep 0.1; done
  sleep 0.5
  mv "$here/profiles/fork.data" "$here/profiles/fork-parent.data"
  cp "$build/fork/dsprof.data.$child" "$here/profiles/fork-child.data"
fi

# The outputs: expected/PROFILE/N.out holds line N of `commands` run on PROFILE
# (stdout, then the exit status); expected/merged/ the same on one merge of all.
rm -rf "$here/expected"
"$here/run.sh" "$here/expected"
echo "golden: $(ls "$here/profiles" | wc -l) profiles, $(find "$here/expected" -type f | wc -l) outputs"
