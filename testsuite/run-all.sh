#!/usr/bin/env bash
# run-all.sh [CASE...] - the whole test suite: CUnit unit tests, then every
# integration case under testsuite/cases (or the named ones).  Ends with the line
# "N passed, N failed" and exits non-zero if anything failed.
set -u
cd "$(dirname "$0")"
passed=0 failed=0 failures=()

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
for c in "$@"; do
  name=$(basename "$c")
  dir=out/$name
  rm -rf "$dir" && mkdir -p "$dir"
  if (cd "$dir" && timeout 600 bash "../../cases/$name/test.sh") >"$dir.log" 2>&1; then
    echo "PASS $name"; passed=$((passed + 1))
  else
    echo "FAIL $name (log: testsuite/out/$name.log)"; sed 's/^/    /' "$dir.log" | tail -40
    failed=$((failed + 1)); failures+=("$name")
  fi
done

echo
[ ${#failures[@]} -eq 0 ] || echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
