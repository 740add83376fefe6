# report-args: the command line.  An option that takes a value given none (last
# on the line) is "option '--where' needs an argument" with status 1, for every
# such option of every command (it was "unknown option '--where'");
# `html --dims PROFILE` and `dot/callgraph --dim PROFILE` are refused by
# report's rule for telling profiles from dimensions (an existing file, a '/'
# or a ".data"), where the profile was taken for a dimension; `shell --where`
# filters the shell's reports (it crashed).  A dimension no record carries
# still gives the empty value but is named on stderr, once, by every command
# taking dimensions: "dsprof: no record carries dimension 'D'"; derived ones
# (built-in, or from --derive) count as carried.
. "$(dirname "$0")/../../lib.sh"

dscc -o expr "$TOP/examples/expr/expr.c" && ./expr >/dev/null || fail "expr"

# needs CMD OPTION...: `dsprof CMD OPTION` is refused for the missing value.
needs () {
  local cmd=$1; shift
  for opt in "$@"; do
    set +e
    "$DSPROF" $cmd $opt </dev/null >out.txt 2>err.txt
    rc=$?
    set -e
    [ $rc = 1 ] || fail "dsprof $cmd $opt: status $rc, $(cat err.txt)"
    grep -qx "dsprof ${cmd%% *}: option '$opt' needs an argument" err.txt \
      || fail "dsprof $cmd $opt said: $(cat err.txt)"
    [ "$(grep -c . err.txt)" = 2 ] || fail "dsprof $cmd $opt: more than the message and the hint: $(cat err.txt)"
  done
}
needs lines -o --output
needs annotate -o --output --source
needs report -w --where --unit --top --format --derive
needs shell --where --unit --top --format --derive
for c in records trace dims; do needs $c --where; done
needs html -o --output --dims --top --lines --records
for c in callgraph dot; do needs $c --dim --unit -o --output; done
needs "export --format csv" -o --output
needs export --format
needs "merge -o x.data" --output
needs merge -o
# An unknown option is still called one.
set +e
"$DSPROF" report --bogus 2>err.txt; rc=$?
set -e
[ $rc = 1 ] && grep -q "unknown option '--bogus'" err.txt || fail "report --bogus: $rc $(cat err.txt)"

# Profiles where dimensions are wanted.
mkdir sub && cp dsprof.data sub/p && cp dsprof.data plain
for d in dsprof.data sub/p plain name,dsprof.data; do
  set +e
  "$DSPROF" html --dims "$d" >page.html 2>err.txt; rc=$?
  set -e
  bad=${d#name,}
  [ $rc = 1 ] && grep -q "^dsprof html: --dims: '$bad' is a profile, not a dimension" err.txt \
    || fail "html --dims $d: status $rc, $(cat err.txt)"
  for c in callgraph dot; do
    [ "$d" = "$bad" ] || continue
    set +e
    "$DSPROF" $c --dim "$d" >out.txt 2>err.txt; rc=$?
    set -e
    [ $rc = 1 ] && grep -q "^dsprof $c: --dim: '$d' is a profile, not a dimension" err.txt \
      || fail "$c --dim $d: status $rc, $(cat err.txt)"
  done
done
"$DSPROF" html --dims name,depth dsprof.data >page.html || fail "html --dims name,depth: status $?"
grep -q 'depth' page.html || fail "html --dims name,depth: no depth table"

# shell --where: the shell's reports are filtered, as report's are.
"$DSPROF" report name --where name=value >want.txt
echo name | "$DSPROF" shell --where name=value >got.txt || fail "shell --where: status $?"
expect_same want.txt got.txt
printf 'where\nwhere clear\nwhere\n' | "$DSPROF" shell --where name=value >got.txt
printf 'where name=value\nno filters\n' >want.txt
expect_same want.txt got.txt

# Dimensions no record carries: one note each, whatever the command.
# notes WANT CMD...: dsprof CMD... succeeds and its stderr is WANT's notes.
notes () {
  local want=$1; shift
  "$@" >out.txt 2>err.txt </dev/null || fail "$*: status $?, $(cat err.txt)"
  : >want.txt
  for d in $want; do echo "dsprof: no record carries dimension '$d'" >>want.txt; done
  expect_same want.txt err.txt
}
notes "nosuchdim" "$DSPROF" report nosuchdim
grep -q '^ .* 100\.0  $' out.txt || fail "report nosuchdim: no empty-value row: $(cat out.txt)"
notes "nosuchdim other" "$DSPROF" report name nosuchdim depth nosuchdim --where other!=1 --where name!=x
notes "" "$DSPROF" report name depth parent location depends-on children site cached
notes "zz" "$DSPROF" report name --where zz=1 --format csv
for c in callgraph dot; do notes "nosuchdim" "$DSPROF" $c --dim nosuchdim; done
notes "" "$DSPROF" callgraph --dim depth
notes "nosuchdim" "$DSPROF" html --dims name,nosuchdim,depth
for c in records trace dims; do notes "zz" "$DSPROF" $c --where zz=1 --where name=value; done
notes "" "$DSPROF" trace --where subject!=x
printf 'nosuchdim name\nwhere qq=1\nname\n' >shell.in
"$DSPROF" shell <shell.in >out.txt 2>err.txt || fail "shell: status $?"
printf "dsprof: no record carries dimension '%s'\n" nosuchdim qq >want.txt
expect_same want.txt err.txt
# A --derive library's dimension is carried where it gives a value.
gcc -shared -fPIC -I"$TOP/include" -o type.so "$TOP/examples/derive/type.c" || fail "type.so"
notes "" "$DSPROF" report name type --derive ./type.so
notes "nosuchdim" "$DSPROF" report type nosuchdim --derive ./type.so
exit 0
