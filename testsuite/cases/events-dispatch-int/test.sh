# events-dispatch-int: an op record runs from one dispatch to the next
# (docs/vm.md, "What is an opcode"), on vm-int.c, whose switch on an int
# has #define'd and enumerator cases, a fall-through, empty cases and a goto
# into another opcode's code, built with its switch and with its
# computed-goto table (-DVM_GOTO), at -O0 and -O2, with dispatch=run:
#  - the program prints what the plain build prints;
#  - every op record is named as the source writes its opcode (`vmcase
#    (OP_X)': OP_X, in the switch build the case's `OP_X', in the goto build
#    the argument that `#define vmcase(l) L_##l:' writes its label from),
#    exactly the names of the opcodes the VM itself saw dispatched, and
#    carries its label's line (never line 0);
#  - each opcode's records are as many as the VM's own count of its
#    dispatches: OP_NOP1 and OP_NOP2, two labels with nothing between them
#    (one block, one range in the switch), are two opcodes with two counts in
#    both builds; OP_DBL's fall-through into OP_INC and OP_JSPIN's goto into
#    OP_SPIN start no record;
#  - the two builds give the same records: name, line and count;
#  - OP_SPIN's and OP_JSPIN's raw times are at least 0.8 times the VM's own
#    (it reads CLOCK_MONOTONIC at each dispatch), so OP_JSPIN's record holds
#    the spin it jumps to; the listing's count of OP_INC's code is every
#    entry into it, OP_DBL's fall-throughs included, and a label line's
#    count (if it has one) is at least its record count;
#  - annotate's listing ends every label's line with "[op OP_X: N records]",
#    N the VM's count, also on the lines GCC gives no block count of their
#    own in the switch build (OP_INC, OP_NOP2, OP_SPIN), and no other line;
#    `dsprof lines --ops' gives FILE:LINE: N OP_X for each;
#  - the same with counters=off (no listing then).
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/vm-int.c" .
loops=40 spin=20000
gcc -w -O2 -o plain vm-int.c || fail "vm-int.c does not compile"
gcc -w -O2 -DVM_GOTO -o plain-goto vm-int.c || fail "vm-int.c -DVM_GOTO does not compile"
./plain $loops 1 | tail -1 >plain.out || fail "plain vm-int: status $?"
./plain-goto $loops 1 | tail -1 >plain-goto.out || fail "plain vm-int -DVM_GOTO: status $?"
expect_same plain.out plain-goto.out

check () {  # check DIR FLAGS...: build, run and check in DIR
  local dir=$1
  shift
  mkdir "$dir" && cd "$dir"
  dscc -w "$@" -fplugin-arg-dsprof-dispatch=run -o vm ../vm-int.c 2>err ||
    fail "$dir: vm-int.c does not compile: $(cat err)"
  DSPROF_OUT=$PWD/vm.data ./vm $loops $spin >own || fail "$dir: vm exited with status $?"
  tail -1 own >out
  expect_same ../plain.out out
  run_dsprof report name line --where event=op --raw --unit ns --format csv vm.data >ops.csv ||
    fail "$dir: dsprof report: status $?"
  run_dsprof lines --ops vm.data >oplines || fail "$dir: dsprof lines --ops: status $?"
  run_dsprof annotate -o ann vm.data || fail "$dir: dsprof annotate: status $?"
  cat ann/*/vm-int.c.bb >listing 2>/dev/null || :
  listing=listing
  case "$*" in *counters=off*) listing=none ;; esac
  python3 - ../vm-int.c own ops.csv listing $listing oplines >by-line <<'PY' || fail "$dir: (above)"
import csv, re, sys
src = open(sys.argv[1]).read().split("\n")
label = {}                      # opcode -> its label's line
for i, text in enumerate(src, 1):
    m = re.match(r"\s*vmcase \((\w+)\)\s*$", text)
    if m:
        label[m[1]] = i
own = {}                        # the VM's own count and time of each opcode
for row in open(sys.argv[2]):
    name, *vals = row.split()
    if name in label:
        own[name] = (int(vals[0]), int(vals[1]))
rows = [r for r in csv.DictReader(open(sys.argv[3])) if r["level"] == "2"]
got = {}
bad = []
for r in rows:
    name, line = r["name"], int(r["line"])
    if name not in own:
        bad.append("an op record named %r (line %d), no opcode the VM ran" % (name, line))
    elif line != label[name]:
        bad.append("%s's records on line %d, its label on %d" % (name, line, label[name]))
    c, t = got.get(name, (0, 0))
    got[name] = (c + int(r["count"]), t + int(r["total_ns"]))
for op in sorted(own):
    if got.get(op, (0, 0))[0] != own[op][0]:
        bad.append("%s: %d records, the VM dispatched it %d times"
                   % (op, got.get(op, (0, 0))[0], own[op][0]))
for op in ("OP_SPIN", "OP_JSPIN"):
    if not got.get(op, (0, 0))[1] >= 0.8 * own[op][1]:
        bad.append("%s: %d ns in its records, %d ns by the VM's clock"
                   % (op, got.get(op, (0, 0))[1], own[op][1]))
oplines = {}
for text in open(sys.argv[6]):
    m = re.match(r".*vm-int\.c:(\d+): (\d+) (\S+)$", text)
    if not m:
        bad.append("lines --ops: %r" % text)
        continue
    oplines[m[3]] = (int(m[1]), int(m[2]))
want = {op: (label[op], own[op][0]) for op in own}
if oplines != want:
    bad.append("lines --ops: %s, the VM: %s" % (sorted(oplines.items()), sorted(want.items())))
# The listing's count of OP_INC's code (the line after its label, which
# has none in the switch build, as in gcov's listing: GCC's CFG keeps no
# label statement of its own for that case): OP_INC's dispatches and
# OP_DBL's fall-throughs.  A label line that has a count has at least its
# records'.  Each label line's note has its opcode's count.
listed = {}                     # annotate's count of each line
notes = {}                      # annotate's op note of each line
for text in open(sys.argv[4]):
    m = re.match(r"\s*(\S*):\s*(\d+):", text)
    if not m:
        continue
    if m[1].isdigit():
        listed[int(m[2])] = int(m[1])
    n = re.search(r"  \[op (\S+): (\d+) records?\]$", text)
    if n:
        notes[int(m[2])] = (n[1], int(n[2]))
if sys.argv[5] == "listing":
    n = listed.get(label["OP_INC"] + 1)
    if n != own["OP_INC"][0] + own["OP_DBL"][0]:
        bad.append("OP_INC's code counts %s, not %d + %d"
                   % (n, own["OP_INC"][0], own["OP_DBL"][0]))
    for op, (line, c) in want.items():
        if line in listed and listed[line] < c:
            bad.append("line %d counts %d, less than its %d records" % (line, listed[line], c))
    want_notes = {line: (op, c) for op, (line, c) in want.items()}
    if notes != want_notes:
        bad.append("annotate's op notes: %s, the VM: %s"
                   % (sorted(notes.items()), sorted(want_notes.items())))
if bad:
    sys.exit("\n".join(bad))
for op in sorted(got, key=lambda o: label[o]):
    print(label[op], op, got[op][0])
PY
  cd ..
}

check switch-O0 -O0
check switch-O2 -O2
check goto-O0 -O0 -DVM_GOTO
check goto-O2 -O2 -DVM_GOTO
# Without counters the dispatch's edges are not split before the op hooks go in.
check switch-ops -O2 -fplugin-arg-dsprof-counters=off
check goto-ops -O2 -DVM_GOTO -fplugin-arg-dsprof-counters=off
for d in switch-O2 goto-O0 goto-O2 switch-ops goto-ops; do
  expect_same switch-O0/by-line $d/by-line
done
exit 0
