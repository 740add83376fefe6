# export-deep: the folded export of a recursion 12,000 calls deep streams its
# lines: one per distinct stack with self time, sorted, adding up to the
# report's Self, written from one stack string rather than a string per line,
# in a few MB.  Building every line first took memory quadratic in the depth
# (240 MB here; a recursion a million deep ran out of memory at 20 GB before
# writing a line).  A stack N frames deep is a line N frames long, so the
# output itself is quadratic in the depth: 230 MB here.
. "$(dirname "$0")/../../lib.sh"

N=12000
dscc -O2 -o deep "$FIXTURES/deep.c" || fail "deep.c does not compile"
./deep $N >out.txt || fail "deep exited with $?"
[ "$(cat out.txt)" = $(( (N + 1) * (N + 2) / 2 )) ] || fail "deep printed $(cat out.txt)"

/usr/bin/time -f %M -o rss.txt "$DSPROF" export --format folded >folded.txt 2>err \
  || fail "export --format folded: status $? ($(cat err))"
rss=$(cat rss.txt)
[ "$rss" -lt 65536 ] || fail "export --format folded used $rss KB for a stack $N deep"

# Every line "deep;deep;...;deep NS", one per depth at most, in strcmp order
# (deeper after shallower), self times adding up to the report's.
LC_ALL=C awk '{ k = split ($1, f, ";"); if (k <= prev || k > '$((N + 1))') bad++
                prev = k; for (i = 1; i <= k; i++) if (f[i] != "deep") bad++
                sum += $2; n++ }
              END { print n + 0, sum + 0, bad + 0 }' folded.txt >check.txt
read -r lines sum bad <check.txt
[ "$bad" = 0 ] || fail "$bad malformed or unsorted folded lines"
[ "$lines" -gt 0 ] || fail "no folded lines"
self=$("$DSPROF" report name --unit ns --format csv | awk -F, '$2 == "deep" { print $5 }')
[ "$sum" = "$self" ] || fail "folded self times add up to $sum ns, the report's Self is $self ns"
LC_ALL=C sort -c folded.txt || fail "folded lines not in sorted order"

# Names that sort before and after ';' around a name's own line and its
# children's (order.c): the lines still come as sort sorts them.
dscc -O1 -o order "$CASE/order.c" || fail "order.c does not compile"
DSPROF_OUT=order.data ./order || fail "order exited with $?"
"$DSPROF" export --format folded --raw order.data >order.txt || fail "order: status $?"
[ "$(wc -l <order.txt)" = 14 ] || fail "want 14 folded lines: $(cat order.txt)"
sed 's/ [0-9]*$//' order.txt >stacks.txt
LC_ALL=C sort stacks.txt | cmp -s - stacks.txt || fail "folded lines not in sorted order: $(cat order.txt)"
exit 0
