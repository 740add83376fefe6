# counters-durable-kill: counts live in the mapped profile while the program runs (docs/contract.md §3).
# A program killed with SIGKILL, one that calls abort() or _exit(), and one that
# crashes leave a readable profile with the counts up to that moment; the profile
# of a running program (stopped, and not stopped) can be read.
. "$(dirname "$0")/../../lib.sh"
ulimit -c 0

cp "$CASE/loop.c" "$CASE/spin.c" .
dscc -O2 -o loop loop.c || fail "loop.c does not compile"
dscc -O2 -std=gnu11 -o spin spin.c || fail "spin.c does not compile"

line_of () { grep -n "/\\* $2 \\*/" "$1" | cut -d: -f1; }
BODY=$(line_of loop.c BODY) ABORT=$(line_of loop.c ABORT) EXIT=$(line_of loop.c EXIT)
SEGV=$(line_of loop.c SEGV) SPIN=$(line_of spin.c SPIN)

# count PROFILE FILE:LINE: the largest count `dsprof lines PROFILE` gives the line.
count () {
  run_dsprof lines "$1" >lines.out 2>lines.err \
    || fail "dsprof lines $1: status $? ($(cat lines.err))"
  awk -F': ' -v at="$2" '$1 == at { if ($2 + 0 > m) m = $2 + 0; found = 1 }
    END { if (!found) exit 1; print m + 0 }' lines.out \
    || fail "dsprof lines $1 has no line $2: $(head -5 lines.out)"
}

# wait_for FILE N: until FILE has N lines (at most 20 s).
wait_for () {
  local end=$((SECONDS + 20))
  # (The shell that runs the program in the background may not have made FILE
  # yet: a missing file has 0 lines.)
  while [ "$(cat "$1" 2>/dev/null | wc -l)" -lt "$2" ]; do
    [ $SECONDS -lt $end ] || fail "$1 did not reach $2 lines"
    kill -0 "$pid" 2>/dev/null || fail "the program died early"
    sleep 0.01
  done
}

pid=
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true' EXIT

# ---- a running program: stopped, running, then killed -------------------------
DSPROF_OUT=forever.data ./loop forever >forever.out &
pid=$!
wait_for forever.out 2000
kill -STOP "$pid"
# Stopped: its state in /proc is T (a busy machine may take a while).
end=$((SECONDS + 20))
until [ "$(sed 's/.*) //' "/proc/$pid/stat" | cut -c1)" = T ]; do
  [ $SECONDS -lt $end ] || fail "the program did not stop in 20 s"
  sleep 0.01
done
last=$(tail -n 1 forever.out)
c=$(count forever.data "loop.c:$BODY")
[ "$c" -ge "$last" ] && [ "$c" -le $((last + 1)) ] \
  || fail "stopped after printing $last, but loop.c:$BODY has count $c"
kill -CONT "$pid"
wait_for forever.out $((last + 2000))
c2=$(count forever.data "loop.c:$BODY")
[ "$c2" -gt "$c" ] || fail "read while running: count $c2, not above the $c of earlier"
kill -KILL "$pid"
wait "$pid" 2>/dev/null && fail "the killed program exited normally"
pid=
last=$(tail -n 1 forever.out)
c=$(count forever.data "loop.c:$BODY")
[ "$c" -ge "$last" ] && [ "$c" -le $((last + 1)) ] \
  || fail "killed after printing $last, but loop.c:$BODY has count $c"
c=$(count forever.data "loop.c:$ABORT")
[ "$c" -eq 0 ] || fail "abort line counted $c times in the forever run"

# ---- abort (), _exit (), a crash at the 500th iteration ------------------------
for mode in abort exit segv; do
  set +e
  DSPROF_OUT=$mode.data ./loop "$mode" 500 >"$mode.out" 2>"$mode.err"
  status=$?
  set -e
  case $mode in
    abort) want=134 line=$ABORT ;;
    exit) want=7 line=$EXIT ;;
    segv) want=139 line=$SEGV ;;
  esac
  [ "$status" -eq "$want" ] || fail "$mode: exit status $status, not $want"
  [ "$(tail -n 1 "$mode.out")" = 500 ] || fail "$mode: printed up to $(tail -n 1 "$mode.out")"
  [ -f "$mode.data" ] || fail "$mode: no profile $mode.data"
  c=$(count "$mode.data" "loop.c:$BODY")
  [ "$c" -eq 500 ] || fail "$mode: loop.c:$BODY has count $c, not 500"
  c=$(count "$mode.data" "loop.c:$line")
  [ "$c" -eq 1 ] || fail "$mode: loop.c:$line has count $c, not 1"
done

# ---- a tight loop without calls, killed ---------------------------------------
DSPROF_OUT=spin.data ./spin spins.bin &
pid=$!
wait_progress spins.bin 1000000 spin
kill -KILL "$pid"
wait "$pid" 2>/dev/null && fail "the killed spin exited normally"
pid=
spins=$(progress spins.bin)
c=$(count spin.data "spin.c:$SPIN")
[ "$c" -ge "$spins" ] && [ "$c" -le $((spins + 1)) ] \
  || fail "spin killed after $spins iterations, but spin.c:$SPIN has count $c"
exit 0
