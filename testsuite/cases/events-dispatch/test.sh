# events-dispatch: op records of a bytecode VM's dispatch (plugin argument
# dispatch=FUNC, docs/vm.md "The rules in full"), on vm.c's four VMs: an
# enum switch (run), a switch on ints (run_int, an annotated event itself), a
# computed-goto table (run_goto), and two switches of which FUNC@LINE picks
# the smaller (two).  At -O0 and -O2, and at -O2 with functions=all (the VM
# functions are events themselves):
#  - the program prints what the plain build prints;
#  - the op records carry the opcodes' names (enumerators, numbers, a case
#    range, labels) and function=FUNC, and each name's count is the count
#    of its label's line in `dsprof lines` of the same run, but OP_ADD's:
#    a record starts at a dispatch, so OP_DUP's fall-through into OP_ADD's
#    code starts none, and OP_ADD's line counts OP_ADD's records and
#    OP_DUP's (every entry into the label's code);
#  - an event function called by an opcode nests inside its op record, and
#    so do the op records of the recursive call; with functions=all the op
#    records nest inside their VM function's record;
#  - the op record a longjmp leaves (OP_THROW) is closed complete=false and
#    counted as repaired, every other one is complete;
#  - threads have op records of their own; merge keeps every record;
#  - DSPROF_EVENTS=0: no records, the same output.
# Then bad values of the argument: one clear error each.
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/vm.c" .
small=$(grep -n 'the small switch' vm.c | cut -d: -f1)
large=$(grep -n 'the large switch' vm.c | cut -d: -f1)
gcc -w -O2 -o plain vm.c -lpthread || fail "vm.c does not compile without the plugin"
./plain >plain.out || fail "the plain vm exited with status $?"

names_run='OP_ADD OP_CALL OP_DEC OP_DUP OP_HALT OP_JNZ OP_NOP1..OP_NOP3 OP_PUSH OP_REC OP_THROW'

check () {  # check DIR FLAGS...: build, run and check in DIR
  local dir=$1
  shift
  mkdir "$dir" && cd "$dir"
  dscc "$@" -fplugin-arg-dsprof-dispatch=run:run_int:run_goto:two@"$small" \
       -o vm ../vm.c 2>err || fail "$dir: vm.c does not compile: $(cat err)"
  DSPROF_OUT=$PWD/vm.data ./vm >out || fail "$dir: vm exited with status $?"
  expect_same ../plain.out out

  # Names and counts against the label lines' counts.
  run_dsprof report function name line --where event=op --format csv vm.data \
    >ops.csv || fail "$dir: dsprof report: status $?"
  run_dsprof lines vm.data >lines || fail "$dir: dsprof lines: status $?"
  awk -F, '$1 == 3 { print $2, $3, $4, $11 }' ops.csv | sort >ops
  [ -s ops ] || fail "$dir: no op records: $(cat ops.csv)"
  dup=$(awk '$1 == "run" && $2 == "OP_DUP" { print $4 }' ops)
  while read -r fn name line count; do
    entries=$count
    [ "$fn $name" = "run OP_ADD" ] && entries=$((count + dup))
    grep -Eq "(^|/)vm.c:$line: $entries\$" lines ||
      fail "$dir: $fn's $name: $count records, but line $line counts $(grep -E "(^|/)vm.c:$line:" lines | tr '\n' ' ')"
  done <ops
  for f in run run_int run_goto two; do
    awk -v f=$f '$1 == f { print $2 }' ops | sort | tr '\n' ' ' >names.$f
  done
  [ "$(cat names.run)" = "$names_run " ] || fail "$dir: run's ops: $(cat names.run)"
  [ "$(cat names.run_int)" = "0 1 2 " ] || fail "$dir: run_int's ops: $(cat names.run_int)"
  [ "$(cat names.run_goto)" = "l_end l_inc l_twice " ] ||
    fail "$dir: run_goto's ops: $(cat names.run_goto)"
  [ "$(cat names.two)" = "0 1 " ] || fail "$dir: two's ops (the switch on line $small): $(cat names.two)"
  awk '$1 == "two" { print $3 }' ops | sort -u | tr '\n' ' ' >two.lines
  for l in $(cat two.lines); do
    [ "$l" -gt "$small" ] && [ "$l" -lt "$large" ] || fail "$dir: two's op on line $l, not in the small switch"
  done

  # Nesting: helper inside OP_CALL; the recursive run's ops inside OP_REC.
  run_dsprof report parent --where name=helper --format csv vm.data >helper.csv
  [ "$(awk -F, 'NR > 1 { print $2 }' helper.csv)" = OP_CALL ] ||
    fail "$dir: helper's parents: $(cat helper.csv)"
  run_dsprof report name parent --where event=op --format csv vm.data >parents.csv
  # (With functions=all, inside the record of the recursive call of run.)
  run_dsprof report parent --where event=call --where name=run --format csv vm.data >run.csv
  grep -q '^2,OP_PUSH,OP_REC,' parents.csv || grep -q '^1,OP_REC,' run.csv ||
    fail "$dir: no op record inside OP_REC: $(cat parents.csv)"
  awk -F, '$1 == 2 && $3 != "OP_REC" && $3 != "(top)" && $3 != "run" &&
           $3 != "run_int" && $3 != "run_goto" && $3 != "two" && $3 != "thread_main" &&
           $3 != "main" { print; bad = 1 } END { exit bad }' parents.csv >&2 ||
    fail "$dir: op records inside other records (above)"

  # The longjmp: OP_THROW's two records repaired, nothing else.
  run_dsprof report name complete --where event=op --format csv vm.data >complete.csv
  [ "$(awk -F, '$1 == 2 && $3 == "false" { print $2, $10 }' complete.csv)" = "OP_THROW 2" ] ||
    fail "$dir: incomplete op records: $(cat complete.csv)"
  run_dsprof info vm.data >info || fail "$dir: dsprof info: status $?"
  # (With functions=all the call of run it leaves is repaired too.)
  incomplete=$(run_dsprof report complete --where complete=false --format csv vm.data |
               awk -F, 'NR > 1 { print $9 }')
  grep -q "^repaired events: $incomplete\$" info ||
    fail "$dir: $(grep repaired info), $incomplete incomplete records"

  # In the event stream, every Start of helper comes while OP_CALL is the
  # thread's latest op record started and not finished.
  run_dsprof trace vm.data >trace || fail "$dir: dsprof trace: status $?"
  awk '$3 == "Start" && $4 == "event=op" { op[$2] = $5 }
       $3 == "Finish" && $4 == "event=op" { op[$2] = "" }
       $3 == "Start" && $4 == "event=helper" && op[$2] != "name=OP_CALL" { print; bad = 1 }
       END { exit bad }' trace >&2 || fail "$dir: trace: helper outside OP_CALL (above)"

  # run_int is an event: its op records nest inside its record.
  run_dsprof report parent --where function=run_int --format csv vm.data >run_int.csv
  [ "$(awk -F, 'NR > 1 { print $2 }' run_int.csv | sort -u)" = run_int ] ||
    fail "$dir: the parents of run_int's op records: $(cat run_int.csv)"

  # Threads: the main thread and both workers.
  [ "$(run_dsprof report thread --where event=op --format csv vm.data | awk -F, 'NR > 1' | wc -l)" = 3 ] ||
    fail "$dir: op records not in 3 threads"

  # merge keeps every record.
  run_dsprof records vm.data >records || fail "$dir: dsprof records: status $?"
  run_dsprof merge -o merged.data vm.data || fail "$dir: dsprof merge: status $?"
  run_dsprof records merged.data >records.merged || fail "$dir: dsprof records merged: status $?"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records >a
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.merged >b
  expect_same a b

  # DSPROF_EVENTS=0: no records, same output.
  DSPROF_EVENTS=0 DSPROF_OUT=$PWD/off.data ./vm >off.out || fail "$dir: vm (events off): status $?"
  expect_same ../plain.out off.out
  [ -z "$(run_dsprof records off.data)" ] || fail "$dir: records with DSPROF_EVENTS=0"
  cd ..
}

check O0 -O0
check O2 -O2
check all -O2 -fplugin-arg-dsprof-functions=all
# With functions=all the first op of each call is inside its VM function.
for f in run run_int run_goto two; do
  run_dsprof report parent --where function=$f --where depth=0 --format csv all/vm.data >top.$f
  [ "$(awk -F, 'NR > 1' top.$f | wc -l)" = 0 ] || fail "functions=all: top-level op records of $f: $(cat top.$f)"
done
grep -q '^2,OP_PUSH,run,' all/parents.csv || fail "functions=all: OP_PUSH not inside run: $(cat all/parents.csv)"

# Bad values: a clear error each, naming the value.
bad () {  # bad VALUE MESSAGE
  LC_ALL=C dscc -c -o bad.o vm.c -fplugin-arg-dsprof-dispatch="$1" 2>err && fail "dispatch=$1 compiled"
  grep -q "$2" err || fail "dispatch=$1: not the expected error: $(cat err)"
  [ "$(grep -c 'error' err)" -le 2 ] || fail "dispatch=$1: several errors: $(cat err)"
}
bad '' 'dispatch.* needs a colon-separated list'
bad '9run' "bad dispatch function '9run'"
bad 'run@' "bad dispatch function 'run@'"
bad 'run@0' "bad dispatch function 'run@0'"
bad 'run@x1' "bad dispatch function 'run@x1'"
bad 'run:' "bad dispatch function ''\|needs"
bad 'helper' "dispatch function 'helper' has neither a switch nor address-taken labels"
bad 'two@1' "dispatch function 'two' has no switch on line 1"
dscc -c -o ok.o vm.c -fplugin-arg-dsprof-dispatch=not_here:run ||
  fail "a dispatch function defined elsewhere is an error"

# The op hook measures its own cost in the run, on a sample of its calls, as
# the other hooks do: the bundled VM's thousands of opcodes give sampled op
# hook calls in `info`, and the report deducts them from the op records
# (each record's time at most its raw time, the whole less than raw).
cp "$TOP/examples/vm/vm.c" bigvm.c
dscc -O2 -fplugin-arg-dsprof-dispatch=run -o bigvm bigvm.c || fail "bigvm.c does not compile"
DSPROF_OUT=$PWD/big.data ./bigvm 2000 >/dev/null || fail "bigvm: exit status $?"
run_dsprof info big.data >big.info || fail "dsprof info big.data: status $?"
grep -Eq '^hook cost op: [0-9.]+ ns before the time stamp, [0-9.]+ ns after \([1-9][0-9]* calls sampled in the run\)$' big.info ||
  fail "info has no sampled op hook cost: $(cat big.info)"
run_dsprof report --where event=op --unit ns --format csv big.data >big.csv || fail "dsprof report big.data: status $?"
run_dsprof report --where event=op --unit ns --format csv --raw big.data >big-raw.csv ||
  fail "dsprof report --raw big.data: status $?"
ded=$(awk -F, 'NR > 1 && $1 == 1 { s += $3 } END { print s + 0 }' big.csv)
raw=$(awk -F, 'NR > 1 && $1 == 1 { s += $3 } END { print s + 0 }' big-raw.csv)
# Deducted, the op records keep less than as recorded; nothing only if the
# deduction clamped every one of them (a busy machine's sampled costs).
run_dsprof report --where event=op --format json big.data >big.json || fail "dsprof report --format json big.data: status $?"
all_clamped=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(int(d["instrumentation"]["clamped_records"] == d["records"] > 0))' big.json) ||
  fail "big.json does not read"
{ [ "$ded" -gt 0 ] || [ "$all_clamped" = 1 ]; } && [ "$ded" -lt "$raw" ] ||
  fail "op records: deducted total $ded ns, raw $raw ns: $(cat big.csv big-raw.csv)"

# The op hook's whole cost is probed where it runs (docs/contract.md §4.4):
# a run of 300,000 opcodes has batches of probes, which info states with
# the probes' own share of the figure, and the instrumentation line counts
# each op record (all of its records are) at the probed cost, plus the
# chunk setups.
DSPROF_OUT=$PWD/probe.data ./bigvm 20000 >/dev/null || fail "bigvm 20000: exit status $?"
run_dsprof info --count probe.data >probe.info || fail "dsprof info probe.data: status $?"
run_dsprof report name --format json --unit ns probe.data >probe.json ||
  fail "dsprof report probe.data: status $?"
python3 - probe.info probe.json <<'PY' || fail "op probes: $(cat probe.info)"
import json, re, sys
info = open(sys.argv[1]).read()
m = re.search(r"^hook cost op, probed in the run: ([0-9.]+) ns per call, "
              r"([0-9.]+) ns of it the probes' own \(([0-9]+) calls replayed\)$",
              info, re.M)
if not m or int(m[3]) == 0 or not float(m[2]) < float(m[1]):
    sys.exit("no probed op cost")
# A replay holds a clock read and the hook's fast path: a nanosecond at
# least, however busy the machine (the windows' medians leave out what an
# interrupt lengthened).
if not float(m[1]) - float(m[2]) >= 1.0:
    sys.exit("op hook call probed at %s ns, %s ns of it the probes' own" % (m[1], m[2]))
op = float(m[1])
records = int(re.search(r"^records: ([0-9]+)", info, re.M)[1])
setups = float(re.search(r"^chunk setups: ([0-9.]+) ms", info, re.M)[1]) * 1e6
rep = json.load(open(sys.argv[2]))
cost = rep["instrumentation"]["cost_ns"]
want = records * op + setups
if not abs(cost - want) < 2000 + 1e-3 * records:
    sys.exit("instrumentation %d ns, %d op records at %.3f ns and %.0f ns of setups: %.0f"
             % (cost, records, op, setups, want))
# A probed figure that a busy machine lengthened can take the estimate past
# the run time in a short run: the report then says the estimate failed
# (docs/contract.md §4.4), and only then.
if rep["instrumentation"]["failed"] != (cost >= rep["total_ns"]):
    sys.exit("instrumentation %d ns of a %d ns run, failed: %s"
             % (cost, rep["total_ns"], rep["instrumentation"]["failed"]))
PY
# Each complete op record holds one op hook call between its two time
# stamps, so where the probes measured it an op record's own deduction is
# that figure, rounded up to a ns (not the two sampled parts): bigvm's op
# records are leaves, so their Selfs add up to each raw time less it.
run_dsprof records probe.data >probe.records || fail "dsprof records probe.data: status $?"
python3 - probe.info probe.json probe.records <<'PY' || fail "op records' own deduction: $(cat probe.info)"
import json, re, sys
info = open(sys.argv[1]).read()
op_ps = round(float(re.search(r"^hook cost op, probed in the run: ([0-9.]+) ns",
                              info, re.M)[1]) * 1000)
ded = (op_ps + 999) // 1000
durs = []
for line in open(sys.argv[3]):
    m = re.match(r"#\d+ (\d+)ns event=op .* complete=true$", line)
    if not m or " parent=" in line:
        sys.exit("not a complete top-level op record: " + line)
    durs.append(int(m[1]))
want = sum(max(d - ded, 0) for d in durs)
got = sum(r["self_ns"] for r in json.load(open(sys.argv[2]))["rows"])
if got != want:
    sys.exit("op records' Self %d ns, raw times less %d ns each: %d ns" % (got, ded, want))
PY
# dsprof merge keeps the probes: the same figure from the merged profile.
run_dsprof merge -o probe-merged.data probe.data >/dev/null || fail "merge probe.data: status $?"
run_dsprof info probe-merged.data >probe-merged.info || fail "info probe-merged.data: status $?"
[ "$(grep '^hook cost op, probed' probe.info)" = "$(grep '^hook cost op, probed' probe-merged.info)" ] ||
  fail "merge lost the op probes: $(grep '^hook cost' probe.info probe-merged.info)"
exit 0
