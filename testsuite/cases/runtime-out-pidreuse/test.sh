# runtime-out-pidreuse: a profile named with "%p" names one process (docs/contract.md
# §4.5).  When the kernel reuses a pid, the later process finds the profile of the
# earlier one under the name it computes: it must keep it and take the first free
# variant, ".<k>" after the pid (run.<pid>.<k>.data), which the glob run.*.data
# still matches, without a warning.  Pid reuse is made by a process that waits on
# a fifo while a copy of a finished run's profile is put under its name, and, as
# root where pid namespaces can be made, by two runs that are both pid 1.  An
# exec'd image of such a process writes <variant>.exec1.  Without "%p" a new run
# still replaces an older profile of the same name.
. "$(dirname "$0")/../../lib.sh"

cp "$FIXTURES/prog.c" "$CASE/execer.c" .
dscc -o prog prog.c || fail "prog.c does not compile"
dscc -o execer execer.c || fail "execer.c does not compile"
LOOP=prog.c:$(grep -n '/\* LOOP \*/' prog.c | cut -d: -f1)
EXECLOOP=execer.c:$(grep -n '/\* EXECLOOP \*/' execer.c | cut -d: -f1)

# count FILE:LINE PROFILE...: the count `dsprof lines PROFILE...` gives the line.
count () {
  local at=$1
  shift
  run_dsprof lines "$@" >lines.out 2>lines.err || fail "dsprof lines $*: status $? ($(cat lines.err))"
  awk -F': ' -v at="$at" '$1 == at { n = $2 } END { print n + 0 }' lines.out
}
expect () {
  local at=$1 want=$2 got
  shift 2
  got=$(count "$at" "$@")
  [ "$got" = "$want" ] || fail "dsprof lines $*: $at has count $got, not $want ($(ls))"
}
# no_warning FILE: the run printed no dsprof: line.
no_warning () {
  ! grep '^dsprof:' "$1" || fail "a dsprof: warning: $(cat "$1")"
}

# reused DIR PLANTED... -- CMD...: run CMD in DIR with DSPROF_OUT=run.%p.data
# as a process that first waits on a fifo, while each PLANTED name (a "%p"
# name written with PID for the process's pid) gets a copy of first.data, a
# finished run's profile; print the pid.
reused () {
  local dir=$1 pid p planted=()
  shift
  while [ "$1" != -- ]; do
    planted+=("$1")
    shift
  done
  shift
  mkfifo "$dir/go"
  (cd "$dir" && read -r _ <go && DSPROF_OUT=run.%p.data exec "$@" >stdout 2>stderr) &
  pid=$!
  for p in "${planted[@]}"; do
    cp first.data "$dir/${p//PID/$pid}"
  done
  echo go >"$dir/go"
  wait "$pid" || [ $? -eq 3 ] || fail "$*: exit status $? ($(cat "$dir/stderr"))"
  rm "$dir/go"
  no_warning "$dir/stderr"
  echo "$pid"
}

DSPROF_OUT=first.data ./prog >/dev/null 2>first.err || [ $? -eq 3 ] || fail "the first run failed"
expect "$LOOP" 6 first.data

# ---- one earlier process of the pid: the new one takes run.<pid>.1.data ------
mkdir one
pid=$(reused one run.PID.data -- ../prog) || exit 1
cmp -s first.data "one/run.$pid.data" || fail "run.$pid.data, an earlier process's profile, was replaced"
[ -f "one/run.$pid.1.data" ] || fail "no run.$pid.1.data: $(ls one)"
[ "$(ls one | grep -c '^run\..*\.data$')" -eq 2 ] || fail "not two profiles: $(ls one)"
expect "$LOOP" 6 "one/run.$pid.1.data"
expect "$LOOP" 12 one/run.*.data

# ---- two earlier processes: run.<pid>.2.data ------------------------------------
mkdir two
pid=$(reused two run.PID.data run.PID.1.data -- ../prog) || exit 1
cmp -s first.data "two/run.$pid.data" && cmp -s first.data "two/run.$pid.1.data" \
  || fail "two: a profile of an earlier process was replaced"
[ -f "two/run.$pid.2.data" ] || fail "no run.$pid.2.data: $(ls two)"
expect "$LOOP" 18 two/run.*.data

# ---- a reused pid that execs: its exec'd image follows its variant ---------------
mkdir exec
pid=$(reused exec run.PID.data -- ../execer ../prog) || exit 1
cmp -s first.data "exec/run.$pid.data" || fail "exec: run.$pid.data was replaced"
[ -f "exec/run.$pid.1.data" ] && [ -f "exec/run.$pid.1.data.exec1" ] \
  || fail "exec: not run.$pid.1.data and run.$pid.1.data.exec1: $(ls exec)"
expect "$EXECLOOP" 4 "exec/run.$pid.1.data"
expect "$LOOP" 6 "exec/run.$pid.1.data.exec1"
expect "$LOOP" 12 exec/run.*

# ---- real pid reuse: two runs in fresh pid namespaces, both pid 1 ----------------
if unshare --pid --fork --mount-proc true 2>/dev/null; then
  # A process's start time is known to a clock tick (/proc/PID/stat), so a
  # profile of the same pid made within two ticks before a process started
  # is taken for an earlier image of it (an exec): the runs are 0.1 s apart.
  mkdir ns
  for i in 1 2; do
    [ "$i" = 1 ] || sleep 0.1
    (cd ns && DSPROF_OUT=run.%p.data unshare --pid --fork --mount-proc ../prog >"run$i.out" 2>"run$i.err") \
      || [ $? -eq 3 ] || fail "unshare run $i failed: $(cat "ns/run$i.err")"
    no_warning "ns/run$i.err"
  done
  [ -f ns/run.1.data ] && [ -f ns/run.1.1.data ] || fail "two runs as pid 1: not run.1.data and run.1.1.data: $(ls ns)"
  expect "$LOOP" 6 ns/run.1.data
  expect "$LOOP" 6 ns/run.1.1.data
  expect "$LOOP" 12 ns/run.*.data
else
  echo "no pid namespaces here: the runs as pid 1 are left out"
fi

# ---- without %p: a new run replaces the older profile ------------------------------
mkdir plain
for i in 1 2; do
  (cd plain && DSPROF_OUT=same.data ../prog >/dev/null 2>"run$i.err") || [ $? -eq 3 ] || fail "plain run $i failed"
  no_warning "plain/run$i.err"
done
[ "$(ls plain | grep -c data)" -eq 1 ] || fail "without %p: not one profile: $(ls plain)"
expect "$LOOP" 6 plain/same.data
exit 0
