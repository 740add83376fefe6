# counters-fork100: 100 forked children (and 10 grandchildren) each write their
# own profile <name>.<pid> (a grandchild <name>.<child pid>.<pid>) with the counts
# of what it ran after its fork, from zero (docs/contract.md §4.5); `dsprof lines` over all
# 111 profiles sums them to the counts of the whole process tree.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/fork100.c" .
dscc -O1 -o fork100 fork100.c || fail "fork100.c does not compile"
line_of () { grep -n "/\\* $1 \\*/" fork100.c | cut -d: -f1; }
MAIN=$(line_of MAIN) ISCHILD=$(line_of ISCHILD) ISGRAND=$(line_of ISGRAND)
CHILD=$(line_of CHILD) GRAND=$(line_of GRAND) PARENT=$(line_of PARENT)

DSPROF_OUT=prof.data ./fork100 >pids || fail "fork100 exited with status $?"
[ "$(wc -l <pids)" -eq 100 ] || fail "fork100 printed $(wc -l <pids) lines, not 100"

# The profiles: the parent's, one per child, one per grandchild, nothing else.
[ -f prof.data ] || fail "no prof.data from the parent"
while read -r k pid; do
  [ -f "prof.data.$pid" ] || fail "no prof.data.$pid from child $k"
  if [ $((k % 10)) -eq 0 ]; then
    set -- prof.data."$pid".*
    [ $# -eq 1 ] && [ -f "$1" ] || fail "child $k (pid $pid): not one grandchild profile: $*"
  fi
done <pids
n=$(ls | grep -c '^prof\.data')
[ "$n" -eq 111 ] || fail "$n profiles, not 111: $(ls | grep '^prof\.data' | head -20)"

# count LINE PROFILE...: the largest count `dsprof lines` gives fork100.c:LINE
# ("none" if no block is on it).
count () {
  local at=$1
  shift
  run_dsprof lines "$@" >lines.out 2>lines.err \
    || fail "dsprof lines $*: status $? ($(cat lines.err))"
  awk -F': ' -v at="fork100.c:$at" '$1 == at { if ($2 + 0 > m) m = $2 + 0; found = 1 }
    END { print found ? m + 0 : "none" }' lines.out
}
expect () {
  local at=$1 want=$2 got
  shift 2
  got=$(count "$at" "$@")
  [ "$got" = "$want" ] || fail "dsprof lines $(echo "$*" | cut -c1-60): fork100.c:$at has count $got, not $want"
}

# The parent: main entered once, 100 forks, its own loop; no child's work.
expect "$MAIN" 1 prof.data
expect "$ISCHILD" 100 prof.data
expect "$PARENT" 3 prof.data
expect "$CHILD" 0 prof.data
expect "$GRAND" 0 prof.data

# Each child: counted from its fork (main's entry and the parent's loop not at
# all), its own loop k times.
while read -r k pid; do
  run_dsprof lines "prof.data.$pid" >child.lines || fail "dsprof lines prof.data.$pid: status $?"
  awk -F': ' -v k="$k" -v main="fork100.c:$MAIN" -v isc="fork100.c:$ISCHILD" \
      -v child="fork100.c:$CHILD" -v grand="fork100.c:$GRAND" -v parent="fork100.c:$PARENT" -v isg="fork100.c:$ISGRAND" '
    { c = $2 + 0; if (!($1 in m) || c > m[$1]) m[$1] = c }
    END {
      want[main] = 0; want[isc] = 1; want[child] = k; want[grand] = 0; want[parent] = 0
      want[isg] = (k % 10 == 0) ? 1 : 0
      for (l in want)
        if (m[l] + 0 != want[l]) { printf "child %d: %s counted %d, not %d\n", k, l, m[l], want[l]; bad = 1 }
      exit bad }' child.lines >&2 || fail "child $k's profile prof.data.$pid is wrong"
done <pids

# Each grandchild: only what it ran after its fork.
for f in prof.data.*.*; do
  run_dsprof lines "$f" >grand.lines || fail "dsprof lines $f: status $?"
  grep -qx "fork100.c:$GRAND: 1" grand.lines || fail "$f: fork100.c:$GRAND not counted once"
  grep -qx "fork100.c:$CHILD: 0" grand.lines || fail "$f: fork100.c:$CHILD counted: $(grep "^fork100.c:$CHILD:" grand.lines)"
done

# All of them together: the counts of the whole tree.
expect "$MAIN" 1 prof.data*
expect "$ISCHILD" 200 prof.data*
expect "$ISGRAND" 20 prof.data*
expect "$CHILD" 5050 prof.data*
expect "$GRAND" 10 prof.data*
expect "$PARENT" 3 prof.data*
exit 0
