# events-ctl: `dsprof ctl PROFILE events on|off` switches event recording of
# the running process at once, through the profile's control page
# (include/dsprof-format.h, section 2a; docs/contract.md §5.11).  phases runs
# three phases of 500 events with a wait between them: switched off before
# phase 2 and on before phase 3, phase 2 records nothing (every call after
# ctl returned saw the switch), no record starts in the logged off interval,
# the counts are those of a run without ctl, and info, report and trace show
# the interval.  DSPROF_EVENTS=0 starts off and ctl switches it on.  A
# forked child's profile switches the child alone.  A
# process that is gone, a non-profile and bad arguments: a message, status
# not 0.  A copy of a live profile and a profile whose pid now names a later
# process (a killed process's pid reused) are refused and left as they were,
# and top does not call them running; a symbolic link to a live profile
# switches it.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/phases.c" .
dscc -O2 -o phases phases.c || fail "phases.c does not compile"

# wait_phase N: until phases printed "phase N done" (20 s at most).
wait_phase () {
  for _ in $(seq 400); do
    grep -q "^phase $1 done\$" out && return 0
    sleep 0.05
  done
  kill -9 "$pid" 2>/dev/null
  fail "phases never finished phase $1"
}

# lines DATA OUT: `dsprof lines` of DATA but the wait loop's lines, whose
# counts depend on how long phases waited.
WAIT_LINES=$(grep -n 'tries\|usleep' phases.c | cut -d: -f1 | sed 's/^/phases.c:/; s/$/:/')
lines () {
  run_dsprof lines "$1" >"$2.all" || fail "dsprof lines $1: status $?"
  grep -vF "$WAIT_LINES" "$2.all" >"$2"
}

# The reference: all three phases recorded, no switch.
mkdir ref && touch ref/go1 ref/go2
DSPROF_OUT=ref.data ./phases ref >ref.out || fail "phases (reference): status $?"
lines ref.data ref.lines
run_dsprof info --count ref.data >ref.info || fail "dsprof info ref.data: status $?"
grep -qx 'records: 1500 (0 incomplete)' ref.info || fail "reference: $(cat ref.info)"
grep -q '^events off' ref.info && fail "reference: an off interval: $(cat ref.info)"

# 1. Off before phase 2, on before phase 3.
mkdir sw
DSPROF_OUT=sw.data ./phases sw >out &
pid=$!
wait_phase 1
run_dsprof ctl sw.data events off >ctl.out 2>err || fail "ctl off: status $? ($(cat err))"
grep -q "^events off in process $pid at " ctl.out || fail "ctl off said: $(cat ctl.out)"
run_dsprof ctl sw.data events off >ctl.out 2>err || fail "ctl off again: status $? ($(cat err))"
grep -q "^events already off" ctl.out || fail "ctl off again said: $(cat ctl.out)"
run_dsprof top --batch 1 sw.data >top.txt || fail "dsprof top: status $?"
grep -q '^dsprof top: .*  running  events off  refresh 1' top.txt || fail "top does not say events are off: $(head -1 top.txt)"
touch sw/go1
wait_phase 2
run_dsprof ctl sw.data events on >ctl.out 2>err || fail "ctl on: status $? ($(cat err))"
run_dsprof top --batch 1 sw.data >top.txt || fail "dsprof top: status $?"
grep -q '^dsprof top: .*  running  refresh 1' top.txt || fail "top does not say events are on: $(head -1 top.txt)"
touch sw/go2
wait "$pid" || fail "phases exited with status $?"
expect_same ref.out out

# The counts are a run's without ctl.
lines sw.data sw.lines
expect_same ref.lines sw.lines
# Phase 2 recorded nothing, phases 1 and 3 everything.
run_dsprof report sw.data phase >report.txt 2>err || fail "dsprof report: status $? ($(cat err))"
awk 'NF != 9 { next } $NF == 1 || $NF == 3 { n[$NF] = $(NF-2) } $NF == 2 { bad = 1 }
     END { exit !(n[1] == 500 && n[3] == 500 && !bad) }' report.txt \
  || fail "want 500 records of phases 1 and 3, none of 2: $(cat report.txt)"
grep -q '^Events off: .* in 1 interval ' report.txt || fail "report shows no off interval: $(cat report.txt)"
run_dsprof info --count sw.data >info.txt || fail "dsprof info: status $?"
grep -qx 'records: 1000 (0 incomplete)' info.txt || fail "info: $(cat info.txt)"
grep -Eq '^events off: from [0-9.]+ s to [0-9.]+ s \(dsprof ctl\)$' info.txt \
  || fail "info shows no off interval: $(cat info.txt)"
# No record starts inside the off interval, and the interval lies between
# phase 1's last Finish and phase 3's first Start.
run_dsprof trace sw.data >trace.txt || fail "dsprof trace: status $?"
awk '/ events off pid=/ { from = $1 + 0; nf++ } / events on pid=/ { to = $1 + 0; nt++ }
     / Start / { s[++n] = $1 + 0 }
     END { if (nf != 1 || nt != 1 || to < from) { print "want one off and one on line"; exit 1 }
           for (i = 1; i <= n; i++) if (s[i] >= from && s[i] <= to) { print "a Start at " s[i] "ns is inside " from "-" to; exit 1 } }' \
  trace.txt >check.txt || fail "$(cat check.txt): $(tail -3 trace.txt)"

# 2. DSPROF_EVENTS=0 starts off; ctl switches it on before phase 2.
mkdir on
rm -f out
DSPROF_EVENTS=0 DSPROF_OUT=on.data ./phases on >out &
pid=$!
wait_phase 1
run_dsprof ctl on.data events on >ctl.out 2>err || fail "ctl on (DSPROF_EVENTS=0): status $? ($(cat err))"
touch on/go1 on/go2
wait "$pid" || fail "phases (DSPROF_EVENTS=0) exited with status $?"
lines on.data on.lines
expect_same ref.lines on.lines
run_dsprof info --count on.data >info.txt || fail "dsprof info on.data: status $?"
grep -qx 'records: 1000 (0 incomplete)' info.txt || fail "DSPROF_EVENTS=0, then on: $(cat info.txt)"
grep -Eq '^events off: from 0\.000000 s to [0-9.]+ s \(dsprof ctl\)$' info.txt \
  || fail "info shows no off interval from the start: $(cat info.txt)"
# The recorder's cost, measured once events were switched on.
grep -Eq '^overhead per event pair: [0-9]*[1-9][0-9]*\.[0-9] ns|^overhead per event pair: [0-9]*\.[1-9] ns' info.txt \
  || fail "no recorder cost measured after ctl on: $(cat info.txt)"
run_dsprof report on.data phase >report.txt || fail "dsprof report on.data: status $?"
awk 'NF != 9 { next } $NF == 1 { bad = 1 } $NF == 2 || $NF == 3 { n++ } END { exit !(n == 2 && !bad) }' \
  report.txt || fail "want phases 2 and 3 only: $(cat report.txt)"

# A forked child has a control page of its own: ctl on its profile switches
# the child only.
mkdir f
rm -f out
DSPROF_OUT=f.data ./phases f fork >out &
pid=$!
wait_phase 1
child=$(ls f.data.* 2>/dev/null | head -1)
[ -n "$child" ] || { kill -9 "$pid"; fail "no profile of the forked child"; }
run_dsprof ctl "$child" events off >ctl.out 2>err || fail "ctl off (child): status $? ($(cat err))"
grep -q "^events off in process ${child#f.data.} " ctl.out || fail "ctl off (child) said: $(cat ctl.out)"
touch f/go1
wait_phase 2
run_dsprof ctl "$child" events on >ctl.out 2>err || fail "ctl on (child): status $? ($(cat err))"
touch f/go2
wait "$pid" || fail "phases (fork) exited with status $?"
run_dsprof info --count "$child" >info.txt || fail "dsprof info $child: status $?"
grep -qx 'records: 1000 (0 incomplete)' info.txt || fail "the child: $(cat info.txt)"
grep -q '^events off: from' info.txt || fail "the child: no off interval: $(cat info.txt)"
run_dsprof info --count f.data >info.txt || fail "dsprof info f.data: status $?"
grep -qx 'records: 1500 (0 incomplete)' info.txt || fail "the parent: $(cat info.txt)"
grep -q '^events off' info.txt && fail "the parent was switched: $(cat info.txt)"

# 3. A process that is gone: exited, then killed.
one_message () {  # WHAT ARGS...: status 2 (1 for usage), one message on stderr
  local want=$1 rc=0
  shift
  run_dsprof ctl "$@" >ctl.out 2>err || rc=$?
  [ "$rc" = "$want" ] || fail "ctl $*: status $rc, not $want ($(cat err))"
  grep -q '^dsprof' err || fail "ctl $*: no message"
}
one_message 2 sw.data events on
grep -q "process .* has exited" err || fail "ctl on an exited process said: $(cat err)"
[ "$(wc -l <err)" = 1 ] || fail "not one line: $(cat err)"
mkdir k
rm -f out
DSPROF_OUT=k.data ./phases k >out &
pid=$!
wait_phase 1
kill -9 "$pid"
wait "$pid" 2>/dev/null && fail "phases was not killed"
one_message 2 k.data events off
grep -q "process $pid is gone" err || fail "ctl on a killed process said: $(cat err)"
# 4. A copy of a live profile is no profile its process writes: ctl refuses it
# and leaves it as it was, and top does not call it running; the process
# records on.  A symbolic link to the live profile switches it.
mkdir c
rm -f out
DSPROF_OUT=c.data ./phases c >out &
pid=$!
wait_phase 1
cp c.data copy.data
cp copy.data copy.before
one_message 2 copy.data events off
grep -qx "dsprof ctl: copy.data: process $pid does not write this file (a copy of its profile?): nothing to switch" err \
  || fail "ctl on a copy said: $(cat err)"
cmp -s copy.data copy.before || fail "ctl changed the copy"
run_dsprof top --batch 1 copy.data >top.txt || fail "dsprof top copy.data: status $?"
grep -q "^dsprof top: copy.data  pid $pid  not written by its process (a copy of its profile?): final state" top.txt \
  || fail "top on a copy: $(head -1 top.txt)"
ln -s c.data link.data
run_dsprof ctl link.data events off >ctl.out 2>err || fail "ctl off through a link: status $? ($(cat err))"
grep -q "^events off in process $pid at " ctl.out || fail "ctl off through a link said: $(cat ctl.out)"
run_dsprof ctl link.data events on >ctl.out 2>err || fail "ctl on through a link: status $? ($(cat err))"
grep -q "^events on in process $pid at " ctl.out || fail "ctl on through a link said: $(cat ctl.out)"
touch c/go1 c/go2
wait "$pid" || fail "phases (copy) exited with status $?"
run_dsprof info --count c.data >info.txt || fail "dsprof info c.data: status $?"
grep -qx 'records: 1500 (0 incomplete)' info.txt || fail "the copied process: $(cat info.txt)"
[ "$(grep -c '^events off: from .* (dsprof ctl)$' info.txt)" = 1 ] \
  || fail "the link's switches are not in the profile: $(cat info.txt)"

# 5. A pid given to a later process: a profile whose process was killed, its
# pid now naming a process started after the profile was made (ref.data,
# not exited, made to name a sleep started now).  ctl refuses and changes
# nothing; top says the process is gone.
sleep 100 &
spid=$!
python3 - ref.data reused.data "$spid" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<q", b, 24, int(sys.argv[3]))    # pid
struct.pack_into("<Q", b, 56, 0)                   # stop_mono_ns: not exited
open(sys.argv[2], "wb").write(b)
PY
cp reused.data reused.before
one_message 2 reused.data events off
grep -qx "dsprof ctl: reused.data: process $spid is gone (killed or crashed; its pid now names a later process): nothing to switch" err \
  || { kill "$spid"; fail "ctl on a reused pid said: $(cat err)"; }
cmp -s reused.data reused.before || { kill "$spid"; fail "ctl changed reused.data"; }
run_dsprof top --batch 1 reused.data >top.txt || { kill "$spid"; fail "dsprof top reused.data: status $?"; }
kill "$spid"
grep -q "^dsprof top: reused.data  pid $spid  process gone (killed or crashed; its pid now names a later process): final state" top.txt \
  || fail "top on a reused pid: $(head -1 top.txt)"

# A file that is not a profile, a missing one, bad arguments.
echo 'not a profile' >bad.data
one_message 2 bad.data events off
[ "$(wc -l <err)" = 1 ] || fail "not one line: $(cat err)"
one_message 2 missing.data events off
one_message 1 sw.data events maybe
one_message 1 sw.data
one_message 1 sw.data counters off
# A merged profile has no control page: said so.
run_dsprof merge -o merged.data sw.data >/dev/null || fail "dsprof merge: status $?"
one_message 2 merged.data events off
grep -q "no control page" err || fail "ctl on a merged profile said: $(cat err)"
exit 0
