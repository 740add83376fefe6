# html: `dsprof html` writes one self-contained page for examples/expr (3 + 4 * 5:
# iszero, then value at the root; 7 records).  The page parses with balanced
# tags and fetches nothing; as written and as headless Chromium renders it, it
# holds the report tables (iszero 1, value 6), one SVG box per record at its
# depth and time inside its parent, the call graph (iszero called once, value
# 2+4 times) and the hottest lines with their counts and text; the screenshot
# shows the boxes.  With --records 3 the boxes are one per name path.  extra.c:
# markup in an event type and a string dimension stays text, two threads give
# two lanes, a missing source is noted.  check.py holds the checks and derives
# nothing from dsprof.
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

# Usage errors.
run_dsprof html --dims name,,cached -o x.html 2>err && fail "--dims with an empty name accepted"
[ $? -eq 1 ] || fail "--dims name,,cached: status not 1"
run_dsprof html nothere.data 2>err && fail "a missing profile accepted"
[ $? -eq 2 ] || fail "missing profile: status not 2"
exit 0
