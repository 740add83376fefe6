# report-cputime: the profile says how much of the run the process was on a
# CPU, not on one, and waiting for one (the header's cpu_ns, run_delay_ns,
# written at normal exit), and `info` and `report` print it.  Lower bounds
# only: a run that sleeps 300 ms is at least 0.29 s not on a CPU, one that
# spins 100 ms of its thread's CPU time at least 0.1 s on one; the wait for
# a CPU is shown where the kernel tells it (/proc/PID/task/TID/schedstat).
# A run that does not exit normally records none of it.
. "$(dirname "$0")/../../lib.sh"

dscc -O1 -o offcpu "$CASE/offcpu.c" || fail "offcpu.c does not compile"
DSPROF_OUT=sleep.prof ./offcpu sleep || fail "offcpu sleep exited with $?"
DSPROF_OUT=spin.prof ./offcpu spin || fail "offcpu spin exited with $?"

if [ -r /proc/self/schedstat ]; then waits=1; else waits=0; fi

# cpu_line FILE PREFIX: "CPU RUN OFF WAIT THREADS" from FILE's line PREFIX
# (OFF, WAIT and THREADS "-" where the line has none), or fail.
cpu_line () {
  local line
  line=$(grep "^$2" "$1") || fail "no '$2' line in $1: $(cat "$1")"
  python3 - "$line" "$waits" <<'PY' || fail "'$line' is not what $1 should say"
import re, sys
line, waits = sys.argv[1], sys.argv[2] == "1"
u = r"(\d+\.\d{6}) s" if line.startswith("cpu") else r"(\d+\.\d{3}) ms"
m = re.fullmatch(r"[^:]+: %s of the %s run \((\d+\.\d)%%\)(?:, %s not on a CPU)?"
                 r"(?:; %s waiting for a CPU \((\d+) threads?\))?" % (u, u, u, u), line)
if not m or bool(m.group(5)) != waits:
    sys.exit(1)
scale = 1 if line.startswith("cpu") else 1e-3   # in seconds
print(" ".join("%.6f" % (float(g) * scale) if g and i < 4 else g or "-"
               for i, g in enumerate((m.group(1), m.group(2), m.group(4), m.group(5), m.group(6)))))
PY
}

run_dsprof info sleep.prof >sleep.txt || fail "dsprof info sleep.prof: status $?"
read -r cpu run off wait threads < <(cpu_line sleep.txt "cpu time: ")
awk -v c="$cpu" -v r="$run" -v o="$off" 'BEGIN { exit !(r >= 0.3 && o >= 0.29 && c + o >= r - 0.000002 && c + o <= r + 0.000002) }' \
  || fail "sleep: cpu $cpu s, run $run s, off $off s: want off >= 0.29 s, cpu + off = run"
[ $waits = 0 ] || [ "$threads" = 1 ] || fail "sleep: $threads threads waited, want 1"

run_dsprof info spin.prof >spin.txt || fail "dsprof info spin.prof: status $?"
read -r cpu run off wait threads < <(cpu_line spin.txt "cpu time: ")
awk -v c="$cpu" -v r="$run" 'BEGIN { exit !(c >= 0.1 && r >= c - 0.001) }' \
  || fail "spin: cpu $cpu s of the run's $run s, want at least 0.1 s and at most the run"

# The report's header: the same figures, summed over the profiles given.
run_dsprof report name sleep.prof spin.prof >both.txt || fail "dsprof report: status $?"
read -r cpu2 run2 off2 wait2 threads2 < <(cpu_line both.txt "CPU time: ")
awk -v c="$cpu2" -v r="$run2" 'BEGIN { exit !(c >= 0.1 && r >= 0.4) }' \
  || fail "report of both: cpu $cpu2 s of $run2 s, want at least 0.1 of 0.4"
[ $waits = 0 ] || [ "$threads2" = 2 ] || fail "report of both: $threads2 threads waited, want 2"
# json: the same figures in ns.
run_dsprof report name sleep.prof spin.prof --format json >both.json || fail "dsprof report --format json: status $?"
python3 - both.json "$cpu2" "$run2" <<'PY' || fail "report json's cpu object is not the text's: $(cat both.json)"
import json, sys
c = json.load(open(sys.argv[1]))["cpu"]
sys.exit(not (abs(c["cpu_ns"] / 1e9 - float(sys.argv[2])) < 1e-6
              and abs(c["run_ns"] / 1e9 - float(sys.argv[3])) < 1e-6))
PY
# merge keeps them, summed.
run_dsprof merge -o merged.prof sleep.prof spin.prof || fail "dsprof merge: status $?"
run_dsprof info merged.prof >merged.txt || fail "dsprof info merged.prof: status $?"
read -r cpu3 run3 off3 wait3 threads3 < <(cpu_line merged.txt "cpu time: ")
[ "$cpu3 $threads3" = "$cpu2 $threads2" ] \
  || fail "merged: cpu $cpu3 s ($threads3 threads), the inputs' $cpu2 s ($threads2 threads)"

# Killed before its normal exit: nothing recorded, no line.
DSPROF_OUT=killed.prof ./offcpu hang &
pid=$!
trap 'kill -KILL "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 2000); do
  [ -s killed.prof ] && break
  sleep 0.01
done
[ -s killed.prof ] || fail "offcpu hang made no profile in 20 s"
kill -KILL "$pid"
wait "$pid" && fail "offcpu was not killed"
run_dsprof info killed.prof >killed.txt || fail "dsprof info killed.prof: status $?"
! grep -q "^cpu time:" killed.txt || fail "a killed run has a cpu time: $(cat killed.txt)"
exit 0
