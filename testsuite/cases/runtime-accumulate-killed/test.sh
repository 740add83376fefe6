# runtime-accumulate-killed: an accumulating process killed at any step of
# its start-up leaves no file but the profile (dsprof(1), ENVIRONMENT): the
# profile is made unnamed (O_TMPFILE) and named once whole.  killat.so kills
# the process with SIGKILL just before, and just after, each file or mapping
# call of its start-up in turn (every one, until a run gets through): making
# the profile, and joining it.  After each: no NAME.tmp<pid>-<k> nor any
# other file, and NAME, if there, reads; at the end a run adds its steps
# exactly.  On a file system without O_TMPFILE (killat.so makes it fail so)
# the profile is made under NAME.tmp<pid>-<k>, which a process killed then
# leaves: `dsprof lines NAME NAME.*`, the way dsprof(1) gives to read them all, skips
# every such file that holds no profile with one note each and reads the
# rest; given only such files it fails (status 2, one line).
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/acc.c" "$CASE/killat.c" .
dscc -O2 -o acc acc.c || fail "acc.c does not compile"
gcc -shared -fPIC -O2 -o killat.so killat.c -ldl || fail "killat.c does not compile"
STEP=$(grep -n '/\* STEP \*/' acc.c | cut -d: -f1)
steps () {
  run_dsprof lines "$@" >lines.out 2>lines.err || fail "dsprof lines $*: $(cat lines.err)"
  awk -F': ' -v at="acc.c:$STEP" '$1 == at { s += $2 } END { print s + 0 }' lines.out
}
mkdir d
export DSPROF_ACCUMULATE=1

# killed KILLAT: run acc 10 in d/ killed at KILLAT; 0 once it got through
killed () {
  local st=0
  # (bash's own line on the kill to /dev/null)
  { (cd d && KILLAT=$1 LD_PRELOAD=$PWD/../killat.so DSPROF_OUT=acc.data exec ../acc 10 >/dev/null 2>../err) || st=$?; } 2>/dev/null
  [ "$st" = 0 ] || [ "$st" = 137 ] || fail "KILLAT=$1: status $st ($(cat err))"
  [ "$st" = 137 ]
}

# every-step MAKE: kill a start-up at each call in turn, before and after
# (MAKE: with no profile there; else joining the one there)
every_step () {
  local n at runs=0
  for n in $(seq 1 400); do
    for at in "$n" "-$n"; do
      [ "$1" = join ] || rm -f d/acc.data
      killed "$at" || { echo "$1: $runs runs killed, the run past call $n got through"; return; }
      runs=$((runs + 1))
      [ -z "$(ls -A d | grep -vx acc.data)" ] || fail "$1, killed at call $at: left $(ls -A d)"
      [ ! -e d/acc.data ] || run_dsprof info d/acc.data >/dev/null 2>info.err ||
        fail "$1, killed at call $at: d/acc.data does not read: $(cat info.err)"
    done
  done
  fail "$1: no run got through 400 calls"
}
every_step make
every_step join
before=$(steps d/acc.data)
(cd d && DSPROF_OUT=acc.data ../acc 10 >/dev/null) || fail "the last run: status $?"
[ "$(steps d/acc.data)" = $((before + 10)) ] || fail "the last run: $(steps d/acc.data) steps, not $((before + 10))"

# ---- without O_TMPFILE: the leftovers are skipped ----
rm -rf d && mkdir d
(cd d && DSPROF_OUT=acc.data ../acc 10 >/dev/null) || fail "the first run: status $?"
left=0
for at in 2 3 4 5 6; do
  NOTMPFILE=1 killed "$at" || fail "NOTMPFILE, KILLAT=$at: not killed"
  left=$(ls d | grep -c '^acc\.data\.tmp[0-9]*-[0-9]*$' || true)
done
[ "$left" -ge 1 ] || fail "no temporary file left without O_TMPFILE: $(ls d)"
printf 'not a profile' >d/acc.data.tmp1-0    # an unfinished one, written so far
: >d/acc.data.tmp2-0
(cd d && run_dsprof lines acc.data acc.data.*) >lines.out 2>lines.err || fail "lines NAME NAME.*: status $? ($(cat lines.err))"
skipped=$(ls d/acc.data.tmp* | while read -r f; do head -c 8 "$f" | grep -q DSPROF || echo "$f"; done | wc -l)
[ "$(grep -c "^dsprof: 'acc\.data\.tmp[0-9]*-0': skipped: the temporary file of a profile being made" lines.err)" = "$skipped" ] &&
  [ "$(wc -l <lines.err)" = "$skipped" ] || fail "lines NAME NAME.*: not $skipped notes: $(cat lines.err)"
grep -qx "acc.c:$STEP: 10" lines.out || fail "lines NAME NAME.*: $(grep "acc.c:$STEP:" lines.out)"
set +e
(cd d && run_dsprof lines acc.data.tmp1-0 acc.data.tmp2-0) >out 2>err
rc=$?
set -e
[ "$rc" = 2 ] && [ "$(tail -1 err)" = "dsprof: no profile among the files given" ] && [ "$(wc -l <err)" = 3 ] ||
  fail "only temporary files: status $rc, $(cat err)"
echo "without O_TMPFILE: $left temporary files left by 5 killed runs, $skipped skipped with a note"
