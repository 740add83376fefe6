# events-dispatch-vdbe: op records by statement and address, against the VM's own
# per-address counts, on vdbe.c: a VM shaped like SQLite's (sqlite3VdbeExec's
# `struct vdbe' with zSql and aOp, a switch on pOp->opcode, a run that returns
# at each OP_ResultRow and resumes at p->pc, OP_String8 rewriting itself into
# OP_String, OP_Init and OP_Trace on one block, OP_Noop run by the default
# label, a statement without SQL run
# nested inside an opcode), which counts as SQLite's VDBE_PROFILE does and
# writes its vdbe_profile.out (docs/vm.md, "SQLite").  Built with the selection
# file vdbe.sel alone (dims=addr=pOp-aOp,sql=p->zSql), at -O0 and -O2:
#  - the program prints what the plain build prints (its rows and VM-steps) and
#    writes the same vdbe_profile.out;
#  - vdbecheck.py (scripts/real.sh's check of SQLite, testsuite/fixtures): at
#    every statement and address, the op records are the VM's own count, but
#    at the ops that leave the loop, which VDBE_PROFILE does not count; those
#    make up each statement's VM-steps and its runs; every record is named as
#    the op at its address;
#  - its table holds every statement of work.sql and the nested one, "(null)";
#  - vdbecheck fails, naming the address, on a count one off on either side,
#    and on the default label's records unless told that it runs OP_Noop.
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/vdbe.c" "$CASE/vdbe.sel" "$CASE/work.sql" .
gcc -O2 -o plain vdbe.c || fail "vdbe.c does not compile"
mkdir plain.d && (cd plain.d && ../plain ../work.sql >out) || fail "plain vdbe: status $?"

for o in -O0 -O2; do
  dir=ds$o
  mkdir $dir
  dscc $o -fplugin-arg-dsprof-select=vdbe.sel -o $dir/vdbe vdbe.c 2>$dir/err ||
    fail "$dir: vdbe.c does not compile: $(cat $dir/err)"
  (cd $dir && DSPROF_OUT=$PWD/vdbe.data ./vdbe ../work.sql >out) || fail "$dir: vdbe: status $?"
  expect_same plain.d/out $dir/out
  expect_same plain.d/vdbe_profile.out $dir/vdbe_profile.out
  run_dsprof report sql addr name --where event=op --format csv $dir/vdbe.data >$dir/ops.csv ||
    fail "$dir: dsprof report: status $?"
  python3 "$FIXTURES/vdbecheck.py" $dir/vdbe_profile.out $dir/ops.csv \
    --steps work.sql $dir/out --default Noop --table $dir/table >$dir/check || fail "$dir: $(cat $dir/check)"
  grep -q '^9 statements (13 runs), ' $dir/check || fail "$dir: vdbecheck: $(cat $dir/check)"
  { grep -v '^\.' work.sql; echo '(null)'; } | sort -u >want
  cut -f5 $dir/table | tail -n +2 | sort >got
  expect_same want got
done

# A count one off, on dsprof's side (the INSERT's OP_Add) and on the VM's.
sed '/^3,INSERT INTO t SELECT value FROM range(30);,2,OP_Add,/s/,30,\([0-9.]*\)$/,31,\1/' \
  ds-O2/ops.csv >off.csv
! cmp -s off.csv ds-O2/ops.csv || fail "no OP_Add row of 30 records in ds-O2/ops.csv"
st=0
python3 "$FIXTURES/vdbecheck.py" ds-O2/vdbe_profile.out off.csv >off.out || st=$?
[ $st = 1 ] && grep -q "^MISMATCH 'INSERT INTO t SELECT value FROM range(30);' addr 2 (Add): 31 op records, VDBE_PROFILE counts 30" off.out ||
  fail "vdbecheck on a count one off: status $st: $(cat off.out)"
awk '!done && /^ +1 .* 7 Goto /{ sub(/^ +1 /, "     2 "); done = 1 } 1' ds-O2/vdbe_profile.out >off.prof
! cmp -s off.prof ds-O2/vdbe_profile.out || fail "no Goto at address 7 in vdbe_profile.out"
st=0
python3 "$FIXTURES/vdbecheck.py" off.prof ds-O2/ops.csv >off.out || st=$?
[ $st = 1 ] && grep -q "^MISMATCH .* addr 7 (Goto): [0-9]* op records, VDBE_PROFILE counts" off.out ||
  fail "vdbecheck on a VDBE_PROFILE count one off: status $st: $(cat off.out)"
st=0
python3 "$FIXTURES/vdbecheck.py" ds-O2/vdbe_profile.out ds-O2/ops.csv >off.out || st=$?
[ $st = 1 ] && grep -q "^MISMATCH 'CREATE TABLE t(a);' addr 1: 1 op records named default, vdbe_profile.out has Noop there" off.out ||
  fail "vdbecheck without --default: status $st: $(cat off.out)"
exit 0
