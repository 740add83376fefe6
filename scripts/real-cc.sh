#!/usr/bin/env bash
# real-cc.sh - real programs built with dsprof-cc alone, one per build system
# (`make check-real-cc`; docs/real-cc.md).
#
#   scripts/real-cc.sh [PACKAGE...]      (default: mawk pcre2 serd)
#
# For each package (a Debian source package, fetched once as real.sh fetches
# its own, into build/real-src):
#   1. three builds with the package's own build system, from the same fresh
#      copy of the source and the same arguments:
#        plain    CC=gcc
#        cc       CC=dsprof-cc (installed by scripts/install.sh under $OUT/inst,
#                 so the installed driver is the one tested), no other flag; the
#                 plugin's select= argument from DSPROF_ARG_SELECT, a selection
#                 file naming the package's evaluation functions
#        both-O0  the same with CFLAGS="-O0 -g --coverage" (CMake's build type
#                 Debug), so that one run gives gcov's counts and dsprof's
#   2. the build's probes (configure's conftest, CMake's try_compile and
#      try_run, Meson's checks) left no profile: every profile in the build
#      tree is that of a program the package builds (a helper the build runs);
#   3. the package's own test suite in each, the cc build's with
#      DSPROF_OUT=cc.prof/run.%p.data (its tests run side by side): the same
#      tests pass and fail as in the plain build, and no dsprof warning is
#      printed;
#   4. the test suite's profiles count blocks of the package's sources, and
#      `dsprof report event` shows every event type of the selection file;
#   5. the both-O0 run's counts against gcov's, as real.sh compares them
#      (compare_gcov, testsuite/fixtures/compare.py).
#
# Output under $REAL_DIR/cc (default build/real/cc): PKG-VARIANT/ (the source
# and build), PKG-VARIANT.{build,check}.log, PKG-{cc,both-O0}.prof/,
# PKG-VARIANT.results (the failed tests), PKG-VARIANT.total, PKG.sel,
# PKG-cc.{lines,report}, PKG-compare/ (as real.sh's).
# REAL_JOBS: the builds' parallel jobs (default nproc).  Needs root the first
# time: it installs cmake, meson, ninja-build and the build dependencies.
set -euo pipefail
REAL_SOURCED=1 . "$(dirname "${BASH_SOURCE[0]}")/real.sh"
OUT=${REAL_DIR:-$TOP/build/real}/cc
INST=$OUT/inst
DSPROF=$INST/bin/dsprof

# ---- packages -------------------------------------------------------------------
# A recipe cc_NAME sets:
#   KIND      autotools, cmake or meson
#   DEPS      Debian packages the build and the test suite need
#   SETUP     the build system's arguments (configure, cmake, meson setup)
#   SELECT    the selection file (docs/select.md)
#   TYPES     the event types that must appear in the report
#   CHECK     the command that runs the test suite, in the build directory
#   FAILED    a command printing the failed tests, sorted (in the build directory)
#   TOTAL     a command printing how many tests ran ($LOG: the test suite's log)
#   SOURCES   an extended regular expression the package's own sources match
#             in `dsprof lines`

cc_mawk () {  # an awk interpreter: configure, a scanner-table helper run by make
  KIND=autotools
  DEPS=""
  SETUP=""
  # The bytecode interpreter, the built-in functions, the regex matcher.
  SELECT='event execute type=execute
event bi_* file=bi_funct.c type=builtin
event REmatch file=rexp3.c type=match'
  TYPES="execute builtin match"
  CHECK="make check"
  # mawktest prints "?? fail WHAT" and "WHAT had N failures", exits "... failed".
  FAILED='grep -E "^\?\? fail |had .*failures?$|failed$" "$LOG" | sort'
  TOTAL='echo "$(grep -cE " OK$|^results consistent" "$LOG") test groups"'
  SOURCES='^[a-z_0-9]+\.[cy]:'
}

cc_pcre2 () {  # a regex engine (patterns compiled to bytecode, matched by an interpreter): CMake
  KIND=cmake
  DEPS=""
  SETUP="-DCMAKE_BUILD_TYPE=RelWithDebInfo"
  SELECT='event pcre2_compile_8 type=compile
event pcre2_match_8 type=match
event pcre2_dfa_match_8 type=dfa_match
event match file=pcre2_match.c type=interpret'
  TYPES="compile match dfa_match interpret"
  # pcre2grep runs a script callout's program by fork and exec, and flushes the
  # line it printed before only after the fork: on a busy machine the program's
  # output may come first, and pcre2_grep_test fails, in a plain build too (4
  # runs of 10 at a load of 18 on 2 CPUs; docs/real-cc.md).  Line-buffered, each line is out
  # before the fork.
  CHECK="stdbuf -oL ctest --output-on-failure"
  FAILED='sed -n "/^The following tests FAILED:/,\$ s/^[[:space:]]*[0-9]* - \([^ ]*\) .*/\1/p" "$LOG" | sort'
  TOTAL='sed -n "s/.* tests failed out of \([0-9]*\)$/\1 tests/p" "$LOG"'
  SOURCES='(^|/)src/pcre2[a-z_0-9]*\.c:'
}

cc_serd () {  # an RDF (Turtle, TriG, N-Triples, N-Quads) reader and writer: Meson
  KIND=meson
  DEPS="python3"
  SETUP="-Ddocs=disabled"
  # A statement read, a chunk of input read, a statement written.
  SELECT='event read_n3_statement type=statement
event serd_reader_read_chunk type=chunk
event serd_writer_write_statement type=write'
  TYPES="statement chunk write"
  CHECK="meson test --print-errorlogs"
  FAILED='python3 -c "import json,sys
for l in open(\"meson-logs/testlog.json\"):
    t = json.loads(l)
    if t[\"result\"] not in (\"OK\", \"EXPECTEDFAIL\", \"SKIP\"): print(t[\"name\"])" | sort'
  TOTAL='sed -n "s/^\(Ok\|Expected Fail\|Fail\): *\([0-9]*\) *$/\1 \2/p" "$LOG" | paste -sd, -'
  SOURCES='(^|/)src/[a-z_0-9]*\.c:'
}

# ---- build and test ------------------------------------------------------------------
build_dir () {  # the directory the package builds in
  if [ "$KIND" = autotools ]; then echo "$1"; else echo "$1/build"; fi
}

cc_build () {  # cc_build PACKAGE VARIANT
  local pkg=$1 v=$2 dir=$OUT/$1-$2 cc=gcc src
  [ "$v" = plain ] || cc=$INST/bin/dsprof-cc
  src=$(source_dir "$pkg")
  say "$pkg: building $v ($KIND, CC=$cc)"
  rm -rf "$dir" "$dir.prof" && cp -a "$src" "$dir" && mkdir -p "$dir.prof"
  (
    cd "$dir"
    unset DSPROF_OUT DSPROF_ACCUMULATE
    [ "$v" = plain ] || export DSPROF_ARG_SELECT=$OUT/$pkg.sel
    # both-O0: gcov's instrumentation too, in the same binaries (the three
    # build systems take CFLAGS and LDFLAGS from the environment).
    # CMake's build type adds its own -O after CFLAGS: Debug adds none.
    local setup=$SETUP
    if [ "$v" = both-O0 ]; then
      export CFLAGS="-O0 -g --coverage" LDFLAGS=--coverage
      [ "$KIND" != cmake ] || setup="$setup -DCMAKE_BUILD_TYPE=Debug"
    fi
    case $KIND in
      autotools) CC=$cc ./configure $setup && make -j"$JOBS" ;;
      cmake) cmake -S . -B build -DCMAKE_C_COMPILER="$cc" $setup && cmake --build build -j "$JOBS" ;;
      meson) CC=$cc meson setup build $setup && ninja -C build -j "$JOBS" ;;
    esac
  ) >"$dir.build.log" 2>&1 ||
    { tail -30 "$dir.build.log" >&2; die "$pkg $v: build failed (log: $dir.build.log)"; }
  ! grep -n 'warning: .*dsprof\|^dsprof' "$dir.build.log" >&2 ||
    die "$pkg $v: dsprof warned in the build (log: $dir.build.log)"
  # Only the test suite's runs count, for gcov as for dsprof.
  find "$dir" -name '*.gcda' -delete
}

# Every profile the build left in its tree must be a program's the package builds
# (it may have removed it since, as mawk's makescan), none a probe's.
cc_probes () {  # cc_probes PACKAGE
  local dir=$OUT/$1-cc f prog helpers=
  while read -r f; do
    head -c 6 "$f" | grep -q DSPROF || continue
    prog=$("$DSPROF" info "$f" | sed -n 's/^program: //p')
    case $prog in
      */conftest*|*/CMakeFiles/*|*/meson-private/*|'') die "$1: a probe left a profile: $f (program '$prog')" ;;
    esac
    [[ $prog == "$dir"/* ]] || die "$1: profile $f of '$prog', not a program of the build"
    helpers="$helpers ${prog#"$dir"/}"
  done < <(find "$dir" -type f -name 'dsprof.data*')
  say "$1: the probes left no profile; helpers that wrote one:${helpers:- none}"
}

cc_tests () {  # cc_tests PACKAGE VARIANT
  local pkg=$1 v=$2 dir=$OUT/$1-$2 LOG=$OUT/$1-$2.check.log t0=$SECONDS bdir
  bdir=$(build_dir "$dir")
  (cd "$bdir" && export DSPROF_OUT=$dir.prof/run.%p.data && eval "$CHECK") >"$LOG" 2>&1 || true
  (cd "$bdir" && eval "$FAILED") >"$dir.results" 2>/dev/null || true
  (cd "$bdir" && eval "$TOTAL") >"$dir.total" || die "$pkg $v: cannot count the tests"
  grep -qE '[1-9]' "$dir.total" || die "$pkg $v: the test suite ran no tests (log: $LOG)"
  ! grep -n '^dsprof' "$LOG" >&2 || die "$pkg $v: dsprof printed warnings in the test suite (log: $LOG)"
  say "$pkg $v: test suite in $((SECONDS - t0)) s: $(cat "$dir.total"); failed: $(wc -l <"$dir.results")"
}

cc_profiles () {  # cc_profiles PACKAGE: counts and events of the cc build's test suite
  local pkg=$1 p=$OUT/$1-cc.prof t n ran
  [ -n "$(ls "$p")" ] || die "$pkg: the test suite left no profiles"
  "$DSPROF" lines "$p"/* >"$OUT/$pkg-cc.lines" 2>"$OUT/$pkg-cc.lines.err" ||
    die "$pkg: dsprof lines failed: $(head -3 "$OUT/$pkg-cc.lines.err")"
  n=$(grep -cE "$SOURCES" "$OUT/$pkg-cc.lines" || true)
  ran=$(grep -E "$SOURCES" "$OUT/$pkg-cc.lines" | grep -cv ': 0$' || true)
  [ "$ran" -gt 0 ] || die "$pkg: no block of the package's sources counted"
  "$DSPROF" report event "$p"/* >"$OUT/$pkg-cc.report" 2>"$OUT/$pkg-cc.report.err" ||
    die "$pkg: dsprof report failed: $(head -3 "$OUT/$pkg-cc.report.err")"
  [ ! -s "$OUT/$pkg-cc.report.err" ] || die "$pkg: dsprof report warned: $(head -3 "$OUT/$pkg-cc.report.err")"
  for t in $TYPES; do
    grep -qE "^ .* $t\$" "$OUT/$pkg-cc.report" || die "$pkg: no records of event $t ($OUT/$pkg-cc.report)"
  done
  say "$pkg: $(ls "$p" | wc -l) profiles; blocks of its sources: $ran of $n ran;" \
    "events: $(sed -n 's/^Profile records: //p' "$OUT/$pkg-cc.report") records;" \
    "$(awk -v types="$TYPES" 'BEGIN { n = split(types, t); for (i = 1; i <= n; i++) want[t[i]] = 1 }
         $NF in want { printf "%s%s %s", sep, $NF, $(NF - 2); sep = ", " }' "$OUT/$pkg-cc.report")"
}

cc_package () {
  local pkg=$1 t0=$SECONDS v
  "cc_$pkg"
  "$TOP/scripts/deps.sh" install cmake meson ninja-build $DEPS ||
    die "the build dependencies of $pkg are missing"
  printf '%s\n' "$SELECT" >"$OUT/$pkg.sel"
  for v in plain cc both-O0; do
    cc_build "$pkg" "$v"
    [ "$v" != cc ] || cc_probes "$pkg"
    cc_tests "$pkg" "$v"
  done
  for v in cc both-O0; do
    cmp -s "$OUT/$pkg-plain.total" "$OUT/$pkg-$v.total" ||
      die "$pkg: $(cat "$OUT/$pkg-$v.total") with dsprof-cc ($v), in the plain build $(cat "$OUT/$pkg-plain.total")"
    cmp -s "$OUT/$pkg-plain.results" "$OUT/$pkg-$v.results" ||
      die "$pkg $v: the failed tests differ from the plain build's: $(diff "$OUT/$pkg-plain.results" "$OUT/$pkg-$v.results" | grep '^[<>]' | head -5 | tr '\n' ' ')"
  done
  say "$pkg: every build passes and fails the same tests ($(cat "$OUT/$pkg-plain.total"); failed: $(wc -l <"$OUT/$pkg-plain.results"))"
  cc_profiles "$pkg"
  compare_gcov "$pkg"
  say "$pkg: PASS ($((SECONDS - t0)) s)"
}

mkdir -p "$OUT"
[ -x "$TOP/driver/dsprof-cc" ] || die "driver/dsprof-cc is missing: run make first"
rm -rf "$INST"
(cd "$TOP" && scripts/install.sh "" "$INST") >/dev/null || die "install.sh failed"
if [ $# -gt 0 ]; then pkgs=("$@"); else pkgs=(mawk pcre2 serd); fi
for p in "${pkgs[@]}"; do
  declare -F "cc_$p" >/dev/null || die "no recipe for package $p (have: mawk pcre2 serd)"
done
T0=$SECONDS
for p in "${pkgs[@]}"; do
  cc_package "$p"
done
say "real programs with dsprof-cc: ${pkgs[*]}: all pass ($((SECONDS - T0)) s)"
