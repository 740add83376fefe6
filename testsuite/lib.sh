# lib.sh - sourced by every testsuite/cases/*/test.sh.  Each case runs in a fresh
# scratch directory ($WORK, its current directory) and exits 0 on success; any
# message on failure goes to stderr.  $CASE is the case's folder, $FIXTURES
# testsuite/fixtures (the sources more than one place uses).  Helpers:
#   dscc ARGS...      gcc with the dsprof plugin, runtime header and library
#   fail MESSAGE      print MESSAGE and exit 1
#   expect_same A B   fail with a diff unless files A and B are identical
#   run_dsprof ARGS   the dsprof command
#   progress FILE     the 64-bit count a test program keeps in FILE
#   wait_progress FILE N WHAT   until progress FILE reaches N (fail after 20 s)
#   marked_counts SRC OUTPUT N  build, run and check the counts marked in SRC
#   summary_is_lcovs PROFILE    `dsprof summary`'s totals of lines, functions
#                               and branches are `lcov --summary`'s of the lcov
#                               export
#   event_chunks PROFILE        one "THREAD SIZE OFFSET" line per event chunk of
#                               PROFILE, in file order
#   one_at_a_time LOCK CMD...   CMD while no other case runs one with LOCK: for
#                               what cases share outside their scratch directory
#                               (a build under $TOP/build, the Lua source)
set -eu
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PLUGIN=$TOP/plugin/dsprof.so
DSPROF=$TOP/report/dsprof
CASE=$(cd "$(dirname "$0")" && pwd)
FIXTURES=$TOP/testsuite/fixtures
export LD_LIBRARY_PATH=$TOP/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
unset DSPROF_OUT DSPROF_EVENTS DSPROF_PARENT_PID

dscc () {
  gcc -fplugin="$PLUGIN" -I"$TOP/runtime" "$@" -L"$TOP/runtime" -ldsprof -lpthread
}

run_dsprof () {
  "$DSPROF" "$@"
}

fail () {
  echo "FAIL: $*" >&2
  exit 1
}

expect_same () {
  diff -u "$1" "$2" >&2 || fail "$2 differs from $1"
}

one_at_a_time () {
  local lock=$TOP/testsuite/out/$1.lock
  shift
  mkdir -p "${lock%/*}"
  ( flock 9 && "$@" ) 9>"$lock"
}

progress () {
  od -An -tu8 "$1" | tr -d ' '
}

wait_progress () {
  local end=$((SECONDS + 20))
  while [ ! -s "$1" ] || [ "$(progress "$1")" -lt "$2" ]; do
    [ $SECONDS -lt $end ] || fail "$3 did not reach $2 iterations"
    sleep 0.01
  done
}

event_chunks () {
  python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
end = struct.unpack_from("<Q", data, 16)[0]     # struct dsprof_file_header.end
off = 4096
while off < end:
    kind, _, size = struct.unpack_from("<IIQ", data, off)
    if kind == 2:                               # DSPROF_CHUNK_EVENTS
        print(struct.unpack_from("<I", data, off + 16)[0], size, off)
    off += size
PY
}

# `dsprof summary PROFILE`'s totals of lines, functions and branches taken
# (its last row's first, third and fifth cells, HIT/TOTAL; "-" for no
# branches) against `lcov --summary` of `dsprof export --format lcov PROFILE`
# ("lines......: 69.2% (9 of 13 lines)", "branches...: no data found").
summary_is_lcovs () {
  "$DSPROF" summary "$1" >summary.out || fail "summary $1: status $?"
  "$DSPROF" export --format lcov "$1" >summary.info || fail "export lcov $1: status $?"
  lcov --summary summary.info --rc lcov_branch_coverage=1 >lcov.out 2>&1 ||
    fail "lcov --summary: $(cat lcov.out)"
  local total want got what
  total=$(tail -1 summary.out)
  for what in lines functions branches; do
    want=$(sed -n "s/^ *$what\.*: .* (\([0-9]*\) of \([0-9]*\) $what)\$/\1\/\2/p" lcov.out)
    [ -n "$want" ] || ! grep -q "^ *$what\.*: no data found" lcov.out || want=-
    [ -n "$want" ] || fail "no $what in lcov's summary: $(cat lcov.out)"
    case $what in lines) got=$(echo "$total" | awk '{print $1}') ;;
                  functions) got=$(echo "$total" | awk '{print $5}') ;;
                  *) got=$(echo "$total" | awk '{print $(NF - 2)}')
                     [ "$(echo "$total" | awk '{print $(NF - 1)}')" != - ] || got=- ;; esac
    [ "$got" = "$want" ] || fail "summary's $what total $got, lcov's $want: $total"
  done
}

# marked_counts SRC OUTPUT N: build $CASE/SRC with the plugin at -O0 and at -O2,
# run it (it must print OUTPUT), and check each of its N lines marked
# /* NAME COUNT */ in `dsprof annotate' (##### for 0), `dsprof lines' (a block
# of COUNT on the line) and the lcov export (DA:LINE,COUNT).
marked_counts () {
  local src=$1 output=$2 want_n=$3 base=${1%.c} o n line text name want shown got
  cp "$CASE/$src" .
  for o in -O0 -O2; do
    dscc $o -o "$base" "$src" || fail "$src does not compile at $o"
    rm -f "$base.data"
    DSPROF_OUT=$base.data "./$base" >"$base.out" || fail "$base ($o) exited with status $?"
    [ "$(cat "$base.out")" = "$output" ] || fail "$base ($o) printed $(cat "$base.out"), not $output"
    rm -rf bb && run_dsprof annotate -o bb "$base.data" || fail "dsprof annotate ($o): status $?"
    run_dsprof lines "$base.data" >"$base.lines" || fail "dsprof lines ($o): status $?"
    run_dsprof export --format lcov -o "$base.lcov" "$base.data" || fail "dsprof export lcov ($o): status $?"
    n=0
    while IFS=: read -r line text; do
      # shellcheck disable=SC2046
      set -- $(echo "$text" | sed -E 's|.*/\* ([A-Z]+) ([0-9]+) \*/.*|\1 \2|')
      name=$1 want=$2 n=$((n + 1))
      shown=$want
      [ "$want" -eq 0 ] && shown='#####'
      got=$(awk -F: -v l="$line" '$2 + 0 == l { c = $1; gsub(/ /, "", c); print c }' "bb/$src.bb")
      [ "$got" = "$shown" ] || fail "$o: annotate shows '$got' on the $name line ($line), not $shown"
      grep -qx "$src:$line: $want" "$base.lines" \
        || fail "$o: dsprof lines has no block '$want' on the $name line ($line): $(cat "$base.lines")"
      grep -qx "DA:$line,$want" "$base.lcov" \
        || fail "$o: the lcov export has no DA:$line,$want for the $name line: $(grep DA: "$base.lcov")"
    done < <(grep -n '/\* [A-Z]* [0-9]* \*/' "$src")
    [ "$n" -eq "$want_n" ] || fail "$src: $n marked lines, not $want_n"
  done
}

# lua_exercise PLAIN NAME...: run PLAIN/src/lua and each NAME/src/lua on
# exercise.lua (copied here) under `setarch -R` -> NAME.out, NAME.err,
# NAME.status and the profile NAME.data; PLAIN must exit with status 3 (its
# os.exit) after printing "bye", and every NAME must print what PLAIN printed,
# exit as it did, write nothing to stderr and leave a profile.
lua_exercise () {
  local plain=$1 v st
  cp "$FIXTURES/exercise.lua" .
  for v in "$@"; do
    st=0
    DSPROF_OUT=$PWD/$v.data setarch -R "$v/src/lua" exercise.lua >"$v.out" 2>"$v.err" || st=$?
    echo "$st" >"$v.status"
  done
  [ "$(cat "$plain.status")" = 3 ] ||
    fail "plain Lua: exit status $(cat "$plain.status"), expected 3 ($(head -3 "$plain.err"))"
  grep -q '^bye$' "$plain.out" || fail "plain Lua did not finish exercise.lua"
  shift
  for v in "$@"; do
    expect_same "$plain.out" "$v.out"
    [ "$(cat "$v.status")" = "$(cat "$plain.status")" ] ||
      fail "$v: exit status $(cat "$v.status"), plain Lua's $(cat "$plain.status")"
    [ ! -s "$v.err" ] || fail "$v wrote to stderr: $(head -3 "$v.err")"
    [ -s "$v.data" ] || fail "$v left no profile $v.data"
  done
}
