# report-example-names: examples/names (name analysis of a PicoJava-like program)
# through `dsprof report`: counts by name, cached, parameter, depends-on and
# location derived by hand from names.c and its built-in program (name*.txt;
# name.txt walks through the 18 uses), each query checked in csv, json and text
# by testsuite/fixtures/reportcheck.py; --where, --top; the computed decls are the
# only top-level records; Self/Total of --raw against `dsprof records`
# (testsuite/fixtures/timecheck.py); an undeclared name in a program file.
. "$(dirname "$0")/../../lib.sh"
check () { python3 "$FIXTURES/reportcheck.py" "$DSPROF" "$@"; }

cp "$TOP/examples/names/names.c" .
dscc -O2 -Wall -Wextra -o names names.c 2>err || fail "names.c does not compile: $(cat err)"
[ ! -s err ] || fail "names.c compiles with warnings: $(cat err)"
gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$TOP/runtime" -c -o plain.o names.c \
  || fail "names.c is not warning-free without the plugin"

./names >out || fail "names exited with status $?"
[ "$(wc -l <out)" -eq 18 ] || fail "names printed $(cat out)"
grep -qx '14: x is the variable declared on line 3' out \
  && grep -qx '15: y is the variable declared on line 7' out \
  && grep -qx '13: int is predefined' out || fail "names resolved wrongly: $(cat out)"

for q in name name-cached name-parameter name-depends-on name-location; do
  check "$CASE/$q.txt" -- $(echo "$q" | sed 's/^name-/name /') || fail "report ${q/-/ }"
done

# The computed decls are the top-level records: decl's Total is the profiled time.
run_dsprof report name --format json >name.json
python3 - name.json <<'PY' || fail "decl's Total is not the profiled time"
import json, sys
d = json.load(open(sys.argv[1]))
decl = [r for r in d["rows"] if r["value"] == "decl"]
sys.exit(not (len(decl) == 1 and decl[0]["total_ns"] == d["profiled_ns"]))
PY

# --where: the three lookup cache hits (L(P) for int twice, L(B) for A); the
# computed decls; every demand for x.
printf '%s\n' 'Block@1	2' 'Block@1	int	2' 'Class(B)@6	1' 'Class(B)@6	A	1' >w1.txt
check w1.txt --where name=lookup --where cached=true -- subject parameter \
  || fail "--where name=lookup --where cached=true"
printf '%s\n' 'lookup	15' 'remoteLookup,type	3' >w2.txt
check w2.txt --where name=decl --where cached!=true -- depends-on \
  || fail "--where name=decl --where cached!=true"
printf '%s\n' 'lookup	3' 'localLookup	5' 'remoteLookup	4' >w3.txt
check w3.txt --where parameter=x -- name || fail "--where parameter=x"

# --top
check - --top 2 -- name parameter || fail "--top 2"

# Self, Total and the profiled time of --raw from the records.
for q in name "name cached" "name parameter"; do
  python3 "$FIXTURES/timecheck.py" "$DSPROF" $q \
    || fail "report $q --raw against the records"
done

# A program with an undeclared name: a message, status 2.
printf '{\n  class C { int i; }\n  C c;\n  c.j = i;\n}\n' >bad.pj
set +e
./names bad.pj >bad.out 2>bad.err; rc=$?
set -e
[ $rc -eq 2 ] && grep -qx 'bad.pj:4: j is not declared' bad.err \
  && grep -qx 'bad.pj:4: i is not declared' bad.err \
  || fail "names bad.pj: status $rc, $(cat bad.err)"
exit 0
