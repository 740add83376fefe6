# check.awk - the record tree of `threads N ITER` in `dsprof records` output:
#   awk -v N=threads -v ITER=iterations -f check.awk records
# Every record complete and in a thread 1..N; worker/w = thread - 1 (worker W is
# thread W + 1); node (depth d > 0) has exactly two node children of depth d - 1,
# depth 0 none; Batch holds one node of depth 3, Run one Batch, hello nothing;
# children come earlier, in the same thread, under one parent only; the roots
# are hello and Run; per thread 1 hello, ITER Run, ITER Batch, 15 * ITER node.
function field(name,   i) {
  for (i = 3; i <= NF && $i != "->"; i++)
    if (index($i, name "=") == 1)
      return substr($i, length(name) + 2)
  return ""
}
function bad(msg) { print "record " num ": " msg ": " $0; errors++; if (errors > 20) exit 1 }
{
  num = substr($1, 2) + 0
  if (num != NR) bad("numbered " num " at line " NR)
  ev[num] = field("event"); th[num] = field("thread"); dep[num] = field("depth")
  if (field("complete") != "true") bad("incomplete")
  if (th[num] < 1 || th[num] > N) bad("thread out of 1.." N)
  wk = ev[num] == "Batch" ? field("w") : field("worker")
  if (wk == "" || wk != th[num] - 1) bad("worker " wk " in thread " th[num])
  count[th[num] " " ev[num]]++
  nkids = 0
  arrow = 0
  for (i = 3; i <= NF; i++) {
    if ($i == "->") { arrow = 1; continue }
    if (!arrow) continue
    k = substr($i, 2) + 0; nkids++; kid[nkids] = k
    if (k >= num) bad("child #" k " not earlier")
    else if (k in parent) bad("child #" k " also under #" parent[k])
    else parent[k] = num
    if (th[k] != th[num]) bad("child #" k " in thread " th[k])
  }
  if (ev[num] == "node") {
    want = dep[num] > 0 ? 2 : 0
    if (nkids != want) bad(nkids " children")
    for (j = 1; j <= nkids; j++)
      if (ev[kid[j]] != "node" || dep[kid[j]] != dep[num] - 1) bad("child #" kid[j] " is not a node of depth " dep[num] - 1)
  } else if (ev[num] == "Batch") {
    if (nkids != 1 || ev[kid[1]] != "node" || dep[kid[1]] != 3) bad("not one node of depth 3 inside")
  } else if (ev[num] == "Run") {
    if (nkids != 1 || ev[kid[1]] != "Batch") bad("not one Batch inside")
  } else if (ev[num] == "hello") {
    if (nkids != 0) bad("children")
  } else bad("unknown event")
}
END {
  for (n = 1; n <= NR; n++)
    if (!(n in parent) && ev[n] != "Run" && ev[n] != "hello") { num = n; $0 = ""; bad("a root") }
  for (t = 1; t <= N; t++) {
    if (count[t " hello"] != 1) { print "thread " t ": " count[t " hello"] + 0 " hello"; errors++ }
    if (count[t " Run"] != ITER) { print "thread " t ": " count[t " Run"] + 0 " Run, not " ITER; errors++ }
    if (count[t " Batch"] != ITER) { print "thread " t ": " count[t " Batch"] + 0 " Batch, not " ITER; errors++ }
    if (count[t " node"] != 15 * ITER) { print "thread " t ": " count[t " node"] + 0 " node, not " 15 * ITER; errors++ }
  }
  if (NR != N * (1 + 17 * ITER)) { print NR " records, not " N * (1 + 17 * ITER); errors++ }
  exit errors > 0
}
