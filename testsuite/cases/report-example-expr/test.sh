# report-example-expr: the dsprofile paper's attribute-grammar example (examples/expr,
# 3 + 4 * 5, iszero then value at the root) through `dsprof report`: counts per
# bucket derived by hand from expr.c (name-cached.txt, name-subject.txt), each
# query checked in csv, json and text by reportcheck.py (structure, sorting,
# Total = Self + Desc, percentages, footnotes); --where, --top, --unit.
. "$(dirname "$0")/../../lib.sh"
check () { python3 "$FIXTURES/reportcheck.py" "$DSPROF" "$@"; }

cp "$TOP/examples/expr/expr.c" .
dscc -O2 -Wall -Wextra -o expr expr.c 2>err || fail "expr.c does not compile: $(cat err)"
[ ! -s err ] || fail "expr.c compiles with warnings: $(cat err)"
gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$TOP/runtime" -c -o plain.o expr.c \
  || fail "expr.c is not warning-free without the plugin"
./expr >out || fail "expr exited with status $?"
[ "$(cat out)" = "iszero = false, value = 23" ] || fail "expr printed $(cat out)"

check "$CASE/name-cached.txt" -- name cached || fail "report name cached"
check "$CASE/name-subject.txt" -- name subject || fail "report name subject"
check "$CASE/name-subject.txt" --unit ns -- name subject || fail "report name subject --unit ns"

# --where: the five computed values; everything but value (iszero, which has
# no cached dimension); none at all.
printf 'value\t5\nvalue\tfalse\t5\n' >where1.txt
check where1.txt --where cached=false -- name cached || fail "--where cached=false"
printf 'iszero\t1\niszero\tAdd(Num(3),Mul(Num(4),Num(5)))\t1\n' >where2.txt
check where2.txt --where name!=value -- name subject || fail "--where name!=value"
printf 'Num(4)\t1\n' >where3.txt
check where3.txt --where name=value --where result=4 -- subject || fail "two --where"
: >none.txt
check none.txt --where name=nothing -- name || fail "--where matching nothing"

# --top: the first rows of each table.
check - --top 1 -- name subject || fail "--top 1"
check - --top 2 -- name subject || fail "--top 2"
check - --top 1 -- cached name || fail "--top 1 (cached name)"
exit 0
