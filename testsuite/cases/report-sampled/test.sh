# report-sampled: with DSPROF_SAMPLE, records are timed by samples of their
# threads' CPU time (docs/contract.md §4.5).  Structure and lower bounds
# only, none of them hurt by a busy machine (CPU time is not wall time):
# - the samples' CPU time adds up to what the program burnt, but for each
#   thread's time after its last sample (docs/contract.md §4.4, "Sampled
#   times": on a busy machine a sample may stand for tens of ms): at least
#   half of it in the program's records;
# - a record that sleeps gets (almost) none; with --deduced it gets its
#   sleep; with --raw and --deduced no "Sampled:" line;
# - each burning function gets at least half of its CPU time (a sample
#   stands for the CPU time since the last, 4 ms on an idle machine, tens
#   on a busy one: its edges blur, its sum holds);
# - a second thread and a forked child are sampled too; a third thread
#   blocks the signal: the samples cover less of the CPU time, and say so;
# - all of it with each sampler: the perf task clocks (the default, where
#   the kernel lets this process open one, as the probe perf.c finds out)
#   and the POSIX CPU-time timers (DSPROF_SAMPLER=timer); a perf clock is
#   a descriptor of the thread's, closed at its exit, and a forked child
#   closes those of its parent's threads; with perf clocks a sample
#   stands for its period (200us), with a timer for at least a tick;
# - a perf clock signals the thread only in its own code, never in a
#   system call: a program's poll() and nanosleep() between stretches of
#   work are never cut short (EINTR), where 50 of 1000 steps had one cut
#   short by a clock that signalled in the kernel too; nor a threaded
#   server's epoll_wait and poll (server.c), of which one was cut short in
#   each run with such a clock;
# - a thread whose perf clock cannot open (a seccomp filter of its own)
#   gets the timer, and the run one warning;
# - json's samples object and the report's Self column add up;
# - merge keeps the samples; info --count states them;
# - a bad DSPROF_SAMPLE gets one warning and no samples, a bad
#   DSPROF_SAMPLER one warning and the perf clocks; a program that
#   takes the sampler's signal (SIGURG) gets none either, and no signal of
#   the sampler's reaches its handler.
. "$(dirname "$0")/../../lib.sh"

dscc -O1 -o sampled "$CASE/sampled.c" -lpthread || fail "sampled.c does not compile"
cat >perf.c <<'C'
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int
main (void)
{
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  a.sample_period = 1000000;
  a.disabled = 1;
  return syscall (SYS_perf_event_open, &a, 0, -1, -1, 0) < 0;
}
C
cc -o perf perf.c || fail "perf.c does not compile"
perf=0
./perf && perf=1

# The run with each sampler (the last, the timers', is the one the rest
# of the test reads).
for sampler in perf timer; do
  rm -f s.data*
  DSPROF_SAMPLER=$sampler DSPROF_SAMPLE=1ms DSPROF_OUT=s.data ./sampled >fds 2>err \
    || fail "sampled ($sampler) exited with $?: $(cat err)"
  [ ! -s err ] || fail "sampled ($sampler) warned: $(cat err)"
  n=0
  [ "$perf" = 1 ] && [ "$sampler" = perf ] && n=1
  printf 'parent %d\nchild before 0\nchild after %d\n' $((2 * n)) $n >fds.want
  diff fds.want fds >/dev/null \
    || fail "perf clocks ($sampler, perf_event_open $perf): want $(cat fds.want), got $(cat fds)"
child=$(ls s.data.* 2>/dev/null)
[ -n "$child" ] && [ "$(echo "$child" | wc -l)" = 1 ] \
  || fail "no single profile of the forked child ($sampler): $(ls)"

run_dsprof report name s.data --format json --unit ns >s.json || fail "report json: status $?"
run_dsprof report name s.data >s.txt || fail "report: status $?"
run_dsprof report name --deduced s.data --format json --unit ns >d.json || fail "report --deduced: status $?"
run_dsprof report name --deduced s.data >d.txt || fail "report --deduced text: status $?"
run_dsprof report name --raw s.data >r.txt || fail "report --raw: status $?"
grep -q "^Sampled: records timed by their threads' CPU time, sampled: " s.txt \
  || fail "no Sampled line: $(cat s.txt)"
! grep -q "^Sampled:" d.txt || fail "--deduced still says Sampled: $(cat d.txt)"
! grep -q "^Sampled:" r.txt || fail "--raw still says Sampled: $(cat r.txt)"

python3 - s.json d.json s.txt <<'PY' || fail "sampled times ($sampler) are not what the program burnt"
import json, re, sys
s, d = (json.load(open(f)) for f in sys.argv[1:3])
rows = {r["value"]: r for r in s["rows"]}
drows = {r["value"]: r for r in d["rows"]}
sm = s.get("samples")
if not sm:
    sys.exit("no samples object: %s" % s)
ms = 1e6
# outer 100 + 2 x 150 (inner) + worker 300: 700 ms of the main process's
# CPU time in sampled records, the weights adding up to the threads' CPU
# time but for what each burnt after its last sample.
burnt = 700 * ms
if sm["program_ns"] < 0.5 * burnt:
    sys.exit("samples in the program: %d ns, want at least half of %d" % (sm["program_ns"], burnt))
# The top-level records' Totals are the profiled time; with the samples
# outside records they are the program's.
top = sum(rows[n]["total_ns"] for n in ("outer", "nap", "worker", "hold"))
if top != s["profiled_ns"] or top + sm["outside_ns"] != sm["program_ns"]:
    sys.exit("profiled %d, top-level Totals %d, outside %d, program %d"
             % (s["profiled_ns"], top, sm["outside_ns"], sm["program_ns"]))
if sum(r["self_ns"] for r in s["rows"]) != s["profiled_ns"]:
    sys.exit("Self does not add up to the profiled time")
# Each row's samples: those of its Self, adding up to the samples in records.
if sum(r["self_samples"] for r in s["rows"]) != sm["program"] - sm["outside"] or rows["inner"]["self_samples"] < 1:
    sys.exit("rows' self_samples %s, program %d, outside %d"
             % ([r["self_samples"] for r in s["rows"]], sm["program"], sm["outside"]))
if any("self_samples" in r for r in d["rows"]):
    sys.exit("--deduced rows carry self_samples")
if rows["outer"]["total_ns"] != rows["outer"]["self_ns"] + rows["inner"]["total_ns"]:
    sys.exit("outer's Total is not its Self and inner's")
# Half of each: far below what the samples' weights blur.
for name, want in (("inner", 300), ("outer", 400), ("worker", 300)):
    if rows[name]["total_ns"] < want * ms / 2:
        sys.exit("%s: %d ns sampled, want at least half of %d ms" % (name, rows[name]["total_ns"], want))
# Asleep, off any CPU: a sample or two at most in its few instructions.
if rows["nap"]["total_ns"] > 10 * ms:
    sys.exit("nap: %d ns of CPU time sampled while it slept" % rows["nap"]["total_ns"])
# The third thread's 300 ms are unsampled: the samples cover at most
# (the process's CPU time - 290 ms) of it, as the text line says.
m = re.search(r"the samples cover (\d+\.\d) % of the processes' CPU time", open(sys.argv[3]).read())
cpu = s["cpu"]["cpu_ns"]
cover = 100.0 * (sm["program_ns"] + sm["recorder_ns"]) / cpu
if not m or abs(float(m[1]) - cover) > 0.051 or cover > 100.0 * (cpu - 290 * ms) / cpu:
    sys.exit("cover: line %s, computed %.1f %% of %d ns" % (m and m[1], cover, cpu))
# The deduction times it by its span: its 200 ms of sleep.
if drows["nap"]["total_ns"] < 190 * ms or "samples" in d:
    sys.exit("--deduced: nap %d ns, samples %s" % (drows["nap"]["total_ns"], d.get("samples")))
PY

# The child's profile: its worker, sampled.
run_dsprof report name "$child" --format json --unit ns >c.json || fail "report of the child: status $?"
python3 - c.json <<'PY' || fail "the forked child's worker is not sampled ($sampler): $(cat c.json)"
import json, sys
c = json.load(open(sys.argv[1]))
rows = {r["value"]: r for r in c["rows"]}
sys.exit(not (c.get("samples") and rows["worker"]["total_ns"] >= 150e6))
PY
done

# With perf clocks a sample stands for its period (200 us of the thread's
# CPU time, busy machine or not), finer than any tick.
# A run of CMD... sampled every PERIOD: its output NAME.out, its stderr
# err, its report NAME.json.
sampled_run () {
  local name=$1 period=$2
  shift 2
  DSPROF_SAMPLE=$period DSPROF_OUT=$name.data "$@" >"$name.out" 2>err \
    || fail "$* at $period exited with $?: $(cat err)"
  run_dsprof report name "$name.data" --format json --unit ns >"$name.json" \
    || fail "report $name.data: status $?"
  rm -f "$name".data*
}

if [ "$perf" = 1 ]; then
  sampled_run fine 200us ./sampled
  python3 - fine.json <<'PY' || fail "perf clocks' samples are not of their period"
import json, sys
s = json.load(open(sys.argv[1]))["samples"]
per = (s["program_ns"] + s["recorder_ns"]) / (s["program"] + s["recorder"])
# A timer's sample stands for a tick or more: 1 ms at HZ=1000.
sys.exit(per >= 900e3 and "a sample stands for %d ns, want less than a tick" % per)
PY

  # Waits between stretches of work, none cut short by the clock's signal.
  sampled_run w 200us ./sampled waits
  [ "$(cat w.out)" = "cut short 0" ] \
    || fail "the perf clocks' signal cut the program's waits short: $(cat w.out)"
  python3 - w.json <<'PY' || fail "step() is not sampled: $(cat w.json)"
import json, sys
w = json.load(open(sys.argv[1]))
rows = {r["value"]: r for r in w["rows"]}
# 1000 steps of 50 us of work: samples of at least half of it.
sys.exit(not (w["samples"]["program"] and rows["step"]["total_ns"] >= 25e6))
PY

  # A threaded server (server.c) that takes any EINTR for a failure: its
  # workers' epoll_wait and its main thread's poll, none cut short.
  dscc -O1 -o server "$CASE/server.c" -lpthread || fail "server.c does not compile"
  sampled_run srv 100us ./server
  [ "$(cat srv.out)" = "served 8000" ] || fail "the server served: $(cat srv.out)"
  python3 - srv.json <<'PY' || fail "the server's handle() is not sampled: $(cat srv.json)"
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (r["samples"]["program"] and {x["value"] for x in r["rows"]} == {"handle"}))
PY

  # A thread whose perf clock cannot open (its own seccomp filter refuses
  # it): one warning, and its samples from the timer.
  sampled_run denied 1ms ./sampled denied
  [ "$(wc -l <err)" = 1 ] && grep -q "perf clock did not open (Permission denied)" err \
    || fail "not one warning of a perf clock that did not open: $(cat err)"
  python3 - denied.json <<'PY' || fail "the thread without a perf clock is not sampled: $(cat denied.json)"
import json, sys
f = json.load(open(sys.argv[1]))
rows = {r["value"]: r for r in f["rows"]}
sys.exit(not (rows["worker"]["total_ns"] >= 150e6 and rows["inner"]["total_ns"] >= 75e6))
PY
fi

# merge keeps the samples: the same report.
run_dsprof merge -o m.data s.data || fail "merge: status $?"
run_dsprof report name m.data >m.txt || fail "report of the merge: status $?"
diff s.txt m.txt >/dev/null || fail "the merged profile reports otherwise: $(diff s.txt m.txt)"

# info --count states them, the same as the report's json.
run_dsprof info --count s.data >info.txt || fail "info: status $?"
python3 - info.txt s.json <<'PY' || fail "info's cpu samples line is wrong: $(grep samples info.txt)"
import json, re, sys
m = re.search(r"^cpu samples: (\d+) in the program \((\d+\.\d{6}) s\), (\d+) of them outside "
              r"records \((\d+\.\d{6}) s\); (\d+) in the recorder \((\d+\.\d{6}) s\)$",
              open(sys.argv[1]).read(), re.M)
s = json.load(open(sys.argv[2]))["samples"]
sys.exit(not m or int(m[1]) != s["program"] or abs(float(m[2]) * 1e9 - s["program_ns"]) > 1000
         or int(m[3]) != s["outside"] or int(m[5]) != s["recorder"])
PY

# A bad period: one warning, no samples; 0: off, silently.
for bad in fast 5 1m 2s; do
  DSPROF_SAMPLE=$bad DSPROF_OUT=bad.data ./sampled 2>err || fail "DSPROF_SAMPLE=$bad: status $?"
  [ "$(grep -c "DSPROF_SAMPLE='$bad'" err)" = 1 ] && [ "$(wc -l <err)" = 1 ] \
    || fail "DSPROF_SAMPLE=$bad: want one warning, got: $(cat err)"
  run_dsprof report name bad.data >bad.txt || fail "report, DSPROF_SAMPLE=$bad: status $?"
  ! grep -q "^Sampled:" bad.txt || fail "DSPROF_SAMPLE=$bad sampled: $(cat bad.txt)"
  rm -f bad.data*
done
DSPROF_SAMPLER=tick DSPROF_SAMPLE=1ms DSPROF_OUT=bad.data ./sampled >/dev/null 2>err \
  || fail "DSPROF_SAMPLER=tick: status $?"
[ "$(grep -c "DSPROF_SAMPLER='tick' is not perf or timer: perf" err)" = 1 ] && [ "$(wc -l <err)" = 1 ] \
  || fail "DSPROF_SAMPLER=tick: want one warning, got: $(cat err)"
rm -f bad.data*
DSPROF_SAMPLE=0 DSPROF_OUT=off.data ./sampled 2>err || fail "DSPROF_SAMPLE=0: status $?"
[ ! -s err ] || fail "DSPROF_SAMPLE=0 warned: $(cat err)"
run_dsprof report name off.data >off.txt || fail "report, DSPROF_SAMPLE=0: status $?"
! grep -q "^Sampled:" off.txt || fail "DSPROF_SAMPLE=0 sampled: $(cat off.txt)"

# diff of a sampled profile and one that is not says their times differ in
# kind; with --deduced both are deduced, and it does not.
run_dsprof diff s.data off.data >diff.txt 2>diff.err || fail "diff: status $?"
grep -q "^dsprof: the base side is timed by samples of its CPU time (DSPROF_SAMPLE), the new by the deduction" diff.err \
  || fail "diff does not say the sides are timed apart: $(cat diff.err)"
run_dsprof diff --deduced s.data off.data >diff.txt 2>diff.err || fail "diff --deduced: status $?"
! grep -q "timed by samples" diff.err || fail "diff --deduced still says so: $(cat diff.err)"

# A report of a sampled profile and one that is not says so too.
run_dsprof report name s.data off.data >mixed.txt 2>mixed.err || fail "report of both: status $?"
grep -q "^dsprof: 1 of the 2 profiles are timed by samples of their CPU time (DSPROF_SAMPLE), the others by the deduction" mixed.err \
  || fail "a report of both kinds does not say so: $(cat mixed.err)"

# The program's own SIGURG handler: the sampler stands aside.
DSPROF_SAMPLE=1ms DSPROF_OUT=h.data ./sampled handler 2>err \
  || fail "a signal of the sampler reached the program's handler (status $?)"
grep -q "DSPROF_SAMPLE: the program handles SIGURG itself" err \
  || fail "no warning that the program took SIGURG: $(cat err)"
run_dsprof info --count h.data >h.txt || fail "info h.data: status $?"
! grep -q "^cpu samples:" h.txt || fail "samples despite the program's handler: $(cat h.txt)"
run_dsprof report name h.data >h-rep.txt || fail "report h.data: status $?"
! grep -q "^Sampled:" h-rep.txt || fail "timed by samples despite the program's handler: $(cat h-rep.txt)"
exit 0
