# report-op-sequences: the op sequences of a bytecode VM (docs/vm.md,
# "Sequences of opcodes"; docs/contract.md §5.4): prev:D and seq2:D .. seq4:D
# on vm.c's VMs (testsuite/fixtures/vm.c: run recursing into itself from
# OP_REC, leaving by longjmp from OP_THROW, called again and again from
# main and from two threads; run_int, an event itself; run_goto's computed
# gotos), built with dispatch=run:run_int:run_goto at -O2, and vm-int.c's
# (testsuite/fixtures/vm-int.c) in its two builds:
#  - with functions=all (each call of a VM function a record of its own,
#    holding that call's op records), the pair table `dsprof report
#    prev:name name` and the seq2/seq3/seq4:name tables hold exactly the
#    sequences seqcheck.py counts from `dsprof trace` by the record each op
#    record starts in: a nested call's sequence is its own, and the outer
#    one resumes after it (OP_REC is followed by OP_ADD, never by the inner
#    call's OP_HALT);
#  - without functions=all (the calls of run one after another at the top
#    level, nothing between them but the dispatch's own events), the same
#    tables, count for count: the decoder tells one call from the next;
#  - prev:D of an op record's first opcode, and of a record that is no op
#    record, is the empty value; an unknown D after prev: or seqN: is a
#    usage error;
#  - the rows of every table of a sequence (and of the pairs' second level)
#    rank by Count, then Total.
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/vm.c" .
tables () {  # tables DIR PROFILE: the CSV tables seqcheck.py reads, in DIR
  mkdir -p "$1"
  run_dsprof report prev:name name --where event=op --format csv "$2" >"$1/pairs.csv" ||
    fail "$1: report prev:name name: status $?"
  for n in 2 3 4; do
    run_dsprof report seq$n:name --where event=op --format csv "$2" >"$1/seq$n.csv" ||
      fail "$1: report seq$n:name: status $?"
  done
}
counts () {  # counts FILE: each row's level, values and count, sorted
  awk -F, 'NR > 1 { v = $1; for (i = 2; i <= NF - 8; i++) v = v "," $i
                    print v "," $(NF - 1) }' "$1" | sort
}

for v in all:-fplugin-arg-dsprof-functions=all plain:; do
  IFS=: read -r dir flag <<<"$v"
  dscc -w -O2 -fplugin-arg-dsprof-dispatch=run:run_int:run_goto $flag -o vm-$dir vm.c ||
    fail "vm.c does not compile ($dir)"
  DSPROF_OUT=$PWD/$dir.data ./vm-$dir >$dir.out || fail "vm-$dir exited with status $?"
  tables $dir $dir.data
done

run_dsprof trace all.data >all.trace || fail "trace: status $?"
python3 "$CASE/seqcheck.py" all.trace all || fail "the tables differ from the trace's sequences (above)"

# Each table ranked by Count (then Total): the pairs' second level too.
python3 - all/pairs.csv all/seq2.csv all/seq3.csv all/seq4.csv <<'PY' || fail "a table not ranked by Count"
import csv, sys
for path in sys.argv[1:]:
    last = {}
    rows = list(csv.reader(open(path)))[1:]
    for r in rows:
        table = (r[0], tuple(r[1:int(r[0])]))    # level, the values above
        count, total = int(r[-2]), int(r[-8])
        if table in last and last[table] < (count, total):
            sys.exit(f"{path}: {r} after a row of count, total {last[table]}")
        last[table] = (count, total)
    if len(rows) < 5:
        sys.exit(f"{path}: {len(rows)} rows")
PY

# The nested call of run: its own sequence; the outer one resumes after it.
grep -q '^1,OP_REC > OP_ADD,' all/seq2.csv || fail "no OP_REC > OP_ADD: $(cat all/seq2.csv)"
grep -q 'OP_HALT > OP_ADD' all/seq2.csv && fail "a nested call's OP_HALT before the outer OP_ADD"

# Without the VM functions' records, the same sequences count for count.
for t in pairs seq2 seq3 seq4; do
  counts all/$t.csv >all-$t.counts
  counts plain/$t.csv >plain-$t.counts
  [ -s all-$t.counts ] || fail "no rows in all/$t.csv"
  expect_same all-$t.counts plain-$t.counts
done

# vm-int.c (a switch on an int with a fall-through and a goto into another
# opcode's code, which start no record; its computed-goto build): the same
# check, and the two builds' sequences are the same.
cp "$FIXTURES/vm-int.c" .
for v in int-switch: int-goto:-DVM_GOTO; do
  IFS=: read -r dir flag <<<"$v"
  dscc -w -O2 -fplugin-arg-dsprof-dispatch=run -fplugin-arg-dsprof-functions=all $flag \
    -o vm-$dir vm-int.c || fail "vm-int.c does not compile ($dir)"
  DSPROF_OUT=$PWD/$dir.data ./vm-$dir 5 1 >$dir.out || fail "vm-$dir exited with status $?"
  tables $dir $dir.data
  run_dsprof trace $dir.data >$dir.trace || fail "$dir: trace: status $?"
  python3 "$CASE/seqcheck.py" $dir.trace $dir || fail "$dir: the tables differ from the trace's sequences (above)"
done
for t in pairs seq2 seq3 seq4; do
  counts int-switch/$t.csv >int-switch-$t.counts
  counts int-goto/$t.csv >int-goto-$t.counts
  expect_same int-switch-$t.counts int-goto-$t.counts
done

# The first op record of a call, and a record that is no op record: empty.
run_dsprof report prev:name --where name=helper --format csv all.data >helper.csv ||
  fail "report prev:name --where name=helper: status $?"
grep -q '^1,,' helper.csv || fail "helper, no op record, has a prev:name: $(cat helper.csv)"

# An unknown D: one usage error, status 1.
for bad in prev:depth seq3:nosuch seq4:; do
  set +e
  run_dsprof report $bad all.data >/dev/null 2>err; rc=$?
  set -e
  [ $rc = 1 ] && grep -q "wants a dimension of op records.*not '$bad'" err ||
    fail "report $bad: status $rc, $(cat err)"
done
exit 0
