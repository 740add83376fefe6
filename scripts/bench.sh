#!/usr/bin/env bash
# bench.sh [BENCH...] - the side-by-side figures of docs/contract.md §6 (`make bench`).
#
# Every figure is measured in this run, on this machine, next to its peer, and
# printed as one table (also written to build/bench/results.txt):
#
#   bench  variant  figure  unit  ratio (to the bench's baseline)  note
#
# Timings are hyperfine means over BENCH_RUNS runs after a warmup run; the note
# adds the standard deviation and the fastest run (less sensitive to a busy
# machine) with its ratio.  A row needs the command it measures: a dsprof
# command that does not exist yet or a peer that is not installed gives a row
# saying so instead of a figure.
#
# Benchmarks (BENCHES below; `scripts/bench.sh NAME...` runs only those):
#   lua_counters       Lua 5.4 -O2 on the workload: block counters (update=single,
#                      atomic, thread) against gcov
#                      -fprofile-arcs (single and atomic) and gprof -pg; the
#                      overhead of update=thread against update=single's, from
#                      the times and from callgrind's instruction counts on a
#                      tenth of the workload
#   compile_time       a -O2 build of Lua with and without the plugin
#   events             bench/events.c: ns per Start/Finish pair (no dimensions,
#                      two int dimensions, one string dimension; two int
#                      dimensions at call sites too, docs/select.md) against
#                      -finstrument-functions with empty hooks and `uftrace
#                      record` of the plain build: (time - plain time) / calls;
#                      the same with events off (DSPROF_EVENTS=0, no dims);
#                      the floor, two reads of the recorder's clock; and a
#                      1,000-byte string dimension, the same string every call
#                      (stored once per chunk) beside a new one every call
#   profile_size       bytes per event of the events runs' profiles (the two
#                      1,000-byte string runs too), beside uftrace's bytes per
#                      entry or exit
#   report_speed       records per second of `dsprof report name` on a profile
#                      of a few million nested records, beside `uftrace report`
#   report_callgrind   callgrind's instructions of `dsprof report name` on
#                      the profile of bench/nest.c (BENCH_NEST_CALLS calls of
#                      an event function, default 2000000, each calling
#                      another twice: 6 M records), in all and per record;
#                      records per second of CPU time (user + system) of the
#                      fastest of BENCH_RUNS runs; peak resident memory at a
#                      tenth of the records and at all of them; with
#                      BENCH_REPORT_OLD=DIR (an older checkout, built), its
#                      report's instructions on its own profile (its plugin
#                      and runtime) beside
#   export_size        bytes of the perfetto and pprof exports of the
#                      report_speed profile beside its chrome JSON export's
#   report_memory      peak resident memory of every dsprof command reading
#                      events, on a profile of BENCH_MEMORY_TREES trees of 15
#                      nested records (30 M records, 210 MB), beside the
#                      256 MB bound and the profile's size; info's time; and
#                      the folded export of a recursion 1,000,000 calls deep
#   time_accuracy      the report's times of known busy-waits (the report-times
#                      test's times.c: value Self 5 ms, other Self 2 ms, the
#                      profiled time 7 ms): median of BENCH_RUNS runs, against
#                      the busy-waits' own clock_gettime durations
#   vm_times           bench/vmspin.c, a VM whose opcodes spin 50, 200 and 1000
#                      ticks, as annotated functions, as manual events and as
#                      the cases of a `switch' made op records by dispatch=:
#                      dsprof's Self per record of each opcode against the
#                      opcode's time in the plain program (dispatch: the same
#                      source built without the plugin, loop and dispatch
#                      included; hook, manual: the spin's own clock), medians
#                      of BENCH_RUNS runs; and one run of
#                      BENCH_VM_SAMPLED_OPS (default 20000000) in each mode
#                      with DSPROF_SAMPLE: each opcode's
#                      sampled Self/Count against the same references
#   top_refresh        `dsprof top --batch` (-d 1) against bench/opflood.c, a VM
#                      recording op records as fast as it can (about 15 M a
#                      second) for BENCH_TOP_SECONDS (default 20): the mean
#                      and longest interval between the refreshes read while
#                      it runs, top's CPU time as a share of its run (until
#                      the frame saying the program exited), and the record
#                      rate; BENCH_TOP_DSPROF names another dsprof to measure
#   function_times     bench/ftimes.c built with functions=all: an annotated
#                      function and functions=all ones that busy-wait known
#                      times (2 us, 400, 250 and 150 ns), nested and
#                      recursive: each function's median record's Self
#                      (its time less the deduction, docs/contract.md §4.4,
#                      from info's figures, less its children's) against its
#                      median busy-wait, and the report's Self against the
#                      sum of the busy-waits (medians of BENCH_RUNS runs;
#                      the sums hold the preemptions of a busy machine,
#                      which fall in the hooks as well as in the waits);
#                      and one run of BENCH_FTIMES_SAMPLED_TASKS tasks
#                      (default 2000000) with DSPROF_SAMPLE: each
#                      function's sampled Self against its busy-waits' sum
#   lua_times          Lua with functions=all counters=off: the run time less
#                      dsprof's own estimate of its cost (the instrumentation
#                      line) against the plain build's run time, and
#                      luaV_execute's profiled time against its time in a
#                      build where it is the only event; the same with op
#                      records (dispatch=luaV_execute counters=off): the run
#                      less the estimate against the plain run, and the op
#                      records' profiled time against luaV_execute's (medians
#                      of BENCH_SLOW_RUNS runs of each, one after the other)
#   real_times         gawk and jq from Debian source (scripts/real.sh's
#                      builds) running bench/gawk-cpu.awk and bench/jq-cpu.jq,
#                      plain, with functions=all counters=off (jq also
#                      without its jv_* functions, a selection file) and with
#                      functions=source counters=off: the run
#                      less dsprof's estimate of its cost, and the profiled
#                      time after deduction, against the plain run (medians
#                      of BENCH_SLOW_RUNS runs of each, one after the other);
#                      and, the instrumented runs sampled (DSPROF_SAMPLE),
#                      the profiled time by samples against the plain
#                      run's CPU time and the same build's with events off
#                      (DSPROF_EVENTS=0); on a tenth of the work, the largest functions'
#                      Total as a share of main's against callgrind's
#                      inclusive instructions of the plain build
#   lua_functions_all  Lua with functions=all against `uftrace record` of Lua
#                      built with -pg (fewer runs: uftrace takes a minute a run)
#   fork_cost          a program of 500 units forking 200 children, each calling
#                      one function: time and disk space of the profiles, against
#                      the plain build
#   lua_dispatch       Lua with op records for its opcodes (dispatch=luaV_execute),
#                      with and without counters and with DSPROF_EVENTS=0, against
#                      the plain build: seconds, ns and profile bytes per opcode;
#                      and the floor, two reads of the recorder's clock
#   html_page          `dsprof html` of a profile of BENCH_HTML_TREES (default
#                      666667) trees of 15 nested records (10 M records, with
#                      block counters): the time to write the page, its size,
#                      and the time to its first paint in headless Chromium
#                      (bench/html-paint.js, median of BENCH_RUNS loads)
#   threads            bench/threads.c: 8 threads of counter-heavy calls at once,
#                      with counters update=single, atomic and thread, against
#                      gcov -fprofile-update=atomic and the plain build; and
#                      how many of the calls each dsprof build counted
#   clock_cost         bench/clockread.c: ns per read (fastest of 40 batches)
#                      of the recorder's clocks (rdtsc, CLOCK_MONOTONIC) and of
#                      the thread's CPU time (the perf_event self-monitoring
#                      page of a task clock read in user space, read(2) of the
#                      same event, CLOCK_THREAD_CPUTIME_ID), against rdtsc;
#                      callgrind's instructions per read; whether the kernel
#                      offers the page's time (cap_user_time), and how often
#                      the page's time_enabled changes while the thread runs
#   dim_expr           bench/dimexpr.c: ns per op record of a `dispatch'
#                      directive (docs/select.md) with 0, 1 and 3 NAME=EXPR
#                      dims (a pointer difference; one and two loads more),
#                      against the plain build: (time - plain time) / ops,
#                      BENCH_VM_OPS ops a run; the same with DSPROF_EVENTS=0;
#                      and callgrind's instructions per op of each
#   busy_machine       bench/vmspin.c (hook mode, BENCH_VM_OPS / 3 opcodes)
#                      alone and beside two busy processes: the report's mean
#                      Self of spin1000 against the spin's median, and the
#                      share of the run the process waited for a CPU, from
#                      the profile's CPU time line (`dsprof info`); and
#                      bench/cpuwork.c (work() of fixed work, no clock read,
#                      BENCH_CPUWORK_CALLS calls, default 1000) sampled
#                      (DSPROF_SAMPLE), alone and beside two busy
#                      processes: work's Self per call by its samples and
#                      by the wall clock (--deduced), each against alone
#   sampler_cost       bench/cpuwork.c unsampled, and sampled by the timers
#                      (1 ms) and by the perf clocks (1 ms, 250 us, 100 us):
#                      the run's CPU time and work()'s sampled Total against
#                      the unsampled run's CPU time, and what a perf clock's
#                      sample costs (BENCH_RUNS runs, in turns)
#
# Each benchmark is a shell function bench_NAME that prints its rows with
#   row VARIANT FIGURE UNIT RATIO [NOTE]
# To add one, write bench_NAME, add NAME to BENCHES, and use the helpers:
#   lua_build VARIANT [OPT]   build Lua 5.4 (scripts/lua.sh variants: plain,
#                             dsprof, dsprof-atomic, dsprof-all, dsprof-calls,
#                             gcov-arcs, gcov-atomic, gprof, ...) once per run,
#                             at OPT (default -O2, Lua's own flags); prints the
#                             interpreter's path
#   time_cmds NAME CMD...     hyperfine the commands (WARMUP warmup runs each,
#                             default 1; PREPARE, if set, runs before every run),
#                             sets MEAN[NAME/i], SD[NAME/i] and MIN[NAME/i]
#                             (seconds) for the i-th command (0-based)
#   timed_row VARIANT NAME I BASE   a row for command I of time_cmds NAME: mean,
#                             ratio of means to command BASE, and in the note
#                             the standard deviation, min and ratio of mins
#   ratio A B                 A / B with two decimals
#
# Environment: BENCH_RUNS (timed runs per command, default 10), BENCH_DIR
# (default build/bench), LUA_WORKLOAD (default bench/lua-cpu.lua
# next to the repository, about 1 s uninstrumented), BENCH_CALLS (calls per
# events run, default 5000000), BENCH_LONG_CALLS (calls per run of the events
# with 1,000-byte strings, default BENCH_CALLS / 50: the new string every call
# takes 500 bytes an event), BENCH_TREES (trees of 15 nested records in the
# report_speed profile, default 300000), BENCH_VM_OPS (instructions of a
# vm_times run, default 3000000: the op probes need that many to agree
# within a few percent on its random opcode mix), BENCH_MEMORY_TREES (the same in the
# report_memory profile, default 2000000), BENCH_NEST_CALLS and
# BENCH_REPORT_OLD (report_callgrind's), BENCH_SLOW_RUNS (runs of
# lua_functions_all, default 3), BENCH_FTIMES_TASKS (tasks of a
# function_times run, default 20000), BENCH_SAMPLE (the DSPROF_SAMPLE period
# of the sampled runs, default 1ms: with perf task clocks 1,000 samples a
# second of CPU time; with the timers, DSPROF_SAMPLER=timer, one a tick).
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-$TOP/build/bench}
RUNS=${BENCH_RUNS:-10}
LUA_WORKLOAD=${LUA_WORKLOAD:-$TOP/bench/lua-cpu.lua}
RESULTS=$BENCH_DIR/results.txt
DSPROF=$TOP/report/dsprof
CALLS=${BENCH_CALLS:-5000000}
LONG_CALLS=${BENCH_LONG_CALLS:-$((CALLS / 50))}
TREES=${BENCH_TREES:-300000}
export BENCH_SAMPLE=${BENCH_SAMPLE:-1ms}

BENCHES="lua_counters compile_time events profile_size report_speed report_callgrind export_size report_memory time_accuracy vm_times function_times lua_times real_times lua_functions_all fork_cost lua_dispatch threads clock_cost sampler_cost busy_machine html_page top_refresh dim_expr"

declare -A MEAN SD MIN
RUN_ID=$$.$(date +%s)

die () { echo "bench.sh: $*" >&2; exit 1; }
note () { echo "bench.sh: $*" >&2; }

row () {
  printf '%-17s %-38s %10s %-9s %7s  %s\n' "$CURRENT" "$1" "$2" "$3" "$4" "${5:-}" | tee -a "$RESULTS"
}

# missing_row VARIANT WHY: a row without a figure.
missing_row () { row "$1" - "" "" "$2"; }

ratio () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

sec () { awk -v a="$1" 'BEGIN { printf "%.3f", a }'; }

timed_row () {
  local k=$2/$3 b=$2/$4
  row "$1" "$(sec "${MEAN[$k]}")" s "$(ratio "${MEAN[$k]}" "${MEAN[$b]}")" \
    "sd $(sec "${SD[$k]}") s; min $(sec "${MIN[$k]}") s ($(ratio "${MIN[$k]}" "${MIN[$b]}"))"
}

# per_call_row VARIANT NAME I BASE CALLS: ns per call of command I over command
# BASE of time_cmds NAME, both making CALLS calls: (mean - base mean) / CALLS;
# the note has the same from the fastest runs and the mean time.
per_call_row () {
  local k=$2/$3 b=$2/$4
  row "$1" "$(awk -v a="${MEAN[$k]}" -v b="${MEAN[$b]}" -v n="$5" \
                'BEGIN { printf "%.1f", (a - b) / n * 1e9 }')" "ns/call" \
    "$(ratio "${MEAN[$k]}" "${MEAN[$b]}")" \
    "$(awk -v a="${MIN[$k]}" -v b="${MIN[$b]}" -v n="$5" -v m="${MEAN[$k]}" -v sd="${SD[$k]}" \
         'BEGIN { printf "from min %.1f ns; mean %.3f s, sd %.3f s", (a - b) / n * 1e9, m, sd }')"
}

have_command () { "$DSPROF" "$1" --help >/dev/null 2>&1; }

lua_build () {
  local variant=$1 opt=${2:--O2} dir
  dir=$BENCH_DIR/lua$opt-$variant
  # Built once per bench.sh run (the stamp holds the run's id).
  if [ "$(cat "$dir.stamp" 2>/dev/null)" != "$RUN_ID" ]; then
    note "building Lua 5.4 ($variant, $opt)"
    "$TOP/scripts/lua.sh" build "$dir" "$opt" "$variant" >"$dir.log" 2>&1 ||
      { tail -20 "$dir.log" >&2; die "the $variant build of Lua failed"; }
    echo "$RUN_ID" >"$dir.stamp"
  fi
  echo "$dir/src/lua"
}

time_cmds () {
  local name=$1 json=$BENCH_DIR/$1.json i=0 prep=()
  shift
  [ -n "${PREPARE:-}" ] && prep=(--prepare "$PREPARE")
  hyperfine -N --style basic --warmup "${WARMUP:-1}" --runs "$RUNS" "${prep[@]}" \
    --export-json "$json" "$@" >&2 || die "hyperfine failed for $name"
  while read -r mean sd min; do
    MEAN[$name/$i]=$mean SD[$name/$i]=$sd MIN[$name/$i]=$min
    i=$((i + 1))
  done < <(python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print("%.6f %.6f %.6f" % (r["mean"], r["stddev"] or 0, r["min"]))' "$json")
}

# ---- Lua 5.4 running the CPU-bound workload: counter overhead (docs/contract.md §6 row 1) ----
bench_lua_counters () {
  local variants="plain dsprof dsprof-atomic dsprof-thread gcov-arcs gcov-atomic gprof"
  local -A label=(
    [plain]="plain (-O2)"
    [dsprof]="dsprof counters, update=single"
    [dsprof-atomic]="dsprof counters, update=atomic"
    [dsprof-thread]="dsprof counters, update=thread"
    [gcov-arcs]="gcov -fprofile-arcs"
    [gcov-atomic]="gcov -fprofile-arcs, atomic"
    [gprof]="gprof -pg"
  )
  local v lua cmds=() expect= out i
  [ -f "$LUA_WORKLOAD" ] || die "no workload $LUA_WORKLOAD (set LUA_WORKLOAD)"
  local run=$BENCH_DIR/run
  rm -rf "$run" && mkdir -p "$run"
  for v in $variants; do
    lua=$(lua_build "$v")
    # Same result from every build; then the timed command.  Profiles go to
    # $run (dsprof.data, gmon.out) or next to the objects (.gcda, merged on
    # every run, as gcov users pay it).
    out=$(cd "$run" && DSPROF_OUT=$run/dsprof.data "$lua" "$LUA_WORKLOAD") ||
      die "$v: $LUA_WORKLOAD failed"
    expect=${expect:-$out}
    [ "$out" = "$expect" ] || die "$v prints '$out', plain Lua '$expect'"
    cmds+=("env DSPROF_OUT=$run/dsprof.data setarch -R $lua $LUA_WORKLOAD")
  done
  pushd "$run" >/dev/null
  time_cmds lua "${cmds[@]}"
  popd >/dev/null
  i=0
  for v in $variants; do
    timed_row "${label[$v]}" lua $i 0
    i=$((i + 1))
  done
  # update=thread's overhead against update=single's (the target: 1.3x): from
  # the means above; from runs of the three builds in turn, so that the load
  # of the machine weighs on them alike (user CPU time, median and fastest of
  # BENCH_RUNS rounds); and from instructions, which callgrind counts the same
  # on a busy machine (a tenth of the workload).
  row "update=thread's overhead" "$(awk -v p="${MEAN[lua/0]}" -v s="${MEAN[lua/1]}" \
        -v t="${MEAN[lua/3]}" 'BEGIN { printf "%.2f", (t - p) / (s - p) }')" x \
    "" "(thread - plain) / (single - plain) of the mean times; target 1.3x"
  python3 - "$RUNS" "$run" "$LUA_WORKLOAD" "$(lua_build plain)" "$(lua_build dsprof)" \
    "$(lua_build dsprof-thread)" <<'PY' |
import os, statistics, subprocess, sys
runs, run, work, builds = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
user = [[] for _ in builds]
env = dict(os.environ, DSPROF_OUT=os.path.join(run, "turns.data"))
for _ in range(runs):
    for i, lua in enumerate(builds):
        p = subprocess.Popen(["setarch", "-R", lua, work], env=env, cwd=run,
                             stdout=subprocess.DEVNULL)
            if done:
        p.terminate()
        break
_, status, ru = os.wait4(p.pid, 0)
        if status:
            sys.exit("%s failed" % lua)
        user[i].append(ru.ru_utime)
for f, name in ((statistics.median, "median"), (min, "fastest")):
    p, s, t = (f(u) for u in user)
    print("%s|%.2f|%.3f s plain, %.3f s single, %.3f s thread" % (name, (t - p) / (s - p), p, s, t))
PY
    while IFS='|' read -r what fig note; do
      row "update=thread's overhead, in turns" "$fig" x "" \
        "$what user time of $RUNS rounds: $note; target 1.3x"
    done
  command -v valgrind >/dev/null || { missing_row "instructions" "no valgrind"; return 0; }
  local -A ir
  for v in plain dsprof dsprof-thread dsprof-atomic gcov-atomic; do
    (cd "$run" && DSPROF_OUT=$run/cg.data valgrind --tool=callgrind \
       --callgrind-out-file=$run/cg.out "$(lua_build "$v")" "$LUA_WORKLOAD" tenth \
       >/dev/null 2>"$run/cg.err") || die "$v under callgrind failed"
    ir[$v]=$(sed -n 's/.*refs: *//p' "$run/cg.err" | tr -d ,)
    row "${label[$v]}: instructions" "$(awk -v n="${ir[$v]}" 'BEGIN { printf "%.1f", n / 1e6 }')" \
      M "$(ratio "${ir[$v]}" "${ir[plain]}")" "callgrind, $LUA_WORKLOAD tenth"
  done
  row "update=thread's overhead, instructions" \
    "$(awk -v p="${ir[plain]}" -v s="${ir[dsprof]}" -v t="${ir[dsprof-thread]}" \
         'BEGIN { printf "%.2f", (t - p) / (s - p) }')" x "" \
    "(thread - plain) / (single - plain); target 1.3x"
}

# ---- compile time of Lua 5.4 at -O2, with and without the plugin (docs/contract.md §6) ----
bench_compile_time () {
  local runs=$(( RUNS < 5 ? RUNS : 5 ))
  # One make job, so that both builds are timed alike on any machine.
  RUNS=$runs time_cmds compile \
    "env LUA_MAKE_JOBS=1 $TOP/scripts/lua.sh build $BENCH_DIR/compile-plain -O2 plain" \
    "env LUA_MAKE_JOBS=1 $TOP/scripts/lua.sh build $BENCH_DIR/compile-dsprof -O2 dsprof"
  timed_row "make linux -j1, plain (-O2)" compile 0 0
  timed_row "make linux -j1, dsprof plugin" compile 1 0
}

# ---- bench/events.c: one build per instrumentation, built once per run ----------
EV=$BENCH_DIR/events

events_build () {
  [ "$(cat "$EV/stamp" 2>/dev/null)" = "$RUN_ID" ] && return 0
  note "building bench/events.c"
  rm -rf "$EV" && mkdir -p "$EV"
  local src=$TOP/bench/events.c cf="-O2 -Wall -Wextra -I$TOP/runtime" b m expect out
  local lib="$TOP/runtime/libdsprof.a -lpthread"
  {
    gcc $cf "$src" -o "$EV/plain" &&
    gcc $cf -fplugin="$TOP/plugin/dsprof.so" -fplugin-arg-dsprof-counters=off \
      "$src" $lib -o "$EV/dsprof" &&
    gcc $cf -fplugin="$TOP/plugin/dsprof.so" "$src" $lib -o "$EV/dsprof-counters" &&
    printf 'exclude ev_*\ncall ev_int2(a, b)\n' >"$EV/call.sel" &&
    gcc $cf -fplugin="$TOP/plugin/dsprof.so" -fplugin-arg-dsprof-counters=off \
      -fplugin-arg-dsprof-select="$EV/call.sel" "$src" $lib -o "$EV/dsprof-call" &&
    gcc $cf -finstrument-functions "$src" "$TOP/bench/hooks.c" -o "$EV/finstr"
  } >"$EV/build.log" 2>&1 || { cat "$EV/build.log" >&2; die "cannot build bench/events.c"; }
  # Every build makes the same calls and computes the same sum.
  for m in none int2 str str1000 str1000new tree; do
    expect=$("$EV/plain" $m 1000)
    for b in dsprof dsprof-counters finstr; do
      out=$(DSPROF_OUT=$EV/check.data "$EV/$b" $m 1000) || die "events $b $m failed"
      [ "$out" = "$expect" ] || die "events: $b $m prints $out, the plain build $expect"
    done
  done
  out=$(DSPROF_OUT=$EV/check.data "$EV/dsprof-call" int2 1000) || die "events dsprof-call int2 failed"
  [ "$out" = "$("$EV/plain" int2 1000)" ] || die "events: dsprof-call int2 prints $out, not the plain build's"
  rm -f "$EV/check.data"
  echo "$RUN_ID" >"$EV/stamp"
}

have_uftrace () { command -v uftrace >/dev/null; }
NO_UFTRACE="not installed (make deps installs Debian's uftrace)"

# dsprof info's "KEY: N" figure of PROFILE, or nothing without `dsprof info`.
info_figure () {
  have_command info || return 0
  "$DSPROF" info --count "$2" 2>/dev/null | sed -nE "s/^$1: ([0-9]+).*/\1/p"
}

# ---- cost per Start/Finish pair (docs/contract.md §6 row 2) --------------------------------
bench_events () {
  events_build
  local m
  local -A what=([none]="no dims" [int2]="2 int dims" [str]="1 string dim"
                 [str1000]="the same 1,000-byte string"
                 [str1000new]="a new 1,000-byte string")
  for m in none int2 str; do
    local cmds=("$EV/plain $m $CALLS"
                "env DSPROF_OUT=$EV/$m.data $EV/dsprof $m $CALLS"
                "env DSPROF_OUT=$EV/$m-c.data $EV/dsprof-counters $m $CALLS"
                "$EV/finstr $m $CALLS")
    have_uftrace && cmds+=("uftrace record -P . -d $EV/$m.uftrace $EV/plain $m $CALLS")
    PREPARE="rm -rf $EV/$m.data $EV/$m-c.data $EV/$m.uftrace $EV/$m.uftrace.old" \
      time_cmds "events-$m" "${cmds[@]}"
    timed_row "$m: plain -O2, $CALLS calls" "events-$m" 0 0
    per_call_row "$m: dsprof event, ${what[$m]}" "events-$m" 1 0 "$CALLS"
    per_call_row "$m: dsprof event + block counters" "events-$m" 2 0 "$CALLS"
    per_call_row "$m: -finstrument-functions, empty" "events-$m" 3 0 "$CALLS"
    if have_uftrace; then
      per_call_row "$m: uftrace record -P . (plain)" "events-$m" 4 0 "$CALLS"
    else
      missing_row "$m: uftrace record" "$NO_UFTRACE"
    fi
    rm -rf "$EV/$m.data" "$EV/$m-c.data" "$EV/$m.uftrace" "$EV/$m.uftrace.old"
  done
  # Events off: with DSPROF_EVENTS=0 an event function tests the runtime's
  # flag and calls no hook; what is left of its cost against plain.
  PREPARE="rm -f $EV/off.data" time_cmds events-off "$EV/plain none $CALLS" \
    "env DSPROF_EVENTS=0 DSPROF_OUT=$EV/off.data $EV/dsprof none $CALLS"
  per_call_row "none: dsprof event, DSPROF_EVENTS=0" events-off 1 0 "$CALLS"
  rm -f "$EV/off.data"
  # Call sites (docs/select.md): main's calls of ev_int2, not instrumented
  # itself, as events in the caller with both arguments as dims, beside the
  # same calls as events of the function.
  PREPARE="rm -f $EV/fn.data $EV/cs.data" time_cmds events-call "$EV/plain int2 $CALLS" \
    "env DSPROF_OUT=$EV/fn.data $EV/dsprof int2 $CALLS" \
    "env DSPROF_OUT=$EV/cs.data $EV/dsprof-call int2 $CALLS"
  per_call_row "int2: dsprof event, 2 int dims" events-call 1 0 "$CALLS"
  per_call_row "int2: dsprof call site, 2 int dims" events-call 2 0 "$CALLS"
  rm -f "$EV/fn.data" "$EV/cs.data"
  # The floor: a timed pair reads the clock twice, whatever records it.
  time_cmds events-clock "$EV/plain none 0" "$EV/plain clock $CALLS"
  per_call_row "clock: two reads of the recorder's clock" events-clock 1 0 "$CALLS"
  # A long string dimension: the same string every call, stored once per
  # chunk (a reference the other times), beside a new one every call, stored
  # whole; each against the plain build making the same calls.
  for m in str1000 str1000new; do
    PREPARE="rm -f $EV/$m.data" time_cmds "events-$m" "$EV/plain $m $LONG_CALLS" \
      "env DSPROF_OUT=$EV/$m.data $EV/dsprof $m $LONG_CALLS"
    per_call_row "$m: dsprof event, ${what[$m]}" "events-$m" 1 0 "$LONG_CALLS"
    rm -f "$EV/$m.data"
  done
}

# ---- NAME=EXPR dims of a selection file on op records (docs/select.md) ------------------------
bench_dim_expr () {
  local dir=$BENCH_DIR/dimexpr n=${BENCH_VM_OPS:-3000000} v expect out
  local cf="-O2 -I$TOP/runtime" lib="$TOP/runtime/libdsprof.a -lpthread"
  local -A sel=([0]="dispatch run"
                [1]="dispatch run dims=addr=pc-vm->code"
                [3]="dispatch run dims=addr=pc-vm->code,steps=vm->steps,fdepth=vm->frame->depth")
  rm -rf "$dir" && mkdir -p "$dir"
  gcc $cf "$TOP/bench/dimexpr.c" -o "$dir/plain" || die "cannot build bench/dimexpr.c"
  expect=$("$dir/plain" 1000)
  for v in 0 1 3; do
    echo "${sel[$v]}" >"$dir/e$v.sel"
    gcc $cf -fplugin="$TOP/plugin/dsprof.so" -fplugin-arg-dsprof-counters=off \
      -fplugin-arg-dsprof-select="$dir/e$v.sel" "$TOP/bench/dimexpr.c" $lib \
      -o "$dir/e$v" || die "cannot build bench/dimexpr.c with ${sel[$v]}"
    out=$(DSPROF_OUT=$dir/check.data "$dir/e$v" 1000) || die "dimexpr e$v failed"
    [ "$out" = "$expect" ] || die "dimexpr e$v prints $out, the plain build $expect"
  done
  PREPARE="rm -f $dir/e0.data $dir/e1.data $dir/e3.data" time_cmds dim-expr \
    "$dir/plain $n" "env DSPROF_OUT=$dir/e0.data $dir/e0 $n" \
    "env DSPROF_OUT=$dir/e1.data $dir/e1 $n" "env DSPROF_OUT=$dir/e3.data $dir/e3 $n" \
    "env DSPROF_EVENTS=0 DSPROF_OUT=$dir/off.data $dir/e3 $n"
  timed_row "plain -O2, $n ops" dim-expr 0 0
  per_call_row "op record, no dims" dim-expr 1 0 "$n"
  per_call_row "op record, 1 expression dim" dim-expr 2 0 "$n"
  per_call_row "op record, 3 expression dims" dim-expr 3 0 "$n"
  per_call_row "3 expression dims, DSPROF_EVENTS=0" dim-expr 4 0 "$n"
  # Instructions per op (callgrind, 100,000 ops more), which the machine's
  # load does not move: the op record, then each build's more.
  if command -v valgrind >/dev/null; then
    local -A ins
    for v in plain e0 e1 e3; do
      ins[$v]=$(( $(DSPROF_OUT=$dir/cg.data instructions "$dir/$v" 200000)
                  - $(DSPROF_OUT=$dir/cg.data instructions "$dir/$v" 100000) ))
    done
    row "op record, no dims" "$(( (ins[e0] - ins[plain]) / 100000 ))" "instr/op" "" "callgrind"
    row "1 expression dim, more" "$(( (ins[e1] - ins[e0]) / 100000 ))" "instr/op" "" "callgrind"
    row "3 expression dims, more" "$(( (ins[e3] - ins[e0]) / 100000 ))" "instr/op" "" \
      "callgrind; $(( (ins[e3] - ins[e0]) / 300000 )) an expression"
  else
    missing_row "instructions per op" "valgrind not installed"
  fi
  rm -rf "$dir"/*.data
}

# ---- bytes per event (docs/contract.md §6 row 5) -------------------------------------------
bench_profile_size () {
  events_build
  local m n p size events stream
  local -A what=([none]="no dims" [int2]="2 int dims" [str]="1 string dim"
                 [str1000]="the same 1,000-byte string"
                 [str1000new]="a new 1,000-byte string")
  for m in none int2 str str1000 str1000new; do
    p=$EV/size-$m.data
    n=$CALLS
    [ "${m#str1000}" = "$m" ] || n=$LONG_CALLS
    DSPROF_OUT=$p "$EV/dsprof" $m "$n" >/dev/null || die "events dsprof $m failed"
    size=$(stat -c %s "$p")
    events=$(info_figure events "$p")
    events=${events:-$((2 * n))}
    stream=$(have_command info && "$DSPROF" info "$p" | sed -nE 's/^events: [0-9]+ \(([0-9]+) bytes of stream.*/\1/p')
    row "dsprof, ${what[$m]}" "$(awk -v a="$size" -v b="$events" 'BEGIN { printf "%.2f", a / b }')" \
      "B/event" "" "file $size B / $events Start+Finish events${stream:+; event streams alone $stream B}"
    rm -f "$p"
  done
  if have_uftrace; then
    p=$EV/size.uftrace
    rm -rf "$p" && uftrace record -P . -d "$p" "$EV/plain" none "$CALLS" >/dev/null 2>&1 ||
      die "uftrace record failed"
    size=$(cat "$p"/*.dat | wc -c)
    row "uftrace record -P ., no dims" "$(awk -v a="$size" -v b="$((2 * CALLS))" 'BEGIN { printf "%.2f", a / b }')" \
      "B/event" "" "trace data (*.dat) $size B / $((2 * CALLS)) entries+exits of ev_none"
    rm -rf "$p"
  else
    missing_row "uftrace record" "$NO_UFTRACE"
  fi
}

# ---- records per second of a one-dimension report (docs/contract.md §6 row 4) --------------
bench_report_speed () {
  have_command report || { missing_row "dsprof report name" "no \`dsprof report\` command yet"; return 0; }
  events_build
  local p=$EV/tree.data u=$EV/tree.uftrace records cmds=()
  DSPROF_OUT=$p "$EV/dsprof" tree "$TREES" >/dev/null || die "events dsprof tree failed"
  records=$(info_figure records "$p")
  records=${records:-$((15 * TREES))}
  [ "$records" = $((15 * TREES)) ] || die "the tree profile has $records records, expected $((15 * TREES))"
  cmds=("$DSPROF report name $p")
  if have_uftrace; then
    rm -rf "$u" && uftrace record -P . -d "$u" "$EV/plain" tree "$TREES" >/dev/null 2>&1 ||
      die "uftrace record failed"
    cmds+=("uftrace report -d $u")
  fi
  time_cmds report "${cmds[@]}"
  local speed0
  speed0=$(awk -v n="$records" -v t="${MEAN[report/0]}" 'BEGIN { printf "%.1f", n / t / 1e6 }')
  row "dsprof report name" "$speed0" "M rec/s" 1.00x \
    "$records records (trees of 15 nested calls) in $(sec "${MEAN[report/0]}") s, sd $(sec "${SD[report/0]}") s; from min $(awk -v n="$records" -v t="${MIN[report/0]}" 'BEGIN { printf "%.1f", n / t / 1e6 }') M/s"
  if have_uftrace; then
    local speed1
    speed1=$(awk -v n="$records" -v t="${MEAN[report/1]}" 'BEGIN { printf "%.1f", n / t / 1e6 }')
    row "uftrace report (same calls)" "$speed1" "M rec/s" "$(ratio "$speed1" "$speed0")" \
      "$records calls (entry+exit pairs) in $(sec "${MEAN[report/1]}") s, sd $(sec "${SD[report/1]}") s"
  else
    missing_row "uftrace report" "$NO_UFTRACE"
  fi
  rm -rf "$p" "$u" "$u.old"
}

# ---- instructions of a one-dimension report (docs/bench.md) --------------------------------
# nest_profile TREE OUT CALLS: bench/nest.c built with TREE's plugin and
# runtime, run for CALLS calls of outer, its profile into OUT.
nest_profile () {
  local tree=$1 out=$2
  gcc -O2 -fplugin="$tree/plugin/dsprof.so" -I"$tree/runtime" "$TOP/bench/nest.c" \
    "$tree/runtime/libdsprof.a" -lpthread -o "$out.exe" >"$out.log" 2>&1 ||
    { cat "$out.log" >&2; die "cannot build bench/nest.c with $tree"; }
  rm -f "$out"
  DSPROF_OUT=$out "$out.exe" "$3" >/dev/null || die "bench/nest.c ($tree) failed"
}

bench_report_callgrind () {
  have_command report || { missing_row "dsprof report name" "no \`dsprof report\` command yet"; return 0; }
  command -v valgrind >/dev/null ||
    { missing_row "dsprof report name" "valgrind not installed (make deps)"; return 0; }
  local dir=$BENCH_DIR/nest n=${BENCH_NEST_CALLS:-2000000} records ir old_ir i t best=
  local MEM=$dir
  rm -rf "$dir" && mkdir -p "$dir"
  nest_profile "$TOP" "$dir/nest.data" "$n"
  records=$(info_figure records "$dir/nest.data")
  [ "${records:-$((3 * n))}" = $((3 * n)) ] || die "the nest profile has $records records, expected $((3 * n))"
  records=$((3 * n))
  ir=$(instructions "$DSPROF" report name "$dir/nest.data")
  [ -n "$ir" ] || die "callgrind gave no count for dsprof report name"
  row "dsprof report name" "$(awk -v a="$ir" 'BEGIN { printf "%.3f", a / 1e9 }')" "G instr" 1.00x \
    "$records records (bench/nest.c, $n calls): $(awk -v a="$ir" -v n="$records" 'BEGIN { printf "%.0f", a / n }') instructions a record (callgrind)"
  for ((i = 0; i < RUNS; i++)); do
    /usr/bin/time -f '%U %S' -o "$dir/time" "$DSPROF" report name "$dir/nest.data" >/dev/null ||
      die "dsprof report name failed"
    t=$(awk '{ printf "%.2f", $1 + $2 }' "$dir/time")
    best=$(awk -v a="$t" -v b="${best:-$t}" 'BEGIN { print (a < b ? a : b) }')
  done
  row "dsprof report name, CPU time" \
    "$(awk -v n="$records" -v t="$best" 'BEGIN { if (t > 0) printf "%.1f", n / t / 1e6; else print "-" }')" \
    "M rec/s" "" "fastest of $RUNS runs: $best s user + system"
  nest_profile "$TOP" "$dir/tenth.data" $((n / 10))
  peak "$DSPROF" report name "$dir/tenth.data"
  row "peak RSS, $((records / 10)) records" "$(awk -v k="$PEAK" 'BEGIN { printf "%.1f", k / 1024 }')" MB "" "${PEAK} KB"
  peak "$DSPROF" report name "$dir/nest.data"
  row "peak RSS, $records records" "$(awk -v k="$PEAK" 'BEGIN { printf "%.1f", k / 1024 }')" MB "" "${PEAK} KB"
  if [ -n "${BENCH_REPORT_OLD:-}" ]; then
    nest_profile "$BENCH_REPORT_OLD" "$dir/old.data" "$n"
    old_ir=$(instructions "$BENCH_REPORT_OLD/report/dsprof" report name "$dir/old.data")
    [ -n "$old_ir" ] || die "callgrind gave no count for $BENCH_REPORT_OLD's report"
    row "$(basename "$BENCH_REPORT_OLD")'s report name" \
      "$(awk -v a="$old_ir" 'BEGIN { printf "%.3f", a / 1e9 }')" "G instr" "$(ratio "$old_ir" "$ir")" \
      "its own profile (its plugin and runtime): $(awk -v a="$old_ir" -v n="$records" 'BEGIN { printf "%.0f", a / n }') instructions a record"
  fi
  rm -f "$dir"/*.data
}

# ---- the exports' sizes: perfetto and pprof beside chrome JSON (docs/bench.md) -----------------
bench_export_size () {
  events_build
  local p=$EV/export.data records f bytes chrome=
  DSPROF_OUT=$p "$EV/dsprof" tree "$TREES" >/dev/null || die "events dsprof tree failed"
  records=$(info_figure records "$p")
  records=${records:-$((15 * TREES))}
  for f in chrome perfetto pprof; do
    if ! "$DSPROF" export --help 2>/dev/null | grep -qE "^  $f "; then
      missing_row "export --format $f" "no $f export yet"
      continue
    fi
    bytes=$("$DSPROF" export --format $f "$p" | wc -c)
    chrome=${chrome:-$bytes}
    row "export --format $f" "$(awk -v a="$bytes" 'BEGIN { printf "%.1f", a / 1048576 }')" MB \
      "$(ratio "$bytes" "$chrome")" \
      "$bytes bytes, $(awk -v a="$bytes" -v b="$records" 'BEGIN { printf "%.1f", a / b }') B/record; $records records"
  done
  rm -f "$p"
}

# ---- peak memory of every command on a big profile (docs/bench.md) ---------------------------
# The peak resident KB and the seconds of command "$@" (its output to /dev/null)
# into PEAK and SECS; a command ended by SIGPIPE (its reader had enough) counts.
peak () {
  /usr/bin/time -f '%M %e' -o "$MEM/time" "$@" >/dev/null || true
  read -r PEAK SECS < <(tail -1 "$MEM/time")
  [[ "$PEAK" =~ ^[0-9]+$ ]] || die "$*: $(cat "$MEM/time")"
}

bench_report_memory () {
  local trees=${BENCH_MEMORY_TREES:-2000000} p records size c out bound=256
  MEM=$BENCH_DIR/memory
  rm -rf "$MEM" && mkdir -p "$MEM"
  events_build
  p=$MEM/tree.data
  DSPROF_OUT=$p "$EV/dsprof" tree "$trees" >/dev/null || die "events dsprof tree failed"
  records=$(info_figure records "$p")
  [ "$records" = $((15 * trees)) ] || die "the tree profile has $records records, expected $((15 * trees))"
  size=$(( $(stat -c %s "$p") / 1048576 ))
  row "the profile (the peer)" "$size" MB "" "$records records, $(stat -c %s "$p") bytes"
  for c in "info" "info --count" "dims" "records --where depth=3" "report name" \
           "callgraph" "export --format chrome" "export --format folded" \
           "export --format lcov" "export --format csv" "export --format pprof" \
           "export --format perfetto" "merge -o $MEM/m.data" \
           "html -o $MEM/h.html"; do
    # shellcheck disable=SC2086
    peak "$DSPROF" $c "$p"
    out=${c%% -o *}
    row "$out" "$((PEAK / 1024))" MB "$(ratio "$PEAK" $((bound * 1024)))" \
      "bound $bound MB; profile $size MB; $SECS s"
    rm -f "$MEM/m.data" "$MEM/h.html"
  done
  time_cmds info "$DSPROF info $p"
  row "info (time)" "$(sec "${MEAN[info/0]}")" s "" \
    "sd $(sec "${SD[info/0]}") s, min $(sec "${MIN[info/0]}") s; target under 0.1 s"
  rm -f "$p"

  # A stack N frames deep is a folded line N frames long: the whole output is
  # quadratic in the depth (some 2 TB here), so the row takes its first GiB.
  gcc -O2 -fplugin="$TOP/plugin/dsprof.so" -I"$TOP/runtime" -o "$MEM/deep" \
    "$TOP/testsuite/fixtures/deep.c" "$TOP/runtime/libdsprof.a" -lpthread ||
    die "deep.c does not build"
  DSPROF_OUT=$MEM/deep.data "$MEM/deep" 1000000 >/dev/null || die "deep failed"
  size=$(( $(stat -c %s "$MEM/deep.data") / 1048576 ))
  peak "$DSPROF" report name "$MEM/deep.data"
  row "report name, 1,000,000 deep" "$((PEAK / 1024))" MB "" \
    "profile $size MB; $SECS s"
  peak bash -c "'$DSPROF' export --format folded '$MEM/deep.data' | head -c 1073741824"
  row "export folded, 1,000,000 deep" "$((PEAK / 1024))" MB "" \
    "profile $size MB; $SECS s for the first GiB of output"
  rm -rf "$MEM"
}

# ---- the html page of a 10 M-record profile: size, time to write, first paint (docs/bench.md) ----
bench_html_page () {
  local trees=${BENCH_HTML_TREES:-666667} d=$BENCH_DIR/html p records size bytes fcp load
  local pw=$TOP/build/node_modules/playwright-core
  rm -rf "$d" && mkdir -p "$d"
  events_build
  p=$d/tree.data
  DSPROF_OUT=$p "$EV/dsprof-counters" tree "$trees" >/dev/null || die "events tree failed"
  records=$(info_figure records "$p")
  size=$(( $(stat -c %s "$p") / 1048576 ))
  RUNS=3 WARMUP=0 time_cmds html "$DSPROF html -o $d/page.html $p"
  row "html: write the page" "$(sec "${MEAN[html/0]}")" s "" \
    "$records records (trees of 15 nested calls, block counters), profile $size MB; sd $(sec "${SD[html/0]}") s, min $(sec "${MIN[html/0]}") s"
  bytes=$(stat -c %s "$d/page.html")
  row "html: the page's size" "$(awk -v a="$bytes" 'BEGIN { printf "%.2f", a / 1048576 }')" MB "" \
    "$bytes bytes for $records records"
  if ! command -v chromium >/dev/null || ! command -v node >/dev/null ||
     ! "$TOP/scripts/playwright.sh" >&2; then
    missing_row "html: first paint in Chromium" "no chromium, node or playwright-core"
  else
    read -r fcp load < <(HOME=$d timeout 600 node "$TOP/bench/html-paint.js" "$pw" \
                           "$d/page.html" "$RUNS") || die "html-paint.js failed"
    row "html: first paint in Chromium" "$fcp" ms "" \
      "headless, 1280x900, median of $RUNS loads; the page's script done (load event end) at $load ms"
  fi
  rm -rf "$d"
}

# ---- forked children of a big program (docs/bench.md) -------------------------
bench_fork_cost () {
  local fc=$BENCH_DIR/fork-cost
  rm -rf "$fc" && mkdir -p "$fc/out"
  note "building a program of 500 units"
  (cd "$fc" && "$TOP/testsuite/fixtures/gen.sh" 500 200 &&
     gcc -O1 -o plain main.c u*.c &&
     for f in main.c u*.c; do echo "$f"; done |
       xargs -n 50 -P 2 gcc -O1 -fplugin="$TOP/plugin/dsprof.so" -c &&
     gcc -o dsprof main.o u*.o "$TOP/runtime/libdsprof.a" -lpthread) >"$fc/build.log" 2>&1 ||
    { cat "$fc/build.log" >&2; die "cannot build the 500-unit program"; }
  PREPARE="find $fc/out -mindepth 1 -delete" \
    time_cmds fork-cost "$fc/plain" "env DSPROF_OUT=$fc/out/p.data $fc/dsprof"
  timed_row "plain, 200 forks of 500 units" fork-cost 0 0
  timed_row "dsprof" fork-cost 1 0
  find "$fc/out" -mindepth 1 -delete
  DSPROF_OUT=$fc/out/p.data "$fc/dsprof" >/dev/null || die "the 500-unit program failed"
  row "dsprof: the 201 profiles on disk" "$(du -sm "$fc/out" | cut -f1)" MB "" \
    "$(du -sm --apparent-size "$fc/out" | cut -f1) MB of file size"
  rm -rf "$fc"
}

# ---- bench/threads.c: counter updates in 8 threads at once -----------------------------------
bench_threads () {
  local tb=$BENCH_DIR/threads n=${BENCH_THREAD_CALLS:-2000000} src=$TOP/bench/threads.c
  local plugin="-fplugin=$TOP/plugin/dsprof.so" lib="$TOP/runtime/libdsprof.a -lpthread"
  rm -rf "$tb" && mkdir -p "$tb"
  note "building bench/threads.c"
  gcc -O2 -o "$tb/plain" "$src" -lpthread &&
    gcc -O2 $plugin -fplugin-arg-dsprof-update=single -o "$tb/single" "$src" $lib &&
    gcc -O2 $plugin -fplugin-arg-dsprof-update=atomic -o "$tb/atomic" "$src" $lib &&
    gcc -O2 $plugin -fplugin-arg-dsprof-update=thread -o "$tb/thread" "$src" $lib &&
    gcc -O2 -fprofile-arcs -fprofile-update=atomic -o "$tb/gcov-atomic" "$src" -lpthread ||
    die "cannot build bench/threads.c"
  local v expect= out
  for v in plain single atomic thread gcov-atomic; do
    out=$(cd "$tb" && DSPROF_OUT=$tb/$v.data "./$v" "$n") || die "threads ($v) failed"
    expect=${expect:-$out}
    [ "$out" = "$expect" ] || die "threads ($v) prints '$out', plain '$expect'"
  done
  pushd "$tb" >/dev/null
  time_cmds threads "./plain $n" "env DSPROF_OUT=$tb/single.data ./single $n" \
    "env DSPROF_OUT=$tb/atomic.data ./atomic $n" \
    "env DSPROF_OUT=$tb/thread.data ./thread $n" "./gcov-atomic $n"
  popd >/dev/null
  timed_row "plain (-O2), 8 threads" threads 0 0
  timed_row "dsprof counters, update=single" threads 1 0
  timed_row "dsprof counters, update=atomic" threads 2 0
  timed_row "dsprof counters, update=thread" threads 3 0
  timed_row "gcov -fprofile-update=atomic" threads 4 0
  # The calls of mix each build counted (its first line), of 8 x N made.
  local line got
  line=$(grep -n 'ENTRY: once per call' "$src" | cut -d: -f1)
  for v in single atomic thread; do
    got=$("$DSPROF" lines "$tb/$v.data" 2>/dev/null |
            awk -F': ' -v l=":$line" 'substr($1, length($1) - length(l) + 1) == l { print $2; exit }')
    row "update=$v: calls of mix counted" "${got:-?}" calls "" "of $((8 * n)) made"
  done
}

# ---- functions=all on Lua against uftrace (docs/contract.md §6 row 3) ----------------------
bench_lua_functions_all () {
  local variants="plain dsprof-calls dsprof-all gprof" v lua out expect= cmds=() i
  local -A label=(
    [plain]="plain (-O2)"
    [dsprof-calls]="dsprof functions=all, counters=off"
    [dsprof-all]="dsprof functions=all (+ counters)"
    [gprof]="-pg, not traced"
  )
  [ -f "$LUA_WORKLOAD" ] || die "no workload $LUA_WORKLOAD (set LUA_WORKLOAD)"
  local run=$BENCH_DIR/run-all
  rm -rf "$run" && mkdir -p "$run"
  for v in $variants; do
    lua=$(lua_build "$v")
    out=$(cd "$run" && DSPROF_OUT=$run/check.data "$lua" "$LUA_WORKLOAD") ||
      die "$v: $LUA_WORKLOAD failed"
    expect=${expect:-$out}
    [ "$out" = "$expect" ] || die "$v prints '$out', plain Lua '$expect'"
    cmds+=("env DSPROF_OUT=$run/dsprof.data setarch -R $lua $LUA_WORKLOAD")
  done
  local records
  records=$(info_figure records "$run/check.data")
  rm -f "$run/check.data"
  have_uftrace &&
    cmds+=("setarch -R uftrace record -d $run/uftrace.data $(lua_build gprof) $LUA_WORKLOAD")
  pushd "$run" >/dev/null
  RUNS=${BENCH_SLOW_RUNS:-3} WARMUP=0 \
    PREPARE="rm -rf $run/dsprof.data $run/uftrace.data $run/uftrace.data.old $run/gmon.out" \
    time_cmds luaall "${cmds[@]}"
  popd >/dev/null
  rm -rf "$run"
  i=0
  for v in $variants; do
    timed_row "${label[$v]}" luaall $i 0
    i=$((i + 1))
  done
  if have_uftrace; then
    timed_row "uftrace record of the -pg build" luaall 4 0
    local ds=${MEAN[luaall/1]} uf=${MEAN[luaall/4]} p=${MEAN[luaall/0]}
    row "uftrace / dsprof slowdown" "$(awk -v d="$ds" -v u="$uf" -v p="$p" 'BEGIN { printf "%.2f", (u / p) / (d / p) }')" \
      "x" "" "slowdown ratio (counters=off); of the overheads (ratio - 1): $(awk -v d="$ds" -v u="$uf" -v p="$p" 'BEGIN { printf "%.2f", (u - p) / (d - p) }')x${records:+; $records records per dsprof run}"
  else
    missing_row "uftrace record of the -pg build" "$NO_UFTRACE"
  fi
}

# ---- Lua's opcodes as op records (dispatch=luaV_execute) -------------------------
# The plain build, the dispatch build without counters (dsprof-ops) and with
# them (dsprof-dispatch), and dsprof-ops with DSPROF_EVENTS=0, in one
# hyperfine run; then ns per opcode, (time - plain time) / opcodes, and the
# profile's bytes per opcode (its event stream's, and the whole file's).
bench_lua_dispatch () {
  local variants="plain dsprof-ops dsprof-dispatch" v lua out expect= cmds=() i
  local -A label=(
    [plain]="plain (-O2)"
    [dsprof-ops]="dispatch, counters=off"
    [dsprof-dispatch]="dispatch + counters"
  )
  [ -f "$LUA_WORKLOAD" ] || die "no workload $LUA_WORKLOAD (set LUA_WORKLOAD)"
  local run=$BENCH_DIR/run-dispatch
  rm -rf "$run" && mkdir -p "$run"
  for v in $variants; do
    lua=$(lua_build "$v")
    out=$(cd "$run" && DSPROF_OUT=$run/$v.data setarch -R "$lua" "$LUA_WORKLOAD") ||
      die "$v: $LUA_WORKLOAD failed"
    expect=${expect:-$out}
    [ "$out" = "$expect" ] || die "$v prints '$out', plain Lua '$expect'"
    cmds+=("env DSPROF_OUT=$run/dsprof.data setarch -R $lua $LUA_WORKLOAD")
  done
  cmds+=("env DSPROF_EVENTS=0 DSPROF_OUT=$run/dsprof.data setarch -R $(lua_build dsprof-ops) $LUA_WORKLOAD")
  local ops stream size
  ops=$("$DSPROF" report event --where event=op --format csv "$run/dsprof-ops.data" |
        awk -F, '$2 == "op" { print $(NF - 1) }')
  stream=$(info_figure "event stream" "$run/dsprof-ops.data")
  size=$(stat -c %s "$run/dsprof-ops.data")
  pushd "$run" >/dev/null
  PREPARE="rm -f $run/dsprof.data" time_cmds luaops "${cmds[@]}"
  popd >/dev/null
  i=0
  for v in $variants; do
    timed_row "${label[$v]}" luaops $i 0
    i=$((i + 1))
  done
  timed_row "dispatch, DSPROF_EVENTS=0" luaops 3 0
  per_call_row "ns/opcode, counters=off" luaops 1 0 "$ops"
  per_call_row "ns/opcode, + counters" luaops 2 0 "$ops"
  per_call_row "ns/opcode, DSPROF_EVENTS=0" luaops 3 0 "$ops"
  # The floor: an opcode's record reads the clock once (bench/events.c's
  # clock mode reads it twice a call).
  events_build
  time_cmds luaops-clock "$EV/plain none 0" "$EV/plain clock $CALLS"
  per_call_row "clock: two reads of the clock" luaops-clock 1 0 "$CALLS"
  row "bytes/opcode (event stream)" "$(awk -v b="$stream" -v n="$ops" 'BEGIN { printf "%.2f", b / n }')" \
    "B/op" "" "$ops opcodes, $stream bytes of stream; the whole file $(awk -v b="$size" -v n="$ops" 'BEGIN { printf "%.2f", b / n }') B/op"
  rm -rf "$run"
}

# ---- the report's times against known busy-waits --------------------------------
bench_time_accuracy () {
  local dir=$BENCH_DIR/times i
  mkdir -p "$dir"
  gcc -O1 -fplugin="$TOP/plugin/dsprof.so" -I"$TOP/runtime" -o "$dir/times" \
    "$TOP/testsuite/fixtures/times.c" "$TOP/runtime/libdsprof.a" -lpthread ||
    die "times.c does not build"
  : >"$dir/figures"
  for i in $(seq "$RUNS"); do
    (cd "$dir" && ./times >/dev/null) || die "times failed"
    "$DSPROF" report name --unit ns --format csv "$dir/dsprof.data" |
      awk -F, -v OFS=' ' 'NR > 1 { self[$2] = $5 } END { print self["value"], self["other"] }' \
        >>"$dir/prof"
    "$DSPROF" report name --unit ns "$dir/dsprof.data" |
      sed -n 's/^Profiled time: \([0-9.,]*\) ns.*/\1/p' | tr -d , >>"$dir/figures"
  done
  paste -d' ' "$dir/prof" "$dir/figures" | python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
for i, (what, want) in enumerate((("value Self (5 ms of busy-wait)", 5),
                                  ("other Self (2 ms of busy-wait)", 2),
                                  ("profiled time (7 ms of busy-wait)", 7))):
    got = statistics.median(r[i] for r in rows) / 1e6
    print("%s|%.3f|%.3f" % (what, got, got / want))' |
    while IFS='|' read -r what got r; do
      row "$what" "$got" ms "${r}x" "median of $RUNS runs; ratio to the busy-wait"
    done
  rm -f "$dir/prof"
}

# ---- `dsprof top` against a program writing millions of records a second ------
bench_top_refresh () {
  local dir=$BENCH_DIR/top secs=${BENCH_TOP_SECONDS:-20} fpid
  mkdir -p "$dir"
  gcc -O2 -fplugin="$TOP/plugin/dsprof.so" -fplugin-arg-dsprof-counters=off \
    -fplugin-arg-dsprof-dispatch=run_dispatch \
    -I"$TOP/runtime" -o "$dir/opflood" "$TOP/bench/opflood.c" \
    "$TOP/runtime/libdsprof.a" -lpthread || die "opflood.c does not build"
  rm -f "$dir/flood.data"
  (cd "$dir" && DSPROF_OUT=$dir/flood.data exec ./opflood "$secs") >"$dir/ops" &
  fpid=$!
  sleep 0.5
  # top's frames stamped as they come, its CPU time from wait4.
  python3 - "${BENCH_TOP_DSPROF:-$DSPROF}" "$dir/flood.data" "$secs" >"$dir/figures" <<'PY' ||
import os, subprocess, sys, time
dsprof, data, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
t0 = time.monotonic()
p = subprocess.Popen([dsprof, "top", "--batch", str(int(secs * 100)), "-d", "1", data],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
stamps, done = [], False
for l in p.stdout:
    done = done or "  exited  " in l or "process gone" in l
    # The frames read while the program ran: before the one saying it exited.
    if l.startswith("dsprof top:") and not done:
        stamps.append(time.monotonic())
    if done:
        p.terminate()
        break
_, status, ru = os.wait4(p.pid, 0)
wall = time.monotonic() - t0
gaps = [b - a for a, b in zip(stamps, stamps[1:])]
cpu = ru.ru_utime + ru.ru_stime
mean = sum(gaps) / len(gaps) if gaps else 0
print("refresh_interval %.2f s - mean_of_%d_refreshes_while_running,_longest_%.2f_s"
      % (mean, len(gaps), max(gaps) if gaps else 0))
print("cpu_share %.0f %% - top_CPU_%.1f_s_in_%.0f_s" % (100 * cpu / wall, cpu, wall))
PY
    die "top against opflood failed"
  wait "$fpid" || die "opflood failed"
  echo "record_rate $(awk -v s="$secs" '{ printf "%.1f", $2 / s / 1e6 }' "$dir/ops") M/s - opflood's_op_records" \
    >>"$dir/figures"
  while read -r v f u r n; do row "$v" "$f" "$u" "$r" "${n//_/ }"; done <"$dir/figures"
}

# ---- dsprof's times against opcodes of known spin (bench/vmspin.c) --------------
bench_vm_times () {
  local dir=$BENCH_DIR/vmspin n=${BENCH_VM_OPS:-3000000} mode i
  mkdir -p "$dir"
  gcc -O2 -fplugin="$TOP/plugin/dsprof.so" -fplugin-arg-dsprof-counters=off \
    -fplugin-arg-dsprof-dispatch=run_dispatch \
    -I"$TOP/runtime" -o "$dir/vmspin" "$TOP/bench/vmspin.c" \
    "$TOP/runtime/libdsprof.a" -lpthread || die "vmspin.c does not build"
  # The same source without the plugin: the opcodes' times in the plain
  # program, loop and dispatch included (bench/vmspin.c).
  gcc -O2 -I"$TOP/runtime" -o "$dir/vmspin-plain" "$TOP/bench/vmspin.c" \
    "$TOP/runtime/libdsprof.a" -lpthread || die "vmspin.c does not build without the plugin"
  for mode in hook manual dispatch; do
    : >"$dir/$mode.txt"
    for i in $(seq "$RUNS"); do
      if [ "$mode" = dispatch ]; then
        (cd "$dir" && DSPROF_OUT=$dir/plain.data ./vmspin-plain dispatch "$n") >"$dir/plain" ||
          die "vmspin-plain dispatch failed"
      else
        : >"$dir/plain"
      fi
      (cd "$dir" && DSPROF_OUT=$dir/$mode.data ./vmspin "$mode" "$n") >"$dir/known" ||
        die "vmspin $mode failed"
      "$DSPROF" report name --format json --unit ns "$dir/$mode.data" >"$dir/rep.json" &&
        "$DSPROF" info "$dir/$mode.data" >"$dir/info" &&
        "$DSPROF" records "$dir/$mode.data" >"$dir/records" ||
        die "dsprof on vmspin $mode failed"
      # Per opcode: the spins' mean and median, the report's mean Self per
      # record, the median record's Self: its recorded time less the
      # deduction (the same for every record of the opcode, a leaf:
      # docs/contract.md §4.4, from info's figures), and the reference's
      # mean and median: the plain build's whole opcode for dispatch, the
      # spin for the others.
      python3 - "$dir/known" "$dir/rep.json" "$dir/info" "$dir/records" "$mode" "$dir/plain" \
        >>"$dir/$mode.txt" <<'PY'
import json, re, statistics, sys
known = {l.split()[0]: l.split()[2:4] for l in open(sys.argv[1])}
plain = {l.split()[0]: l.split()[4:6] for l in open(sys.argv[6])}
info = open(sys.argv[3]).read()
before, after = {}, {}
for m in re.finditer(r"^hook cost (\w+): ([0-9.]+) ns before the time stamp, ([0-9.]+) ns after",
                     info, re.M):
    before[m[1]], after[m[1]] = round(float(m[2]) * 1000), round(float(m[3]) * 1000)
# An op record's Start and Finish are the op hook's, together its probed
# whole cost where the profile has it (docs/contract.md §4.4).
start, finish = {"hook": ("enter", "exit"), "manual": ("start", "finish"),
                 "dispatch": ("op", "op")}[sys.argv[5]]
own = after.get(start, 0) + before.get(finish, 0)
probed = re.search(r"^hook cost op, probed in the run: ([0-9.]+) ns", info, re.M)
if sys.argv[5] == "dispatch" and probed:
    own = round(float(probed[1]) * 1000)
ded = -(-own // 1000)
durs = {}
for line in open(sys.argv[4]):
    m = re.match(r"#\d+ (\d+)ns event=\w+ name=(\w+)", line)
    durs.setdefault(m[2], []).append(int(m[1]))
for r in json.load(open(sys.argv[2]))["rows"]:
    op = (r["value"][3:] if r["value"].startswith("op_") else r["value"]).lower()
    med = max(statistics.median(durs[r["value"]]) - ded, 0)
    ref = plain.get(op, known[op])
    print(op, known[op][0], known[op][1], r["self_ns"] / r["count"], med, ref[0], ref[1])
PY
    done
    python3 - "$dir/$mode.txt" <<'PY' |
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for op in ("spin50", "spin200", "spin1000"):
    m = lambda i: statistics.median(float(r[i]) for r in rows if r[0] == op)
    kmean, kmed, gmean, gmed, pmean, pmed = m(1), m(2), m(3), m(4), m(5), m(6)
    print("%s|%.1f|%.2fx|%.1f|%.1f|%.2fx|%.1f|%.1f" % (op, gmed, gmed / pmed, pmed, gmean,
                                                      gmean / pmean, pmean, kmed))
PY
      while IFS='|' read -r op gmed r pmed gmean rmean pmean kmed; do
        if [ "$mode" = dispatch ]; then
          row "$mode $op: median record's Self" "$gmed" ns "$r" \
            "the plain opcode, loop and dispatch included: $pmed ns (the spin's own clock: $kmed ns); means: report's Self/Count $gmean ns against $pmean ns ($rmean); medians of $RUNS runs"
        else
          row "$mode $op: median record's Self" "$gmed" ns "$r" \
            "the spin's own clock: $pmed ns; means: report's Self/Count $gmean ns against $pmean ns ($rmean); medians of $RUNS runs"
        fi
      done
  done
  # Sampled times (DSPROF_SAMPLE): one long run per mode, each opcode's
  # Self/Count by samples of the thread's CPU time against the same
  # reference's median.
  local ns=${BENCH_VM_SAMPLED_OPS:-20000000}
  (cd "$dir" && DSPROF_OUT=$dir/plain.data ./vmspin-plain dispatch "$ns") >"$dir/plain" ||
    die "vmspin-plain dispatch failed"
  for mode in hook manual dispatch; do
    (cd "$dir" && DSPROF_SAMPLE=$BENCH_SAMPLE DSPROF_OUT=$dir/$mode.data ./vmspin "$mode" "$ns") >"$dir/known" &&
      "$DSPROF" report name --format json --unit ns "$dir/$mode.data" >"$dir/rep.json" ||
      die "vmspin $mode, sampled, failed"
    python3 - "$dir/known" "$dir/rep.json" "$mode" "$dir/plain" <<'PY' |
import json, sys
known = {l.split()[0]: float(l.split()[3]) for l in open(sys.argv[1])}
plain = {l.split()[0]: float(l.split()[5]) for l in open(sys.argv[4])}
r = json.load(open(sys.argv[2]))
per = r["samples"]["program_ns"] / max(r["samples"]["program"], 1)
for row in r["rows"]:
    op = (row["value"][3:] if row["value"].startswith("op_") else row["value"]).lower()
    ref = plain[op] if sys.argv[3] == "dispatch" else known[op]
    got = row["self_ns"] / row["count"]
    n = row["self_ns"] / per
    print("%s|%.1f|%.2fx|%.1f|%d|%.1f" % (op, got, got / ref, ref, n, 200 / max(n, 1) ** 0.5))
PY
      while IFS='|' read -r op got r ref n bound; do
        row "$mode $op: sampled Self/Count" "$got" ns "$r" \
          "$([ "$mode" = dispatch ] && echo "the plain opcode's median" || echo "the spin's median"): $ref ns; about $n samples (95 %: within $bound %); one run of $ns opcodes, DSPROF_SAMPLE=$BENCH_SAMPLE"
      done
  done
  rm -f "$dir"/*.data "$dir/records" "$dir/plain"
}

# ---- functions of known busy-wait, annotated and functions=all (bench/ftimes.c) ---
bench_function_times () {
  local dir=$BENCH_DIR/ftimes n=${BENCH_FTIMES_TASKS:-20000} i
  mkdir -p "$dir"
  gcc -O2 -fplugin="$TOP/plugin/dsprof.so" -fplugin-arg-dsprof-functions=all \
    -fplugin-arg-dsprof-counters=off -I"$TOP/runtime" -o "$dir/ftimes" \
    "$TOP/bench/ftimes.c" "$TOP/runtime/libdsprof.a" -lpthread ||
    die "ftimes.c does not build"
  : >"$dir/figures"
  for i in $(seq "$RUNS"); do
    (cd "$dir" && DSPROF_OUT=$dir/f.data ./ftimes "$n") >"$dir/known" || die "ftimes failed"
    "$DSPROF" report name --format json --unit ns "$dir/f.data" >"$dir/rep.json" &&
      "$DSPROF" info "$dir/f.data" >"$dir/info" &&
      "$DSPROF" records "$dir/f.data" >"$dir/records" || die "dsprof on ftimes failed"
    # Per function: its median record's Self, the record's time less the
    # deduction (its enter's part after the time stamp and its exit's
    # before, and each descendant's enter and exit whole) less its
    # children's, each at least its children's; its median busy-wait; the
    # report's Self and the busy-waits' sum.
    python3 - "$dir/known" "$dir/rep.json" "$dir/info" "$dir/records" >>"$dir/figures" <<'PY2'
import json, re, statistics, sys
known = {l.split()[0]: (float(l.split()[2]), float(l.split()[3])) for l in open(sys.argv[1])}
info = open(sys.argv[3]).read()
B, A = {}, {}
for m in re.finditer(r"^hook cost (\w+): ([0-9.]+) ns before the time stamp, ([0-9.]+) ns after",
                     info, re.M):
    B[m[1]], A[m[1]] = round(float(m[2]) * 1000), round(float(m[3]) * 1000)
m = re.search(r"^hook cost caller: ([0-9.]+) ns", info, re.M)
C = round(float(m[1]) * 1000) if m else 0
own = A["enter"] + B["exit"]
whole = A["enter"] + B["enter"] + A["exit"] + B["exit"] + 2 * C
recs = {}
for line in open(sys.argv[4]):
    m = re.match(r"#(\d+) (\d+)ns .*?name=(\w+).*?(?: -> (.*))?$", line.rstrip("\n"))
    recs[int(m[1])] = (int(m[2]), m[3], [int(k[1:]) for k in m[4].split()] if m[4] else [])
adj, ndesc, selfs = {}, {}, {}
for r in sorted(recs):                     # children are numbered first
    dur, name, kids = recs[r]
    ndesc[r] = sum(ndesc[k] + 1 for k in kids)
    ded = -(-(own + ndesc[r] * whole) // 1000)
    child = sum(adj[k] for k in kids)
    adj[r] = max(dur - ded, child, 0)
    selfs.setdefault(name, []).append(adj[r] - child)
rows = {r["value"]: r["self_ns"] for r in json.load(open(sys.argv[2]))["rows"]}
print(" ".join("%s %.1f %.1f %d %.0f" % (f, statistics.median(selfs[f]), known[f][0],
                                        rows[f], known[f][1])
               for f in ("task", "step", "rec", "leaf")))
PY2
  done
  python3 - "$dir/figures" <<'PY2' |
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
for j, what in enumerate(("task (annotated, spins 2 us)", "step (functions=all, 400 ns)",
                          "rec (recursive, 250 ns)", "leaf (functions=all, 150 ns)")):
    m = lambda i: statistics.median(float(r[5 * j + i]) for r in rows)
    got, want, rself, rsum = m(1), m(2), m(3), m(4)
    print("%s|%.1f|%.2fx|%.1f|%.3f|%.3f|%.2fx" % (what, got, got / want, want, rself / 1e6,
                                               rsum / 1e6, rself / rsum))
PY2
    while IFS='|' read -r what got r want rself rsum rr; do
      row "$what: median Self" "$got" ns "$r" \
        "its median busy-wait: $want ns; report's Self $rself ms against the busy-waits' sum $rsum ms ($rr); medians of $RUNS runs"
    done
  # Sampled times (DSPROF_SAMPLE, docs/contract.md §4.4): one long run, each
  # function's sampled Self against the sum of its busy-waits, with the
  # samples behind it and their 95 % bound (2/sqrt(n)).
  local ns=${BENCH_FTIMES_SAMPLED_TASKS:-2000000}
  (cd "$dir" && DSPROF_SAMPLE=$BENCH_SAMPLE DSPROF_OUT=$dir/s.data ./ftimes "$ns") >"$dir/known-s" ||
    die "ftimes failed"
  "$DSPROF" report name --format json --unit ns "$dir/s.data" >"$dir/s.json" ||
    die "dsprof on the sampled ftimes failed"
  python3 - "$dir/known-s" "$dir/s.json" "$ns" <<'PY2' |
import json, sys
known = {l.split()[0]: float(l.split()[3]) for l in open(sys.argv[1])}
r = json.load(open(sys.argv[2]))
rows = {x["value"]: x["self_ns"] for x in r["rows"]}
per = r["samples"]["program_ns"] / max(r["samples"]["program"], 1)
for f, what in (("task", "task (annotated)"), ("step", "step (functions=all)"),
                ("rec", "rec (recursive)"), ("leaf", "leaf (functions=all)")):
    n = rows[f] / per
    print("%s: sampled Self|%.1f|%.2fx|%.1f|%d|%.1f" % (what, rows[f] / 1e6, rows[f] / known[f],
                                                      known[f] / 1e6, n, 200 / max(n, 1) ** 0.5))
PY2
    while IFS='|' read -r what got r want n bound; do
      row "$what" "$got" ms "$r" \
        "the busy-waits' sum $want ms; about $n samples (95 %: within $bound %); one run of $ns tasks, DSPROF_SAMPLE=$BENCH_SAMPLE"
    done
  rm -f "$dir"/*.data "$dir/records"
}

# ---- Lua with events on every function: the run less dsprof's own estimate of
# its cost against the plain run; luaV_execute's profiled time against its time
# where it is the only event ------------------------------------------------------
bench_lua_times () {
  local runs=${BENCH_SLOW_RUNS:-3} run=$BENCH_DIR/run-times v i
  local plain calls exe ops
  [ -f "$LUA_WORKLOAD" ] || die "no workload $LUA_WORKLOAD (set LUA_WORKLOAD)"
  plain=$(lua_build plain) calls=$(lua_build dsprof-calls) exe=$(lua_build dsprof-execute)
  ops=$(lua_build dsprof-ops)
  rm -rf "$run" && mkdir -p "$run"
  : >"$run/figures"
  for i in $(seq "$runs"); do
    # One run of each build, one after the other, timed alike.
    python3 - "$run" "$plain" "$calls" "$exe" "$ops" "$LUA_WORKLOAD" >>"$run/figures" <<'PY'
import os, subprocess, sys, time
import resource
run, plain, calls, exe, ops, work = sys.argv[1:7]
out = []
for lua, prof in ((plain, None), (calls, "calls.data"), (exe, "exe.data"),
                  (ops, "ops.data")):
    env = dict(os.environ)
    if prof:
        env["DSPROF_OUT"] = os.path.join(run, prof)
    if prof in ("calls.data", "ops.data"):   # their times by samples too
        env["DSPROF_SAMPLE"] = os.environ["BENCH_SAMPLE"]
    t = time.perf_counter()
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["setarch", "-R", lua, work], env=env, check=True,
                   stdout=subprocess.DEVNULL, cwd=run)
    out.append("%.6f" % (time.perf_counter() - t))
    if not prof:               # the plain run's CPU time
        v = resource.getrusage(resource.RUSAGE_CHILDREN)
        pcpu = v.ru_utime - u.ru_utime + v.ru_stime - u.ru_stime
print(" ".join(out), "%.6f" % pcpu, end=" ")
PY
    python3 - "$DSPROF" "$run/calls.data" "$run/exe.data" "$run/ops.data" >>"$run/figures" <<'PY'
import json, subprocess, sys
dsprof, calls, exe, ops = sys.argv[1:5]
def report(prof, *extra, by="name", where="name=luaV_execute"):
    return json.loads(subprocess.run([dsprof, "report", by, "--format", "json",
                                      "--unit", "ns", *(["--where", where] if where else []),
                                      *extra, prof], check=True,
                                     capture_output=True).stdout)
c, craw, e = report(calls, "--deduced"), report(calls, "--raw"), report(exe)
# The same run timed by its samples (DSPROF_SAMPLE): luaV_execute, and all.
cs, call = report(calls), report(calls, where=None)
# luaV_execute's op records, by the function that dispatches them.
o = report(ops, "--deduced", by="function", where="event=op")
oraw = report(ops, "--raw", by="function", where="event=op")
osamp = report(ops, by="function", where="event=op")
total = lambda d: d["rows"][0]["total_ns"] / 1e9 if d["rows"] else 0
print("%.6f %.6f %.6f %.6f %d %.6f %.6f %.6f %d %.6f %.6f %d %.6f" % (
    c["instrumentation"]["cost_ns"] / 1e9, total(c), total(craw), total(e),
    c["instrumentation"]["events"], o["instrumentation"]["cost_ns"] / 1e9,
    total(o), total(oraw), o["instrumentation"]["events"], total(cs),
    call["profiled_ns"] / 1e9, call["samples"]["program"], total(osamp)))
PY
    rm -f "$run"/*.data
  done
  python3 - "$run/figures" <<'PY' |
import os, statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
med = lambda i: statistics.median(r[i] for r in rows)
p, c, e, d, pcpu, cost, prof, raw, exe, ev, dcost, dprof, draw, dev, sexe, sall, sn, sops = (
    med(i) for i in range(18))
print("plain run (-O2)|%.3f|s|1.00x|median of %d runs" % (p, len(rows)))
print("functions=all run|%.3f|s|%.2fx|%d events" % (c, c / p, ev))
print("dsprof's estimate of its cost|%.3f|s|%.2fx|of the functions=all run's overhead (%.3f s)" % (cost, cost / (c - p), c - p))
print("run - the estimate|%.3f|s|%.2fx|against the plain run" % (c - cost, (c - cost) / p))
print("luaV_execute only: its run|%.3f|s|%.2fx|against the plain run" % (e, e / p))
print("luaV_execute profiled, functions=all|%.3f|s|%.2fx|against its time as the only event (%.3f s)" % (prof, prof / exe, exe))
print("the same, --raw|%.3f|s|%.2fx|as recorded" % (raw, raw / exe))
print("luaV_execute, sampled, functions=all|%.3f|s|%.2fx|its CPU time by samples (DSPROF_SAMPLE=%s), against its time as the only event" % (sexe, sexe / exe, os.environ["BENCH_SAMPLE"]))
print("profiled, sampled, functions=all|%.3f|s|%.2fx|all records' CPU time by %d samples, against the plain run's CPU time (%.3f s)" % (sall, sall / pcpu, sn, pcpu))
print("dispatch=luaV_execute run|%.3f|s|%.2fx|counters=off, %d events" % (d, d / p, dev))
print("dispatch: dsprof's estimate of its cost|%.3f|s|%.2fx|of the dispatch run's overhead (%.3f s)" % (dcost, dcost / (d - p), d - p))
print("dispatch: run - the estimate|%.3f|s|%.2fx|against the plain run" % (d - dcost, (d - dcost) / p))
print("luaV_execute's op records, profiled|%.3f|s|%.2fx|against its time as the only event (%.3f s)" % (dprof, dprof / exe, exe))
print("the same, --raw|%.3f|s|%.2fx|as recorded" % (draw, draw / exe))
print("the same, sampled|%.3f|s|%.2fx|their CPU time by samples (DSPROF_SAMPLE=%s)" % (sops, sops / exe, os.environ["BENCH_SAMPLE"]))
PY
    while IFS='|' read -r what fig unit r note; do
      row "$what" "$fig" "$unit" "$r" "$note"
    done
  rm -rf "$run"
}

# ---- functions=all on real interpreters: gawk and jq from Debian source ----
# Each is built with its own build system (scripts/real.sh's variants): plain
# -O2; all-O2, -O2 with functions=all counters=off; and for a recipe with an
# ALL_SELECT (jq) all-sel-O2, the same less what that selection file leaves
# out.  The runs alternate, plain first; per run: the wall times, dsprof's
# estimate of its cost, and the profiled time (main's record encloses the run).
bench_real_times () {
  local runs=${BENCH_SLOW_RUNS:-3} dir=$BENCH_DIR/real pkg stamp
  mkdir -p "$dir"
  # Built again only when the tools or the recipes change.
  stamp=$(cat "$TOP/plugin/dsprof.so" "$TOP/runtime/libdsprof.a" "$TOP/runtime/libdsprof.so" \
            "$TOP/scripts/real.sh" | sha1sum | cut -d' ' -f1)
  (
    REAL_SOURCED=1 REAL_DIR=$dir . "$TOP/scripts/real.sh"
    snapshot_tools
    for pkg in gawk jq; do
      "pkg_$pkg"
      [ -z "$DEPS" ] || "$TOP/scripts/deps.sh" install $DEPS >&2 ||
        die "the build dependencies of $pkg are missing"
      for v in plain all-O2 ${ALL_SELECT:+all-sel-O2} src-O2; do
        [ "$(cat "$OUT/$pkg-$v.stamp" 2>/dev/null)" = "$stamp" ] && continue
        build "$pkg" "$v" >&2
        echo "$stamp" >"$OUT/$pkg-$v.stamp"
      done
    done
  ) || die "building gawk and jq failed"
  for pkg in gawk jq; do
    python3 - "$dir" "$pkg" "$runs" "$dir/tools/dsprof" "$TOP/bench" "$stamp" <<'PY' |
import json, os, re, statistics, subprocess, sys, time
import resource
dir, pkg, runs, dsprof, bench, stamp = sys.argv[1:7]
runs = int(runs)
def cmd(v, scale=1, wrap=()):
    if pkg == "gawk":
        return list(wrap) + [os.path.join(dir, "gawk-" + v, "gawk"), "-v", "scale=%g" % scale,
                             "-f", os.path.join(bench, "gawk-cpu.awk")]
    # libtool's wrapper script, which runs the program under .libs; libtool
    # runs another program (WRAP) on that one.
    if wrap:
        wrap = [os.path.join(dir, "jq-" + v, "libtool"), "--mode=execute"] + list(wrap)
    return list(wrap) + [os.path.join(dir, "jq-" + v, "jq"), "-n", "--argjson", "scale", str(scale),
                         "-f", os.path.join(bench, "jq-cpu.jq")]
def built(v):  # with these tools and recipes
    try:
        return open(os.path.join(dir, "%s-%s.stamp" % (pkg, v))).read().strip() == stamp
    except OSError:
        return False
variants = [v for v in ("plain", "all-O2", "all-sel-O2", "src-O2") if built(v)]
select = {"all-sel-O2": open(os.path.join(dir, pkg + "-all-sel-O2.select")).read().strip()
          if "all-sel-O2" in variants else ""}
prof = os.path.join(dir, pkg + ".data")
for v in variants:  # a run of each first, untimed: caches, libtool's wrapper
    subprocess.run(cmd(v), env=dict(os.environ, DSPROF_OUT=prof), check=True,
                   stdout=subprocess.DEVNULL)
rows = {v: [] for v in variants}
def report(*extra):
    return json.loads(subprocess.run([dsprof, "report", "name", "--format", "json", "--unit", "ns",
                                      *extra, prof], check=True, capture_output=True).stdout)
shares = {"deduced": {}, "sampled": {}, "samples": 0}
for i in range(runs):
    for v in variants:
        # The instrumented runs are sampled too (DSPROF_SAMPLE): their times
        # by the deduction (--deduced) and by the samples, of one run.
        env = dict(os.environ, DSPROF_OUT=prof, DSPROF_SAMPLE=os.environ["BENCH_SAMPLE"])
        t = time.perf_counter()
        u = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(["setarch", "-R"] + cmd(v), env=env, check=True,
                             stdout=subprocess.PIPE).stdout
        w = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter() - t
        if v == "plain":
            want = out
            rows[v].append([t, w.ru_utime - u.ru_utime + w.ru_stime - u.ru_stime])
            continue
        if out != want:
            sys.exit("%s: the %s build printed other output" % (pkg, v))
        r, s = report("--deduced"), report()
        os.unlink(prof)
        # The same build with events off (no hook called): its CPU time.
        u = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(["setarch", "-R"] + cmd(v), check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, DSPROF_OUT=prof, DSPROF_EVENTS="0"))
        w = resource.getrusage(resource.RUSAGE_CHILDREN)
        off = w.ru_utime - u.ru_utime + w.ru_stime - u.ru_stime
        if os.path.exists(prof):
            os.unlink(prof)
        if v == "all-O2":        # every run's Totals, for the cross-check
            for k, rep in (("deduced", r), ("sampled", s)):
                for x in rep["rows"]:
                    shares[k][x["value"]] = shares[k].get(x["value"], 0) + x["total_ns"]
            shares["samples"] += s["samples"]["program"]
        ins = r["instrumentation"]
        rows[v].append([t, ins["cost_ns"] / 1e9, r["profiled_ns"] / 1e9, ins["events"],
                        s["profiled_ns"] / 1e9, s["samples"]["program"], off])
med = lambda v, k: statistics.median(r[k] for r in rows[v])
p, pcpu = med("plain", 0), med("plain", 1)
print("%s plain run (-O2)|%.3f|s|1.00x|median of %d runs; CPU time %.3f s" % (pkg, p, runs, pcpu))
for v in variants[1:]:
    c, cost, prof_s, ev, samp, nsamp, off = (med(v, k) for k in range(7))
    # all-sel-O2's selection file is one line, "exclude PAT...".
    what = pkg + ({"all-O2": " functions=all", "src-O2": " functions=source"}.get(v) or
                  " less " + select[v].split(None, 1)[1])
    print("%s: run|%.3f|s|%.2fx|%d events" % (what, c, c / p, ev))
    print("%s: estimate|%.3f|s|%.2fx|dsprof's estimate of its cost, of the run's overhead (%.3f s)" % (what, cost, cost / (c - p), c - p))
    print("%s: run - estimate|%.3f|s|%.2fx|against the plain run" % (what, c - cost, (c - cost) / p))
    print("%s: profiled|%.3f|s|%.2fx|the profiled time after deduction, against the plain run" % (what, prof_s, prof_s / p))
    print("%s: profiled, sampled|%.3f|s|%.2fx|the records' CPU time by %d samples (95 %%: within %.1f %%), against the plain run's CPU time" % (what, samp, samp / pcpu, nsamp, 200 / max(nsamp, 1) ** 0.5))
    print("%s: events off|%.3f|s|%.2fx|the same build's CPU time with DSPROF_EVENTS=0 (no hook called), against the plain run's: what the instrumentation does to the program's own code" % (what, off, off / pcpu))
    print("%s: profiled, sampled, against events off|%.3f|s|%.2fx|the records' CPU time by samples against the same build's CPU time with events off, the program's own code as instrumented: below 1, part of the program's time ran beside the hooks and was sampled in the recorder" % (what, samp, samp / off))
# A cross-check of the functions' shares: each function's Total as a share
# of main's, by samples and by the deduction (the functions=all runs summed),
# against two independent measures of the plain build: perf's sampled time
# with call chains (its inclusive share, `perf report --children`), at the
# same scale; and callgrind's inclusive instructions, on a tenth of it.  For
# the functions with the largest inclusive times (else instructions).
def have(*tools):
    return not subprocess.run(["sh", "-c", " && ".join("command -v " + t for t in tools)],
                              stdout=subprocess.DEVNULL).returncode
ours = os.path.join(dir, pkg + "-plain")
perf = {}
if have("perf"):
    pd = os.path.join(dir, pkg + ".perf")
    ok = not subprocess.run(cmd("plain", 1, ["perf", "record", "-q", "-e", "cpu-clock", "-F", "2000",
                                             "--call-graph", "dwarf,16384", "-o", pd]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    rep = subprocess.run(["perf", "report", "-i", pd, "--children", "--stdio", "-g", "none",
                          "--percent-limit", "1"], capture_output=True, text=True).stdout if ok else ""
    nsamples = re.search(r"^# Samples: (\S+)", rep, re.M)
    for line in rep.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+[\d.]+%\s+\S+\s+\S+\s+\[\.\] (\w+)", line)
        if m:
            perf[m[2]] = max(perf.get(m[2], 0.0), float(m[1]))
    if os.path.exists(pd):
        os.unlink(pd)
    if "main" not in perf:
        perf = {}
incl = {}
if have("valgrind", "callgrind_annotate"):
    cg = os.path.join(dir, pkg + ".cg")
    subprocess.run(cmd("plain", 0.1, ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg]),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", cg],
                         check=True, capture_output=True, text=True).stdout
    os.unlink(cg)
    for line in ann.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+\S*:(\w+) \[" + re.escape(ours), line)
        if m:
            incl.setdefault(m[2], int(m[1].replace(",", "")))
if not perf and not incl:
    print("%s: shares|-|||neither perf nor valgrind is installed" % pkg)
    sys.exit(0)
share = lambda d, fn: 100.0 * d[fn] / d["main"] if d.get("main") and fn in d else None
oracle = perf or incl
what = ("perf's inclusive time of the plain build (%s samples)" % (nsamples[1] if nsamples else "?")
        if perf else "callgrind's inclusive instructions of the plain build (scale 0.1)")
shown = 0
for fn in sorted(oracle, key=lambda f: -oracle[f]):
    if fn == "main" or fn not in shares["sampled"] or shown == 8:
        continue
    shown += 1
    want, samp, ded, ins = (share(oracle, fn), share(shares["sampled"], fn),
                            share(shares["deduced"], fn), share(incl, fn))
    n = shares["samples"] * samp / 100.0   # its samples, about
    print("%s %s: share, sampled|%.1f|%%|%.2fx|of main's Total, about %d samples (95 %%: within %.0f %%); %s: %.1f %%; by the deduction %.1f %% (%.2fx)%s"
          % (pkg, fn, samp, samp / want, n, 200 / max(n, 1) ** 0.5, what, want, ded, ded / want,
             "; callgrind's inclusive instructions (scale 0.1): %.1f %%" % ins if perf and ins else ""))
PY
      while IFS='|' read -r what fig unit r note; do
        row "$what" "$fig" "$unit" "$r" "$note"
      done
  done
}

# ---- what a read of each clock costs: the recorder's and the thread's CPU time ----
bench_clock_cost () {
  local dir=$BENCH_DIR/clock kind ns tsc= cap= steps= base ins
  mkdir -p "$dir"
  gcc -O2 -o "$dir/clockread" "$TOP/bench/clockread.c" || die "clockread.c does not build"
  "$dir/clockread" >"$dir/out" || die "clockread failed"
  tsc=$(awk '$1 == "tsc" { print $2 }' "$dir/out")
  if command -v valgrind >/dev/null; then
    base=$(instructions "$dir/clockread" tsc 0)
  fi
  while read -r kind ns rest; do
    case $kind in
      page) [ "$ns" = cap_user_time ] && { cap=$rest; continue; }
            [ "$ns" = steps ] && { steps=$rest; continue; } ;;
    esac
    if [ "$ns" = - ]; then
      missing_row "$kind" "$rest"
      continue
    fi
    ins=
    [ -n "${base:-}" ] &&
      ins="; $(awk -v a="$(instructions "$dir/clockread" "$kind" 100000)" -v b="$base" \
                 'BEGIN { printf "%.0f", (a - b) / 100000 }') instructions (callgrind)"
    row "$kind: one read" "$ns" ns "$(ratio "$ns" "$tsc")" "fastest of 40 batches$ins"
  done <"$dir/out"
  if [ -n "$cap" ]; then
    row "page: cap_user_time" "$cap" "" "" \
      "1: the page gives the thread's CPU time without a system call; 0: only as of its last switch to a CPU"
  fi
  if [ -n "$steps" ]; then
    set -- $steps
    row "page: time_enabled, one change per" "$2" ms "" \
      "$1 changes in 200 ms of the thread's CPU time: without cap_user_time the page's time is as of the last"
  fi
}

# ---- the sampler's own cost: a fixed work sampled by each clock ----
# bench/cpuwork.c (work() of fixed work, no clock read, BENCH_CPUWORK_CALLS
# calls) unsampled and sampled by the timers at 1 ms and by the perf clocks
# at 1 ms, 250 us and 100 us, in turns: the run's CPU time against the
# unsampled run's, and work()'s Total by its samples (after each perf
# sample's measured cost is taken out) against the unsampled run's CPU time.
bench_sampler_cost () {
  local dir=$BENCH_DIR/sampler
  mkdir -p "$dir"
  busy_build "$TOP/bench/cpuwork.c" "$dir/cpuwork"
  python3 - "$dir" "${BENCH_CPUWORK_CALLS:-1000}" "$DSPROF" "$RUNS" <<'PY' |
import json, os, resource, statistics, subprocess, sys
dir, calls, dsprof, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
modes = [("unsampled", None, None), ("timer 1ms", "timer", "1ms"), ("perf 1ms", "perf", "1ms"),
         ("perf 250us", "perf", "250us"), ("perf 100us", "perf", "100us")]
cpu, work, samples = ({m[0]: [] for m in modes} for _ in range(3))
prof = os.path.join(dir, "run.data")
for i in range(runs):
    for name, sampler, period in modes:
        env = dict(os.environ, DSPROF_OUT=prof)
        env.pop("DSPROF_SAMPLE", None)
        if period:
            env.update(DSPROF_SAMPLE=period, DSPROF_SAMPLER=sampler)
        u = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([os.path.join(dir, "cpuwork"), calls], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        w = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[name].append(w.ru_utime - u.ru_utime + w.ru_stime - u.ru_stime)
        if period:
            r = json.loads(subprocess.run([dsprof, "report", "name", "--format", "json",
                                           "--unit", "ns", prof], check=True,
                                          capture_output=True).stdout)
            work[name].append([x["total_ns"] for x in r["rows"] if x["value"] == "work"][0] / 1e9)
            samples[name].append(r["samples"]["program"] + r["samples"]["recorder"])
        os.unlink(prof)
med = lambda v: statistics.median(v)
base = med(cpu["unsampled"])
print("unsampled: run|%.3f|s|1.00x|the process's CPU time, median of %d runs of %s calls"
      % (base, runs, calls))
for name, sampler, period in modes[1:]:
    c, n = med(cpu[name]), med(samples[name])
    print("%s: run|%.3f|s|%.2fx|its CPU time, against the unsampled run's; %d samples"
          % (name, c, c / base, n))
    print("%s: work() sampled|%.3f|s|%.2fx|its Total by samples, against the unsampled run's CPU time"
          % (name, med(work[name]), med(work[name]) / base))
# What a perf clock's sample costs: the runs at 100 us less those at 1 ms,
# by their samples (the start-up's measurement is in both).
d = (med(cpu["perf 100us"]) - med(cpu["perf 1ms"])) / (med(samples["perf 100us"]) - med(samples["perf 1ms"]))
print("perf: one sample's cost|%.1f|us||(run at 100us - run at 1ms) / their samples' difference" % (d * 1e6))
PY
    while IFS='|' read -r what fig unit r note; do
      row "$what" "$fig" "$unit" "$r" "$note"
    done
}

# instructions EXE ARGS...: callgrind's count of instructions run by EXE ARGS.
instructions () {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

# ---- records on a busy machine: vmspin beside two busy processes --------------------
# busy_loops N: start N busy shell loops, their pids in BUSY_PIDS; busy_stop
# ends them.  busy_build SRC OUT: SRC with events, counters off, static.
busy_loops () {
  local p
  BUSY_PIDS=
  for p in $(seq "$1"); do
    ( while :; do :; done ) &
    BUSY_PIDS="$BUSY_PIDS $!"
  done
}
busy_stop () {
  [ -z "$BUSY_PIDS" ] || kill $BUSY_PIDS
  wait 2>/dev/null || true
  BUSY_PIDS=
}
busy_build () {
  gcc -O2 -fplugin="$TOP/plugin/dsprof.so" -fplugin-arg-dsprof-counters=off \
    -I"$TOP/runtime" -o "$2" "$1" "$TOP/runtime/libdsprof.a" -lpthread ||
    die "$(basename "$1") does not build"
}

bench_busy_machine () {
  local dir=$BENCH_DIR/busy n=$((${BENCH_VM_OPS:-3000000} / 3)) load p
  mkdir -p "$dir"
  busy_build "$TOP/bench/vmspin.c" "$dir/vmspin"
  for load in 0 2; do
    : >"$dir/figures"
    busy_loops "$load"
    for p in $(seq "$RUNS"); do
      (cd "$dir" && DSPROF_OUT=$dir/run.data ./vmspin hook "$n") >"$dir/known" ||
        { busy_stop; die "vmspin hook failed"; }
      "$DSPROF" report name --format csv --unit ns "$dir/run.data" >"$dir/rep.csv" &&
        "$DSPROF" info "$dir/run.data" >"$dir/info" ||
        { busy_stop; die "dsprof on vmspin failed"; }
      python3 - "$dir/known" "$dir/rep.csv" "$dir/info" >>"$dir/figures" <<'PY'
import csv, re, sys
known = {l.split()[0]: float(l.split()[3]) for l in open(sys.argv[1])}
row = [r for r in csv.DictReader(open(sys.argv[2])) if r["name"] == "op_spin1000"][0]
m = re.search(r"^cpu time: .* of the ([0-9.]+) s run .*; ([0-9.]+) s waiting for a CPU",
              open(sys.argv[3]).read(), re.M)
wait = float(m[2]) / float(m[1]) * 100 if m else float("nan")
print(int(row["self_ns"]) / int(row["count"]), known["spin1000"], wait)
PY
    done
    busy_stop
    python3 - "$dir/figures" <<'PY' |
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
self, spin, wait = (statistics.median(r[i] for r in rows) for i in range(3))
print("%.1f|%.2fx|%.1f|%.1f" % (self, self / spin, spin, wait))
PY
      while IFS='|' read -r self r spin wait; do
        row "beside $load busy: spin1000 Self/Count" "$self" ns "$r" \
          "the spin's median $spin ns; waiting for a CPU $wait % of the run; medians of $RUNS runs"
      done
  done
  # Sampled times (DSPROF_SAMPLE): bench/cpuwork.c's work() does a fixed
  # amount of work, no clock read; its Self per call timed by samples of the
  # thread's CPU time and by the wall clock (--deduced), alone and beside two
  # busy loops, each against the same figure alone.
  busy_build "$TOP/bench/cpuwork.c" "$dir/cpuwork"
  local calls=${BENCH_CPUWORK_CALLS:-1000} alone= samp wall asamp awall
  for load in 0 2; do
    : >"$dir/figures"
    busy_loops "$load"
    for p in $(seq "$RUNS"); do
      (cd "$dir" && DSPROF_SAMPLE=$BENCH_SAMPLE DSPROF_OUT=$dir/run.data ./cpuwork "$calls") >/dev/null &&
        "$DSPROF" report name --format json --unit ns "$dir/run.data" >"$dir/s.json" &&
        "$DSPROF" report name --deduced --format json --unit ns "$dir/run.data" >"$dir/d.json" ||
        { busy_stop; die "cpuwork or dsprof on it failed"; }
      python3 - "$dir/s.json" "$dir/d.json" >>"$dir/figures" <<'PY'
import json, sys
s, d = (json.load(open(f))["rows"][0] for f in sys.argv[1:3])
print(s["self_ns"] / s["count"], d["self_ns"] / d["count"])
PY
    done
    busy_stop
    read -r samp wall < <(python3 - "$dir/figures" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
print(*(statistics.median(r[i] for r in rows) / 1e3 for i in range(2)))
PY
)
    [ -n "$alone" ] || alone="$samp $wall"
    read -r asamp awall <<<"$alone"
    row "beside $load busy: work, sampled" "$(printf %.1f "$samp")" us "$(ratio "$samp" "$asamp")" \
      "Self/Count by samples of the thread's CPU time (DSPROF_SAMPLE=$BENCH_SAMPLE), against alone; medians of $RUNS runs of $calls calls"
    row "beside $load busy: work, wall clock" "$(printf %.1f "$wall")" us "$(ratio "$wall" "$awall")" \
      "Self/Count by the deduction (--deduced), against alone"
  done
  rm -f "$dir/run.data" "$dir"/*.json
}

# ---- main ---------------------------------------------------------------------
command -v hyperfine >/dev/null || die "hyperfine is needed (make deps installs it)"
command -v python3 >/dev/null || die "python3 is needed"
[ -f "$TOP/plugin/dsprof.so" ] && [ -f "$TOP/runtime/libdsprof.a" ] ||
  die "build dsprof first (make)"
"$TOP/scripts/lua.sh" source >/dev/null
mkdir -p "$BENCH_DIR"
[ $# -gt 0 ] && BENCHES="$*"
for b in $BENCHES; do
  declare -F "bench_$b" >/dev/null || die "no benchmark $b (have: $BENCHES)"
done

: >"$RESULTS"
{
  echo "dsprof benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m)," \
       "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') x $(nproc)," \
       "gcc $(gcc -dumpfullversion), $RUNS runs per figure (lua_functions_all: ${BENCH_SLOW_RUNS:-3})"
  printf '%-17s %-38s %10s %-9s %7s  %s\n' bench variant figure unit ratio note
} | tee -a "$RESULTS"
for b in $BENCHES; do
  CURRENT=$b
  "bench_$b"
done
note "results in $RESULTS"
