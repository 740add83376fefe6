# plugin-cc: dsprof-cc and dsprof-c++, the compiler drivers (docs/contract.md §2a).
# Compile-only, -E, -M, -MM and -MMD calls behave as gcc's; a link with
# -Wl,--as-needed and the libraries before the objects, and a shared library's
# link with -z defs, get the runtime; plugin arguments from DSPROF_ARG_KEY and
# --dsprof-KEY reach the plugin; a configure script's, CMake's and Meson's probes
# are compiled without the plugin and leave no profile, where the program they
# configure writes its own; dsprof-c++ counts a C++ program; the installed drivers
# find the installed plugin and runtime.  Arguments with spaces pass unchanged.
. "$(dirname "$0")/../../lib.sh"
unset LD_LIBRARY_PATH
CC=$TOP/driver/dsprof-cc
[ -x "$CC" ] && [ -x "$TOP/driver/dsprof-c++" ] || fail "driver/dsprof-cc or driver/dsprof-c++ is not built"
WORK=$PWD

# profiles DIR: the dsprof profiles under DIR.
profiles () {
  find "$1" -type f -name '*.data*' | while read -r f; do
    head -c 6 "$f" | grep -q DSPROF && echo "$f"
  done
  return 0
}

mkdir "conf tree"
cp "$CASE/prog.c" "$CASE/shape.c" "$CASE/configure" "conf tree/"
cd "conf tree"

# ---- a configure script's probe: no plugin, no profile ------------------------------
# (-fplugin-arg-dsprof- in CFLAGS, which the probe's compile without the plugin
# would refuse, is left out of it.)
CC=$CC CFLAGS="-O2 -fplugin-arg-dsprof-functions=all" ./configure >configure.out 2>&1 ||
  fail "configure with CC=dsprof-cc failed: $(cat configure.out)"
grep -qx '#define PROBED 42' config.h || fail "the probe's answer is not in config.h: $(cat config.h)"
[ -z "$(profiles .)" ] || fail "configure's probe left a profile: $(profiles .)"
printf 'int main (void) { return 0; }\n' >conftest.c
"$CC" -c conftest.c || fail "conftest.c does not compile"
! nm conftest.o | grep -q __dsprof || fail "a probe (conftest.c) was instrumented: $(nm conftest.o | grep __dsprof)"
rm -f conftest.c conftest.o

# ---- compile only, preprocess only, dependencies: as gcc's --------------------------
ls >"$WORK/ls.before"
"$CC" -O2 -c prog.c '-DTAG=" two words"' || fail "dsprof-cc -c failed"
ls >"$WORK/ls.after"
[ "$(comm -13 "$WORK/ls.before" "$WORK/ls.after")" = prog.o ] || fail "dsprof-cc -c made $(comm -13 "$WORK/ls.before" "$WORK/ls.after" | tr '\n' ' ')instead of prog.o alone"
nm prog.o | grep -q __dsprof_register_unit || fail "prog.o is not instrumented"
"$CC" -E prog.c >e.out || fail "dsprof-cc -E failed"
gcc -fplugin="$PLUGIN" -E prog.c -I"$TOP/runtime" >e.want
expect_same e.want e.out
grep -q 'dsprof_event' e.out || fail "-E: DSPROF_EVENT_TYPE did not expand to the attribute (plugin not loaded)"
for m in -M -MM; do
  "$CC" $m prog.c >dep.out || fail "dsprof-cc $m failed"
  gcc $m -I"$TOP/runtime" prog.c >dep.want
  expect_same dep.want dep.out
done
"$CC" -MMD -MF out.d -c prog.c -o dep.o || fail "dsprof-cc -MMD -MF failed"
gcc -MMD -MF want.d -I"$TOP/runtime" -c prog.c -o dep.o
expect_same want.d out.d
ls >"$WORK/ls.after2"
[ -z "$(comm -13 "$WORK/ls.after" "$WORK/ls.after2" | grep -v -e '^e\.' -e '^dep\.' -e '\.d$')" ] ||
  fail "-E/-M/-MM made files: $(comm -13 "$WORK/ls.after" "$WORK/ls.after2" | tr '\n' ' ')"

# ---- links: --as-needed with the libraries first; a shared library -----------------
if gcc -Wl,--as-needed -L"$TOP/runtime" -ldsprof -lm prog.o -o without 2>without.err; then
  fail "gcc linked prog.o with -ldsprof before it under --as-needed: this case would prove nothing"
fi
"$CC" -Wl,--as-needed -lm -lpthread prog.o -o prog 2>link.err || fail "dsprof-cc's link with -Wl,--as-needed failed: $(cat link.err)"
readelf -d prog | grep -q 'NEEDED.*libdsprof' || fail "prog does not need libdsprof: $(readelf -d prog)"
[ "$(./prog)" = "configured two words 56 42" ] || fail "prog printed '$(./prog)'"
run_dsprof info dsprof.data | grep -q "^program: .*/conf tree/prog\$" ||
  fail "the profile in the build directory is not prog's: $(run_dsprof info dsprof.data | head -3)"
grep -q '^prog\.c:[0-9]*: 7$' <(run_dsprof lines) || fail "prog's loop is not counted 7 times: $(run_dsprof lines)"
"$CC" -O2 -fPIC -shared -Wl,--as-needed -Wl,-z,defs shape.c -o libshape.so 2>so.err ||
  fail "dsprof-cc's shared library link (-z defs) failed: $(cat so.err)"
readelf -d libshape.so | grep -q 'NEEDED.*libdsprof' || fail "libshape.so does not need libdsprof"
"$CC" -O2 -DWITH_LIB prog.c -L. -lshape -Wl,-rpath,"$PWD" -o progl || fail "progl does not link"
rm dsprof.data
[ "$(./progl)" = "configured 59 42" ] || fail "progl printed '$(./progl)'"
grep -q '^shape\.c:[0-9]*: 3$' <(run_dsprof lines) || fail "libshape.so's loop is not counted 3 times: $(run_dsprof lines)"

# ---- plugin arguments: the environment's and the driver's own ----------------------
DSPROF_ARG_VERBOSE= "$CC" -c prog.c -o v.o 2>verbose.err || fail "DSPROF_ARG_VERBOSE= failed"
grep -q 'dsprof: prog\.c:[0-9]*: twice' verbose.err || fail "DSPROF_ARG_VERBOSE did not reach the plugin: $(cat verbose.err)"
DSPROF_ARG_FUNCTIONS=all "$CC" prog.c -o pall || fail "DSPROF_ARG_FUNCTIONS=all failed"
(mkdir all && cd all && ../pall >/dev/null) || fail "pall failed"
run_dsprof report event name all/dsprof.data >all.report
grep -qE '^ .* 8 +[0-9.]+ +call$' all.report && grep -qE '^ .* 7 +[0-9.]+ +twice$' all.report ||
  fail "DSPROF_ARG_FUNCTIONS=all made no call events of main and twice: $(cat all.report)"
"$CC" --dsprof-select="$CASE/twice.sel" prog.c -o psel || fail "--dsprof-select failed"
(mkdir sel && cd sel && ../psel >/dev/null) || fail "psel failed"
run_dsprof report event sel/dsprof.data >sel.report
grep -q ' doubled$' sel.report || fail "--dsprof-select: no event 'doubled': $(cat sel.report)"
grep -qE '^ .* 7 +[0-9.]+ +step$' sel.report || fail "--dsprof-select: step's 7 events missing: $(cat sel.report)"
! "$CC" --dsprof- -c prog.c 2>bad.err || fail "--dsprof- was accepted"
grep -qx "dsprof-cc: option '--dsprof-' names no plugin argument (--dsprof-KEY\[=VALUE\])" bad.err ||
  fail "--dsprof-: $(cat bad.err)"
! DSPROF_ARG_BOGUS=1 "$CC" -c prog.c 2>bogus.err || fail "DSPROF_ARG_BOGUS=1 was accepted"
grep -q "unknown argument .bogus." bogus.err || fail "DSPROF_ARG_BOGUS: $(cat bogus.err)"
cd "$WORK"

# ---- CMake and Meson: their probes leave no profile --------------------------------
one_at_a_time apt "$TOP/scripts/deps.sh" install cmake meson ninja-build >deps.out 2>&1 ||
  fail "cmake, meson and ninja are needed: $(cat deps.out)"
mkdir cmk mes
cp "$CASE/prog.c" "$CASE/CMakeLists.txt" cmk/
cp "$CASE/prog.c" "$CASE/meson.build" mes/
cmake -S cmk -B cmk/build -DCMAKE_C_COMPILER="$CC" >cmake.out 2>&1 || fail "cmake with dsprof-cc failed: $(tail -20 cmake.out)"
grep -q 'LOOP_RUNS - Success' cmake.out || fail "cmake's probe did not run: $(tail cmake.out)"
cmake --build cmk/build >>cmake.out 2>&1 || fail "the CMake build failed: $(tail -20 cmake.out)"
(cd mes && CC=$CC meson setup build) >meson.out 2>&1 || fail "meson setup with dsprof-cc failed: $(tail -20 meson.out)"
grep -q 'Checking if "loop runs" runs: YES' meson.out || fail "meson's probe did not run: $(tail meson.out)"
ninja -C mes/build >>meson.out 2>&1 || fail "the Meson build failed: $(tail -20 meson.out)"
[ -z "$(profiles cmk)$(profiles mes)" ] || fail "the probes left profiles: $(profiles cmk) $(profiles mes)"
for p in cmk mes; do
  want=$([ $p = cmk ] && echo cmake || echo meson)
  [ "$(cd $p && build/prog)" = "$want 56 42" ] || fail "$p/build/prog printed '$(cd $p && build/prog)'"
  grep -qE '(^|/)prog\.c:[0-9]+: 7$' <(run_dsprof lines $p/dsprof.data) || fail "$p: prog's loop is not counted 7 times"
  [ "$(profiles $p)" = "$p/dsprof.data" ] || fail "$p: profiles other than prog's: $(profiles $p)"
done

# ---- dsprof-c++ ---------------------------------------------------------------------
mkdir cxx && cp "$CASE/hello.cc" cxx/
(cd cxx && "$TOP/driver/dsprof-c++" -O2 hello.cc -o hello -Wl,--as-needed) 2>cxx.err || fail "dsprof-c++ failed: $(cat cxx.err)"
[ "$(cd cxx && ./hello)" = 105 ] || fail "hello printed '$(cd cxx && ./hello)'"
grep -q '^hello\.cc:[0-9]*: 5$' <(run_dsprof lines cxx/dsprof.data) || fail "hello.cc's loop is not counted 5 times"

# ---- installed: the drivers find the installed plugin, specs and runtime -----------
(cd "$TOP" && scripts/install.sh "" "$WORK/inst") >install.out || fail "install.sh failed"
mkdir inst-build && cp "$CASE/prog.c" "conf tree/config.h" inst-build/
(cd inst-build && "$WORK/inst/bin/dsprof-cc" -O2 -v prog.c -o prog -Wl,--as-needed) 2>inst.err ||
  fail "the installed dsprof-cc failed: $(tail inst.err)"
grep -q -- "-fplugin=$WORK/inst/lib/dsprof/gcc-[0-9]*/dsprof.so" inst.err || fail "the installed dsprof-cc does not use the installed plugin"
ldd inst-build/prog | grep -q "$WORK/inst/lib/libdsprof.so" || fail "not linked with the installed libdsprof.so: $(ldd inst-build/prog)"
[ "$(cd inst-build && ./prog)" = "configured 56 42" ] || fail "the installed build printed '$(cd inst-build && ./prog)'"
grep -q '^prog\.c:[0-9]*: 7$' <("$WORK/inst/bin/dsprof" lines inst-build/dsprof.data) || fail "the installed build's counts are wrong"
[ -x "$WORK/inst/bin/dsprof-c++" ] || fail "dsprof-c++ is not installed"
[ -f "$WORK/inst/share/man/man1/dsprof-cc.1" ] || fail "dsprof-cc.1 is not installed"
exit 0
