# counters-diskfull: the disk fills up, or `ulimit -f` is reached, before or while
# a program runs (docs/contract.md §4.5, §3).  The program runs on unharmed: the same output
# and exit status as with room enough, and exactly one `dsprof:` warning on
# stderr.  What was written stays readable: the counters, mapped at start-up, are
# exact whenever the file could be started with them; the events that fit are
# read back in order, with no record that the program did not make (step () nests
# nothing, so no record has descendants, and at most the one call in progress when
# the space ran out is incomplete).  Where the profile holds nothing usable,
# `dsprof` may also exit 2 with "dsprof: FILE: problem".  Full disks are small
# tmpfs mounts; without the right to mount them those scenarios are skipped.
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/job.c" .
dscc -O2 -o job job.c || fail "job.c does not compile"
line_of () { grep -n "/\\* $1 \\*/" job.c | cut -d: -f1; }
STEP=$(line_of STEP) FIRST=$(line_of FIRST) SECOND=$(line_of SECOND)
CALLS=301000

# The reference run, with room enough.
set +e
DSPROF_OUT=ref.data ./job >ref.out 2>ref.err
status=$?
DSPROF_OUT=refgo.data ./job /dev/null >refgo.out 2>refgo.err
set -e
[ "$status" -eq 3 ] || fail "job: exit status $status, not 3"
[ "$(cat ref.out)" = $CALLS ] && [ "$(cat ref.err)" = "job done" ] \
  || fail "job's reference run printed: $(cat ref.out ref.err)"
[ "$(cat refgo.out)" = "waiting
$CALLS" ] || fail "job /dev/null printed: $(cat refgo.out)"

# unharmed NAME REF [RUNNER...] -- ARGS: run job ARGS (by RUNNER) with
# DSPROF_OUT=$OUT; exit status 3, stdout as REF.out, stderr the program's line
# and exactly one dsprof: warning.
unharmed () {
  local name=$1 ref=$2 status
  shift 2
  local runner=()
  while [ "$1" != -- ]; do runner+=("$1"); shift; done
  shift
  DSPROF_OUT=$OUT "${runner[@]}" ./job "$@" >"$name.out" 2>"$name.err" &
  JOB=$!
  if [ -n "${WHILE_RUNNING:-}" ] && ! $WHILE_RUNNING; then
    kill "$JOB" 2>/dev/null || true
    exit 1
  fi
  set +e
  wait $JOB
  status=$?
  set -e
  [ "$status" -eq 3 ] || fail "$name: exit status $status, not 3 (stderr: $(cat "$name.err"))"
  cmp -s "$ref.out" "$name.out" || fail "$name: stdout differs: $(head -c 300 "$name.out")"
  [ "$(grep -c '^dsprof:' "$name.err")" -eq 1 ] \
    || fail "$name: not exactly one dsprof: warning on stderr: $(cat "$name.err")"
  [ "$(grep -v '^dsprof:' "$name.err")" = "job done" ] \
    || fail "$name: stderr has more than the program's line and one warning: $(cat "$name.err")"
  echo "$name: $(grep '^dsprof:' "$name.err")"
}

# readable NAME PROFILE CMD: `dsprof CMD PROFILE` exits 0 (output in NAME.CMD),
# or 2 with one line "dsprof: PROFILE: problem"; sets RC.
readable () {
  local name=$1 prof=$2 cmd=$3
  set +e
  run_dsprof "$cmd" "$prof" >"$name.$cmd" 2>"$name.$cmd.err"
  RC=$?
  set -e
  case $RC in
    0) ;;
    2) [ "$(wc -l <"$name.$cmd.err")" -eq 1 ] && grep -q "^dsprof: $prof: ." "$name.$cmd.err" \
         || fail "$name: dsprof $cmd $prof exits 2 without one precise message: $(cat "$name.$cmd.err")" ;;
    *) fail "$name: dsprof $cmd $prof: exit status $RC ($(head -c 300 "$name.$cmd.err"))" ;;
  esac
  echo "$name: dsprof $cmd: status $RC $(head -c 200 "$name.$cmd.err")"
}

# counters_exact NAME PROFILE: the counts of the lines STEP FIRST SECOND are exact.
counters_exact () {
  local name=$1 prof=$2
  readable "$name" "$prof" lines
  [ "$RC" -eq 0 ] || fail "$name: the counters were mapped, yet dsprof lines cannot read them"
  awk -F': ' -v step="job.c:$STEP" -v first="job.c:$FIRST" -v second="job.c:$SECOND" '
    { c = $2 + 0; if (!($1 in m) || c > m[$1]) m[$1] = c }
    END { want[step] = 301000; want[first] = 1000; want[second] = 300000
          for (l in want) if (m[l] + 0 != want[l]) { printf "%s counted %d, not %d\n", l, m[l], want[l]; bad = 1 }
          exit bad }' "$name.lines" >&2 || fail "$name: counts in $prof are not exact"
}

# events_consistent NAME PROFILE [all]: dsprof records reads PROFILE; the complete
# records are step (0), step (1), ... in order, at most one record is incomplete
# (the call in progress when the space ran out) and none has descendants.  With
# "all", every one of the CALLS calls is there.
events_consistent () {
  local name=$1 prof=$2
  readable "$name" "$prof" records
  [ "$RC" -eq 0 ] || fail "$name: dsprof records cannot read $prof"
  awk -v calls=$CALLS -v all="${3:-}" '
    BEGIN { n = 0 }
    / complete=true/ {
      if (!index($0, " x=" n " result=" (n + 1) " ")) { if (!bad) print "record " $1 " is not step (" n "): " $0; bad = 1 }
      n++ }
    / complete=false/ { incomplete++; if (incomplete == 2) { print "second incomplete record: " $0; bad = 1 } }
    / -> / { if (!nested) print "a record with descendants: " $0; nested = 1; bad = 1 }
    END { if (all && n != calls) { print n " complete records, not " calls; bad = 1 }
          print n " complete records, " incomplete + 0 " incomplete" >"/dev/stderr"
          exit bad }' "$name.records" >&2 || fail "$name: the records in $prof are not what job did"
  rm -f "$name.records"
}

failed=""
skipped=""

# ---- ulimit -f (no mount needed) ------------------------------------------------
# 64 KB: room for the header and the counters, not for the first event chunk.
(
  OUT=f64.data
  unharmed fsize64 ref bash -c 'ulimit -f 64; exec "$@"' fsize -- || exit 1
  counters_exact fsize64 f64.data || exit 1
  events_consistent fsize64 f64.data || exit 1
) || failed="$failed ulimit-f-64"
# 1100 KB: the first event chunk fits, the next ones do not.
(
  OUT=f1100.data
  unharmed fsize1100 ref bash -c 'ulimit -f 1100; exec "$@"' fsize -- || exit 1
  counters_exact fsize1100 f1100.data || exit 1
  events_consistent fsize1100 f1100.data || exit 1
) || failed="$failed ulimit-f-1100"
# 2 KB: not even the header page.
(
  OUT=f2.data
  unharmed fsize2 ref bash -c 'ulimit -f 2; exec "$@"' fsize -- || exit 1
  if [ -e f2.data ]; then readable fsize2 f2.data lines || exit 1; fi
) || failed="$failed ulimit-f-2"

# ---- full disks -----------------------------------------------------------------
mnt=$PWD/mnt
mkdir "$mnt"
mounted=
trap '[ -z "$mounted" ] || umount "$mnt" 2>/dev/null || true' EXIT
# full SIZE: a fresh tmpfs of SIZE on mnt; false if it cannot be mounted.
full () {
  [ -z "$mounted" ] || { umount "$mnt"; mounted=; }
  mount -t tmpfs -o size="$1" dsprof-test "$mnt" 2>mount.err || return 1
  mounted=1
}

if ! full 4k; then
  skipped="full-disk scenarios (cannot mount a tmpfs: $(cat mount.err))"
else
  # One page: the header at most.
  OUT=$mnt/prof.data
  (
    unharmed disk4k ref -- || exit 1
    if [ -e "$OUT" ]; then readable disk4k "$OUT" lines || exit 1; fi
  ) || failed="$failed disk-4k"

  # 64 KB: the counters fit, no event chunk does.
  full 64k
  (
    unharmed disk64k ref -- || exit 1
    counters_exact disk64k "$OUT" || exit 1
    events_consistent disk64k "$OUT" || exit 1
  ) || failed="$failed disk-64k"

  # 1200 KB: the first event chunk fits.
  full 1200k
  (
    unharmed disk1200k ref -- || exit 1
    counters_exact disk1200k "$OUT" || exit 1
    events_consistent disk1200k "$OUT" || exit 1
  ) || failed="$failed disk-1200k"

  # Room for all of it: no warning then (the check of the other scenarios).
  full 8m
  (
    DSPROF_OUT=$OUT ./job >roomy.out 2>roomy.err || [ $? -eq 3 ] || fail "roomy: exit status"
    [ "$(cat roomy.err)" = "job done" ] || fail "roomy: stderr: $(cat roomy.err)"
    counters_exact roomy "$OUT" || exit 1
    events_consistent roomy "$OUT" all || exit 1
  ) || failed="$failed disk-8m"

  # The disk fills while the program runs: after its first 1000 calls another
  # file takes all the space left.
  full 2200k
  (
    fill () {
      local end=$((SECONDS + 20))
      until [ "$(cat filling.out 2>/dev/null)" = waiting ]; do
        [ $SECONDS -lt $end ] || { echo "FAIL: filling: job never said waiting" >&2; return 1; }
        sleep 0.01
      done
      dd if=/dev/zero of="$mnt/filler" bs=4k 2>/dev/null || true
      [ "$(df -P "$mnt" | awk 'NR == 2 { print $4 }')" -eq 0 ] || { echo "FAIL: filling: the disk is not full" >&2; return 1; }
      touch go
    }
    WHILE_RUNNING=fill unharmed filling refgo -- go || exit 1
    counters_exact filling "$OUT" || exit 1
    events_consistent filling "$OUT" || exit 1
  ) || failed="$failed disk-fills-while-running"
fi

[ -z "$skipped" ] || echo "skipped: $skipped"
[ -z "$failed" ] || fail "scenarios that failed:$failed"
exit 0
