# events-signal: annotated functions called from a signal handler while the
# interrupted code is inside another event (docs/contract.md §4.4): the handler's events
# nest in the interrupted one and the tree stays consistent.
#   timer     SIGALRM while main spins inside spin (1)          (timer.txt)
#   altstack  the same in a thread whose handler runs on an alternate stack
#             above the thread's own stack                       (timer.txt)
#   jump      the handler siglongjmps out of its nested events    (jump.txt)
#   storm     a second thread signals main nonstop while main records trees
#             of node events: every tree intact, every handler run recorded
#             whole or, when it interrupted the recorder itself, dropped and
#             counted (dropped events = 2 per lost run)
# Expected records derived from signal.c by hand.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/signal.c" .
dscc -O2 -o signal signal.c || fail "signal.c does not compile"
for f in in_handler on_signal spin deep on_jump after_jump guarded; do
  echo "s/@$f@/$(grep -n "^$f (" signal.c | cut -d: -f1)/g"
done >subst.sed
signum () { kill -l "$1"; }

# check MODE EXPECTED SIGNAL REPAIRED
check () {
  local mode=$1 expected=$2 sig=$3 repaired=$4
  mkdir "$mode" && cd "$mode"
  timeout 20 ../signal "$mode" || fail "signal $mode exited with status $?"
  sed -f ../subst.sed "$CASE/$expected" | sed "s/@SIG@/$(signum "$sig")/" >expected
  run_dsprof records >records.raw 2>err || fail "dsprof records ($mode): status $? ($(cat err))"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
  expect_same expected records
  run_dsprof info --count >info 2>err || fail "dsprof info ($mode): status $? ($(cat err))"
  for want in "repaired events: $repaired" 'dropped events: 0'; do
    grep -Eq "^$want( |\$)" info || fail "dsprof info ($mode) lacks '$want': $(cat info)"
  done
  cd ..
}

check timer timer.txt ALRM 0
check altstack timer.txt USR1 0
check jump jump.txt USR2 3

# ---- storm -------------------------------------------------------------------
mkdir storm && cd storm
timeout 60 ../signal storm 20000 >out || fail "signal storm exited with status $?"
read -r trees handled <out
[ "$trees" -ge 20000 ] && [ "$handled" -ge 200 ] || fail "signal storm printed $(cat out)"
run_dsprof records >records 2>err || fail "dsprof records (storm): status $? ($(cat err))"
# Every record complete; node (d > 0) holds two nodes of depth d - 1 and any
# number of on_signal; node (0) only on_signal; on_signal holds exactly one
# in_handler, which holds nothing; the roots are the node (3) trees and the
# handler runs between trees.
awk -v TREES="$trees" '
  function field(name,   i) {
    for (i = 3; i <= NF && $i != "->"; i++)
      if (index($i, name "=") == 1) return substr($i, length(name) + 2)
    return "" }
  function bad(msg) { print "record " NR ": " msg ": " $0; if (++errors > 20) exit 1 }
  {
    ev[NR] = field("event"); dep[NR] = field("depth")
    if (substr($1, 2) != NR) bad("numbering")
    if (field("complete") != "true") bad("incomplete")
    nodes = 0; sigs = 0; other = 0; arrow = 0
    for (i = 3; i <= NF; i++) {
      if ($i == "->") { arrow = 1; continue }
      if (!arrow) continue
      k = substr($i, 2) + 0
      if (k >= NR || (k in parent)) bad("child #" k)
      parent[k] = NR
      if (ev[k] == "node" && ev[NR] == "node" && dep[k] == dep[NR] - 1) nodes++
      else if (ev[k] == "on_signal" && ev[NR] == "node") sigs++
      else if (ev[k] == "in_handler" && ev[NR] == "on_signal") other++
      else bad("unexpected child #" k " " ev[k])
    }
    if (ev[NR] == "node" && nodes != (dep[NR] > 0 ? 2 : 0)) bad(nodes " node children")
    if (ev[NR] == "on_signal" && other != 1) bad(other " in_handler children")
    if (ev[NR] == "in_handler" && arrow) bad("children")
    count[ev[NR]]++
  }
  END {
    for (n = 1; n <= NR; n++)
      if (!(n in parent) && !(ev[n] == "node" && dep[n] == 3) && ev[n] != "on_signal")
        bad("root #" n)
    if (count["node"] != 15 * TREES) { print count["node"] " node records, not " 15 * TREES; errors++ }
    if (count["on_signal"] != count["in_handler"]) { print "on_signal and in_handler differ"; errors++ }
    print count["on_signal"] + 0 >"recorded"
    exit errors > 0
  }' records >&2 || fail "storm: the record tree is not consistent"
recorded=$(cat recorded)
[ "$recorded" -gt 0 ] || fail "storm: no handler run recorded of $handled"
run_dsprof info --count >info 2>err || fail "dsprof info (storm): status $? ($(cat err))"
grep -q "^dropped events: $((2 * (handled - recorded)))\$" info \
  || fail "storm: $handled handler runs, $recorded recorded: want 'dropped events: $((2 * (handled - recorded)))': $(grep dropped info)"
grep -q '^repaired events: 0$' info || fail "storm: $(grep repaired info)"
exit 0
