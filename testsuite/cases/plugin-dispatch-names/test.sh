# plugin-dispatch-names: an op record is named by its case label as the
# source writes it (docs/vm.md "The rules in full").  names.c's VM
# switches on an int; at -O0 and -O2 `dsprof report name --where event=op`
# gives every opcode the text after its `case': a macro's name, an
# enumerator of an enum that is not the switch's type, a literal, a char
# literal, an expression (white space made single), several labels of one
# block each (in the order of their values), a real range LOW..HIGH, the
# argument of `vmcase(l)' (#define vmcase(l) case l:), also through a
# macro invoking it and on continued lines, and a pasted `OP_##x'; two
# adjacent values' labels with nothing between them (`case 52: case 53:',
# which GCC makes one range) are two opcodes, each with its own count; each
# name's count is on its label's line in `dsprof lines --ops', and the
# line's block count in `dsprof lines', where it has one, is as large.
# Where the text cannot be read (a #line naming a file that is not there,
# macros without expansion tracking) the name is the value, as before.
# Then a dispatch=FUNC whose switch GCC makes into branches (on a _Bool,
# with only a default, with a single case) is an error saying so.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/names.c" "$CASE/lost.c" .
gcc -w -O2 -o plain names.c || fail "names.c does not compile without the plugin"
./plain >plain.out || fail "the plain vm exited with status $?"

expected="'x'
1..3
52
53
60,INST_PUSH1 + 50
7
INST_PUSH0
INST_PUSH1
OP_ADD
OP_DUP
OP_END
OP_MUL
OP_NEG + 10
OP_ROT
OP_SUB"

names () {  # names DIR: the op records' names, sorted, and counts checked
  local dir=$1
  DSPROF_OUT=$PWD/$dir/vm.data ./$dir/vm >$dir/out || fail "$dir: vm exited with status $?"
  expect_same plain.out $dir/out
  run_dsprof report name line --where event=op $dir/vm.data >$dir/ops 2>$dir/report.err ||
    fail "$dir: dsprof report: status $?"
  run_dsprof lines $dir/vm.data >$dir/lines || fail "$dir: dsprof lines: status $?"
  run_dsprof lines --ops $dir/vm.data >$dir/oplines || fail "$dir: dsprof lines --ops: status $?"
  # The table by name, then one by line for each name: NAME's rows end with
  # its line (Value) and have its count in Count.
  awk '/^By line for / { name = substr($0, 13); sub(/:$/, "", name) }
       name && NF == 9 && $1 ~ /^[0-9.]+$/ { print $9, $7, name }' $dir/ops >$dir/counts
  [ -s $dir/counts ] || fail "$dir: no op records: $(cat $dir/ops)"
  while read -r line count name; do
    grep -Fxq "names.c:$line: $count $name" <(sed 's|.*/||' $dir/oplines) ||
      fail "$dir: $name on line $line: $count records, but lines --ops: $(cat $dir/oplines)"
    listed=$(grep -E "(^|/)names.c:$line: " $dir/lines | sed 's/.*: //' | sort -n | tail -1)
    [ -z "$listed" ] || [ "$listed" -ge "$count" ] ||
      fail "$dir: line $line: $count records, but dsprof lines: $listed"
  done <$dir/counts
  [ "$(wc -l <$dir/oplines)" = "$(wc -l <$dir/counts)" ] ||
    fail "$dir: lines --ops: $(cat $dir/oplines), the report: $(cat $dir/counts)"
  # The names: what follows the 8 figures of the rows of the table by name.
  awk '/^By line for / { exit } $1 ~ /^[0-9.]+$/' $dir/ops |
    sed -E 's/^ *([^ ]+ +){8}//' | LC_ALL=C sort >$dir/names
}

for o in O0 O2; do
  mkdir $o
  dscc -$o -fplugin-arg-dsprof-dispatch=run -o $o/vm names.c 2>$o/err ||
    fail "$o: names.c does not compile: $(cat $o/err)"
  names $o
  [ "$(cat $o/names)" = "$expected" ] || fail "$o: the names: $(cat $o/names)"
done

# The text not found: the values' names.
sed '1i #line 1 "not-here.c"' names.c >moved.c
mkdir moved
dscc -O2 -fplugin-arg-dsprof-dispatch=run -o moved/vm moved.c 2>moved/err ||
  fail "moved.c does not compile: $(cat moved/err)"
DSPROF_OUT=$PWD/moved/vm.data ./moved/vm >moved/out || fail "moved: status $?"
run_dsprof report name --where event=op moved/vm.data | awk '$1 ~ /^[0-9.]+$/ { print $9 }' |
  LC_ALL=C sort | tr '\n' ' ' >moved/names
[ "$(cat moved/names)" = '1..3 120 20 21 30 31 32 34 35 36 43 52..53 60,70 7 ' ] ||
  fail "#line to a file not there: $(cat moved/names)"
mkdir untracked
dscc -O0 -ftrack-macro-expansion=0 -fplugin-arg-dsprof-dispatch=run -o untracked/vm names.c \
  2>untracked/err || fail "-ftrack-macro-expansion=0: $(cat untracked/err)"
names untracked
grep -qx 31 untracked/names && grep -qx 32 untracked/names && grep -qx OP_ADD untracked/names ||
  fail "-ftrack-macro-expansion=0: $(cat untracked/names)"

# Switches compiled as branches: the reason.
lost () {  # lost FUNC REASON
  LC_ALL=C dscc -c -o lost.o lost.c -fplugin-arg-dsprof-dispatch="$1" 2>err && fail "dispatch=$1 compiled"
  grep -q "dispatch function '${1%@*}' has no dispatch: its switch on line [0-9]* $2" err ||
    fail "dispatch=$1: not the expected error: $(cat err)"
  [ "$(grep -c 'error' err)" = 1 ] || fail "dispatch=$1: several errors: $(cat err)"
}
lost on_bool "is on a '_Bool'"
lost only_default "has only a 'default'"
lost one_case "has a single case"
lost on_bool@"$(grep -n "switch (b)" lost.c | cut -d: -f1)" "is on a '_Bool'"

# A dispatch function no unit defines: with counters=off the program still
# writes a profile (its units say what they were built to instrument), and
# `report' and `info' say the function was not found; `report' says where
# records come from.  With the function found beside it, only the missing
# one is named.
mkdir missing
dscc -O2 -fplugin-arg-dsprof-counters=off -fplugin-arg-dsprof-dispatch=not_here \
  -o missing/vm names.c 2>missing/err || fail "dispatch=not_here: $(cat missing/err)"
[ ! -s missing/err ] || fail "dispatch=not_here said: $(cat missing/err)"
DSPROF_OUT=$PWD/missing/vm.data ./missing/vm >missing/out || fail "missing: status $?"
[ -f missing/vm.data ] || fail "counters=off, dispatch=not_here: no profile"
warning="dsprof: warning: missing/vm.data: no unit of the program defines the dispatch function 'not_here' it was built with (dispatch=not_here): no op records for it"
for c in report info; do
  run_dsprof $c missing/vm.data >missing/$c.out 2>missing/$c.err || fail "$c: status $?"
  [ "$(cat missing/$c.err)" = "$warning" ] || fail "$c said: $(cat missing/$c.err)"
done
grep -q '^No profile records.  Records are the calls of events' missing/report.out &&
  grep -q 'dsprof-dispatch=FUNC' missing/report.out ||
  fail "report without records: $(cat missing/report.out)"
dscc -O2 -fplugin-arg-dsprof-dispatch=run:not_here -o missing/vm2 names.c || fail "dispatch=run:not_here"
DSPROF_OUT=$PWD/missing/vm2.data ./missing/vm2 >/dev/null || fail "vm2: status $?"
run_dsprof report missing/vm2.data >/dev/null 2>missing/err2 || fail "report vm2: status $?"
[ "$(cat missing/err2)" = "${warning//vm.data/vm2.data}" ] || fail "report vm2 said: $(cat missing/err2)"
[ ! -s O2/report.err ] || fail "O2: report said: $(cat O2/report.err)"

# A profile that is not there: where profiles come from.
set +e; run_dsprof report missing/nothing.data 2>missing/none.err; rc=$?; set -e
[ $rc = 2 ] && grep -qx "dsprof: missing/nothing.data: No such file or directory (a program built with the plugin writes its profile when it runs, to the file DSPROF_OUT names, else ./dsprof.data; built with counters=off, only if it has events (.*) or was built with dispatch=FUNC)" missing/none.err ||
  fail "report of a missing profile: status $rc, $(cat missing/none.err)"
