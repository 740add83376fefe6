#!/bin/sh
# deps.sh install|check [--for TARGET]... [PACKAGE...] - the Debian packages a make
# target needs (TARGET: build, demo, check, bench, check-real, check-fresh; the
# Makefile's targets run it with theirs), or the PACKAGEs named (for scripts that
# need more, e.g. real.sh).  Neither: build's.
# `install`, as root, installs what is missing with apt-get, its progress shown;
# otherwise it prints the apt-get line and fails.  `check` only says what is missing
# (the build then fails with the message).
set -u
CC=${CC:-gcc}

# The package set of each target.  "plugin" stands for the plugin headers of the
# compiler in use, gcc-N-plugin-dev for N its major version: known once gcc is
# installed, so installed after the others.
target_set () {
  case $1 in
    # the three programs: gcc (libc6-dev is only its Recommends), g++ for the
    # plugin and its headers, libiberty (demangling), readline and ncurses
    # (`dsprof shell`, `dsprof top`), zlib (pprof export)
    build) echo "gcc g++ libc6-dev plugin libiberty-dev libreadline-dev libncurses-dev zlib1g-dev" ;;
    # scripts/demo.sh: the programs, gcc and coreutils
    demo) target_set build ;;
    # the test suite: CUnit (unit tests); python3 (the cases' checks); time
    # (/usr/bin/time, peak memory); lcov (geninfo, genhtml); tmux (the
    # terminal of `dsprof top` and `dsprof shell`); chromium (html); golang-go
    # (`go tool pprof`); protobuf-compiler (protoc decodes the perfetto
    # export); valgrind (callgrind); graphviz (dot); pkg-config (the README's
    # pkg-config build); dpkg-dev (apt-get source of Lua, scripts/lua.sh);
    # libxml2-utils (xmllint checks the Cobertura export); nodejs (the page's
    # browser test through playwright-core, scripts/playwright.sh)
    check) echo "$(target_set build) libcunit1-dev python3 time lcov tmux chromium golang-go protobuf-compiler valgrind graphviz pkg-config dpkg-dev libxml2-utils nodejs" ;;
    # scripts/bench.sh: hyperfine, uftrace, valgrind, perf (linux-perf),
    # /usr/bin/time, Lua's source (dpkg-dev), python3, the page's first
    # paint (chromium, nodejs)
    bench) echo "$(target_set build) python3 time hyperfine uftrace valgrind linux-perf dpkg-dev chromium nodejs" ;;
    # scripts/real.sh: the interpreters' sources (dpkg-dev), compare.py
    # (python3); each package's own build dependencies real.sh installs itself
    check-real) echo "$(target_set build) python3 dpkg-dev" ;;
    # scripts/check-fresh.sh: the Debian root, the clone
    check-fresh) echo "mmdebstrap git" ;;
    *) echo "deps.sh: unknown target '$1' (build, demo, check, bench, check-real, check-fresh)" >&2
       return 1 ;;
  esac
}

plugin_pkg () {   # the plugin headers' package of $CC, if $CC runs
  v=$($CC -dumpversion 2>/dev/null) && [ -n "$v" ] && echo "gcc-${v%%.*}-plugin-dev"
}

missing_of () {   # the PACKAGEs not installed
  for p; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      printf ' %s' "$p"
  done
}

apt_install () {   # apt-get install PACKAGE..., progress shown
  echo "dsprof: installing:$*"
  start=$(date +%s)
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y \
    --no-install-recommends "$@" || {
    echo "dsprof: apt-get install failed:$*" >&2; exit 1; }
  echo "dsprof: installed in $(($(date +%s) - start)) s:$*"
}

mode=${1:-}
case $mode in install | check) shift ;;
  *) echo "usage: deps.sh install|check [--for TARGET]... [PACKAGE...]" >&2; exit 2 ;; esac
pkgs='' targets=''
while [ $# -gt 0 ]; do
  case $1 in
    --for) [ $# -gt 1 ] || { echo "deps.sh: --for needs a target" >&2; exit 2; }
           targets="$targets $2"; shift 2 ;;
    *) pkgs="$pkgs $1"; shift ;;
  esac
done
[ -n "$pkgs$targets" ] || targets=build
for t in $targets; do
  set=$(target_set "$t") || exit 2
  pkgs="$pkgs $set"
done
# shellcheck disable=SC2086
pkgs=$(echo $pkgs | tr ' ' '\n' | awk '!seen[$0]++' | tr '\n' ' ')

later=''   # "plugin" while the compiler that names it is missing
case " $pkgs " in
  *" plugin "*) pkgs=$(echo " $pkgs " | sed 's/ plugin / /')
                pp=$(plugin_pkg) && pkgs="$pkgs $pp" || later=plugin ;;
esac
# shellcheck disable=SC2086
missing=$(missing_of $pkgs)
[ -z "$missing$later" ] && exit 0

if [ "$mode" = install ] && [ "$(id -u)" = 0 ]; then
  apt-get -o DPkg::Lock::Timeout=900 update || {
    echo "dsprof: apt-get update failed" >&2; exit 1; }
  # shellcheck disable=SC2086
  [ -z "$missing" ] || apt_install $missing
  if [ -n "$later" ]; then
    pp=$(plugin_pkg) || { echo "dsprof: '$CC -dumpversion' fails after installing gcc" >&2; exit 1; }
    [ -z "$(missing_of "$pp")" ] || apt_install "$pp"
  fi
  exit 0
fi
echo "dsprof: missing Debian packages; run as root:" >&2
[ -z "$missing" ] || echo "  apt-get install --no-install-recommends$missing" >&2
[ -z "$later" ] ||
  echo "  apt-get install gcc-\$($CC -dumpversion | cut -d. -f1)-plugin-dev   (after gcc)" >&2
[ "$mode" = check ] && exit 0
exit 1
