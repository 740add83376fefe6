# counters-shared-lib: the plugin works for shared libraries (-fPIC -shared) and for
# programs partly built without it (docs/contract.md §2): counts of every instrumented unit
# are right, wherever it is; units built without the plugin have none.  Also a
# library loaded with dlopen, closed with dlclose, loaded and closed again.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE"/*.c .
line_of () { grep -n "/\\* $2 \\*/" "$1" | cut -d: -f1; }
SQ=$(line_of sq.c SQ) MAIN=$(line_of main.c MAIN) PART=$(line_of part.c PART)
HELPER=$(line_of helper.c HELPER) PLUG=$(line_of plug.c PLUG) DL=$(line_of dl.c DL)

# expect FILE:LINE COUNT PROFILE: the largest count `dsprof lines PROFILE` gives
# the line is COUNT ("none": no block on the line).
expect () {
  run_dsprof lines "$3" >lines.out 2>lines.err \
    || fail "dsprof lines $3: status $? ($(cat lines.err))"
  local got
  got=$(awk -F': ' -v at="$1" '$1 == at { if ($2 + 0 > m) m = $2 + 0; found = 1 }
    END { print found ? m + 0 : "none" }' lines.out)
  [ "$got" = "$2" ] || fail "dsprof lines $3: $1 has count $got, not $2"
}

# run NAME WANT PROG ARGS...: run the program with profile NAME.data; it must
# exit 0 and print WANT.
run () {
  local name=$1 want=$2 out
  shift 2
  out=$(DSPROF_OUT=$name.data "$@") || fail "$*: exit status $?"
  [ "$out" = "$want" ] || fail "$*: printed '$out', not '$want'"
}

# ---- an instrumented library used by an instrumented program, at -O2 ----------
dscc -O2 -fPIC -shared -o libsq.so sq.c || fail "libsq.so does not build"
dscc -O2 -o main main.c -L. -lsq -Wl,-rpath,'$ORIGIN' || fail "main does not build"
run main 90 ./main
expect "sq.c:$SQ" 12 main.data
expect "main.c:$MAIN" 3 main.data

# ---- the same library used by a program built without the plugin ----------------
gcc -O2 -o plainmain main.c -L. -lsq -Wl,-rpath,'$ORIGIN' || fail "plainmain does not build"
run plain 90 ./plainmain
expect "sq.c:$SQ" 12 plain.data
expect "main.c:$MAIN" none plain.data

# ---- one unit with the plugin, one without ----------------------------------------
gcc -O2 -c helper.c || fail "helper.c does not compile"
dscc -O2 -o part part.c helper.o || fail "part does not build"
run part 20 ./part
expect "part.c:$PART" 6 part.data
expect "helper.c:$HELPER" none part.data

# ---- dlopen, dlclose, dlopen, dlclose ---------------------------------------------
dscc -fPIC -shared -o libplug.so plug.c || fail "libplug.so does not build"
dscc -o dl dl.c -ldl || fail "dl does not build"
run dl 19 ./dl ./libplug.so
expect "dl.c:$DL" 5 dl.data
expect "plug.c:$PLUG" 7 dl.data
run_dsprof annotate -o bb dl.data || fail "dsprof annotate dl.data: status $?"
got=$(sed -n "${PLUG}p" bb/plug.c.bb)
[ "$got" = "$(printf '%9s:%5u:%s' 7 "$PLUG" "$(sed -n "${PLUG}p" plug.c)")" ] \
  || fail "bb/plug.c.bb: line $PLUG is '$got', not counted 7 times"
exit 0
