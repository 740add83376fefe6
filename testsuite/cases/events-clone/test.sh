# events-clone: a child made by a raw clone () (no CLONE_VM, no fork handler
# run) records events at the same time as its parent (clone.c).  The child's
# thread state reads as new in the child (it lives on a MADV_WIPEONFORK page),
# so its first event gives it a profile of its own, dsprof.data.<pid>, as a
# forked child's: the parent's profile holds exactly the parent's 60,002
# records, the child's exactly the child's 20,001, each tree whole.  At -O0
# and -O2.
. "$(dirname "$0")/../../lib.sh"

N=20000
cp "$CASE/clone.c" .

# counts PROFILE: "WHO DEPTH COUNT" per who and depth of PROFILE's records.
counts () {
  run_dsprof report who depth --format csv "$1" >report.csv 2>err \
    || fail "dsprof report who depth $1: status $? ($(cat err))"
  awk -F, '$1 == 2 { print $2, $3, $10 }' report.csv | sort -n
}

# info_has PROFILE LINE...: dsprof info PROFILE has every LINE.
info_has () {
  local prof=$1 want
  shift
  run_dsprof info --count "$prof" >info 2>err || fail "dsprof info $prof: status $? ($(cat err))"
  for want in "$@"; do
    grep -Eq "^$want( |\$)" info || fail "dsprof info $prof lacks '$want': $(cat info)"
  done
}

for O in -O0 -O2; do
  mkdir "run$O" && cp clone.c "run$O" && cd "run$O"
  dscc $O -o clone clone.c || fail "clone.c ($O) does not build"
  ./clone >out 2>err || fail "clone ($O) exited with status $? ($(cat err))"
  [ "$(sed -n 1p out)" = $((3 * N * (N - 1) / 2 + 3 * N)) ] || fail "clone ($O) printed $(cat out)"
  [ ! -s err ] || fail "clone ($O) wrote to stderr: $(cat err)"
  pid=$(sed -n 2p out)

  info_has dsprof.data 'threads: 1' "records: $((3 * N + 2)) \\(0 incomplete\\)" \
    'dropped events: 0' 'repaired events: 0'
  counts dsprof.data >parent
  printf '%s\n' "0 0 1" "0 1 $N" "1 0 $N" "2 0 1" "2 1 $N" >parent.expected
  expect_same parent.expected parent

  [ -f "dsprof.data.$pid" ] || fail "the clone'd child ($pid) has no profile: $(ls)"
  info_has "dsprof.data.$pid" 'threads: 1' "records: $((N + 1)) \\(0 incomplete\\)" \
    'dropped events: 0' "parent pid: [0-9]+ \\(forked:"
  counts "dsprof.data.$pid" >child
  printf '%s\n' "9 0 1" "9 1 $N" >child.expected
  expect_same child.expected child
  cd ..
done
exit 0
