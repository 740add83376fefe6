# report-diff: `dsprof diff` of two runs of examples/rewrite, -b (the missing
# attempt) and the plain run, whose counts are derived by hand in
# b-to-good.txt and name-result.txt (from rewrite.c, as report-example-rewrite
# derives each side): every row's counts, status (both, new, gone), change
# and percentage, each side's figures against `dsprof report` of that side
# alone, the order by the size of the change, in text, CSV and JSON
# (diffcheck.py); the reverse direction (gone); groups (--base/--new) and
# directories; --where, --top, --sum; --fail-above's exit statuses; --lines
# on two runs of examples/vm (10 and 20), annotate --diff; html --diff (its
# tables, icicle graph and changed lines, htmlcheck.py); bad input.
. "$(dirname "$0")/../../lib.sh"
check () { python3 "$CASE/diffcheck.py" "$DSPROF" "$@"; }
# The examples free nothing before they exit: under make check-sanitize's
# leak checker they run without it (dsprof is checked in full).
ex () { ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "$@"; }

dscc -O2 -o rewrite "$TOP/examples/rewrite/rewrite.c" || fail "rewrite.c does not compile"
mkdir good bad runs-b
(cd good && ex ../rewrite >out) || fail "rewrite: status $?"
(cd bad && ex ../rewrite -b >out) || fail "rewrite -b: status $?"
DSPROF_OUT=runs-b/2.data ex ./rewrite -b >/dev/null || fail "rewrite -b (2): status $?"
G=good/dsprof.data B=bad/dsprof.data

for c in total self count; do
  check "$CASE/b-to-good.txt" --change $c --base $B --new $G || fail "diff B G --change $c"
done
check "$CASE/name-result.txt" --change count --base $B --new $G name result \
  || fail "diff B G name result"
check "$CASE/name-result.txt" --base $B --new $G name result || fail "diff B G name result (total)"

# The other way round: what was new is gone, the counts swap.
awk -F'\t' -v OFS='\t' '/^#/ { next }
  { s = $(NF - 2); s = s == "new" ? "gone" : s == "gone" ? "new" : s
    $(NF - 2) = s; t = $(NF - 1); $(NF - 1) = $NF; $NF = t; print }' \
  "$CASE/name-result.txt" >good-to-b.txt
check good-to-b.txt --change count --base $G --new $B name result || fail "diff G B name result"

# --where and --top on both sides; --sum: result (a bool) sums the successes.
printf 'rule\tboth\t1\t31\n' >where.txt
check where.txt --where name=rule --base $B --new $G || fail "diff --where name=rule"
check - --top 2 --change count --base $B --new $G name result || fail "diff --top 2"
run_dsprof diff --sum result --where name=rule $B $G --format json >sum.json \
  || fail "diff --sum: status $?"
python3 - sum.json <<'PY' || fail "diff --sum result: $(cat sum.json)"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["rows"][0]
assert d["sums"] == ["result"], d["sums"]
# rule: -b fails once (0 successes); the plain run succeeds 12 times of 31.
assert (r["base"]["sums"], r["new"]["sums"]) == ([0], [12]), r
PY
run_dsprof diff --sum result --where name=rule $B $G --format csv >sum.csv
grep -qx '1,rule,both,[0-9]*,[0-9]*,[0-9-]*,[0-9.-]*,[0-9]*,[0-9]*,[0-9-]*,[0-9.-]*,1,31,30,3000.00,0,12' sum.csv \
  || fail "diff --sum --format csv: $(cat sum.csv)"

# A dimension no record carries is said once, not once a side; one side's
# dimension is no note.
run_dsprof diff $B $G nosuchdim --sum nosum --sum result >/dev/null 2>err.txt || fail "diff nosuchdim"
printf '%s\n' "dsprof: no record carries dimension 'nosuchdim'" \
  "dsprof: no record carries a number in dimension 'nosum'" | expect_same /dev/stdin err.txt
run_dsprof diff --where name=bottomup $B $G name >/dev/null 2>err.txt || fail "diff --where name=bottomup"
[ ! -s err.txt ] || fail "diff --where name=bottomup (records on one side only) said $(cat err.txt)"

# The first two operands are the sides unless --base / --new name them.
run_dsprof diff --format csv --base $B --new $G name result >opts.csv || fail "diff --base --new"
run_dsprof diff --format csv $B $G name result >ops.csv || fail "diff B G"
expect_same opts.csv ops.csv
run_dsprof diff --format csv --new $G $B name result >ops2.csv || fail "diff --new G B"
expect_same opts.csv ops2.csv

# Groups: two -b runs against the plain one: the base counts double.
awk -F'\t' -v OFS='\t' '/^#/ { next } { if ($(NF - 1) != "-") $(NF - 1) *= 2; print }' \
  "$CASE/b-to-good.txt" >two-b.txt
check two-b.txt --change count --base $B --base runs-b/2.data --new $G || fail "diff of a group"
# A directory is its profiles (files beginning with dsprof's magic, by name):
# a source, a fifo and a dot-file beside them are left out, the fifo unread.
cp $B runs-b/1.data && cp "$TOP/examples/rewrite/rewrite.c" runs-b/
mkfifo runs-b/fifo && cp $B runs-b/.hidden.data
run_dsprof diff --format csv --base runs-b/1.data --base runs-b/2.data --new $G >group.csv \
  || fail "diff --base x2: status $?"
timeout 20 "$DSPROF" diff --format csv runs-b $G >dir.csv || fail "diff DIR G: status $?"
expect_same group.csv dir.csv
run_dsprof diff --format json runs-b good >dirs.json || fail "diff DIR DIR: status $?"
python3 - dirs.json <<'PY' || fail "diff of two directories: $(head -c 300 dirs.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["base"]["profiles"] == ["runs-b/1.data", "runs-b/2.data"], d["base"]
assert d["new"]["profiles"] == ["good/dsprof.data"], d["new"]
assert d["base"]["records"] == 8 and d["new"]["records"] == 133, d
PY

# --fail-above PCT: status 3 when a figure grew by more than PCT percent (a
# bucket new in NEW grew if its figure is above 0), each such bucket named.
st () { set +e; "$DSPROF" diff "$@" >/dev/null 2>err.txt; echo $?; set -e; }
[ "$(st --change count --fail-above 50 $B $G name result)" = 3 ] || fail "--fail-above 50: not 3"
grep -qx 'dsprof diff: name=rule: Count 1 -> 31 (+3000.0%), above 50%' err.txt \
  || fail "--fail-above: $(cat err.txt)"
grep -qx 'dsprof diff: name=rule, result=false: Count 1 -> 19 (+1800.0%), above 50%' err.txt \
  || fail "--fail-above, nested: $(cat err.txt)"
grep -qx 'dsprof diff: name=all: new, Count 18, above 50%' err.txt \
  || fail "--fail-above, a new bucket: $(cat err.txt)"
# Grown (name-result.txt): rule, topdown, removeClass and the 7 new names; of
# the results, rule false and the 15 new ones; seq (1 -> 1) and removeClass
# false (1 -> 1) did not grow, seq false and topdown false are gone.
[ "$(grep -c . err.txt)" = 26 ] || fail "--fail-above: not the 26 rows that grew: $(cat err.txt)"
[ "$(st --change count --fail-above 2999 --where name=rule $B $G)" = 3 ] || fail "--fail-above 2999"
[ "$(st --change count --fail-above 3000 --where name=rule $B $G)" = 0 ] \
  || fail "--fail-above 3000 (rule grew by exactly 3000%): $(cat err.txt)"
[ ! -s err.txt ] || fail "--fail-above 3000 said $(cat err.txt)"
# Back to -b every name shrinks or stays (seq 1 -> 1); the results seq false
# and topdown false are new there.
[ "$(st --change count --fail-above 0 $G $B name)" = 0 ] || fail "G B: $(cat err.txt)"
[ "$(st --change count --fail-above 0 $G $B name result)" = 3 ] || fail "G B name result"
[ "$(grep -c . err.txt)" = 2 ] || fail "G B name result: $(cat err.txt)"
[ "$(st --fail-above 0 $G $G name result)" = 0 ] || fail "G G: $(cat err.txt)"
# Times: a bucket new in G has a Total above 0 (its records took some time).
[ "$(st --raw --fail-above 1000000 $B $G)" = 3 ] || fail "--raw total B G"
grep -q '^dsprof diff: name=all: new, Total [1-9][0-9]* ns, above 1e+06%$' err.txt \
  || fail "--fail-above on Total: $(cat err.txt)"

# --lines: examples/vm summing the squares below N, run with 10 and 20.  By
# hand from vm.c: the loop runs N - 1 times (i = 1 .. N-1), 15 instructions
# each (LOAD LOAD LT JZ, the 10 of the body, JMP), plus PUSH STORE PUSH STORE
# before, and the last test (LOAD LOAD LT JZ) and LOAD PRINT HALT after: 15N - 4
# instructions (146 for 10), each a pass of the switch (lines 36-37), all but
# HALT through the for's increment (34-35: 15N - 5).  Per opcode: PUSH (39) 2 +
# (N - 1), LOAD (40) 2N + 4(N - 1) + 1, STORE (41) 2 + 2(N - 1), ADD (42)
# 2(N - 1), MUL (43) N - 1, LT (44) N, JZ (45, 46 and its break, 48) N, JMP
# (49) N - 1; the jump out of the loop (47), PRINT, HALT and main once each.
# So from 10 to 20: +150 on 34-37, +60 on 40, +20 on 41 and 42, +10 on 39,
# 43-46, 48 and 49, nothing else.
cp "$TOP/examples/vm/vm.c" .
dscc -O2 -o vm vm.c || fail "vm.c does not compile"
DSPROF_OUT=v10.data ex ./vm 10 >/dev/null 2>&1 || fail "vm 10: status $?"
DSPROF_OUT=v20.data ex ./vm 20 >/dev/null 2>&1 || fail "vm 20: status $?"
run_dsprof diff --lines v10.data v20.data >lines.txt || fail "diff --lines: status $?"
cat >lines.expected <<'TXT'
vm.c:34: 145 -> 295 (+150, +103.4%)
vm.c:35: 145 -> 295 (+150, +103.4%)
vm.c:36: 146 -> 296 (+150, +102.7%)
vm.c:37: 146 -> 296 (+150, +102.7%)
vm.c:40: 57 -> 117 (+60, +105.3%)
vm.c:41: 20 -> 40 (+20, +100.0%)
vm.c:42: 18 -> 38 (+20, +111.1%)
vm.c:39: 11 -> 21 (+10, +90.9%)
vm.c:43: 9 -> 19 (+10, +111.1%)
vm.c:44: 10 -> 20 (+10, +100.0%)
vm.c:45: 10 -> 20 (+10, +100.0%)
vm.c:46: 10 -> 20 (+10, +100.0%)
vm.c:48: 10 -> 20 (+10, +100.0%)
vm.c:49: 9 -> 19 (+10, +111.1%)
TXT
expect_same lines.expected lines.txt
# The same lines from the two sides' own line counts joined: the lcov
# exports' DA records (annotate's count of a line), and every line of `dsprof
# lines` (a block's own line) whose largest count changed.
for n in 10 20; do
  run_dsprof export --format lcov "v$n.data" | sed -n "/^SF:.*\/vm.c$/,/^end_of_record/s/^DA:\([0-9]*\),/\1 /p" \
    | sort >"da$n" || fail "export lcov v$n.data"
  run_dsprof lines "v$n.data" | awk -F': ' '$1 ~ /^vm.c:/ { l = substr($1, 6); if (!(l in m) || $2 > m[l]) m[l] = $2 }
    END { for (l in m) print l, m[l] }' | sort >"bl$n" || fail "lines v$n.data"
done
join da10 da20 | awk '$2 != $3 { printf "vm.c:%s: %s -> %s\n", $1, $2, $3 }' | sort >da.changed
sed 's/ (.*//' lines.txt | sort >lines.changed
expect_same da.changed lines.changed
join bl10 bl20 | awk '$2 != $3 { printf "vm.c:%s: %s -> %s\n", $1, $2, $3 }' | sort >bl.changed
[ "$(wc -l <bl.changed)" -ge 10 ] || fail "dsprof lines joined: $(cat bl.changed)"
comm -23 bl.changed lines.changed >missing
[ ! -s missing ] || fail "diff --lines lacks what dsprof lines shows: $(cat missing)"
run_dsprof diff --lines --top 3 v10.data v20.data >top3.txt || fail "diff --lines --top 3"
head -3 lines.expected | expect_same /dev/stdin top3.txt
# Back down: the same lines, the changes negative, in the same order.
run_dsprof diff --lines v20.data v10.data | sed 's/ (.*//' >down.txt
sed -E 's/^([^ ]*) ([0-9]*) -> ([0-9]*) .*/\1 \3 -> \2/' lines.expected | expect_same /dev/stdin down.txt
# --fail-above with --lines: 42, 43 and 49 grew by 111.1%, the others less.
[ "$(st --lines --fail-above 111 v10.data v20.data)" = 3 ] || fail "--lines --fail-above 111"
printf 'dsprof diff: vm.c:%s: count %s, above 111%%\n' 42 '18 -> 38' 43 '9 -> 19' 49 '9 -> 19' \
  | expect_same /dev/stdin err.txt
[ "$(st --lines --fail-above 111.2 v10.data v20.data)" = 0 ] || fail "--lines --fail-above 111.2: $(cat err.txt)"
[ "$(st --lines --fail-above 0 v20.data v10.data)" = 0 ] || fail "--lines v20 v10: $(cat err.txt)"
[ "$(st --lines --fail-above 0 v10.data v10.data)" = 0 ] || fail "--lines v10 v10: $(cat err.txt)"

# annotate --diff BASE: the listing of v20.data with v10.data's count and the
# change before each line's: the changed lines are those of diff --lines,
# every other line shows the same count twice (or none).
rm -rf bb && run_dsprof annotate --diff v10.data -o bb v20.data || fail "annotate --diff: status $?"
awk -F: '{ split($1, c, " ") } c[3] != "" { printf "vm.c:%d: %s -> %s\n", $2, c[1], c[2] }' bb/vm.c.bb \
  | sort >ann.changed
expect_same lines.changed ann.changed
awk -F: '{ n = split($1, c, " ") }
  n == 3 { d = c[2] - c[1]; if ((d > 0 ? "+" d : d) != c[3]) print "change", $0 }
  n == 2 && c[1] != c[2] { print "unchanged", $0 }
  n == 1 || n > 3 { print "columns", $0 }' bb/vm.c.bb >ann.bad
[ ! -s ann.bad ] || fail "annotate --diff: $(cat ann.bad)"
grep -q '^ *##### *##### *:   52:        default: abort ();$' bb/vm.c.bb \
  || fail "annotate --diff: the never-run line 52: $(grep ': *52:' bb/vm.c.bb)"
mkdir runs10 && cp v10.data runs10/
rm -rf bb2 && run_dsprof annotate --diff runs10 -o bb2 v20.data || fail "annotate --diff DIR: status $?"
expect_same bb/vm.c.bb bb2/vm.c.bb
set +e; "$DSPROF" annotate --diff nosuch.data -o bb3 v20.data 2>err.txt; rc=$?; set -e
[ $rc = 2 ] && [ "$(sed 's/ (a program built with the plugin .*)$//' err.txt)" = "dsprof: nosuch.data: No such file or directory" ] \
  || fail "annotate --diff nosuch.data: status $rc, $(cat err.txt)"
[ ! -e bb3 ] || fail "annotate --diff nosuch.data wrote bb3"

# html --diff BASE: the tables with both sides and the change (the counts of
# b-to-good.txt), the icicle graph of the new profile's name paths coloured
# by their change, and the changed lines of diff --lines.  The paths: -b runs
# seq;topdown;rule;removeClass once; the plain run seq;topdown (desugar)
# whose children are attempt (its s1) and all (its s2), and seq;bottomup
# (simplify): only seq and seq;topdown are on both sides (1 record each), every
# other path of the plain run is new, and seq;topdown;rule is gone (with its
# removeClass).  The other way round: seq;topdown;rule(;removeClass) are new,
# seq;bottomup, seq;topdown;attempt and seq;topdown;all gone.
hcheck () { python3 "$CASE/htmlcheck.py" "$@"; }
run_dsprof html --diff $B -o d.html $G 2>err || fail "html --diff: status $? ($(cat err))"
[ ! -s err ] || fail "html --diff said $(cat err)"
run_dsprof diff --lines $B $G >bg.lines
hcheck d.html "$CASE/b-to-good.txt" bg.lines 'seq=1/1,seq;topdown=1/1' 'seq;topdown;rule' \
  || fail "html --diff B G"
run_dsprof html --diff $G -o r.html $B 2>err || fail "html --diff G B: status $? ($(cat err))"
awk -F'\t' -v OFS='\t' '/^#/ { next } { s = $2 == "new" ? "gone" : $2; print $1, s, $4, $3 }' \
  "$CASE/b-to-good.txt" >g-to-b.txt
run_dsprof diff --lines $G $B >gb.lines
hcheck r.html g-to-b.txt gb.lines 'seq=1/1,seq;topdown=1/1' \
  'seq;bottomup,seq;topdown;attempt,seq;topdown;all' || fail "html --diff G B"
grep -q '<ul class="profiles base">' d.html && grep -q "<li>$B: program" d.html \
  || fail "html --diff: the base's profiles are not listed"
run_dsprof html --diff runs-b -o dd.html $G || fail "html --diff DIR: status $?"
grep -q "<li>runs-b/2.data: program" dd.html || fail "html --diff DIR: runs-b/2.data not listed"
echo "not a profile" >text.data
set +e; "$DSPROF" html --diff text.data -o bad.html $G 2>err.txt; rc=$?; set -e
[ $rc = 2 ] && [ "$(cat err.txt)" = "dsprof: text.data: not a dsprof profile (no dsprof magic number)" ] \
  || fail "html --diff text.data: status $rc, $(cat err.txt)"
[ ! -e bad.html ] || fail "html --diff text.data wrote bad.html"

# Bad input: one message, status 1 for usage, 2 for data.
bad () {   # bad STATUS MESSAGE ARGS...: dsprof diff ARGS fails so
  local want=$1 msg=$2
  shift 2
  set +e; timeout 20 "$DSPROF" diff "$@" >out.txt 2>err.txt; rc=$?; set -e
  [ $rc = "$want" ] || fail "diff $*: status $rc, not $want: $(cat err.txt)"
  # (Less the hint after a profile that is not there.)
  [ "$(head -1 err.txt | sed 's/ (a program built with the plugin .*)$//')" = "$msg" ] ||
    fail "diff $*: said $(cat err.txt)"
  [ ! -s out.txt ] || fail "diff $*: printed $(cat out.txt)"
  [ "$want" = 1 ] || [ "$(wc -l <err.txt)" = 1 ] || fail "diff $*: more than one line: $(cat err.txt)"
}
two='dsprof diff: wants two sides to compare: BASE and NEW (a profile, a directory of profiles, or --base/--new groups)'
bad 1 "$two"
bad 1 "$two" $B
bad 1 "$two" --base $B --base $G
bad 2 "dsprof: nosuch.data: No such file or directory" $B nosuch.data
bad 2 "dsprof: nosuch.data: No such file or directory" nosuch.data $G
bad 2 "dsprof: text.data: not a dsprof profile (no dsprof magic number)" $B text.data
mkdir empty && cp "$TOP/examples/rewrite/rewrite.c" empty/
bad 2 "dsprof: 'empty': a directory holding no dsprof profile" empty $G
bad 2 "dsprof: 'runs-b/fifo': is a fifo, not a profile" runs-b/fifo $G
bad 1 "dsprof diff: --fail-above wants a percentage (a number >= 0), not 'x'" --fail-above x $B $G
bad 1 "dsprof diff: --fail-above wants a percentage (a number >= 0), not '-5'" --fail-above -5 $B $G
bad 1 "dsprof diff: --fail-above wants a percentage (a number >= 0), not '5%'" --fail-above 5% $B $G
bad 1 "dsprof diff: --change must be total, self or count, not 'time'" --change time $B $G
bad 1 "dsprof diff: option '--fail-above' needs an argument" $B $G --fail-above
bad 1 "dsprof diff: unknown option '--nosuch'" --nosuch $B $G
bad 1 "dsprof diff: outer:D wants a dimension D, not 'outer:'" $B $G outer:
bad 1 "dsprof diff: --lines takes no dimensions, not 'name'" --lines v10.data v20.data name
bad 1 "dsprof diff: --lines prints FILE:LINE: lines; --format csv is for the dimension diff" --lines --format csv v10.data v20.data
exit 0
