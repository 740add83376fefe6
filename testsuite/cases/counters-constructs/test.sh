# counters-constructs: one small program per group of C constructs of docs/contract.md §3 (if/else,
# && and ||, ?:, while, for, do-while, break, continue, labels and goto, switch
# with case, default and fall-through, early return, recursion).  Each runs on
# inputs fixed inside it; its annotated listing (docs/contract.md §5.2) must equal
# testsuite/fixtures/expected/<file>.c.bb, whose counts were worked out by hand from the program's
# logic, and its output expected/<file>.out.  `dsprof lines` must agree with the
# listing: every FILE:LINE it names is a counted line of the listing, with a count
# no larger than the listing's (which is the largest block count on the line).
. "$(dirname "$0")/../../lib.sh"

PROGS="branches ternary loops jumps calls"

for f in $PROGS; do
  cp "$FIXTURES/$f.c" .
  dscc -o "$f" "$f.c" || fail "$f.c does not compile with the plugin"
  DSPROF_OUT=$f.data ./"$f" >"$f.out" || fail "$f exited with status $?"
  expect_same "$FIXTURES/expected/$f.out" "$f.out"

  run_dsprof annotate -o bb "$f.data" || fail "dsprof annotate $f.data: status $?"
  [ -f "bb/$f.c.bb" ] || fail "dsprof annotate -o bb wrote no bb/$f.c.bb ($(find bb -type f | tr '\n' ' '))"
  expect_same "$FIXTURES/expected/$f.c.bb" "bb/$f.c.bb"

  run_dsprof lines "$f.data" >"$f.lines" || fail "dsprof lines $f.data: status $?"
  [ -s "$f.lines" ] || fail "dsprof lines $f.data printed nothing"
  grep -vqE "^$f\.c:[0-9]+: [0-9]+\$" "$f.lines" \
    && fail "dsprof lines $f.data: lines not of the form $f.c:LINE: COUNT: $(grep -vE "^$f\.c:[0-9]+: [0-9]+\$" "$f.lines" | head -3)"
  sort -t: -k1,1 -k2,2n -c -s "$f.lines" || fail "dsprof lines $f.data is not sorted by file and line"
  # Each block's line and count against the listing.
  awk -F: -v f="$f" '
    NR == FNR { c = $1; gsub(/ /, "", c); ln = $2 + 0; listed[ln] = c; next }
    { ln = $2 + 0; n = $3 + 0
      if (!(ln in listed) || listed[ln] == "") { printf "%s.c:%d: a block with no count in the listing\n", f, ln; bad = 1; next }
      m = listed[ln] == "#####" ? 0 : listed[ln] + 0
      if (n > m) { printf "%s.c:%d: block count %d above the listing'"'"'s %d\n", f, ln, n, m; bad = 1 } }
    END { exit bad }' "bb/$f.c.bb" "$f.lines" >&2 || fail "dsprof lines $f.data disagrees with bb/$f.c.bb"
done

# Several profiles at once: the listings of all five, each written once.
rm -rf all && run_dsprof annotate -o all ./*.data || fail "dsprof annotate of all profiles: status $?"
for f in $PROGS; do
  expect_same "$FIXTURES/expected/$f.c.bb" "all/$f.c.bb"
done

# Two runs of one program: counts add up when both profiles are given.
DSPROF_OUT=again.data ./loops >/dev/null
run_dsprof lines loops.data again.data >twice.lines
run_dsprof lines loops.data >once.lines
awk -F': ' 'NR == FNR { a[FNR] = $0; c[FNR] = $2; next }
  { split(a[FNR], x, ": "); if (x[1] != $1 || c[FNR] != 2 * $2) { print "once: " $0 "  twice: " a[FNR]; bad = 1 } }
  END { exit bad }' twice.lines once.lines >&2 \
  || fail "dsprof lines of two runs is not twice the counts of one run"
exit 0
