# report-top: `dsprof top` (docs/contract.md §5.10) on a running program's
# profile, refreshed while the program records: --batch frames whose counts
# only grow and whose changes since the last refresh are positive while it
# runs; the final state of a killed program, which it says is gone; an
# accumulated profile's processes, all counted, running while any runs; the
# terminal view under tmux (keys switch the view and the dimension, pause
# and quit, and the terminal is restored); bad input, one message each.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/ticker.c" .
dscc -O2 -o ticker ticker.c || fail "ticker.c does not compile"
WORK_LINE=$(grep -n '/\* WORK \*/' ticker.c | cut -d: -f1)

start_ticker () {
  rm -f stop dsprof.data
  ./ticker stop >out &
  pid=$!
  for _ in $(seq 400); do
    grep -q '^ready$' out && return 0
    sleep 0.05
  done
  kill -9 "$pid"
  fail "ticker never got ready"
}

# frames FILE: one line per frame of a --batch output: "STATE RECORDS NEW
# WORKDELTA WORKCOUNT TICKDELTA TICKCOUNT" (missing figures as 0).
frames () {
  awk -v work="ticker.c:$WORK_LINE" '
    function flush () { if (n) print state, rec, new, wd + 0, wc + 0, td + 0, tc + 0 }
    /^dsprof top: / { flush(); n++; wd = wc = td = tc = 0
                      state = $0 ~ /  running  / ? "running" : $0 ~ /process gone/ ? "gone" : "?" }
    /^run time / { rec = $6; new = $7; gsub(/[(+)]/, "", new) }
    $3 ~ work"$" { wd = $1; wc = $2 }
    NF == 2 && $2 ~ work"$" { wd = 0; wc = $1 }
    $NF == "tick" && NF == 5 { td = $1; tc = $3 }
    END { flush() }' "$1"
}

# 1. --batch on the running program.
start_ticker
run_dsprof top --batch 3 -d 0.2 dsprof.data >batch.txt 2>err \
  || { kill -9 "$pid"; fail "top --batch: status $? ($(cat err))"; }
touch stop
wait "$pid" || fail "ticker exited with status $?"
frames batch.txt >frames.txt
[ "$(wc -l <frames.txt)" = 3 ] || fail "want 3 frames: $(cat batch.txt)"
# A line or row is listed when it grew: the WORK line and the tick row in the
# first frame (since the start), in the others when the program ran between.
awk 'NR == 1 { if ($3 != $2) bad = "first frame: new records " $3 " != records " $2
               if ($4 <= 0) bad = "first frame: no WORK line" }
     { if ($1 != "running") bad = "frame " NR " is not of a running process"
       if ($2 < rec) bad = "frame " NR ": the records went down"
       if (NR > 1 && $2 != rec + $3) bad = "frame " NR ": records != last + new"
       if ($6 != $3) bad = "frame " NR ": tick delta " $6 " != new records " $3
       if ($4 > 0 && $5 != wc + $4) bad = "frame " NR ": WORK count != last + delta"
       if ($6 > 0 && $7 != tc + $6) bad = "frame " NR ": tick count != last + delta"
       rec = $2; if ($4 > 0) wc = $5; if ($6 > 0) tc = $7 }
     END { if (bad) { print bad; exit 1 } }' frames.txt >check.txt \
  || fail "$(cat check.txt): $(cat frames.txt)"
awk 'NR > 1 && $3 > 0 && $4 > 0 { ok = 1 } END { exit !ok }' frames.txt \
  || fail "no records finished nor counts grew between refreshes: $(cat frames.txt)"

# 1b. --batch across the program's exit, with DSPROF_TOP_DEBUG's count of
# the bytes each read decoded: every read decodes only what was written since
# the one before, so the counts add up to the event stream; the run time and
# the records never go back, the records end at `dsprof info`'s; once the
# program has exited the lines view lists the whole run's hottest lines.
start_ticker
DSPROF_TOP_DEBUG=1 run_dsprof top --batch 30 -d 0.2 dsprof.data >exit.txt 2>debug.txt &
toppid=$!
for _ in $(seq 600); do
  grep -q '  refresh 2$' exit.txt && break
  sleep 0.05
done
touch stop
wait "$pid" || fail "ticker exited with status $?"
wait "$toppid" || fail "top --batch across the exit: status $? ($(cat debug.txt))"
grep -q '  exited  refresh' exit.txt || fail "no frame after the exit: $(grep '^dsprof top' exit.txt)"
run_dsprof info --count dsprof.data >info.txt || fail "dsprof info: status $?"
records=$(sed -n 's/^records: \([0-9]*\) .*/\1/p' info.txt)
awk -v r="$records" '
  function ns(v, u) { return u == "ns" ? v : u == "us" || u == "µs" ? v * 1e3 : u == "ms" ? v * 1e6 : u == "s" ? v * 1e9 : -1 }
  /^dsprof top: read / { sub(/^dsprof top: read [0-9]*: decoded /, ""); decoded += $1; next }
  /^dsprof top: / { exited = $0 ~ /  exited  /; frames++ }
  /^run time / { t = ns($3, $4); if (t < 0) bad = "unknown unit " $4
                 if (t < run) bad = "frame " frames ": run time " $3 " " $4 " went back"
                 if ($6 < rec) bad = "frame " frames ": records " $6 " went down"
                 run = t; rec = $6; bytes = $10 }
  /^Lines, hottest/ { lines = $0; getline; getline; first = $0
                      if (exited && (lines !~ /whole run/ || first ~ /none/))
                        bad = "frame " frames ": after the exit, no lines of the whole run" }
  END { if (rec != r) bad = "final records " rec ", info says " r
        if (decoded != bytes) bad = "the reads decoded " decoded " bytes, the stream has " bytes
        if (bad) { print bad; exit 1 } }' exit.txt debug.txt >check.txt \
  || fail "$(cat check.txt): $(grep -v '^  ' exit.txt | head -40)"

# 2. The profile of a killed program: the final state, twice the same, gone.
start_ticker
kill -9 "$pid"
wait "$pid" 2>/dev/null && fail "ticker was not killed"
run_dsprof top --batch 2 -d 0.1 dsprof.data >killed.txt 2>err || fail "top on a killed program: status $? ($(cat err))"
frames killed.txt >kframes.txt
run_dsprof info --count dsprof.data >info.txt || fail "dsprof info: status $?"
records=$(sed -n 's/^records: \([0-9]*\) .*/\1/p' info.txt)
awk -v r="$records" '{ if ($1 != "gone") bad = "frame " NR " does not say the process is gone"
       if ($2 != r) bad = "frame " NR ": records " $2 ", info says " r
       if (NR == 2 && ($3 != 0 || $4 != 0)) bad = "the final state changed"
       if (NR == 1 && $5 == 0) bad = "no WORK count" }
     END { if (bad) { print bad; exit 1 } }' kframes.txt >check.txt \
  || fail "$(cat check.txt): $(cat killed.txt)"

# 3. An accumulated profile (DSPROF_ACCUMULATE=1) of three processes: the
# first, which made the file, exits; the two others run.  Every frame says
# they run (2 of 3) while the records grow; once all have exited it says so,
# and its records and event stream are those of the three processes.
rm -f acc.data stopA stopB stopC
# ticker_in NAME: ticker NAME adding itself to acc.data, once ready.
ticker_in () {
  DSPROF_ACCUMULATE=1 DSPROF_OUT=acc.data ./ticker "stop$1" >"out$1" &
  eval "pid$1=\$!"
  for _ in $(seq 400); do
    grep -q '^ready$' "out$1" && return 0
    sleep 0.05
  done
  fail "ticker $1 never got ready"
}
ticker_in A
touch stopA
wait "$pidA" || fail "ticker A exited with status $?"
ticker_in B
ticker_in C
run_dsprof top --batch 3 -d 0.2 acc.data >acc.txt 2>err \
  || { kill -9 "$pidB" "$pidC"; fail "top on acc.data: status $? ($(cat err))"; }
touch stopB stopC
wait "$pidB" || fail "ticker B exited with status $?"
wait "$pidC" || fail "ticker C exited with status $?"
[ "$(grep -c '^dsprof top: acc.data  3 processes  running (2 of them)  refresh [1-3]$' acc.txt)" = 3 ] \
  || fail "not three frames of 2 of 3 processes running: $(grep '^dsprof top' acc.txt)"
frames acc.txt | awk 'NR > 1 && $2 <= rec { bad = 1 } { rec = $2 } END { exit bad }' \
  || fail "the records did not grow: $(frames acc.txt)"
run_dsprof top --batch 1 acc.data >acc.txt 2>err || fail "top on acc.data (ended): status $? ($(cat err))"
grep -q '^dsprof top: acc.data  3 processes  none running (3 exited, 0 gone): final state  refresh 1$' acc.txt \
  || fail "top on the ended acc.data: $(head -1 acc.txt)"
run_dsprof info --count acc.data >info.txt || fail "dsprof info acc.data: status $?"
events=$(awk '/^event stream: / { n += $3 } END { print n }' info.txt)
records=$(awk '/^records: / { n += $2 } END { print n }' info.txt)
[ "$(grep -c '^event stream: [1-9]' info.txt)" = 3 ] || fail "not three processes with events: $(cat info.txt)"
grep -q "^run time .*  records $records (+$records)  event stream $events bytes  " acc.txt \
  || fail "top's totals are not the three processes' ($records records, $events bytes): $(sed -n 2p acc.txt)"

# 4. The terminal view under tmux.
command -v tmux >/dev/null || "$TOP/scripts/deps.sh" install tmux || true
command -v tmux >/dev/null || fail "tmux is not installed (make deps installs it)"
start_ticker
sock=dsprof-top-$$
trap 'tmux -L $sock kill-server 2>/dev/null || true; kill -9 $pid 2>/dev/null || true' EXIT
# wait_for PATTERN [absent]: until the pane shows PATTERN (with absent: no
# longer shows it); 10 s at most.
wait_for () {
  for _ in $(seq 100); do
    tmux -L $sock capture-pane -p >tty.txt
    if grep -q -- "$1" tty.txt; then [ $# = 1 ] && return 0
    else [ $# = 2 ] && return 0; fi
    sleep 0.1
  done
  return 1
}
refresh () { sed -n 's/.*  refresh \([0-9]*\).*/\1/p' tty.txt; }
tmux -L $sock new-session -d -x 120 -y 40 \
  "$DSPROF top -d 0.2 dsprof.data; echo TOP-EXIT \$?; stty -a | tr ' ' '\n' | grep -x -- '-\\?icanon'; sleep 30"
wait_for '^Lines, hottest' || fail "no lines view: $(cat tty.txt)"
wait_for 'running  refresh [2-9]' || fail "no second refresh: $(cat tty.txt)"
tmux -L $sock send-keys r
wait_for '^Records finished since the last refresh, by name' || fail "r: no records view: $(cat tty.txt)"
grep -q '^Lines, hottest' tty.txt && fail "r: the lines view is still shown: $(cat tty.txt)"
tmux -L $sock send-keys d
wait_for '^Records finished since the last refresh, by event' || fail "d: not by the next dimension: $(cat tty.txt)"
tmux -L $sock send-keys Tab
wait_for '^Lines, hottest' || fail "Tab: no lines view: $(cat tty.txt)"
tmux -L $sock send-keys p
wait_for '\[paused\]' || fail "p: not paused: $(cat tty.txt)"
paused=$(refresh)
sleep 1
tmux -L $sock capture-pane -p >tty.txt
[ "$(refresh)" = "$paused" ] || fail "paused, yet refreshed: $(cat tty.txt)"
tmux -L $sock send-keys p
wait_for '\[paused\]' absent || fail "p again: still paused: $(cat tty.txt)"
wait_for "refresh $((paused + 1))" || fail "no refresh after the pause: $(cat tty.txt)"
# The process goes: the view says so.
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
wait_for 'process gone' || fail "the view does not say the process is gone: $(cat tty.txt)"
tmux -L $sock send-keys q
wait_for '^TOP-EXIT' || fail "q did not quit: $(cat tty.txt)"
grep -qx 'TOP-EXIT 0' tty.txt || fail "top's status on q: $(cat tty.txt)"
wait_for '^-\?icanon$' || fail "no stty line: $(cat tty.txt)"
grep -qx 'icanon' tty.txt || fail "the terminal was left in cbreak mode: $(cat tty.txt)"
grep -q '^dsprof top:' tty.txt && fail "the screen was not restored: $(cat tty.txt)"
tmux -L $sock kill-server || true

# 5. Bad input: one message, a non-zero exit.
one_message () {  # WANT-STATUS ARGS...
  local want=$1 rc=0
  shift
  run_dsprof top "$@" >out.txt 2>err.txt </dev/null || rc=$?
  [ "$rc" = "$want" ] || fail "top $*: status $rc, not $want ($(cat err.txt))"
  [ -s out.txt ] && fail "top $*: printed $(cat out.txt)"
  grep -q '^dsprof' err.txt || fail "top $*: no message"
}
echo 'not a profile' >bad.data
one_message 2 --batch 1 bad.data
[ "$(wc -l <err.txt)" = 1 ] || fail "a non-profile: not one line: $(cat err.txt)"
one_message 2 --batch 1 missing.data
[ "$(wc -l <err.txt)" = 1 ] || fail "a missing profile: not one line: $(cat err.txt)"
one_message 2 bad.data
one_message 1 dsprof.data
one_message 1 --batch 0 dsprof.data
one_message 1 -d 0 --batch 1 dsprof.data
one_message 1 -d x --batch 1 dsprof.data
one_message 1 --batch 1 dsprof.data bad.data
exit 0
