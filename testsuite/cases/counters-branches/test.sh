# counters-branches: branch counts (`dsprof annotate --branches`, the lcov
# export's BRDA records, `dsprof summary`'s branch columns) are gcov's
# (include/dsprof-format.h, section 3b).  branchy.c has every kind of branch:
# if/else, && and ||, ?:, a switch with and without default (and a case falling
# through), for, while and do-while loops, a backward goto, a branch that never
# runs, a computed goto (no branches: its edges cannot be counted) and setjmp
# (the branch on setjmp's result, entered again by each longjmp).
# 1. One binary built at -O0 with the plugin AND --coverage, one run: on every
#    line either tool lists branches on, dsprof's are gcov's (`gcov -b
#    --json-format`), count and fallthrough flag, in gcov's order
#    (branchcheck.py); the listing has the constructs' branches (at least 16
#    lines, a never executed one, fallthrough ones).
# 2. The lcov export's BRDA records are geninfo's from gcov's data, and
#    `dsprof summary`'s totals (lines, functions, branches) `lcov --summary`'s.
# 3. The plugin alone at -O2: the same branch listing as 1 (the branches, as
#    the counts, are those of the code as built at -O0).
# 4. Two runs read together, and their `dsprof merge`: every branch count twice
#    the one run's (the copies of the same unit are one, summed).
. "$(dirname "$0")/../../lib.sh"

command -v gcov >/dev/null || fail "gcov is needed"
cp "$CASE/branchy.c" .

# ---- 1. against gcov ----
dscc -O0 --coverage -o both branchy.c || fail "branchy.c does not compile with the plugin and --coverage"
DSPROF_OUT=both.data ./both >both.out || fail "both: status $?"
[ "$(cat both.out)" = "448 2" ] || fail "both printed $(cat both.out), not 448 2"
run_dsprof annotate --branches -o bb both.data || fail "annotate --branches: status $?"
[ "$(grep -c '^branch' bb/branchy.c.bb)" -ge 40 ] || fail "few branch lines: $(grep -c '^branch' bb/branchy.c.bb)"
[ "$(grep -B1 '^branch  0' bb/branchy.c.bb | grep -c '^ *[0-9#]*: *[0-9]*:')" -ge 16 ] ||
  fail "fewer than 16 lines with branches: $(cat bb/branchy.c.bb)"
grep -q '^branch  1 never executed$' bb/branchy.c.bb || fail "no branch never executed"
grep -q '^branch  [0-9] taken [0-9]* (fallthrough)$' bb/branchy.c.bb || fail "no fallthrough branch"
mkdir gcov
gcov -b --json-format --stdout both-branchy.gcda >gcov/branchy.json 2>gcov.err ||
  fail "gcov: $(cat gcov.err)"
python3 "$FIXTURES/branchcheck.py" bb gcov >check.out 2>&1 || {
  cat check.out >&2
  fail "dsprof's branches differ from gcov's"
}
# The check can fail: a count changed in the listing.
sed '0,/^branch  1 taken \([0-9]*\)/s//branch  1 taken 9\1/' bb/branchy.c.bb >bad.bb
mkdir badbb && mv bad.bb badbb/branchy.c.bb
python3 "$FIXTURES/branchcheck.py" badbb gcov >/dev/null 2>&1 && fail "branchcheck accepts a wrong count"

# ---- 2. lcov ----
run_dsprof export --format lcov -o both.info both.data || fail "export lcov: status $?"
grep -q '^BRDA:[0-9]*,0,0,[0-9]*$' both.info || fail "no BRDA in the lcov export"
grep -q '^BRDA:[0-9]*,0,1,-$' both.info || fail "no BRDA of a line never run"
if command -v lcov >/dev/null; then
  lcov --capture --directory . --rc lcov_branch_coverage=1 -o gcov.info >lcov.log 2>&1 ||
    fail "lcov --capture: $(tail -3 lcov.log)"
  python3 "$FIXTURES/branchcheck.py" --brda both.info gcov.info >brda.out 2>&1 || {
    cat brda.out >&2
    fail "the export's BRDA records are not geninfo's"
  }
  summary_is_lcovs both.data
fi

# ---- 3. -O2, plugin alone ----
dscc -O2 -o o2 branchy.c || fail "branchy.c does not compile at -O2"
DSPROF_OUT=o2.data ./o2 >o2.out || fail "o2: status $?"
expect_same both.out o2.out
run_dsprof annotate --branches -o bb2 o2.data || fail "annotate --branches (-O2): status $?"
expect_same bb/branchy.c.bb bb2/branchy.c.bb

# ---- 4. two runs ----
DSPROF_OUT=o2b.data ./o2 >/dev/null || fail "o2 (second run): status $?"
run_dsprof merge -o merged.data o2.data o2b.data || fail "merge: status $?"
for how in "o2.data o2b.data" merged.data; do
  rm -rf bb3
  # shellcheck disable=SC2086
  run_dsprof annotate --branches -o bb3 $how || fail "annotate --branches $how: status $?"
  awk '/^branch/ && / taken / { n = $4; sub(/taken [0-9]+/, "taken " 2 * n) } { print }' bb2/branchy.c.bb >twice.bb
  grep '^branch' twice.bb >twice.br
  grep '^branch' bb3/branchy.c.bb >got.br
  expect_same twice.br got.br
done
echo "counters-branches: $(tail -1 check.out)"
