# html-browser: the page of `dsprof html` as a user meets it, in headless
# Chromium driven by playwright-core (scripts/playwright.sh installs it into
# build/node_modules).  browser.js clicks and reads the page: for examples/expr
# the icicle graph spans the window, a click zooms into a box and Escape or
# Reset zoom back, the search highlights the matching frames and says their
# share of the time (as the SVG's times give it), the tooltip shows Total, Self
# and Count, a column heading sorts its table both ways, a heading folds its
# section; a counters-only profile's page opens with the summary, coverage and
# source views (no empty record views), its coverage totals those of `dsprof
# summary`, the never-run line marked, branch counts on demand, a hottest line
# linking to its source line; a VM's op records get the opcode view, the
# table of `dsprof report name --where event=op`, and the opcode pairs view,
# the pairs of `dsprof report prev:name name --where event=op`, sorting by a
# column both ways, folding and opening from the summary; a --diff page's boxes keep
# their change colours.
. "$(dirname "$0")/../../lib.sh"

command -v chromium >/dev/null ||
  fail "chromium is not installed (Debian package chromium: run 'make deps')"
command -v node >/dev/null ||
  fail "node is not installed (Debian package nodejs: run 'make deps')"
PW=$TOP/build/node_modules/playwright-core
[ -f "$PW/package.json" ] ||
  fail "playwright-core is not installed (run scripts/playwright.sh)"
export HOME=$PWD/home
mkdir -p "$HOME"
browse () { timeout 300 node "$CASE/browser.js" "$PW" "$@" || fail "browser.js $1 $2"; }

cp "$TOP/examples/expr/expr.c" .
dscc -o expr expr.c || fail "expr.c does not compile"
./expr >/dev/null || fail "expr exited with status $?"
run_dsprof html -o r.html 2>err || fail "dsprof html: status $? ($(cat err))"
browse records r.html

# Counters only: no event hooks, so no records.
mkdir cov && cd cov
cp "$CASE/cov.c" .
dscc -o cov cov.c || fail "cov.c does not compile"
./cov >/dev/null || fail "cov exited with status $?"
run_dsprof summary >sum.txt 2>err || fail "dsprof summary: status $? ($(cat err))"
# The total row: LINES BLOCKS FUNCTIONS BR-EXEC BR-TAKEN total.
set -- $(grep ' total$' sum.txt)
[ $# -eq 11 ] || fail "summary's total row: $(grep ' total$' sum.txt)"
run_dsprof html -o c.html 2>err || fail "dsprof html (counters): status $? ($(cat err))"
browse counters c.html "$1 $2" "$5 $6" "${9} ${10}"
cd ..

# Op records (dispatch=run): the opcode view.
mkdir vm && cd vm
cp "$FIXTURES/vm.c" .
dscc -w -O2 -fplugin-arg-dsprof-dispatch=run -o vm vm.c || fail "vm.c does not compile"
./vm >/dev/null || fail "vm exited with status $?"
run_dsprof report name --where event=op --format csv >ops.csv 2>err ||
  fail "dsprof report --where event=op: status $? ($(cat err))"
[ "$(wc -l <ops.csv)" -gt 5 ] || fail "few op records: $(cat ops.csv)"
run_dsprof html -o vm.html 2>err || fail "dsprof html (vm): status $? ($(cat err))"
browse opcodes vm.html ops.csv
run_dsprof report prev:name name --where event=op --format csv >pairs.csv 2>err ||
  fail "dsprof report prev:name name --where event=op: status $? ($(cat err))"
[ "$(grep -c '^2,OP_' pairs.csv)" -gt 5 ] || fail "few pairs: $(cat pairs.csv)"
browse pairs vm.html pairs.csv
cd ..

# --diff: two runs of expr.
DSPROF_OUT=b.data ./expr >/dev/null || fail "expr (base) exited with status $?"
run_dsprof html --diff b.data -o d.html dsprof.data 2>err || fail "dsprof html --diff: status $? ($(cat err))"
browse diff d.html
exit 0
