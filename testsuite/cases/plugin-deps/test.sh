# plugin-deps: the Debian packages each make target installs (scripts/deps.sh) on a
# machine that has none of them (dpkg-query, id and apt-get replaced here: nothing
# is installed, the user is not root, apt-get is never run): build's are the
# compiler, its plugin headers and the libraries the Makefile links, demo's are
# build's, check's are build's and those of the commands the cases run, bench's
# and check-real's build's and those of the commands their scripts run (the tables
# below, each row's command found where it says), nothing more.  Without gcc the
# plugin package is named after gcc (not gcc--plugin-dev), and the Makefile asks
# no compiler anything until it builds the plugin.
. "$(dirname "$0")/../../lib.sh"

mkdir stub
printf '#!/bin/sh\nexit 1\n' >stub/dpkg-query
printf '#!/bin/sh\necho 1000\n' >stub/id
printf '#!/bin/sh\necho "$*" >>%s/apt-get.called\nexit 1\n' "$PWD" >stub/apt-get
chmod +x stub/*
export PATH=$PWD/stub:$PATH

# set_of TARGET [CC]: the packages `deps.sh check --for TARGET` says are missing.
set_of () {
  CC=${2:-gcc} "$TOP/scripts/deps.sh" check --for "$1" 2>"$1.err" || fail "deps.sh check --for $1: status $?"
  sed -n 's/^  apt-get install --no-install-recommends //p' "$1.err" | tr ' ' '\n' | sort
}
# same_set NAME WANT GOT
same_set () {
  [ "$2" = "$3" ] || fail "$1: $(echo $3) instead of $(echo $2)"
}

gccver=$(gcc -dumpversion | cut -d. -f1)
# PACKAGE  FILE  ERE: why build needs PACKAGE (the ERE found in FILE)
build_needs="
gcc                   Makefile     ^CC +\\?= gcc
libc6-dev             Makefile     -lpthread
g++                   Makefile     ^CXX +\\?= g\\+\\+
gcc-$gccver-plugin-dev Makefile     -print-file-name=plugin
libiberty-dev         Makefile     -liberty
libreadline-dev       Makefile     -lreadline
libncurses-dev        Makefile     -lncurses
zlib1g-dev            Makefile     -lz
"
# ... and why check needs PACKAGE (FILE: under testsuite/ or scripts/)
check_needs="
libcunit1-dev         Makefile                        -lcunit
python3               testsuite/cases/html/test.sh    python3
time                  testsuite/cases/export-deep/test.sh   /usr/bin/time
lcov                  testsuite/cases/export-formats/test.sh  genhtml
tmux                  testsuite/cases/report-top/test.sh  tmux -L
chromium              testsuite/cases/html/test.sh    chromium --headless
golang-go             testsuite/cases/export-pprof/test.sh  go tool pprof
protobuf-compiler     testsuite/cases/export-perfetto/test.sh  protoc --decode
valgrind              testsuite/cases/events-off-guard/test.sh  valgrind --tool=callgrind
graphviz              testsuite/cases/graph-dot/test.sh  dot -Tsvg
pkg-config            testsuite/cases/plugin-readme-usage/test.sh  pkg-config
dpkg-dev              scripts/lua.sh                  apt-get source
libxml2-utils         testsuite/cases/export-cobertura/test.sh  xmllint --nonet
nodejs                testsuite/cases/html-browser/test.sh  command -v node
"
bench_needs="
python3               scripts/bench.sh                python3 -
time                  scripts/bench.sh                /usr/bin/time
hyperfine             scripts/bench.sh                hyperfine -N
uftrace               scripts/bench.sh                uftrace record
valgrind              scripts/bench.sh                valgrind --tool=callgrind
linux-perf            scripts/bench.sh                perf., .record
dpkg-dev              scripts/lua.sh                  apt-get source
chromium              scripts/bench.sh                command -v chromium
nodejs                scripts/bench.sh                command -v node
"
real_needs="
python3               scripts/real.sh                 python3 .*compare.py
dpkg-dev              scripts/real.sh                 apt-get source
"
# packages_of TABLE: its packages, each row's ERE checked against its FILE.
packages_of () {
  local pkg file ere
  while read -r pkg file ere; do
    [ -n "$pkg" ] || continue
    grep -qE -- "$ere" "$TOP/$file" || fail "$pkg: '$ere' is not in $file"
    echo "$pkg"
  done <<<"$1"
}
packages_of "$build_needs" >build.list
packages_of "$check_needs" >check.list
packages_of "$bench_needs" >bench.list
packages_of "$real_needs" >real.list
build=$(sort build.list)
check=$(sort build.list check.list)

same_set build "$build" "$(set_of build)"
same_set demo "$build" "$(set_of demo)"
same_set check "$check" "$(set_of check)"
same_set bench "$(sort build.list bench.list)" "$(set_of bench)"
same_set check-real "$(sort build.list real.list)" "$(set_of check-real)"
for p in chromium golang-go valgrind uftrace hyperfine; do
  set_of demo | grep -qx "$p" && fail "demo installs $p"
done
set_of check-fresh | grep -qx mmdebstrap || fail "check-fresh does not install mmdebstrap"

# No gcc: the plugin package comes after it.
CC=/nonexistent/gcc "$TOP/scripts/deps.sh" check --for build 2>nogcc.err ||
  fail "deps.sh check without gcc: status $?"
grep -q -- '--plugin-dev' nogcc.err && fail "without gcc: $(cat nogcc.err)"
grep -q 'gcc-\$(/nonexistent/gcc -dumpversion | cut -d. -f1)-plugin-dev' nogcc.err ||
  fail "without gcc, no plugin line naming gcc's version: $(cat nogcc.err)"
grep -qw gcc nogcc.err || fail "without gcc, gcc is not asked for: $(cat nogcc.err)"

# Not root: install prints the line and fails; apt-get never runs.
st=0
"$TOP/scripts/deps.sh" install --for demo 2>install.err || st=$?
[ $st -ne 0 ] || fail "deps.sh install as a user: status 0"
grep -q '^  apt-get install --no-install-recommends .*gcc-[0-9]*-plugin-dev' install.err ||
  fail "deps.sh install as a user: $(cat install.err)"
[ ! -e apt-get.called ] || fail "apt-get ran: $(cat apt-get.called)"
"$TOP/scripts/deps.sh" check --for nothing 2>bad.err && fail "deps.sh --for nothing: status 0"
grep -q "^deps.sh: unknown target 'nothing'" bad.err || fail "deps.sh --for nothing: $(cat bad.err)"

# The Makefile reads without a compiler.
make -n -C "$TOP" CC=/nonexistent/gcc CXX=/nonexistent/g++ deps-check >make.out 2>make.err ||
  fail "make -n deps-check without gcc: status $? ($(cat make.err))"
[ ! -s make.err ] || fail "make -n without gcc: $(cat make.err)"
echo "build: $(echo $build)"
echo "check: $(echo $check)"
