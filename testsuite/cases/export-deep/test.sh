# export-deep: the folded export of a recursion 12,000 calls deep streams its
# lines: one per distinct stack with self time, in the order of their whole
# stacks, adding up to the report's Self, written from one stack string rather
# than a string per line, in a few MB.  Building every line first took memory
# quadratic in the depth (240 MB here; a recursion a million deep ran out of
# memory at 20 GB before writing a line).  A line keeps its stack's innermost
# 128 frames, after one frame "[truncated N frames]" for the N outer ones
# (docs/contract.md §5.8): the output is linear in the depth (a line per
# stack at most 129 frames long; whole stacks made it quadratic, 230 MB here).
. "$(dirname "$0")/../../lib.sh"

N=12000
dscc -O2 -o deep "$FIXTURES/deep.c" || fail "deep.c does not compile"
./deep $N >out.txt || fail "deep exited with $?"
[ "$(cat out.txt)" = $(( (N + 1) * (N + 2) / 2 )) ] || fail "deep printed $(cat out.txt)"

/usr/bin/time -f %M -o rss.txt "$DSPROF" export --format folded >folded.txt 2>err \
  || fail "export --format folded: status $? ($(cat err))"
rss=$(cat rss.txt)
[ "$rss" -lt 65536 ] || fail "export --format folded used $rss KB for a stack $N deep"

# Every line "deep;deep;...;deep NS", or "[truncated M frames];deep;...;deep NS"
# with 128 frames after the cut, one per depth at most, deeper after
# shallower, self times adding up to the report's.
LC_ALL=C awk '{ sp = match ($0, / [0-9]+$/); k = split (substr ($0, 1, sp - 1), f, ";")
                d = k; i = 1
                if (f[1] ~ /^\[truncated [0-9]+ frames?\]$/) {
                  m = f[1]; gsub (/[^0-9]/, "", m); d = m + k - 1; i = 2
                  if (k != 129 || m < 1) bad++ }
                if (k > 129 || d <= prev || d > '$((N + 1))') bad++
                prev = d; for (; i <= k; i++) if (f[i] != "deep") bad++
                if (d > 128) cut++
                sum += substr ($0, sp + 1); n++ }
              END { print n + 0, sum + 0, bad + 0, cut + 0 }' folded.txt >check.txt
read -r lines sum bad cut <check.txt
[ "$bad" = 0 ] || fail "$bad malformed, uncut or unordered folded lines"
[ "$lines" -gt 0 ] || fail "no folded lines"
[ "$cut" -gt 0 ] || fail "no line deeper than 128 frames to check the cut on"
self=$("$DSPROF" report name --unit ns --format csv | awk -F, '$2 == "deep" { print $5 }')
[ "$sum" = "$self" ] || fail "folded self times add up to $sum ns, the report's Self is $self ns"
size=$(wc -c <folded.txt)
[ "$size" -le $(( (N + 1) * (129 * 5 + 40) )) ] || fail "folded output of $size bytes: not linear in the depth"

# Names that sort before and after ';' around a name's own line and its
# children's (order.c): the lines still come as sort sorts them.
dscc -O1 -o order "$CASE/order.c" || fail "order.c does not compile"
DSPROF_OUT=order.data ./order || fail "order exited with $?"
"$DSPROF" export --format folded --raw order.data >order.txt || fail "order: status $?"
[ "$(wc -l <order.txt)" = 14 ] || fail "want 14 folded lines: $(cat order.txt)"
sed 's/ [0-9]*$//' order.txt >stacks.txt
LC_ALL=C sort stacks.txt | cmp -s - stacks.txt || fail "folded lines not in sorted order: $(cat order.txt)"
exit 0
