# events-dispatch-expr: a `dispatch' directive's dims= (docs/select.md,
# "Expressions"; docs/vm.md) on vm-addr.c, with its switch and with its
# computed-goto table (-DVM_GOTO), at -O0 and -O2: every op record carries
# addr=pc-vm->code (a local less a member through a parameter: how many
# elements apart), and its count by (addr, opcode) is the VM's own count of
# its dispatches at that address; prog=vm->name (a char * member, as text),
# bottom=stack[0] (a local array, indexed), code0=*vm->code (a dereference,
# an unsigned char as a number) and sp (a local alone) are what the program
# holds there; the program's output is the plain build's.  And the bundled
# vm-int.c by addr=pc-code (below).
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/vm-addr.c" "$CASE/vm.sel" .
loops=7
gcc -O2 -o plain vm-addr.c || fail "vm-addr.c does not compile"
./plain $loops >plain.out || fail "plain vm-addr: status $?"

for build in switch goto; do
  flags=
  [ $build = goto ] && flags=-DVM_GOTO
  for o in -O0 -O2; do
    dir=$build$o
    mkdir $dir
    dscc $o $flags -fplugin-arg-dsprof-select=vm.sel -o $dir/vm vm-addr.c 2>$dir/err \
      || fail "$dir: vm-addr.c does not compile: $(cat $dir/err)"
    DSPROF_OUT=$PWD/$dir/vm.data $dir/vm $loops >$dir/out || fail "$dir: vm: status $?"
    expect_same plain.out $dir/out
    run_dsprof records $dir/vm.data >$dir/rec || fail "$dir: dsprof records: status $?"
    python3 - $dir/out $dir/rec <<'PY' || fail "$dir: (above)"
import re, sys
from collections import Counter
want = Counter()
for line in open(sys.argv[1]):
    w = line.split()
    if w[0] != "result":
        want[(w[0], w[1])] = int(w[2])
got = Counter()
bad = []
for line in open(sys.argv[2]):
    d = dict(re.findall(r" (\w+)=(\S*)", line))
    if d.get("event") != "op":
        continue
    got[(d.get("addr"), d.get("name"))] += 1
    for k, v in (("prog", "demo"), ("bottom", "0"), ("code0", "1")):
        if d.get(k) != v:
            bad.append("%s=%s, not %s: %s" % (k, d.get(k), v, line.strip()))
    if not re.fullmatch(r"\d+", d.get("sp", "")):
        bad.append("no sp: " + line.strip())
if len(want) < 5:
    bad.append("the VM counted %d addresses" % len(want))
if got != want:
    bad.append("records by (addr, opcode) %s\n  the VM's %s" % (sorted(got.items()), sorted(want.items())))
if bad:
    sys.exit("\n".join(bad[:10]))
PY
  done
done

# The bundled vm-int.c (testsuite/fixtures), its switch at -O2, by
# addr=pc-code (a local less a parameter): each opcode's records, summed
# over its addresses, are the VM's own count of it; each address is one
# opcode's; the two OP_NOP2 of its program have a count each, the same.
cp "$FIXTURES/vm-int.c" .
echo 'dispatch run dims=addr=pc-code' >int.sel
dscc -w -O2 -fplugin-arg-dsprof-select=int.sel -o vm-int vm-int.c 2>err \
  || fail "vm-int.c does not compile with int.sel: $(cat err)"
DSPROF_OUT=$PWD/int.data ./vm-int $loops 10 >int.out || fail "vm-int: status $?"
run_dsprof records int.data >int.rec || fail "dsprof records (vm-int): status $?"
python3 - int.out int.rec <<'PY' || fail "vm-int: (above)"
import re, sys
from collections import Counter
own = {}
for line in open(sys.argv[1]):
    w = line.split()
    if w[0].startswith("OP_"):
        own[w[0]] = int(w[1])
by_addr = Counter()
for line in open(sys.argv[2]):
    d = dict(re.findall(r" (\w+)=(\S*)", line))
    if d.get("event") == "op":
        by_addr[(d.get("name"), d.get("addr"))] += 1
bad = []
names = Counter(n for n, a in by_addr)
if any(c != 1 for c in Counter(a for n, a in by_addr).values()):
    bad.append("an address with several opcodes: %s" % sorted(by_addr.items()))
sums = Counter()
for (n, a), c in by_addr.items():
    sums[n] += c
if dict(sums) != own:
    bad.append("records by opcode %s, the VM's %s" % (dict(sums), own))
nop2 = sorted(c for (n, a), c in by_addr.items() if n == "OP_NOP2")
if len(nop2) != 2 or nop2[0] != nop2[1]:
    bad.append("OP_NOP2's addresses: %s" % nop2)
if bad:
    sys.exit("\n".join(bad))
PY
exit 0
