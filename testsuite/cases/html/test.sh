# html: `dsprof html` writes one self-contained page for examples/expr (3 + 4 * 5:
# iszero, then value at the root; 7 records).  The page parses with balanced
# tags and fetches nothing; as written and as headless Chromium renders it, it
# holds the report tables (iszero 1, value 6), one SVG box per record at its
# depth and time inside its parent, the call graph (iszero called once, value
# 2+4 times) and the hottest lines with their counts and text; the screenshot
# shows the boxes.  With --records 3 the boxes are one per name path.  extra.c:
# markup in an event type and a string dimension stays text, two threads give
# two lanes, a missing source is noted.  The VMs of vm.c: the opcode pairs
# and sequences of 3 and 4 are those of `dsprof report prev:name name`,
# `seq3:name` and `seq4:name` --where event=op, the most frequent first; a
# page without op records (expr's, a counters-only one) has no such view.
# check.py holds the checks and derives nothing from dsprof.
. "$(dirname "$0")/../../lib.sh"

command -v chromium >/dev/null ||
  fail "chromium is not installed (Debian package chromium: run 'make deps')"
check () { python3 "$CASE/check.py" "$@" || fail "check.py $*"; }

# Chromium wants a writable home and profile directory of its own.
export HOME=$PWD/home
mkdir -p "$HOME"
browse () {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$PWD/chrome" --window-size=1280,1400 "$@" 2>>chromium.err
}

cp "$TOP/examples/expr/expr.c" .
dscc -o expr expr.c || fail "expr.c does not compile"
./expr >expr.out || fail "expr exited with status $?"
[ "$(cat expr.out)" = "iszero = false, value = 23" ] || fail "expr printed $(cat expr.out)"

run_dsprof html -o r.html 2>err || fail "dsprof html: status $? ($(cat err))"
[ -s err ] && fail "dsprof html wrote to stderr: $(cat err)"
run_dsprof html >stdout.html 2>err || fail "dsprof html to stdout: status $?"
expect_same r.html stdout.html

check wellformed r.html
check expr r.html expr.c
# The escaping is there in the file itself: `->` in the source lines.
grep -q 'if (subject-&gt;has_value)' r.html || fail "source text not escaped"

browse --dump-dom "file://$PWD/r.html" >dom.html || fail "chromium --dump-dom: status $? ($(tail -3 chromium.err))"
check expr dom.html expr.c
browse --screenshot="$PWD/shot.png" "file://$PWD/r.html" ||
  fail "chromium --screenshot: status $? ($(tail -3 chromium.err))"
[ -s shot.png ] || fail "no screenshot"
check png shot.png

# Nested tables.
run_dsprof html --dims name,cached -o dims.html 2>err || fail "dsprof html --dims: status $? ($(cat err))"
check wellformed dims.html
check expr-dims dims.html
run_dsprof html --dims name,cached --top 1 -o top.html 2>err || fail "dsprof html --top 1: status $?"
check wellformed top.html
check top top.html

# One box per name path past --records records.
run_dsprof html --records 3 -o merged.html 2>err || fail "dsprof html --records 3: status $?"
check wellformed merged.html
check merged merged.html
browse --dump-dom "file://$PWD/merged.html" >merged-dom.html || fail "chromium --dump-dom merged.html"
check merged merged-dom.html

# Markup in the profile, two threads, a missing source.
mkdir extra && cd extra
cp "$CASE/extra.c" .
dscc -o extra extra.c || fail "extra.c does not compile"
./extra || fail "extra exited with status $?"
rm extra.c
run_dsprof html --dims name,text -o extra.html 2>err || fail "dsprof html (extra): status $? ($(cat err))"
grep -q 'warning: .*extra\.c' err || fail "no warning about the missing extra.c: $(cat err)"
check wellformed extra.html
check extra extra.html
browse --dump-dom "file://$PWD/extra.html" >dom.html || fail "chromium --dump-dom extra.html"
check extra dom.html
cd ..

# No op records: no opcode pairs view, in the page of records (expr) nor in a
# counters-only page.
check no-pairs r.html
mkdir cov && cd cov
printf '%s\n' '#include <stdio.h>' \
  'static int f (int x) { return x % 3 == 0; }' \
  'int main (void) { int n = 0; for (int i = 0; i < 10; i++) n += f (i);' \
  '  printf ("%d\n", n); return 0; }' >cov.c
dscc -o cov cov.c || fail "cov.c does not compile"
./cov >/dev/null || fail "cov exited with status $?"
run_dsprof html -o c.html 2>err || fail "dsprof html (counters): status $? ($(cat err))"
grep -q 'No profile records' c.html || fail "the counters-only page has records"
check wellformed c.html
check no-pairs c.html
cd ..

# Op records (the VMs of vm.c, dispatch=run, one recursing): the opcode pairs
# and sequences of 3 and 4, all of them and the --top 3 most frequent, against
# the tables of `dsprof report`.
mkdir vm && cd vm
cp "$FIXTURES/vm.c" .
dscc -w -O2 -fplugin-arg-dsprof-dispatch=run -o vm vm.c || fail "vm.c does not compile"
./vm >/dev/null || fail "vm exited with status $?"
for d in name prev:name,name seq3:name seq4:name; do
  run_dsprof report ${d/,/ } --where event=op --format csv >"${d//:/-}.csv" 2>err ||
    fail "dsprof report $d --where event=op: status $? ($(cat err))"
done
[ "$(grep -c '^2,OP_' prev-name,name.csv)" -gt 5 ] || fail "few pairs: $(cat prev-name,name.csv)"
for top in 0 3; do
  run_dsprof html --top $top -o vm$top.html 2>err || fail "dsprof html --top $top (vm): status $? ($(cat err))"
  [ -s err ] && fail "dsprof html (vm) wrote to stderr: $(cat err)"
  check wellformed vm$top.html
  check pairs vm$top.html $top name.csv prev-name,name.csv seq3-name.csv seq4-name.csv
done
cd ..

# Usage errors.
run_dsprof html --dims name,,cached -o x.html 2>err && fail "--dims with an empty name accepted"
[ $? -eq 1 ] || fail "--dims name,,cached: status not 1"
run_dsprof html nothere.data 2>err && fail "a missing profile accepted"
[ $? -eq 2 ] || fail "missing profile: status not 2"
exit 0
