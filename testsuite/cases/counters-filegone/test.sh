# counters-filegone: the profile is deleted or truncated by someone else while
# the program runs (docs/contract.md §4.5, §3).  The program runs on unharmed: the same output
# and exit status as otherwise, and exactly one `dsprof:` warning on stderr (the
# profile is lost or cut short, and the user should hear of it once).  Whatever
# file is left afterwards, `dsprof` reads what is in it or exits 2 with one line
# "dsprof: FILE: problem"; never a crash.  The program is counters-diskfull's job,
# which waits after its first 1000 calls until told to go on.
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/job.c" .
dscc -O2 -o job job.c || fail "job.c does not compile"
CALLS=301000

set +e
DSPROF_OUT=ref.data ./job /dev/null >ref.out 2>ref.err
status=$?
set -e
[ "$status" -eq 3 ] && [ "$(cat ref.out)" = "waiting
$CALLS" ] && [ "$(cat ref.err)" = "job done" ] \
  || fail "job's reference run: status $status, printed $(cat ref.out ref.err)"

# meddle NAME ACTION...: run job with profile NAME.data; once it waits, run
# ACTION on the profile, then let it go on.  It must exit 3, print what the
# reference run printed, and give exactly one dsprof: warning.
meddle () {
  local name=$1 status end
  shift
  rm -f go
  DSPROF_OUT=$name.data ./job go >"$name.out" 2>"$name.err" &
  local job=$!
  end=$((SECONDS + 20))
  until [ "$(cat "$name.out" 2>/dev/null)" = waiting ]; do
    if [ $SECONDS -ge $end ]; then kill "$job"; fail "$name: job never said waiting"; fi
    sleep 0.01
  done
  "$@" "$name.data" || { kill "$job"; fail "$name: $* $name.data failed"; }
  touch go
  set +e
  wait "$job"
  status=$?
  set -e
  [ "$status" -eq 3 ] || fail "$name: exit status $status, not 3 (stderr: $(cat "$name.err"))"
  cmp -s ref.out "$name.out" || fail "$name: stdout differs: $(head -c 300 "$name.out")"
  [ "$(grep -v '^dsprof:' "$name.err")" = "job done" ] \
    || fail "$name: stderr has more than the program's line and warnings: $(cat "$name.err")"
  [ "$(grep -c '^dsprof:' "$name.err")" -eq 1 ] \
    || fail "$name: not exactly one dsprof: warning on stderr: $(cat "$name.err")"
  echo "$name: $(grep '^dsprof:' "$name.err")"
}

# readable PROFILE: dsprof lines, info and records on what is left exit 0, or 2
# with one precise line.
readable () {
  local prof=$1 cmd rc
  [ -e "$prof" ] || return 0
  for cmd in lines info records; do
    set +e
    run_dsprof "$cmd" "$prof" >"$prof.$cmd" 2>"$prof.$cmd.err"
    rc=$?
    set -e
    case $rc in
      0) ;;
      2) [ "$(wc -l <"$prof.$cmd.err")" -eq 1 ] && grep -q "^dsprof: $prof: ." "$prof.$cmd.err" \
           || fail "dsprof $cmd $prof exits 2 without one precise message: $(cat "$prof.$cmd.err")" ;;
      *) fail "dsprof $cmd $prof: exit status $rc ($(head -c 300 "$prof.$cmd.err"))" ;;
    esac
    echo "$prof ($(stat -c %s "$prof") bytes): dsprof $cmd: status $rc $(cat "$prof.$cmd.err")"
  done
}

truncate_to () { truncate -s "$1" "$2"; }
# truncate_mid_events PROFILE: cut PROFILE in the middle of its last event
# chunk, the one the program writes to (a thread's chunks grow from one page).
truncate_mid_events () {
  local size off
  read -r _ size off < <(event_chunks "$1" | tail -1)
  [ -n "$off" ] && [ "$size" -ge 8192 ] || { echo "no event chunk of 2 pages in $1" >&2; return 1; }
  truncate -s $((off + size / 2)) "$1"
}

# scenario LABEL NAME ACTION...: meddle, then read what is left (even if the
# program was harmed).
failed=""
scenario () {
  local label=$1 name=$2
  shift 2
  (meddle "$name" "$@") || failed="$failed $label"
  (readable "$name.data") || failed="$failed $label(dsprof)"
}
scenario deleted deleted rm -f
scenario truncated-to-0 trunc0 truncate_to 0
scenario truncated-to-header trunc4k truncate_to 4096
scenario truncated-before-events trunc12k truncate_to 12288
scenario truncated-mid-events trunchalf truncate_mid_events
[ -z "$failed" ] || fail "scenarios that failed:$failed"
exit 0
