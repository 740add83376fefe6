# export-merge-lossless: `dsprof merge` (docs/contract.md §5.8) loses nothing.  It
# writes the events the one stream walker delivers, their values copied as
# bytes and their times the walker's ns on a nanosecond clock whose ticks are
# those ns, so:
#   - merge(P) reads exactly as P in report --raw --unit ns, records, trace,
#     lines, callgraph --raw and the chrome export, for every golden profile;
#   - merge(merge(P)) is merge(P), byte for byte (the clock maps back exactly);
#   - the merge of every golden profile reads as they read given together, but
#     for thread numbers, renumbered after the previous input's highest;
#   - what of a stream is no event is kept: a chunk of names only, names after
#     a chunk's last event, an empty chunk (names.c's hand-built profile): the
#     merge has as many bytes of stream and of file;
#   - merge keeps nothing per record: a record with a million children
#     (wide.c) merges in 200 MB of address space (the merge that decoded its
#     streams keeping records' children needed over 400 MB).
. "$(dirname "$0")/../../lib.sh"

GOLDEN=$TOP/testsuite/golden/profiles
cp "$GOLDEN"/*.data .
inputs=$(ls ./*.data)

cmds=("report name --raw --unit ns" "records" "trace" "lines"
      "callgraph --raw --unit ns" "export --format chrome")
same_reading () {   # same_reading A B: every command of cmds reads A as B
  local q
  for q in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    run_dsprof $q "$1" >want.txt 2>&1 || fail "$q $1: status $?"
    # shellcheck disable=SC2086
    run_dsprof $q "$2" >got.txt 2>&1 || fail "$q $2: status $?"
    expect_same want.txt got.txt
  done
}

for p in $inputs; do
  n=$(basename "$p" .data)
  run_dsprof merge -o "m-$n.out" "$p" || fail "merge $p: status $?"
  same_reading "$p" "m-$n.out"
  run_dsprof merge -o "mm-$n.out" "m-$n.out" || fail "merge m-$n.out: status $?"
  cmp "m-$n.out" "mm-$n.out" || fail "merge of merge($p) is not merge($p)"
done

# All together.  `records` and `trace` of the inputs walk them in order, as
# the merge does: the lines of the K-th input get the threads of the inputs
# before it added to their thread numbers (" tN " in trace, "thread=N").
run_dsprof merge -o all.out $inputs || fail "merge of all: status $?"
for q in "report name --raw --unit ns" "lines" "callgraph --raw --unit ns"; do
  # shellcheck disable=SC2086
  run_dsprof $q $inputs >want.txt && run_dsprof $q all.out >got.txt \
    || fail "$q: status $?"
  expect_same want.txt got.txt
done
for q in records trace; do
  spec="" base=0
  for p in $inputs; do
    spec="$spec $(run_dsprof $q "$p" | wc -l) $base"
    base=$((base + $(run_dsprof info "$p" | sed -n 's/^threads: //p')))
  done
  # shellcheck disable=SC2086
  run_dsprof $q $inputs | awk -v spec="$spec" '
    BEGIN { k = split(spec, a, " "); i = 1; left = a[1]; base = a[2] }
    {
      while (left == 0 && i + 2 <= k) { i += 2; left = a[i]; base = a[i + 1] }
      left--
      if ($2 ~ /^t[0-9]+$/)
        sub(/ t[0-9]+ /, " t" (substr($2, 2) + base) " ")
      if (match($0, / thread=[0-9]+/)) {
        t = substr($0, RSTART + 8, RLENGTH - 8) + base
        $0 = substr($0, 1, RSTART - 1) " thread=" t substr($0, RSTART + RLENGTH)
      }
      print
    }' >want.txt
  run_dsprof $q all.out >got.txt || fail "$q all.out: status $?"
  expect_same want.txt got.txt
done

# What is no event.
gcc -std=c11 -Wall -Werror -I"$TOP/include" -o names "$CASE/names.c" \
  || fail "names.c does not compile"
./names names.data || fail "names failed"
run_dsprof merge -o names-m.out names.data || fail "merge names.data: status $?"
same_reading names.data names-m.out
run_dsprof info names.data | grep -e '^events:' -e '^file:' >want.txt
run_dsprof info names-m.out | grep -e '^events:' -e '^file:' >got.txt
grep -q '^file: 28672 bytes' want.txt || fail "names.data: $(cat want.txt)"
expect_same want.txt got.txt
run_dsprof merge -o names-mm.out names-m.out || fail "merge names-m.out: status $?"
cmp names-m.out names-mm.out || fail "merge of merge(names.data) is not merge(names.data)"

# Memory.
dscc -O2 -o wide "$CASE/wide.c" || fail "wide.c does not compile"
DSPROF_OUT=wide.data ./wide 1000000 >/dev/null || fail "wide failed"
(ulimit -v 200000 && run_dsprof merge -o wide-m.out wide.data) \
  || fail "merge of a record with a million children: status $?"
run_dsprof records --where name=outer wide-m.out | grep -q '^#1000001 .* -> ' \
  || fail "wide-m.out: no outer record with its children"
exit 0
