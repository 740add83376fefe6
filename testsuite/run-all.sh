#!/usr/bin/env bash
# run-all.sh [CASE...] - the whole test suite: CUnit unit tests, then every
# integration case under testsuite/cases (or the named ones), $DSPROF_TEST_JOBS
# of them at a time (default: the number of CPUs), each in its own scratch
# directory out/NAME with its output in out/NAME.log.  A case's PASS or FAIL
# line (and a failed one's log tail) is printed as it ends.  Cases start longest
# first, by the time each took last (out/NAME.time).  Ends with the line
# "N passed, N failed" and exits non-zero if anything failed.
set -u
cd "$(dirname "$0")"
passed=0 failed=0 failures=()
jobs=${DSPROF_TEST_JOBS:-$(nproc)}
case $jobs in
  '' | *[!0-9]* | 0) echo "run-all.sh: DSPROF_TEST_JOBS must be a positive number, not '$jobs'" >&2; exit 2 ;;
esac

if [ $# -eq 0 ]; then
  out=$(./unit/run-unit 2>&1); rc=$?
  echo "$out" | grep -E '^\s*(Suite|Test|asserts|tests|suites)' >/dev/null
  # CUnit's summary row: "tests  N  N  PASSED  FAILED  inactive"
  read -r ut_run ut_passed ut_failed < <(echo "$out" | awk '$1=="tests"{print $3, $4, $5}')
  if [ -z "${ut_run:-}" ] || [ "$rc" -ne 0 ]; then
    echo "$out"
    echo "unit tests: run-unit failed (exit $rc)"
    failed=$((failed + 1)); failures+=(unit)
  else
    echo "unit tests: $ut_passed passed, $ut_failed failed"
    passed=$((passed + ut_passed)); failed=$((failed + ut_failed))
    [ "$ut_failed" -eq 0 ] || { echo "$out" | grep -B2 -A6 FAIL; failures+=(unit); }
  fi
  set -- cases/*/
fi

mkdir -p out
# The cases, longest first (a case never timed counts as 0 s, keeping name order).
mapfile -t names < <(for c in "$@"; do
  name=$(basename "$c")
  echo "$(cat "out/$name.time" 2>/dev/null || echo 0) $name"
done | sort -s -k1,1nr | cut -d' ' -f2)

# run_case NAME: run the case in out/NAME, its output in out/NAME.log; on
# success its duration in whole seconds in out/NAME.time.  Its status is the
# case's.  A TERM ends the case (timeout's process group).
run_case () {
  local dir=out/$1 start=$SECONDS pid st
  rm -rf "$dir" && mkdir -p "$dir"
  (cd "$dir" && exec timeout 600 bash "../../cases/$1/test.sh") </dev/null >"$dir.log" 2>&1 &
  pid=$!
  trap 'kill -TERM $pid 2>/dev/null; wait $pid; exit 143' TERM
  wait $pid; st=$?
  [ $st -ne 0 ] || echo $((SECONDS - start)) >"$dir.time"
  return $st
}

# report NAME STATUS: the case's line, and a failed one's log tail.
report () {
  if [ "$2" -eq 0 ]; then
    echo "PASS $1"; passed=$((passed + 1))
  else
    echo "FAIL $1 (log: testsuite/out/$1.log)"; sed 's/^/    /' "out/$1.log" | tail -40
    failed=$((failed + 1)); failures+=("$1")
  fi
}

declare -A running=()         # pid -> case name
trap 'kill -TERM "${!running[@]}" 2>/dev/null; wait; exit 130' INT TERM
for name in "${names[@]}" ""; do
  # Wait for a free slot; after the last case ("") for every running one.
  while [ ${#running[@]} -ge "$jobs" ] || { [ -z "$name" ] && [ ${#running[@]} -gt 0 ]; }; do
    wait -n -p done "${!running[@]}"; st=$?
    report "${running[$done]}" $st
    unset "running[$done]"
  done
  [ -z "$name" ] && break
  run_case "$name" &
  running[$!]=$name
done

echo
[ ${#failures[@]} -eq 0 ] || echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
