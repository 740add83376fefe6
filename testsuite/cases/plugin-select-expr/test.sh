# plugin-select-expr: dims= items NAME=EXPR of a selection file
# (docs/select.md, "Expressions") on an AST interpreter with no annotation
# (ast.c), at -O0 and -O2: eval's events carry its node's kind (an enum, by
# its enumerator's name), place (a member of a member, through `.' and
# `(*n).'), left child's kind (`(null)' for a null child, `(unreadable)' for
# a child in a PROT_NONE page or at a non-canonical address, and the program
# goes on), the first byte of its tag (a char, as a number), its weight (a
# double) and its tag (a char array, as text); find's carry the tag of the
# node it returns (`result->tag', evaluated at its Finish; `(null)' when it
# finds none).  Every value is the one the program prints for that call.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/ast.c" "$CASE/ast.sel" .
gcc -O2 -o plain ast.c || fail "ast.c does not compile"
./plain >plain.out || fail "plain ast: status $?"

for o in -O0 -O2; do
  dscc $o -fplugin-arg-dsprof-select=ast.sel -o ast ast.c 2>err \
    || fail "ast.c does not compile at $o with ast.sel: $(cat err)"
  [ ! -s err ] || fail "$o: diagnostics: $(cat err)"
  rm -f ast.data
  DSPROF_OUT=$PWD/ast.data ./ast >out || fail "ast ($o): exit status $?"
  expect_same plain.out out
  run_dsprof records ast.data >rec || fail "dsprof records ($o): status $?"
  python3 - out rec <<'PY' || fail "$o: (above)"
import re, sys
want = {"eval": [], "find": []}
for line in open(sys.argv[1]):
    w = line.split()
    if w[0] in want:
        want[w[0]].append(tuple(w[1:]))
got = {"eval": [], "find": []}
for line in open(sys.argv[2]):
    d = dict(re.findall(r" (\w+)=(\S*)", line))
    if d.get("event") == "eval":
        got["eval"].append(tuple(d.get(k, "-") for k in
                                 ("kind", "at_line", "at_file", "lk", "tag0", "w", "tag")))
    elif d.get("event") == "find":
        got["find"].append((d.get("want", "-"), d.get("found", "-")))
bad = []
for ev in want:
    if not want[ev]:
        bad.append("the program printed no %s call" % ev)
    if sorted(want[ev]) != sorted(got[ev]):
        bad.append("%s: records %s\n  program %s" % (ev, sorted(got[ev]), sorted(want[ev])))
for v in ("(null)", "(unreadable)"):
    if not any(t[3] == v for t in got["eval"]):
        bad.append("no eval record with lk=%s" % v)
if not any(t[1] == "(null)" for t in got["find"]) or not any(t[1] != "(null)" for t in got["find"]):
    bad.append("find's records lack a found node or a (null)")
if bad:
    sys.exit("\n".join(bad))
PY
done
exit 0
