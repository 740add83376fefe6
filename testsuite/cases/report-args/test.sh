# report-args: the command line.  An option that takes a value given none (last
# on the line) is "option '--where' needs an argument" with status 1, for every
# such option of every command (it was "unknown option '--where'");
# `html --dims PROFILE` and `dot/callgraph --dim PROFILE` are refused by
# report's rule for telling profiles from dimensions (an existing file, a '/'
# or a ".data"), where the profile was taken for a dimension; `shell --where`
# filters the shell's reports (it crashed).
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
exit 0
