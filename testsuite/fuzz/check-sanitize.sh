#!/usr/bin/env bash
# check-sanitize.sh SAN_DIR [CASE...] - run by `make check-sanitize` once it has
# built, under SAN_DIR, the runtime (runtime/libdsprof.{a,so}), the report tool
# (dsprof), the unit tests (run-unit) and the fuzz harness's file driver
# (fuzz-run) with -fsanitize=address,undefined.  Runs
#   1. the unit tests;
#   2. the fuzz harness over the seed corpus and the kept regression inputs;
#   3. every report command of the sanitized dsprof over every seed and every
#      golden profile (testsuite/golden/profiles; status 0) and every
#      regression input (status 0 or 2, a message, nothing else): the lines of
#      testsuite/golden/commands and those below, which name every command;
#   4. integration cases (the CASEs, default SAN_CASES below) against a copy of
#      the tree whose runtime, report tool and `gcc` are the sanitized ones, so
#      the test programs run the sanitized runtime too.
# Any sanitizer report fails the run.  Prints "check-sanitize: N checks, clean"
# or the failures, and exits non-zero if anything failed.
set -u
# Not report-times: its expected times need an unloaded machine and no
# sanitizer slowing the measured functions down.
SAN_CASES="events-expr events-manual events-render events-strings events-strmax events-strings-repeat
  events-threads events-longjmp events-exit events-off events-signal events-fork
  events-kill report-errors report-derive report-shell report-names report-outer
  report-diff export-pprof export-perfetto events-dispatch
  runtime-accumulate counters-branches"

FUZZ=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$FUZZ/../.." && pwd)
SAN=$(cd "$1" && pwd)
shift
[ $# -gt 0 ] || set -- $SAN_CASES

# Every report is fatal, leaks included; exit status 86 marks a sanitizer's.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86
export LSAN_OPTIONS=exitcode=86:print_suppressions=0:suppressions=$FUZZ/lsan.supp
unset DSPROF_OUT DSPROF_EVENTS DSPROF_PARENT_PID

checks=0 failures=()
ok () { checks=$((checks + 1)); }
bad () { checks=$((checks + 1)); failures+=("$1"); echo "FAIL: $1"; }
sanitizer_said () { grep -qE 'Sanitizer|runtime error:' "$1"; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# 1. unit tests
if "$SAN/run-unit" >"$WORK/unit.log" 2>&1 && ! sanitizer_said "$WORK/unit.log"; then
  ok; echo "unit tests: clean ($(awk '$1=="tests"{print $4}' "$WORK/unit.log") passed)"
else
  bad "unit tests (sanitized)"; tail -40 "$WORK/unit.log"
fi

# 2. the harness over seeds and regression inputs
if "$SAN/fuzz-run" "$FUZZ/seeds" "$FUZZ/regress" >"$WORK/fuzz.log" 2>&1 \
   && ! sanitizer_said "$WORK/fuzz.log"; then
  ok; tail -1 "$WORK/fuzz.log"
else
  bad "fuzz-run over seeds and regress"; tail -40 "$WORK/fuzz.log"
fi

# 3. the commands of the sanitized dsprof
commands=(
  "info" "lines" "records" "trace" "dims" "report" "report event thread"
  "report name depth --format csv" "report parent location --format json --raw"
  "report children site depends-on --top 3" "records --where complete=false"
  "callgraph" "export --format folded" "export --format folded --raw"
  "html --records 0" "report outer:name name --sum line --sum outer:line --format json"
  "records --where outer:name!=x" "trace --where outer:event=x"
  "callgraph --dim outer:name" "html --records 0 --dims outer:event --sum line"
  "summary" "summary --format csv" "summary --format json"
  "export --format pprof" "export --format pprof --raw --dim thread"
  "export --format perfetto" "export --format chrome" "export --format lcov"
  "export --format csv" "export --format cobertura" "dot" "info --count"
  "top --batch 1"
  "merge -o $WORK/merged.data"
)
# And every line of the golden commands.
while read -r c; do commands+=("$c"); done <"$TOP/testsuite/golden/commands"

# dsprof ARGS... in $WORK, its output in $WORK/out and $WORK/err.
dsprof_in_work () { (cd "$WORK" && "$SAN/dsprof" "$@") >"$WORK/out" 2>"$WORK/err" </dev/null; }
# judge ALLOWED STATUS WHAT: a failure if a sanitizer spoke or STATUS is not
# one of ALLOWED.
judge () {
  if sanitizer_said "$WORK/err" || ! [[ " $1 " == *" $2 "* ]]; then
    bad "dsprof $3: status $2"; head -30 "$WORK/err"
  else
    ok
  fi
}

run_cmds () {           # FILE EXPECTED-STATUSES
  local f=$1 allowed=$2 name
  name=$(basename "$f")
  for c in "${commands[@]}" "annotate -o $WORK/ann"; do
    # shellcheck disable=SC2086
    dsprof_in_work $c -- "$f"
    judge "$allowed" $? "$c $name"
  done
  # diff and the --diff views, the file on both sides.
  for c in "diff $f $f" "diff --lines --fail-above 0 $f $f" \
           "diff --format json --fail-above 0 --base $f --new $f name depth" \
           "diff --format csv --sum line $f $f event outer:name" \
           "html --records 0 --diff $f $f" "annotate -o $WORK/ann --diff $f $f"; do
    # shellcheck disable=SC2086
    dsprof_in_work $c
    judge "$allowed" $? "${c//$f/$name}"
  done
  # ctl, on a copy (a profile whose pid is alive now would be written): the
  # process is gone or the file no profile (2), a usage error (1), or a
  # process with the pid alive (0).
  cp "$f" "$WORK/ctl.data"
  for c in "events off" "events on" ""; do
    # shellcheck disable=SC2086
    dsprof_in_work ctl "$WORK/ctl.data" $c
    judge "0 1 2" $? "ctl $name $c"
  done
  printf 'lines\nname\nevent depth\nformat csv\nwhere complete=true\nthread\ndims\nquit\n' \
    | (cd "$WORK" && "$SAN/dsprof" shell "$f") >"$WORK/out" 2>"$WORK/err"
  judge "$allowed" $? "shell $name"
}
for f in "$FUZZ"/seeds/* "$TOP"/testsuite/golden/profiles/*; do run_cmds "$f" "0"; done
for f in "$FUZZ"/regress/*; do run_cmds "$f" "0 2"; done
echo "report commands (${#commands[@]} and more) over $(ls "$FUZZ"/seeds | wc -l) seeds," \
  "$(ls "$TOP"/testsuite/golden/profiles | wc -l) golden profiles and" \
  "$(ls "$FUZZ"/regress | wc -l) regression inputs: done"

# 4. integration cases in a tree of sanitized programs
T=$SAN/tree
rm -rf "$T"
mkdir -p "$T/runtime" "$T/report" "$T/testsuite/cases" "$T/testsuite/unit" "$T/bin"
for e in "$TOP"/*; do
  case $(basename "$e") in
    runtime|report|testsuite|build) ;;
    *) ln -s "$e" "$T/$(basename "$e")" ;;
  esac
done
cp "$SAN/runtime/libdsprof.a" "$SAN/runtime/libdsprof.so" "$T/runtime/"
ln -s "$TOP/runtime/dsprof.h" "$T/runtime/dsprof.h"
cp "$SAN/dsprof" "$T/report/dsprof"
cp "$SAN/run-unit" "$T/testsuite/unit/run-unit"
for f in lib.sh run-all.sh fixtures; do ln -s "$TOP/testsuite/$f" "$T/testsuite/$f"; done
for c in "$TOP"/testsuite/cases/*/; do
  mkdir "$T/testsuite/cases/$(basename "$c")"
  for f in "$c"*; do ln -s "$f" "$T/testsuite/cases/$(basename "$c")/"; done
done
# The test programs are built by `gcc`: the sanitized one.
cat >"$T/bin/gcc" <<EOF
#!/bin/sh
exec $(command -v gcc) -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer "\$@"
EOF
chmod +x "$T/bin/gcc"
cases=()
for c in "$@"; do cases+=("cases/$c"); done
PATH=$T/bin:$PATH "$T/testsuite/run-all.sh" "${cases[@]}" >"$WORK/cases.log" 2>&1
for c in "$@"; do
  log=$T/testsuite/out/$c.log
  if grep -q "^PASS $c\$" "$WORK/cases.log" && ! sanitizer_said "$log" \
     && ! grep -rqsE 'Sanitizer|runtime error:' "$T/testsuite/out/$c"; then
    ok; echo "PASS $c (sanitized)"
  else
    bad "case $c (sanitized)"; tail -30 "$log"
  fi
done

echo
if [ ${#failures[@]} -eq 0 ]; then
  echo "check-sanitize: $checks checks, clean"
else
  echo "check-sanitize: $checks checks, ${#failures[@]} failed: ${failures[*]}"
  exit 1
fi
