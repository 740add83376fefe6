#!/usr/bin/env bash
# real.sh - real programs with their own test suites, built with the dsprof plugin
# (`make check-real`; docs/real.md).
#
#   scripts/real.sh [PACKAGE...]      (default: lua gawk jq sqlite3)
#
# sqlite3 is checked otherwise, against SQLite's own opcode profiler: see
# check_vdbe below.
# For each package (Debian source packages, fetched once with apt-get source
# into build/real-src; Lua through scripts/lua.sh into build/lua-src):
#   1. four builds with the package's own build system and the same flags but
#      the instrumentation:
#        plain    -O2, nothing
#        ds-O0    -O0, the plugin: counters and events on the package's
#                 evaluation functions
#        ds-O2    -O2, the same
#        both-O0  -O0, the plugin (events too) AND gcc --coverage, so one run
#                 gives both profiles
#   2. the package's own test suite in each: the same tests pass and fail as in
#      the plain build, and no dsprof warning is printed;
#   3. the both-O0 run's counts against gcov's, by testsuite/fixtures/compare.py
#      (every function's entry count, every line, every block);
#   4. the events of the ds-O0 and ds-O2 runs make a report (records > 0, every
#      declared event type present, every process's profile decoded).
# Events are declared by appending prototypes with the attribute to headers the
# package includes (a prototype marks the definition), for Lua by a header
# forced into every unit with -include.
#
# Everything instrumented goes into CC (so that every compile and every link the
# package's build and test suite make is instrumented the same way, libtool's
# shared-library links included): gcc -fplugin=... -specs=dsprof.specs
# [--coverage -Wl,--export-dynamic-symbol=__gcov_master], the specs file adding
# libdsprof to every link (the export: see build ()).  The
# plugin, the runtime and the report tool are copied to $OUT/tools first, so a
# run uses one version of them throughout.
#
# Output under $REAL_DIR (default build/real): PKG-VARIANT/ (the build),
# PKG-VARIANT.{build,check}.log, PKG-VARIANT.prof/ (one profile per process),
# PKG-VARIANT.results (the failed tests), PKG-compare/ (gcov's and dsprof's
# outputs, compare.out, the event reports); for sqlite3 sqlite3-amalg/,
# sqlite3-{vdbe-profile,ds}/ (the two builds) and sqlite3-compare/ (work.sql, each
# build's run, ops.csv, compare.out, table).  REAL_JOBS: make -j (default nproc).
# REAL_REUSE=1: keep the builds and test results already there (to redo the
# comparisons after a change to the report tool or to compare.py).
# Needs root the first time: it installs the build dependencies it lacks and
# generates the locales gawk's tests need.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${REAL_DIR:-$TOP/build/real}
SRCDIR=$TOP/build/real-src
JOBS=${REAL_JOBS:-$(nproc)}
TOOLS=$OUT/tools
DSPROF=$TOOLS/dsprof
VARIANTS="plain ds-O0 ds-O2 both-O0"

die () { echo "real.sh: FAIL: $*" >&2; exit 1; }
say () { echo "== $*"; }

# ---- packages -------------------------------------------------------------------
# A recipe pkg_NAME sets:
#   KIND      autotools or lua
#   DEPS      Debian packages the build and the test suite need
#   EVENTS    the event declarations: lines "> FILE" name the header (relative to
#             the source tree) the following prototypes are appended to
#   TYPES     the event types that must appear in the reports
#   ALL_SELECT for the all-sel-O2 variant (make bench): a selection file
# and for KIND=autotools:
#   PREP      a command run in a fresh copy of the source before configure
#   CONFIGURE configure's arguments
#   POSTCONF  a command run after configure
#   CHECK     the command that runs the test suite
#   FAILED    a command run after the tests that prints the failed tests, sorted
#   TOTAL     a command printing how many tests ran

pkg_gawk () {
  KIND=autotools
  DEPS="libmpfr-dev locales"
  # The interpreter loop, awk's built-in functions (by argument count) and the
  # number formatter.
  EVENTS='
> awk.h
extern int r_interpret (INSTRUCTION *code) __attribute__ ((dsprof_event ("interpret")));
extern NODE *do_index (int nargs) __attribute__ ((dsprof_event ("builtin")));
extern NODE *do_length (int nargs) __attribute__ ((dsprof_event ("builtin")));
extern NODE *do_sprintf (int nargs) __attribute__ ((dsprof_event ("builtin")));
extern NODE *do_substr (int nargs) __attribute__ ((dsprof_event ("builtin")));
extern NODE *do_tolower (int nargs) __attribute__ ((dsprof_event ("builtin")));
extern NODE *do_toupper (int nargs) __attribute__ ((dsprof_event ("builtin")));
extern NODE *do_match (int nargs) __attribute__ ((dsprof_event ("builtin")));
extern NODE *do_sub (int nargs, unsigned int flags) __attribute__ ((dsprof_event ("builtin")));
extern NODE *do_split (int nargs) __attribute__ ((dsprof_event ("builtin")));
extern NODE *r_format_val (const char *format, int index, NODE *s) __attribute__ ((dsprof_event ("format")));'
  TYPES="interpret builtin format"
  ALL_SELECT=
  PREP=:
  CONFIGURE="--disable-nls --without-readline"
  # Debian's source package has no Texinfo sources: skip doc/ (and what needs
  # translation tools).
  POSTCONF='sed -i "s/^SUBDIRS = \(.*\) extras doc awklib po test/SUBDIRS = \1 test/" Makefile'
  CHECK="make -k check"
  # A failed test leaves its output test/_NAME (removed when it passes).
  FAILED='ls test/ | sed -n "s/^_//p" | sort'
  # Every test prints its name on a line of its own.
  TOTAL='echo "$(grep -cE "^[A-Za-z0-9_+-]+ *\$" "$LOG") tests"'
}

pkg_jq () {
  KIND=autotools
  DEPS="autoconf automake libtool bison flex libonig-dev rake ruby-ronn"
  # The bytecode interpreter (one call per output value), starting a program on
  # an input, compiling a program: parse, then code generation.  jq_parse's
  # prototype goes into compile.h: parser.y, which defines it, includes that
  # header and not jq_parser.h.
  EVENTS='
> src/jq.h
jv jq_next (jq_state *jq) __attribute__ ((dsprof_event ("next")));
void jq_start (jq_state *jq, jv input, int flags) __attribute__ ((dsprof_event ("start")));
int jq_compile_args (jq_state *jq, const char *str, jv args) __attribute__ ((dsprof_event ("compile")));
> src/compile.h
int block_compile (block b, struct bytecode **out, struct locfile *lf, jv args) __attribute__ ((dsprof_event ("codegen")));
int jq_parse (struct locfile *locations, block *answer) __attribute__ ((dsprof_event ("parse")));'
  TYPES="next start compile codegen parse"
  # jq's values: functions of a few ns each, shorter than their hooks.
  ALL_SELECT='exclude jv_* jvp_*'
  # The orig tarball has no configure script; Debian's rules run
  # dh_autoreconf, and configure with --disable-static.  The scanner and the
  # parser are made again from src/lexer.l and src/parser.y (configure enables
  # maintainer mode, make then runs flex and bison): the tarball's generated
  # files do not match their sources line for line (a Debian patch edits both
  # parser.y and parser.c; the #line directives of lexer.c and parser.c name
  # lines past the end of lexer.l and parser.y), and the profiles count the
  # lines the #line directives name.
  PREP="autoreconf -fi && rm -f src/lexer.c src/lexer.h src/parser.c src/parser.h"
  CONFIGURE="--disable-static --disable-docs"
  # flex -L: the scanner without #line directives, its code counted on the
  # lines of lexer.c.  flex names a .l line before each rule's action but not
  # lexer.c after it, so the code between two actions (YY_BREAK, the next
  # rule's case label and YY_RULE_SETUP) is counted on the .l lines after the
  # action, lines of other rules: a line of lexer.l would hold code of three
  # rules, among them a case label, which the text of lexer.l cannot show.  bison goes back to parser.c after
  # every action.
  POSTCONF='sed -i "s| flex -o src/lexer.c | flex -L -o src/lexer.c |" Makefile && grep -q "flex -L" Makefile'
  # Debian's build runs the suite under valgrind; here without (NO_VALGRIND is
  # a make variable of jq's Makefile).
  CHECK="make -k check NO_VALGRIND=1"
  FAILED='grep -lE "^:test-result: (FAIL|ERROR|XPASS)" tests/*.trs | sort'
  # The scripts automake runs, and jq --run-tests' own count of its cases.
  TOTAL='echo "$(sed -n "s/^# TOTAL: //p" "$LOG") scripts, jq cases $(cat tests/*.log | sed -n "s/^\([0-9]*\) of \([0-9]*\) tests passed.*/\1 \2/p" | awk "{ p += \$1; n += \$2 } END { printf \"%d of %d passing\", p, n }")"'
}

pkg_lua () {
  KIND=lua
  DEPS=""
  # Forced into every unit (-include): the VM's loop (one call per Lua call
  # frame started fresh, re-entered per C-to-Lua call) and the call set-up of
  # every Lua and C function.  Forward declarations keep the header
  # self-contained (lua_State, CallInfo are struct typedefs, StkId is a
  # pointer to union StackValue).
  EVENTS='
struct lua_State; struct CallInfo; union StackValue;
void luaV_execute (struct lua_State *L, struct CallInfo *ci)
  __attribute__ ((dsprof_event ("execute")));
struct CallInfo *luaD_precall (struct lua_State *L, union StackValue *func, int nResults)
  __attribute__ ((dsprof_event ("precall")));'
  TYPES="execute precall"
}

pkg_sqlite3 () {
  KIND=vdbe
  # tclsh makes the amalgamation (sqlite3.c, shell.c: one unit each, no #line).
  DEPS="tcl"
  # The VDBE's dispatch, each op record by its address in the statement's
  # program and the statement's text; nothing else (docs/vm.md, "SQLite").
  SELECT='dispatch sqlite3VdbeExec dims=addr=pOp-aOp,sql=p->zSql'
  # The shell's flags in both builds; the VDBE_PROFILE build's own:
  # -DSQLITE_PERFORMANCE_TRACE because the amalgamation holds hwtime.h's
  # sqlite3Hwtime only inside os_common.h's SQLITE_PERFORMANCE_TRACE part.
  SQLITE_FLAGS="-O2 -g -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
  PROFILE_FLAGS="-DVDBE_PROFILE -DSQLITE_PERFORMANCE_TRACE"
  # 3.40's switch runs OP_Noop and OP_Explain at its `default:' label.
  DEFAULT_OPS=Noop,Explain
}

sqlite_workload () {  # the statements, one a line, the shell's .stats vmstep first
  local i
  echo ".stats vmstep"
  echo "CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
  echo "CREATE TABLE emp(id INTEGER PRIMARY KEY, dept INTEGER NOT NULL, salary INTEGER, name TEXT);"
  echo "INSERT INTO dept VALUES(1,'eng'),(2,'ops'),(3,'sales'),(4,'legal');"
  echo "BEGIN;"
  for i in $(seq 1 200); do
    echo "INSERT INTO emp(dept, salary, name) VALUES((SELECT count(*) FROM emp) % 3 + 1, 1000 + (SELECT count(*) FROM emp) * 37 % 900, 'emp' || (SELECT count(*) FROM emp));"
  done
  echo "COMMIT;"
  cat <<'SQL'
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO emp(dept, salary, name) SELECT i % 4 + 1, 500 + i * 7919 % 1500, 'e' || i FROM n;
CREATE INDEX emp_dept ON emp(dept, salary);
SELECT d.name, count(*), sum(e.salary), max(e.salary) FROM emp e JOIN dept d ON d.id = e.dept GROUP BY d.name ORDER BY 3 DESC;
SELECT e.name, e.salary FROM emp e JOIN dept d ON e.dept = d.id WHERE d.name = 'ops' ORDER BY e.salary DESC, e.id LIMIT 5;
UPDATE emp SET salary = salary + 10 WHERE dept = 2 AND salary < 800;
DELETE FROM emp WHERE id % 11 = 0;
SELECT dept, count(*), avg(salary) FROM emp GROUP BY dept HAVING count(*) > 100 ORDER BY dept;
SELECT count(*) FROM emp WHERE salary BETWEEN 900 AND 1200;
SELECT d.name, (SELECT count(*) FROM emp e WHERE e.dept = d.id AND e.salary > 1500) FROM dept d ORDER BY d.name;
SELECT name FROM emp ORDER BY salary DESC, name LIMIT 3;
SQL
}

# ---- set-up ------------------------------------------------------------------------
snapshot_tools () {
  local f
  for f in plugin/dsprof.so runtime/libdsprof.so runtime/libdsprof.a report/dsprof; do
    [ -f "$TOP/$f" ] || die "$f is missing: run make first"
  done
  rm -rf "$TOOLS" && mkdir -p "$TOOLS/lib"
  cp "$TOP/plugin/dsprof.so" "$TOP/report/dsprof" "$TOOLS/"
  cp "$TOP/runtime/libdsprof.so" "$TOP/runtime/libdsprof.a" "$TOOLS/lib/"
  # Appended to gcc's *lib spec: used by every link (after the objects), by
  # none of the compiles; dsprof-cc's specs file (dsprof.specs.in).
  sed "s|@LIBDIR@|$TOOLS/lib|g" "$TOP/dsprof.specs.in" >"$TOOLS/dsprof.specs"
}

need_locales () {  # gawk's tests run the charset tests only with all four
  local l missing=
  for l in en_US fr_FR ru_RU ja_JP; do
    locale -a 2>/dev/null | grep -qix "$l.utf-\?8" || missing="$missing $l"
  done
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "real.sh: warning: locales$missing missing (not root): gawk's locale tests fail or are skipped in every build alike" >&2
    return 0
  fi
  say "generating locales$missing (UTF-8)"
  for l in $missing; do localedef -i "$l" -f UTF-8 "$l.UTF-8" || die "localedef $l failed"; done
}

source_dir () {  # source_dir PACKAGE: fetch once, print the unpacked tree
  local pkg=$1 d v
  for d in "$SRCDIR/$pkg"-*/; do
    [ -f "$d/debian/control" ] && { echo "${d%/}"; return; }
  done
  "$TOP/scripts/lua.sh" source >/dev/null  # sets up deb-src and dpkg-dev
  mkdir -p "$SRCDIR"
  # The newest version first; an older one if the archive no longer has it
  # (a security update's files can vanish from the mirror before the index).
  for v in $(apt-cache showsrc "$pkg" | sed -n 's/^Version: //p' | sort -Vru); do
    (cd "$SRCDIR" && apt-get source -qq "$pkg=$v" >/dev/null 2>&1) && break
    rm -f "$SRCDIR/${pkg}_"*
  done
  for d in "$SRCDIR/$pkg"-*/; do
    [ -f "$d/debian/control" ] && { echo "${d%/}"; return; }
  done
  die "apt-get source $pkg failed"
}

# Lua's exercise script runs as in testsuite/cases/counters-lua: repeatable hash seed,
# string cache and sort pivot (the tests depend on no address).
LUA_FLAGS="-DSTRCACHE_N=1 -DSTRCACHE_M=2 -D'l_randomizePivot()=0'"

# ---- build -------------------------------------------------------------------------
build () {  # build PACKAGE VARIANT
  local pkg=$1 v=$2 dir=$OUT/$1-$2 opt inst= src
  case $v in
    plain)   opt=-O2 ;;
    ds-O0)   opt=-O0 ;;
    ds-O2)   opt=-O2 ;;
    both-O0) opt=-O0 ;;
    # Every function an event, no counters: as compiled (all-O2), all-sel-O2
    # less what the recipe's ALL_SELECT leaves out, as written (src-O2;
    # make bench's real_times).
    all-O2|all-sel-O2|src-O2) opt=-O2 ;;
    *) die "unknown variant $v" ;;
  esac
  say "$pkg: building $v"
  rm -rf "$dir" "$dir.conf-prof" && mkdir -p "$dir.conf-prof"
  # Programs the build runs (configure's tests) leave their profiles aside.
  export DSPROF_OUT=$dir.conf-prof/%p.data
  if [ "$KIND" = lua ]; then
    local lv
    case $v in
      plain) lv=plain ;; ds-*) lv=dsprof ;; both-O0) lv=dsprof-gcov ;;
    esac
    local extra=$LUA_FLAGS
    if [ "$v" != plain ]; then
      printf '%s\n' "$EVENTS" >"$OUT/lua-events.h"
      extra="$extra -include $OUT/lua-events.h"
    fi
    DSPROF_PLUGIN=$TOOLS/dsprof.so LUA_MAKE_JOBS=$JOBS LUA_EXTRA_CFLAGS=$extra \
      "$TOP/scripts/lua.sh" build "$dir" "$opt" "$lv" >"$dir.build.log" 2>&1 ||
      { tail -30 "$dir.build.log" >&2; die "$pkg $v: build failed (log: $dir.build.log)"; }
  else
    src=$(source_dir "$pkg")
    cp -a "$src" "$dir"
    if [ "$v" != plain ]; then
      inst="-fplugin=$TOOLS/dsprof.so -specs=$TOOLS/dsprof.specs"
      # libgcov is linked into every instrumented DSO (gawk's extensions, jq's
      # libjq): each copy keeps its units on the list of its own __gcov_master
      # unless the executable exports one that they all bind to.  gcov's fork
      # wrapper in a child clears the counters of that list only, so a child
      # forked by an extension (gawk's fork(): the fork and fork2 tests) kept
      # the executable's counts from before the fork and wrote them to the .gcda
      # files again at its exit (main() counted 711 times for 709 gawk
      # processes).  Exporting __gcov_master makes it one list for all.
      [ "$v" = both-O0 ] && inst="$inst --coverage -Wl,--export-dynamic-symbol=__gcov_master"
      case $v in
        all-sel-O2)
          printf '%s\n' "$ALL_SELECT" >"$dir.select"
          inst="$inst -fplugin-arg-dsprof-select=$dir.select" ;&
        all-O2)
          inst="$inst -fplugin-arg-dsprof-functions=all -fplugin-arg-dsprof-counters=off" ;;
        src-O2)
          inst="$inst -fplugin-arg-dsprof-functions=source -fplugin-arg-dsprof-counters=off" ;;
      esac
      case $v in all-*|src-*) ;; *) printf '%s\n' "$EVENTS" | awk -v dir="$dir" '
        /^> / { f = dir "/" $2; print "" >> f; next }
        NF { if (!f) { print "no \"> FILE\" line" > "/dev/stderr"; exit 1 } print >> f }' ;;
      esac
    fi
    (cd "$dir" && eval "$PREP" && ./configure -q CC="gcc $inst" CFLAGS="$opt -g" $CONFIGURE \
       && eval "$POSTCONF" && make -s -j"$JOBS") >"$dir.build.log" 2>&1 ||
      { tail -30 "$dir.build.log" >&2; die "$pkg $v: build failed (log: $dir.build.log)"; }
  fi
  unset DSPROF_OUT
  if grep -n 'warning: .*dsprof\|dsprof.*warning' "$dir.build.log" >&2; then
    die "$pkg $v: the plugin warned (log: $dir.build.log)"
  fi
  # Only the test suite's runs count, for gcov as for dsprof.
  find "$dir" -name '*.gcda' -delete
}

# ---- test suites --------------------------------------------------------------------
lua_scripts () {
  echo "$TOP/testsuite/fixtures/exercise.lua"
  [ -f "$TOP/bench/lua-cpu.lua" ] && echo "$TOP/bench/lua-cpu.lua"
  return 0
}

run_tests () {  # run_tests PACKAGE VARIANT: results into VARIANT.results
  local pkg=$1 v=$2 dir=$OUT/$1-$2 LOG=$OUT/$1-$2.check.log t0=$SECONDS
  rm -rf "$dir.prof" && mkdir -p "$dir.prof"
  if [ "$KIND" = lua ]; then
    # Lua's source package has no test suite: a script passes on its exit
    # status (exercise.lua ends with os.exit(3)) and, for exercise.lua, its line "bye".  The
    # outputs themselves must be the plain build's too.
    local s st n=0 name want
    : >"$LOG"; : >"$dir.results"; : >"$dir.outputs"
    for s in $(lua_scripts); do
      name=$(basename "$s") st=0 want=0
      [ "$name" != exercise.lua ] || want=3
      (cd "$dir" && DSPROF_OUT=$dir.prof/run.%p.data setarch -R src/lua "$s" \
         >"$dir.$name.out" 2>>"$LOG") || st=$?
      if [ "$st" != "$want" ] || { [ "$want" = 3 ] && ! grep -qx bye "$dir.$name.out"; }; then
        echo "$name" >>"$dir.results"
      fi
      echo "$name status $st output $(md5sum <"$dir.$name.out" | cut -c1-32)" >>"$dir.outputs"
      n=$((n + 1))
    done
    echo "$n scripts" >"$dir.total"
  else
    (cd "$dir" && export DSPROF_OUT=$dir.prof/run.%p.data && eval "$CHECK") >"$LOG" 2>&1 || true
    (cd "$dir" && eval "$FAILED") >"$dir.results" 2>/dev/null || true
    (cd "$dir" && eval "$TOTAL") >"$dir.total" || die "$pkg $v: cannot count the tests"
  fi
  if grep -rn '^dsprof' "$LOG" >&2; then
    die "$pkg $v: dsprof printed warnings in the test suite (log: $LOG)"
  fi
  say "$pkg $v: test suite in $((SECONDS - t0)) s: $(cat "$dir.total"); failed: $(wc -l <"$dir.results")"
}

# ---- dsprof against gcov ------------------------------------------------------------
compare_gcov () {  # compare_gcov PACKAGE
  local pkg=$1 b=$OUT/$1-both-O0 c=$OUT/$1-compare g u
  rm -rf "$c" && mkdir -p "$c/gcov" "$c/src"
  # gcov writes a process's counts when it exits, forks or execs; a process
  # that is killed (a test's writer dying of SIGPIPE, a timeout) leaves none,
  # where its dsprof profile keeps what it ran.  Such a process - one started
  # by the test suite (not forked), whose profile says it did not exit, and
  # that exec'd no instrumented image - is left out of the comparison.  A
  # forked child that did not exit is compared: gawk's children exec /bin/sh
  # (pipes, system(), ptys), and gcov writes their counts before the exec.
  local profs=() killed=() p
  for p in "$b.prof"/*; do
    if [[ $p =~ \.data$ ]] && ! ls "$p".exec* >/dev/null 2>&1 &&
       "$DSPROF" info "$p" | grep -q '^run time: unknown' &&
       ! "$DSPROF" info "$p" | grep -q '^parent pid: .*(forked'; then
      killed+=("$(basename "$p")")
    else
      profs+=("$p")
    fi
  done
  [ ${#killed[@]} = 0 ] ||
    say "$pkg: left out of the gcov comparison, processes that did not exit (gcov has no counts of them): ${killed[*]}"
  "$DSPROF" lines "${profs[@]}" >"$c/lines" || die "$pkg: dsprof lines failed"
  "$DSPROF" annotate -o "$c/bb" "${profs[@]}" >"$c/annotate.log" 2>&1 ||
    die "$pkg: dsprof annotate failed ($(head -3 "$c/annotate.log"))"
  ! grep -i warning "$c/annotate.log" >&2 || die "$pkg: dsprof annotate warned"
  "$DSPROF" export --format lcov -o "$c/lcov" "${profs[@]}" || die "$pkg: dsprof export --format lcov failed"
  # compare.py wants one directory with the sources (by base name, as the
  # profiles and gcov name them) and every unit's .gcno; units live in several
  # directories (gawk: ., support/, extension/; jq: src/ and libtool's
  # src/.libs/), so they are linked in under flat names.
  # A listing's path under bb/ is its source's: absolute (a system header's
  # inline functions), or relative to the unit's directory, tried from the top
  # of the build tree (gawk's posix/gawkmisc.c, included by gawkmisc.c), else
  # found in the build tree by name (gawk's extension/*.c).
  local names rel f s
  names=$(cd "$c/bb" && find . -name '*.bb' | sed 's|^\./||; s|\.bb$||' | sort)
  [ -z "$(sed 's|.*/||' <<<"$names" | sort | uniq -d)" ] ||
    die "$pkg: several instrumented sources share a base name: $(sed 's|.*/||' <<<"$names" | sort | uniq -d | tr '\n' ' ')"
  while read -r rel; do
    [ -n "$rel" ] || continue
    f=$(basename "$rel")
    if [ -f "/$rel" ]; then s=/$rel
    elif [ -f "$b/$rel" ]; then s=$b/$rel
    else s=$(find "$b" -name "$f" -type f | sort | head -1); fi
    [ -n "$s" ] || die "$pkg: source $rel of the profiles not found under $b"
    ln -s "$s" "$c/src/$f"
  done <<<"$names"
  (cd "$b" && find . -name '*.gcda' | sort) >"$c/units"
  [ -s "$c/units" ] || die "$pkg: the both-O0 run left no .gcda files"
  while read -r g; do
    u=$(sed 's|^\./||; s|/|#|g; s|\.gcda$||' <<<"$g")
    ln -s "$b/${g%.gcda}.gcno" "$c/src/$u.gcno"
    # (gcov reads only the .gcno and the .gcda here, no source.)
    (cd "$b" && gcov --json-format --stdout "$g" >"$c/gcov/$u.json" 2>/dev/null &&
       gcov -D -n "$g" >"$c/gcov/$u.debug" 2>&1) ||
      die "$pkg: gcov $g failed"
  done <"$c/units"
  if python3 "$TOP/testsuite/fixtures/compare.py" "$c/src" "$c/bb" "$c/lines" "$c/lcov" "$c/gcov" \
       >"$c/compare.out" 2>&1; then
    say "$pkg: dsprof = gcov over $(wc -l <"$c/units") units: $(head -1 "$c/compare.out")"
  else
    grep -m 20 '^MISMATCH' "$c/compare.out" >&2 || tail -20 "$c/compare.out" >&2
    die "$pkg: dsprof's counts differ from gcov's: $(grep -c '^MISMATCH' "$c/compare.out") mismatches (all in $c/compare.out)"
  fi
}

# ---- events ---------------------------------------------------------------------
check_events () {  # check_events PACKAGE VARIANT
  local pkg=$1 v=$2 c=$OUT/$1-compare r t
  r=$c/report-$v.txt
  "$DSPROF" report event --top 10 "$OUT/$pkg-$v.prof"/* >"$r" 2>"$r.err" ||
    die "$pkg $v: dsprof report failed: $(head -3 "$r.err")"
  [ ! -s "$r.err" ] || die "$pkg $v: dsprof report warned: $(head -3 "$r.err")"
  grep -qE '^Profile records: [1-9]' "$r" || die "$pkg $v: no event records"
  for t in $TYPES; do
    grep -qE "^ .* $t\$" "$r" || die "$pkg $v: no records of event $t (report: $r)"
  done
  say "$pkg $v events: $(sed -n 's/^Profile records: //p' "$r") records;" \
    "$(awk -v types="$TYPES" 'BEGIN { n = split(types, t); for (i = 1; i <= n; i++) want[t[i]] = 1 }
         $NF in want { printf "%s%s %s", sep, $NF, $(NF - 2); sep = ", " }' "$r")"
}

# ---- SQLite against VDBE_PROFILE ------------------------------------------------------
# The sqlite3 shell from Debian's source, built twice from one amalgamation:
# with -DVDBE_PROFILE (SQLite's own per-opcode profiler: each run of a statement,
# at its reset, appends to vdbe_profile.out the count of every address's op) and
# unmodified with the plugin and the selection file $SELECT alone.  Both run
# sqlite_workload on an in-memory database; their outputs must be the same (the
# rows and each statement's VM-steps), and testsuite/fixtures/vdbecheck.py
# compares dsprof's op records by statement and address with VDBE_PROFILE's
# counts and the VM-steps (docs/vm.md, "SQLite", says what each counts).
vdbe_build () {  # vdbe_build NAME FLAGS...: sqlite3.c and shell.c into $OUT/sqlite3-NAME/sqlite3
  local name=$1 dir=$OUT/sqlite3-$1
  shift
  rm -rf "$dir" && mkdir -p "$dir"
  (cd "$OUT/sqlite3-amalg" && gcc "$@" -I. -o "$dir/sqlite3" sqlite3.c shell.c -lm) \
    >"$dir.build.log" 2>&1 || { tail -30 "$dir.build.log" >&2; die "sqlite3 $name: build failed (log: $dir.build.log)"; }
  if grep -n 'warning: .*dsprof\|dsprof.*warning' "$dir.build.log" >&2; then
    die "sqlite3 $name: the plugin warned (log: $dir.build.log)"
  fi
}

check_vdbe () {  # check_vdbe PACKAGE
  local pkg=$1 src a=$OUT/sqlite3-amalg c=$OUT/sqlite3-compare t0=$SECONDS t
  src=$(source_dir "$pkg")
  if [ -z "${REAL_REUSE:-}" ] || [ ! -x "$OUT/sqlite3-ds/sqlite3" ]; then
    say "$pkg: the amalgamation"
    rm -rf "$a" && mkdir -p "$a"
    (cd "$a" && "$src/configure" -q && make -s sqlite3.c shell.c) >"$a.log" 2>&1 ||
      { tail -20 "$a.log" >&2; die "$pkg: the amalgamation failed (log: $a.log)"; }
    printf '%s\n' "$SELECT" >"$OUT/sqlite3.sel"
    say "$pkg: building vdbe-profile and ds (-O2)"
    local pid
    # shellcheck disable=SC2086
    vdbe_build vdbe-profile $SQLITE_FLAGS $PROFILE_FLAGS &
    pid=$!
    [ "$JOBS" -gt 1 ] || { wait $pid || exit 1; pid=; }
    # shellcheck disable=SC2086
    vdbe_build ds -fplugin="$TOOLS/dsprof.so" -specs="$TOOLS/dsprof.specs" \
      -fplugin-arg-dsprof-select="$OUT/sqlite3.sel" $SQLITE_FLAGS
    [ -z "$pid" ] || wait $pid || exit 1
  fi
  rm -rf "$c" && mkdir -p "$c/vdbe-profile" "$c/ds"
  sqlite_workload >"$c/work.sql"
  t=$(date +%s%N)
  (cd "$c/vdbe-profile" && "$OUT/sqlite3-vdbe-profile/sqlite3" :memory: <../work.sql >out 2>err) ||
    die "$pkg vdbe-profile: status $? ($(head -3 "$c/vdbe-profile/err"))"
  t=$((($(date +%s%N) - t) / 1000000)) && say "$pkg vdbe-profile: the workload in $t ms"
  t=$(date +%s%N)
  (cd "$c/ds" && DSPROF_OUT=$c/ds/sqlite3.data "$OUT/sqlite3-ds/sqlite3" :memory: <../work.sql >out 2>err) ||
    die "$pkg ds: status $? ($(head -3 "$c/ds/err"))"
  t=$((($(date +%s%N) - t) / 1000000)) && say "$pkg ds: the workload in $t ms"
  [ ! -s "$c/vdbe-profile/err" ] && [ ! -s "$c/ds/err" ] ||
    die "$pkg: the shell printed errors: $(cat "$c/vdbe-profile/err" "$c/ds/err" | head -3)"
  cmp -s "$c/vdbe-profile/out" "$c/ds/out" ||
    die "$pkg: the two builds' outputs differ: $(diff "$c/vdbe-profile/out" "$c/ds/out" | head -5 | tr '\n' ' ')"
  "$DSPROF" report sql addr name --where event=op --format csv "$c/ds/sqlite3.data" \
    >"$c/ops.csv" 2>"$c/ops.err" || die "$pkg: dsprof report failed: $(head -3 "$c/ops.err")"
  [ ! -s "$c/ops.err" ] || die "$pkg: dsprof report warned: $(head -3 "$c/ops.err")"
  if python3 "$TOP/testsuite/fixtures/vdbecheck.py" "$c/vdbe-profile/vdbe_profile.out" "$c/ops.csv" \
       --steps "$c/work.sql" "$c/ds/out" --default "$DEFAULT_OPS" --table "$c/table" >"$c/compare.out" 2>&1; then
    say "$pkg: dsprof = VDBE_PROFILE: $(cat "$c/compare.out")"
  else
    head -20 "$c/compare.out" >&2
    die "$pkg: dsprof's op records differ from VDBE_PROFILE's counts: $(grep -c '^MISMATCH' "$c/compare.out") differences (all in $c/compare.out)"
  fi
  say "$pkg: PASS ($((SECONDS - t0)) s; profile $(du -k "$c/ds/sqlite3.data" | cut -f1) KB)"
}

check_package () {
  local pkg=$1 t0=$SECONDS v
  "pkg_$pkg"
  [ -z "$DEPS" ] || "$TOP/scripts/deps.sh" install $DEPS || die "the build dependencies of $pkg are missing"
  if [ "$KIND" = vdbe ]; then check_vdbe "$pkg"; return; fi
  [ "$pkg" != gawk ] || need_locales
  for v in $VARIANTS; do
    if [ -n "${REAL_REUSE:-}" ] && [ -f "$OUT/$pkg-$v.total" ]; then
      say "$pkg $v: reusing the build and test results of an earlier run (REAL_REUSE)"
      continue
    fi
    build "$pkg" "$v"
    run_tests "$pkg" "$v"
  done
  local base=$OUT/$pkg-plain.results
  grep -qE '^[1-9]' "$OUT/$pkg-plain.total" || die "$pkg: the plain build's test suite ran no tests"
  for v in ds-O0 ds-O2 both-O0; do
    cmp -s "$OUT/$pkg-plain.total" "$OUT/$pkg-$v.total" ||
      die "$pkg $v: $(cat "$OUT/$pkg-$v.total"), in the plain build $(cat "$OUT/$pkg-plain.total")"
    cmp -s "$base" "$OUT/$pkg-$v.results" ||
      die "$pkg $v: the test results differ from the plain build's: $(diff "$base" "$OUT/$pkg-$v.results" | sed -n 's/^[<>]/&/p' | head -5 | tr '\n' ' ')"
    [ ! -f "$OUT/$pkg-plain.outputs" ] || cmp -s "$OUT/$pkg-plain.outputs" "$OUT/$pkg-$v.outputs" ||
      die "$pkg $v: the outputs differ from the plain build's: $(diff "$OUT/$pkg-plain.outputs" "$OUT/$pkg-$v.outputs" | grep '^[<>]' | tr '\n' ' ')"
    [ -n "$(ls "$OUT/$pkg-$v.prof")" ] || die "$pkg $v: the test suite left no profiles"
  done
  say "$pkg: every build passes and fails the same tests ($(cat "$OUT/$pkg-plain.total"); failed: $(wc -l <"$base")$( [ -s "$base" ] && echo ": $(tr '\n' ' ' <"$base")"))"
  compare_gcov "$pkg"
  check_events "$pkg" ds-O0
  check_events "$pkg" ds-O2
  say "$pkg: PASS ($((SECONDS - t0)) s; processes profiled: ds-O0 $(ls "$OUT/$pkg-ds-O0.prof" | wc -l), ds-O2 $(ls "$OUT/$pkg-ds-O2.prof" | wc -l), both-O0 $(ls "$OUT/$pkg-both-O0.prof" | wc -l))"
}

# scripts/real-cc.sh takes the functions above (REAL_SOURCED=1).
[ -z "${REAL_SOURCED:-}" ] || return 0
command -v python3 >/dev/null || die "python3 is needed"
command -v gcov >/dev/null || die "gcov is needed"
mkdir -p "$OUT"
snapshot_tools
if [ $# -gt 0 ]; then pkgs=("$@"); else pkgs=(lua gawk jq sqlite3); fi
T0=$SECONDS
for p in "${pkgs[@]}"; do
  declare -F "pkg_$p" >/dev/null || die "no recipe for package $p (have: lua gawk jq sqlite3)"
done
for p in "${pkgs[@]}"; do
  check_package "$p"
done
say "real programs: ${pkgs[*]}: all pass ($((SECONDS - T0)) s)"
