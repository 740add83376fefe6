# report-example-rewrite: examples/rewrite (strategies simplifying 0 + (1 * (5 + 4) + 0))
# through `dsprof report`: how often each strategy and rule ran, succeeded, with
# which strategy and what it demanded, derived by hand from rewrite.c (name*.txt;
# see their comments), each query checked in csv, json and text by
# testsuite/fixtures/reportcheck.py; footnotes at the 25-character boundary;
# --where, --top; Self/Total/profiled time of --raw recomputed from `dsprof
# records` (timecheck.py); the -b variant ("missing attempt"): removeClass once.
. "$(dirname "$0")/../../lib.sh"
check () { python3 "$FIXTURES/reportcheck.py" "$DSPROF" "$@"; }

cp "$TOP/examples/rewrite/rewrite.c" .
dscc -O2 -Wall -Wextra -o rewrite rewrite.c 2>err || fail "rewrite.c does not compile: $(cat err)"
[ ! -s err ] || fail "rewrite.c compiles with warnings: $(cat err)"
gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$TOP/runtime" -c -o plain.o rewrite.c \
  || fail "rewrite.c is not warning-free without the plugin"

mkdir good bad
cd good
../rewrite >out || fail "rewrite exited with status $?"
grep -qx 'result: Num(9)' out || fail "rewrite printed $(cat out)"
for q in name name-result name-strategy name-depends-on; do
  check "$CASE/$q.txt" -- $(echo "$q" | sed 's/^name-/name /') || fail "report ${q/-/ }"
done

# The strategy table: three footnotes, the 25-character choice inline.
run_dsprof report name strategy >strategy.txt
sed -n '/^\[1\] /,$p' strategy.txt | sed 's/^\[[0-9]*\] //' | sort >notes
printf '%s\n' 'topdown(attempt(removeClass))' 'attempt(addZero <+ mulOne <+ fold)' \
  'bottomup(attempt(addZero <+ mulOne <+ fold))' | sort >notes.expected
expect_same notes.expected notes
grep -Eq '^( +[0-9.]+){8}  addZero <\+ mulOne <\+ fold$' strategy.txt \
  || fail "addZero <+ mulOne <+ fold (25 characters) not shown inline"

# seq is the only top-level record: its Total is the profiled time.
run_dsprof report name --format json >name.json
python3 - name.json <<'PY' || fail "seq's Total is not the profiled time"
import json, sys
d = json.load(open(sys.argv[1]))
seq = [r for r in d["rows"] if r["value"] == "seq"]
sys.exit(not (len(seq) == 1 and seq[0]["total_ns"] == d["profiled_ns"]))
PY

# --where
printf 'true\t8\nfalse\t1\n' >w1.txt
check w1.txt --where name=removeClass -- result || fail "--where name=removeClass"
printf 'true\t4\nfalse\t18\n' >w2.txt
check w2.txt --where name=rule --where strategy!=removeClass -- result \
  || fail "--where name=rule --where strategy!=removeClass"
printf 'choice\t9\nchoice\ttrue\t4\nchoice\tfalse\t5\n' >w3.txt
check w3.txt --where 'strategy=addZero <+ mulOne <+ fold' -- name result \
  || fail "--where strategy='addZero <+ mulOne <+ fold'"
printf '%s\t%s\n' rule 19 choice 10 addZero 7 mulOne 6 fold 5 removeClass 1 >w4.txt
check w4.txt --where result=false -- name || fail "--where result=false"

# --top
check - --top 3 -- name strategy || fail "--top 3"
check - --top 1 -- result name || fail "--top 1"

# Self, Total and the profiled time (recursion counted once) from the records.
python3 "$FIXTURES/timecheck.py" "$DSPROF" name || fail "report name --raw against the records"
python3 "$FIXTURES/timecheck.py" "$DSPROF" name strategy \
  || fail "report name strategy --raw against the records"
python3 "$FIXTURES/timecheck.py" "$DSPROF" result || fail "report result --raw against the records"
cd ..

# The missing attempt: removeClass runs once, main fails, the term stays.
cd bad
../rewrite -b >out || fail "rewrite -b exited with status $?"
grep -qx 'main failed; the term is unchanged' out || fail "rewrite -b printed $(cat out)"
check "$CASE/name-b.txt" -- name || fail "rewrite -b: report name"
check "$CASE/name-strategy-b.txt" -- name strategy || fail "rewrite -b: report name strategy"
printf 'false\t4\n' >b1.txt
check b1.txt -- result || fail "rewrite -b: report result"
exit 0
