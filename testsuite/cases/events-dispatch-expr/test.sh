# events-dispatch-expr: a `dispatch' directive's dims= (docs/select.md,
# "Expressions"; docs/vm.md) on vm-addr.c, with its switch and with its
# computed-goto table (-DVM_GOTO), at -O0 and -O2: every op record carries
# addr=pc-vm->code (a local less a member through a parameter: how many
# elements apart), and its count by (addr, opcode) is the VM's own count of
# its dispatches at that address; prog=vm->name (a char * member, as text),
# bottom=stack[0] (a local array, indexed), code0=*vm->code (a dereference,
# an unsigned char as a number) and sp (a local alone) are what the program
# holds there; the program's output is the plain build's.
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
exit 0
