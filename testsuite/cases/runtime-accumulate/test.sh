# runtime-accumulate: DSPROF_OUT=NAME with DSPROF_ACCUMULATE=1 (dsprof(1),
# Environment; include/dsprof-format.h section 2a): every run adds its counts
# and events to NAME, each run a process of its own in it.
# 1. 8 processes started together, 5 times over (40 runs of 100 steps, 20 of
#    them at once): NAME alone holds them, the counts are exactly the sum of
#    the runs (4,000 steps), 40 processes, 4,000 records.
# 2. A forked child adds itself to NAME too, and so does a program exec'd by
#    a process that wrote to NAME.
# 3. A process killed with SIGKILL while it steps: what it counted is in NAME
#    (at least the steps it had done), NAME reads, and the next run adds to it.
#    A chunk whose writer died before writing it (a page of zeros, a chunk of
#    kind 0) is skipped: NAME with both made by hand reads the same; a chunk
#    naming a process that is not one is refused (status 2, one line).
# 4. A source file, a symbolic link and a fifo at NAME are left as they are,
#    with one `dsprof:` line each, and the program runs as without a profile.
# 5. report, records, trace, info and merge read NAME; merge's output has the
#    same counts and records.
# 6. DSPROF_ACCUMULATE=0 and empty: a profile per run; another value: the
#    same, with one `dsprof:` line naming it.
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/acc.c" .
dscc -O2 -o acc acc.c || fail "acc.c does not compile"
STEP=$(grep -n '/\* STEP \*/' acc.c | cut -d: -f1)
export DSPROF_ACCUMULATE=1

steps () {  # steps PROFILE: the count of the STEP line
  run_dsprof lines "$1" >lines.out 2>lines.err || fail "dsprof lines $1: $(cat lines.err)"
  awk -F': ' -v at="acc.c:$STEP" '$1 == at { s += $2 } END { print s + 0 }' lines.out
}
records () {  # records PROFILE: how many records
  run_dsprof records "$1" >records.out 2>records.err || fail "dsprof records $1: $(cat records.err)"
  wc -l <records.out
}
procs () {  # procs PROFILE: how many processes info lists
  run_dsprof info "$1" >info.out || fail "dsprof info $1: status $?"
  grep -c '^pid:' info.out
}

# ---- 1. 8 at once, 5 times ----
for round in 1 2 3 4 5; do
  pids=()
  for k in 1 2 3 4 5 6 7 8; do
    DSPROF_OUT=acc.data ./acc 100 go >"out.$k" 2>"err.$k" &
    pids+=($!)
  done
  touch go
  for k in 1 2 3 4 5 6 7 8; do
    wait "${pids[$((k - 1))]}" || fail "round $round, process $k: status $?"
    [ "$(cat "out.$k")" = "done 100" ] || fail "process $k printed $(cat "out.$k")"
    [ ! -s "err.$k" ] || fail "process $k wrote to stderr: $(cat "err.$k")"
  done
  rm go
done
[ "$(ls | grep -c '^acc\.data')" = 1 ] || fail "more than one profile: $(ls)"
[ "$(steps acc.data)" = 4000 ] || fail "steps $(steps acc.data), not 4000"
[ "$(records acc.data)" = 4000 ] || fail "records $(records acc.data), not 4000"
[ "$(procs acc.data)" = 40 ] || fail "$(procs acc.data) processes, not 40"

# ---- 2. fork ----
DSPROF_OUT=fork.data ./acc fork 30 >fork.out || fail "acc fork: status $?"
[ "$(ls | grep -c '^fork\.data')" = 1 ] || fail "the child wrote a profile of its own: $(ls)"
[ "$(steps fork.data)" = 60 ] || fail "fork: steps $(steps fork.data), not 60"
[ "$(procs fork.data)" = 2 ] || fail "fork: $(procs fork.data) processes, not 2"
DSPROF_OUT=exec.data ./acc exec 30 >exec.out || fail "acc exec: status $?"
[ "$(cat exec.out)" = "done 30" ] || fail "acc exec printed $(cat exec.out)"
[ "$(ls | grep -c '^exec\.data')" = 1 ] || fail "the exec'd image wrote a profile of its own: $(ls)"
[ "$(steps exec.data)" = 60 ] || fail "exec: steps $(steps exec.data), not 60"
[ "$(procs exec.data)" = 2 ] || fail "exec: $(procs exec.data) processes, not 2"

# ---- 3. SIGKILL ----
DSPROF_OUT=acc.data ./acc 0 &
pid=$!
wait_progress progress 20000 "the killed process"
kill -KILL $pid
wait $pid 2>/dev/null || true
done=$(progress progress)
got=$(steps acc.data)
[ "$got" -ge $((4000 + done)) ] || fail "after the kill: $got steps, at least $((4000 + done)) expected"
DSPROF_OUT=acc.data ./acc 100 >/dev/null || fail "the run after the kill: status $?"
[ "$(steps acc.data)" = $((got + 100)) ] || fail "after one more run: $(steps acc.data), not $((got + 100))"
# A writer that died before writing: a page of zeros, then a chunk of kind 0
# (its size only), taken at the end.
cp acc.data dead.data
python3 - dead.data <<'PY'
import struct, sys
path = sys.argv[1]
with open(path, 'r+b') as f:
    end = struct.unpack_from('<Q', f.read(24), 16)[0]
    f.seek(end)
    f.write(bytes(4096) + struct.pack('<IIQ', 0, 0, 8192) + bytes(8192 - 16))
    f.seek(16)
    f.write(struct.pack('<Q', end + 4096 + 8192 + 4096))   # and a page not there
PY
[ "$(steps dead.data)" = "$(steps acc.data)" ] || fail "dead.data reads $(steps dead.data) steps"
cp acc.data bad.data
python3 - bad.data <<'PY'
import struct, sys
with open(sys.argv[1], 'r+b') as f:
    data = f.read()
    off = 4096
    while True:                                  # the first chunk of a process
        kind, _, size = struct.unpack_from('<IIQ', data, off)
        if kind & 0xff != 4 and kind >> 8:
            break
        off += size
    f.seek(off)
    f.write(struct.pack('<I', (kind & 0xff) | 0x7fffff << 8))
PY
set +e
run_dsprof lines bad.data >out 2>err; rc=$?
set -e
[ $rc = 2 ] && [ "$(wc -l <err)" = 1 ] && grep -q "bad.data: .*not one" err ||
  fail "a chunk of no process: status $rc, $(cat err)"

# ---- 4. what is not an accumulated profile ----
echo 'int main (void) { return 0; }' >src.c
cp src.c src.orig
ln -s acc.data link.data
mkfifo fifo.data
for name in src.c link.data fifo.data; do
  DSPROF_OUT=$name ./acc 10 >out 2>err || fail "$name: status $?"
  [ "$(cat out)" = "done 10" ] || fail "$name: printed $(cat out)"
  [ "$(wc -l <err)" = 1 ] && grep -q "^dsprof: cannot write profile '.*$name'" err ||
    fail "$name: $(cat err)"
done
cmp -s src.c src.orig || fail "src.c changed"
[ -L link.data ] && [ "$(readlink link.data)" = acc.data ] || fail "link.data changed"
[ -p fifo.data ] || fail "fifo.data changed"
[ "$(steps acc.data)" = $((got + 100)) ] || fail "a run through link.data reached acc.data"

# ---- 5. the commands ----
for cmd in "report name" "trace" "info --count" "callgraph" "summary"; do
  # shellcheck disable=SC2086
  run_dsprof $cmd acc.data >cmd.out 2>cmd.err || fail "dsprof $cmd: status $? ($(head -3 cmd.err))"
  [ -s cmd.out ] || fail "dsprof $cmd printed nothing"
done
run_dsprof merge -o merged.data acc.data || fail "merge: status $?"
[ "$(steps merged.data)" = "$(steps acc.data)" ] || fail "merged: $(steps merged.data) steps"
[ "$(records merged.data)" = "$(records acc.data)" ] || fail "merged: $(records merged.data) records"

# ---- 6. not accumulating ----
for v in 0 "" maybe; do
  rm -f one.data
  DSPROF_ACCUMULATE=$v DSPROF_OUT=one.data ./acc 10 >/dev/null 2>err || fail "'$v': status $?"
  DSPROF_ACCUMULATE=$v DSPROF_OUT=one.data ./acc 10 >/dev/null 2>>err || fail "'$v': status $?"
  [ "$(steps one.data)" = 10 ] || fail "DSPROF_ACCUMULATE='$v': $(steps one.data) steps, not 10"
  if [ "$v" = maybe ]; then
    [ "$(sort -u err)" = "dsprof: DSPROF_ACCUMULATE='maybe' is not 0, 1, on, off, yes, no, true or false: not accumulating" ] ||
      fail "DSPROF_ACCUMULATE=maybe: $(cat err)"
  else
    [ ! -s err ] || fail "DSPROF_ACCUMULATE='$v': $(cat err)"
  fi
done
# An accumulated profile has no control page: dsprof ctl says so, status 2.
rc=0
run_dsprof ctl acc.data events off >/dev/null 2>ctl.err || rc=$?
[ "$rc" = 2 ] && grep -q "no control page.*accumulated" ctl.err ||
  fail "ctl on an accumulated profile: status $rc, $(cat ctl.err)"
echo "runtime-accumulate: $(steps acc.data) steps in $(procs acc.data) processes"
