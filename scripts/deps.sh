#!/bin/sh
# deps.sh install|check [PACKAGE...] - the Debian packages dsprof needs to build
# and test (or the PACKAGEs named, for scripts that need more, e.g. real.sh).
# As root `install` installs what is missing; otherwise it prints the apt-get line.
# `check` only says what is missing (the build then fails with the message).
set -u
mode=${1:-}
[ $# -gt 0 ] && shift
gccver=$(${CC:-gcc} -dumpversion | cut -d. -f1)
# gcc brings gcov, which the counters-* cases compare dsprof's counts with.
pkgs="gcc-$gccver-plugin-dev gcc g++ libiberty-dev libcunit1-dev libreadline-dev zlib1g-dev libncurses-dev"
# Tests and benchmarks compare against these peers and consumers.
if [ "$mode" = install ]; then
  pkgs="$pkgs lcov uftrace valgrind hyperfine graphviz dpkg-dev pkg-config python3 tmux chromium golang-go protobuf-compiler"
fi
[ $# -gt 0 ] && pkgs="$*"
missing=
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$mode" = install ] && [ "$(id -u)" = 0 ]; then
  echo "dsprof: installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq $missing >/dev/null || {
    echo "dsprof: apt-get install failed:$missing" >&2; exit 1; }
  exit 0
fi
echo "dsprof: missing Debian packages; run as root:" >&2
echo "  apt-get install$missing" >&2
[ "$mode" = check ] && exit 0
exit 1
