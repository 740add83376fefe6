# report-annotate-wide: a count of more than 9 digits widens the count column of its
# whole listing, so the column stays fixed-width and aligned (docs/contract.md §5.2).  The
# loop body runs 2 000 000 times; merging the profile with itself ten times
# makes that 2 048 000 000 (10 digits) without a long run.
. "$(dirname "$0")/../../lib.sh"

dscc -O0 -o wide "$CASE/wide.c" || fail "wide.c does not compile"
DSPROF_OUT=p0.data ./wide >/dev/null || fail "wide failed"
for k in 1 2 3 4 5 6 7 8 9 10; do
  run_dsprof merge -o "p$k.data" "p$((k - 1)).data" "p$((k - 1)).data" ||
    fail "merge $k: status $?"
done

# Before the merges: the usual 9-character column.
run_dsprof annotate -o small p0.data || fail "annotate p0: status $?"
s=small/$(cd "$CASE" && pwd)/wide.c.bb
[ -f "$s" ] || s=$(find small -name wide.c.bb | head -1)
[ -f "$s" ] || fail "no listing of wide.c"
grep -qx '  2000000:    9:    sum += i & 7;' "$s" || fail "loop body line: $(sed -n 9p "$s")"
awk 'index($0, ":") != 10 { bad = 1 } END { exit bad }' "$s" ||
  fail "a line of the 9-wide listing has its first ':' elsewhere than column 10"

run_dsprof annotate -o big p10.data || fail "annotate p10: status $?"
b=big/${s#small/}
[ -f "$b" ] || fail "no listing of wide.c after the merges"
grep -qx '2048000000:    9:    sum += i & 7;' "$b" || fail "loop body line: $(sed -n 9p "$b")"
grep -qx '      1024:    5:main (void)' "$b" || fail "main's definition line: $(sed -n 5p "$b")"
grep -qx '     #####:   11:    puts ("never");' "$b" || fail "the line never run: $(sed -n 11p "$b")"
grep -qx '          :    1:/\* wide.c - one hot loop for report-annotate-wide.  \*/' "$b" ||
  fail "a line no block holds: $(sed -n 1p "$b")"
awk 'index($0, ":") != 11 { bad = 1 } END { exit bad }' "$b" ||
  fail "a line of the widened listing has its first ':' elsewhere than column 11"
exit 0
