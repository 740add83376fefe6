#!/usr/bin/env bash
# lua.sh - fetch Lua 5.4 from Debian's source package and build instrumented
# variants of the interpreter with Lua's own Makefile (used by the `counters-lua` test
# case and by bench.sh).
#
#   scripts/lua.sh source
#       Make sure the source is unpacked (apt-get source lua5.4, cached in
#       $LUA_CACHE, default build/lua-src) and print the directory of the
#       patched source tree (the one holding Lua's Makefile and src/).
#   scripts/lua.sh build OUTDIR OPT VARIANT
#       Copy the pristine src/ (Debian patches applied, Lua's own src/Makefile)
#       to OUTDIR/src and build it with `make -C src linux`: Lua's CFLAGS
#       (-O2 -Wall -Wextra -DLUA_COMPAT_5_3 -DLUA_USE_LINUX) followed by OPT
#       (e.g. -O0; -O2 = Lua's default), plus the instrumentation of VARIANT:
#         plain       nothing
#         dsprof      -fplugin=plugin/dsprof.so -fplugin-arg-dsprof-update=single
#         dsprof-atomic  the plugin with update=atomic
#         dsprof-thread  the plugin with update=thread (a counter shard per thread)
#         dsprof-all  the plugin with functions=all
#         dsprof-calls   the plugin with functions=all and counters=off
#         dsprof-execute  the same, but only luaV_execute is an event (its
#                     few events cost next to nothing: its plain time)
#         dsprof-dispatch  the plugin with dispatch=luaV_execute: op records
#                     for Lua's opcodes (docs/vm.md)
#         dsprof-ops  the same with counters=off
#         gcov        --coverage (-fprofile-arcs -ftest-coverage)
#         dsprof-gcov both the plugin and --coverage (one run gives both profiles)
#         gcov-arcs   -fprofile-arcs
#         gcov-atomic -fprofile-arcs -fprofile-update=atomic
#         gprof       -pg
#       The interpreter is OUTDIR/src/lua.  The hash seed is fixed
#       (-D'luai_makeseed(L)=0') so that runs repeat exactly; run under
#       `setarch -R` for the rest (no ASLR).  Extra compiler flags can be given in
#       $LUA_EXTRA_CFLAGS (every variant); make runs $LUA_MAKE_JOBS jobs (default:
#       the number of CPUs). DSPROF_PLUGIN overrides the plugin (plugin/dsprof.so).
#
# Fetching needs root (apt-get) the first time: if no deb-src entry exists it adds
# /etc/apt/sources.list.d/dsprof-src.sources (a copy of the Debian entry with
# Types: deb-src) and runs apt-get update; dpkg-dev is installed if missing.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${LUA_CACHE:-$TOP/build/lua-src}
PLUGIN=${DSPROF_PLUGIN:-$TOP/plugin/dsprof.so}
RUNTIME=$TOP/runtime

die () { echo "lua.sh: $*" >&2; exit 1; }

have_deb_src () {
  grep -rqsE '^\s*(deb-src\s|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null
}

add_deb_src () {
  local src=
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && grep -qs 'debian' "$f" && { src=$f; break; }
  done
  local out=/etc/apt/sources.list.d/dsprof-src.sources
  if [ -n "$src" ]; then
    sed -E 's/^Types:.*/Types: deb-src/' "$src" >"$out"
  elif [ -f /etc/apt/sources.list ] && grep -qE '^\s*deb\s' /etc/apt/sources.list; then
    out=/etc/apt/sources.list.d/dsprof-src.list
    sed -nE 's/^\s*deb(\s)/deb-src\1/p' /etc/apt/sources.list >"$out"
  else
    die "no Debian apt source entry found to derive a deb-src entry from"
  fi
  echo "lua.sh: added $out" >&2
}

# The unpacked tree: apt-get source creates lua5.4-5.4.x/ next to the .dsc.
tree_dir () {
  local d
  for d in "$CACHE"/lua5.4-*/; do
    [ -f "$d/src/lapi.c" ] && { echo "${d%/}"; return 0; }
  done
  return 1
}

fetch () {
  tree_dir >/dev/null && return 0
  [ "$(id -u)" = 0 ] || die "the Lua source is not in $CACHE; run as root to fetch it"
  export DEBIAN_FRONTEND=noninteractive
  command -v dpkg-source >/dev/null || "$TOP/scripts/deps.sh" install dpkg-dev >&2 ||
    die "dpkg-dev is missing (apt-get source needs it)"
  if ! have_deb_src; then
    add_deb_src
    apt-get update -qq >&2
  elif ! apt-get source --print-uris lua5.4 >/dev/null 2>&1; then
    apt-get update -qq >&2
  fi
  rm -rf "$CACHE.tmp" && mkdir -p "$CACHE.tmp"
  (cd "$CACHE.tmp" && apt-get source -qq lua5.4 >&2) ||
    die "apt-get source lua5.4 failed"
  rm -rf "$CACHE" && mv "$CACHE.tmp" "$CACHE"
  tree_dir >/dev/null || die "no Lua tree with src/lapi.c under $CACHE"
}

build () {
  local out=$1 opt=$2 variant=$3 tree inst= libs=
  tree=$(tree_dir) || die "no Lua source; run: $0 source"
  case $variant in
    plain) ;;
    dsprof) inst="-fplugin=$PLUGIN -fplugin-arg-dsprof-update=single"
            libs="$RUNTIME/libdsprof.a -lpthread" ;;
    dsprof-atomic) inst="-fplugin=$PLUGIN -fplugin-arg-dsprof-update=atomic"
                   libs="$RUNTIME/libdsprof.a -lpthread" ;;
    dsprof-thread) inst="-fplugin=$PLUGIN -fplugin-arg-dsprof-update=thread"
                   libs="$RUNTIME/libdsprof.a -lpthread" ;;
    dsprof-all) inst="-fplugin=$PLUGIN -fplugin-arg-dsprof-functions=all"
                libs="$RUNTIME/libdsprof.a -lpthread" ;;
    dsprof-calls) inst="-fplugin=$PLUGIN -fplugin-arg-dsprof-functions=all -fplugin-arg-dsprof-counters=off"
                  libs="$RUNTIME/libdsprof.a -lpthread" ;;
    dsprof-execute) inst="-fplugin=$PLUGIN -fplugin-arg-dsprof-functions=all -fplugin-arg-dsprof-counters=off -fplugin-arg-dsprof-include=luaV_execute"
                    libs="$RUNTIME/libdsprof.a -lpthread" ;;
    dsprof-dispatch) inst="-fplugin=$PLUGIN -fplugin-arg-dsprof-dispatch=luaV_execute"
                     libs="$RUNTIME/libdsprof.a -lpthread" ;;
    dsprof-ops) inst="-fplugin=$PLUGIN -fplugin-arg-dsprof-dispatch=luaV_execute -fplugin-arg-dsprof-counters=off"
                libs="$RUNTIME/libdsprof.a -lpthread" ;;
    gcov) inst="--coverage"; libs="--coverage" ;;
    dsprof-gcov) inst="-fplugin=$PLUGIN --coverage"
                 libs="--coverage $RUNTIME/libdsprof.a -lpthread" ;;
    gcov-arcs) inst="-fprofile-arcs"; libs="-fprofile-arcs" ;;
    gcov-atomic) inst="-fprofile-arcs -fprofile-update=atomic"
                 libs="-fprofile-arcs -fprofile-update=atomic" ;;
    gprof) inst="-pg"; libs="-pg" ;;
    *) die "unknown variant $variant" ;;
  esac
  rm -rf "$out" && mkdir -p "$out"
  cp -r "$tree/src" "$out/src"
  # Debian's 0001-build-system.patch turns src/Makefile into a libtool build
  # driven by debian/rules; put Lua's own Makefile back (the other Debian
  # patches, luaconf.h paths and two CVE fixes, stay applied).
  local orig
  orig=$(ls "$CACHE"/lua5.4_*.orig.tar.* | head -1)
  tar xf "$orig" --wildcards -O 'lua-*/src/Makefile' >"$out/src/Makefile"
  # ... and generate the header Debian's luaconf.h patch includes, as
  # debian/rules does.
  local ma
  ma=$(gcc -print-multiarch)
  printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "%s"\n#endif\n' \
    "$ma" >"$out/src/lua5.4-deb-multiarch.h"
  # Lua's Makefile: CFLAGS= -O2 -Wall -Wextra -DLUA_COMPAT_5_3 $(SYSCFLAGS) $(MYCFLAGS)
  # and `make linux` adds SYSCFLAGS=-DLUA_USE_LINUX SYSLIBS="-Wl,-E -ldl".  OPT
  # comes after its -O2 in MYCFLAGS, so it wins; the instrumentation goes into CC
  # (after Lua's own "gcc -std=gnu99") so it is used for compiling and linking.
  # AR: Lua's "ar rcu" only makes binutils warn that u is ignored.
  make -s -j"${LUA_MAKE_JOBS:-$(nproc)}" -C "$out/src" linux \
    CC="gcc -std=gnu99 $inst" AR="ar rc" \
    MYCFLAGS="$opt ${LUA_EXTRA_CFLAGS:-} -D'luai_makeseed(L)=0'" \
    MYLIBS="$libs" >&2
  [ -x "$out/src/lua" ] || die "build of $variant failed"
}

case ${1:-} in
  source) fetch; tree_dir ;;
  build) [ $# -eq 4 ] || die "usage: $0 build OUTDIR OPT VARIANT"
         fetch; build "$2" "$3" "$4" ;;
  *) die "usage: $0 source | build OUTDIR OPT VARIANT" ;;
esac
