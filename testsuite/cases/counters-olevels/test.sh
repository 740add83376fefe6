# counters-olevels: the counts do not depend on the optimisation level (docs/contract.md §3).  The
# fixtures of the counters-constructs case, built at -O0 -O1 -O2 -O3 -Os -Og and with -g
# (at -O0 and -O2), give byte-identical `dsprof annotate` listings; each build's
# output must be the same too.  The -O0 listing is the reference (the counters-constructs
# case checks it against the hand-made expectations).
. "$(dirname "$0")/../../lib.sh"

PROGS="branches ternary loops jumps calls"
LEVELS="-O0 -O1 -O2 -O3 -Os -Og -O0_-g -O2_-g"

bad=""
for f in $PROGS; do
  cp "$FIXTURES/$f.c" .
  for level in $LEVELS; do
    flags=$(echo "$level" | tr _ ' ')
    dir=L$level
    mkdir -p "$dir"
    # shellcheck disable=SC2086
    dscc $flags -o "$dir/$f" "$f.c" || fail "$f.c does not compile with $flags"
    DSPROF_OUT=$dir/$f.data "$dir/$f" >"$dir/$f.out" || fail "$f built with $flags: exit status $?"
    cmp -s "$FIXTURES/expected/$f.out" "$dir/$f.out" || fail "$f built with $flags prints $(cat "$dir/$f.out")"
    run_dsprof annotate -o "$dir" "$dir/$f.data" || fail "dsprof annotate ($flags, $f): status $?"
    [ -f "$dir/$f.c.bb" ] || fail "no $dir/$f.c.bb"
    if [ "$level" != -O0 ] && ! cmp -s "L-O0/$f.c.bb" "$dir/$f.c.bb"; then
      echo "== $f.c: $flags differs from -O0:" >&2
      diff -u "L-O0/$f.c.bb" "$dir/$f.c.bb" | sed 1,2d >&2 || true
      bad="$bad $f.c($flags)"
    fi
  done
done
[ -z "$bad" ] || fail "listings differ from -O0's:$bad"
exit 0
