# report-outer: the outer:D dimension (docs/contract.md §5.3), the value of D on
# the nearest enclosing record that carries D, on outer.c's statements and
# opcodes: bucketing by it (report, csv), filtering by it (report, records and
# trace --where), grouping the call graph by it; a record with no enclosing carrier
# has the empty value like any missing dimension, the nearest carrier wins over
# an outer one, a record in between that does not carry D is looked through
# (also in records the decoder reuses: what it learnt of their former selves
# does not stick);
# and `outer:` with no D is a usage error.  Then --sum D's column (text, CSV,
# JSON, html, the shell's setting) over integers, a double, a bool and a
# string.  Times vary, so the exact outputs are the counts and sums.
. "$(dirname "$0")/../../lib.sh"
export LC_ALL=C                  # sort: byte order

cp "$CASE/outer.c" .
dscc -o outer outer.c || fail "outer.c does not compile"
./outer || fail "outer exited with status $?"

# Opcodes by statement: level, outer:stmt, opcode and count, sorted (rows of
# equal counts are ordered by their times).
run_dsprof report --format csv outer:stmt opcode >by-stmt.csv 2>err ||
  fail "report outer:stmt opcode: status $? ($(cat err))"
cut -d, -f1-3,10 by-stmt.csv | sort >got
cat >want <<'OUT'
1,,,8
1,DELETE e,,3
1,INSERT b,,5
1,SELECT a,,8
1,SELECT c,,2
1,SELECT d,,1
2,,,7
2,,init,1
2,DELETE e,,1
2,DELETE e,drop,1
2,DELETE e,flag,1
2,INSERT b,,1
2,INSERT b,note,1
2,INSERT b,push,1
2,INSERT b,store,2
2,SELECT a,add,2
2,SELECT a,push,4
2,SELECT a,sort,2
2,SELECT c,,1
2,SELECT c,push,1
2,SELECT d,load,1
level,outer:stmt,opcode,count
OUT
expect_same want got
[ -s err ] && fail "report outer:stmt printed: $(cat err)"

# The text report heads its tables with the dimension's name.
run_dsprof report outer:stmt >by-stmt.txt || fail "report outer:stmt: status $?"
grep -qx 'By outer:stmt:' by-stmt.txt || fail "no 'By outer:stmt:' table: $(cat by-stmt.txt)"

# --where on it: the opcodes of INSERT b, its block's included.
run_dsprof report --format csv --where 'outer:stmt=INSERT b' opcode >where.csv ||
  fail "report --where outer:stmt: status $?"
cut -d, -f1,2,9 where.csv | sort >got
printf '%s\n' '1,,1' '1,note,1' '1,push,1' '1,store,2' 'level,opcode,count' >want
expect_same want got
run_dsprof report --format csv --where 'outer:stmt!=' opcode >has.csv ||
  fail "report --where outer:stmt!=: status $?"
grep -q '^1,init,' has.csv && fail "init, under no stmt, passed outer:stmt!=: $(cat has.csv)"

# records --where: SELECT d's load alone (nearest wins over SELECT c).
run_dsprof records --where 'outer:stmt=SELECT d' >records.txt ||
  fail "records --where outer:stmt: status $?"
sed 's/ [0-9]*ns / Nns /' records.txt >got
echo '#21 Nns event=op name=op thread=1 opcode=load bytes=32 complete=true' >want
expect_same want got

# trace --where: the events inside INSERT b, its block's included.
run_dsprof trace --where 'outer:stmt=INSERT b' >trace.txt || fail "trace --where outer:stmt: status $?"
sed 's/^[0-9]*ns /Nns /' trace.txt >got
cat >want <<'OUT'
Nns t1 Start event=op name=op thread=1
Nns t1 Finish event=op name=op opcode=push bytes=16 complete=true
Nns t1 Start event=op name=op thread=1
Nns t1 Finish event=op name=op opcode=store bytes=100 complete=true
Nns t1 Start event=block name=block thread=1
Nns t1 Start event=op name=op thread=1
Nns t1 Finish event=op name=op opcode=store bytes=50 complete=true
Nns t1 Start event=op name=op thread=1
Nns t1 Finish event=op name=op opcode=note bytes=many complete=true
Nns t1 Finish event=block name=block complete=true
OUT
expect_same want got

# The call graph by statement: SELECT d's records are called from SELECT c's.
run_dsprof callgraph --dim outer:stmt >cg.txt 2>err ||
  fail "callgraph --dim outer:stmt: status $? ($(cat err))"
grep -q '^Call graph by outer:stmt: 27 records' cg.txt || fail "callgraph heading: $(head -1 cg.txt)"
grep -Eq '^ +[0-9.]+ +[0-9.]+ +1/1 +"SELECT c" \[[0-9]+\]$' cg.txt ||
  fail "SELECT d not called from SELECT c: $(cat cg.txt)"

# outer:D with no D: a usage error in every command that takes dimensions.
for cmd in "report outer:" "report --where outer:=x" "records --where outer:=x" \
    "callgraph --dim outer:" "dot --dim outer:" "html --dims name,outer: -o x.html"; do
  rc=0; run_dsprof $cmd >out 2>err || rc=$?
  [ $rc = 1 ] || fail "dsprof $cmd: status $rc, not 1"
  grep -q "outer:D wants a dimension D, not 'outer:'" err || fail "dsprof $cmd: $(cat err)"
done
printf 'outer:\nwhere outer:=x\nwhere\n' | run_dsprof shell >shell.txt 2>&1 ||
  fail "shell: status $?"
[ "$(grep -c "outer:D wants a dimension D, not 'outer:'" shell.txt)" = 2 ] ||
  fail "shell did not refuse outer: twice: $(cat shell.txt)"

# --sum bytes: per opcode, the integers (push 8+8+8+8+16+4), a double (sort,
# 1.25 twice), a bool (flag, true: 1), nothing for a string (note) or none.
run_dsprof report opcode --sum bytes >sum.txt 2>err || fail "report --sum: status $? ($(cat err))"
[ -s err ] && fail "report --sum bytes printed: $(cat err)"
grep -q ' Count%   Sum(bytes)  Value$' sum.txt || fail "no Sum(bytes) column: $(cat sum.txt)"
awk '/^ +[0-9]/ { print $7, $9 (NF > 9 ? " " $10 : "") }' sum.txt | sort >got
cat >want <<'OUT'
1 0 drop
1 0 init
1 0 note
1 1 flag
1 32 load
10 0
2 0 add
2 150 store
2 2.5 sort
6 52 push
OUT
expect_same want got
run_dsprof report outer:stmt opcode --sum bytes --format csv >sum.csv || fail "report --sum csv: status $?"
head -1 sum.csv | grep -q ',count,count_pct,sum(bytes)$' || fail "csv header: $(head -1 sum.csv)"
cut -d, -f1-3,12 sum.csv | grep '^1,\|^2,SELECT a' | sort >got
cat >want <<'OUT'
1,,,0
1,DELETE e,,1
1,INSERT b,,166
1,SELECT a,,34.5
1,SELECT c,,4
1,SELECT d,,32
2,SELECT a,add,0
2,SELECT a,push,32
2,SELECT a,sort,2.5
OUT
expect_same want got
run_dsprof report opcode --sum bytes --sum outer:bytes --format json >sum.json 2>err ||
  fail "report --sum json: status $?"
python3 - sum.json <<'PY' || fail "report --sum json is wrong: $(cat sum.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["sums"] == ["bytes", "outer:bytes"], d["sums"]
got = sorted((r["value"], r["sums"]) for r in d["rows"])
assert got == [("", [0, 0]), ("add", [0, 0]), ("drop", [0, 0]), ("flag", [1, 0]),
               ("init", [0, 0]), ("load", [32, 0]), ("note", [0, 0]), ("push", [52, 0]),
               ("sort", [2.5, 0]), ("store", [150, 0])], got
PY
# No record's enclosing one carries bytes: a note, and the zero column.
grep -qx "dsprof: no record carries a number in dimension 'outer:bytes'" err ||
  fail "no note for outer:bytes: $(cat err)"
# Without --sum, no sum anywhere (the outputs of before).
run_dsprof report opcode --format json | grep -q sums && fail "sums in json without --sum"

# The html tables and the shell's `sum` setting.
run_dsprof html --dims opcode --sum bytes -o sum.html || fail "html --sum: status $?"
grep -q '<th>Count%</th><th>Sum(bytes)</th>' sum.html || fail "html: no Sum(bytes) column"
# (a row whose Self was clamped, as a record may be on a busy machine, says so
# after its value)
grep -Eq '<td>150</td><td class="value">store( <span class="note">\(Self clamped in [0-9]+ records?\)</span>)?</td>' sum.html ||
  fail "html: no store sum 150"
printf 'sum bytes\nopcode\nsum off\nopcode\n' | run_dsprof shell --format csv >shell.csv ||
  fail "shell sum: status $?"
[ "$(grep -c ',count_pct,sum(bytes)$' shell.csv)" = 1 ] || fail "shell sum: $(cat shell.csv)"
[ "$(grep -c ',count_pct$' shell.csv)" = 1 ] || fail "shell sum off: $(cat shell.csv)"

# --sum of a string dimension: its strings add nothing; the sum is 0 and
# stderr says no record carries a number in it.  --sum '' is a usage error.
run_dsprof report opcode --sum stmt --format csv >str.csv 2>err || fail "--sum stmt: status $?"
grep -qx "dsprof: no record carries a number in dimension 'stmt'" err || fail "--sum stmt: $(cat err)"
cut -d, -f11 str.csv | sort -u | tr '\n' ' ' | grep -qx '0 sum(stmt) ' || fail "--sum stmt: $(cat str.csv)"
for cmd in "report --sum=" "html --sum= -o x.html" "report --sum outer:"; do
  rc=0; run_dsprof $cmd >out 2>err || rc=$?
  [ $rc = 1 ] || fail "dsprof $cmd: status $rc, not 1"
done

# A D nobody carries: empty values and the usual note.
run_dsprof report outer:nosuch >/dev/null 2>err || fail "report outer:nosuch: status $?"
grep -qx "dsprof: no record carries dimension 'outer:nosuch'" err || fail "no note: $(cat err)"
exit 0
