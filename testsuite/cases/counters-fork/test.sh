# counters-fork: a forked child writes <name>.<pid> with only what it ran after the fork
# (from zero at the fork); the parent's file keeps the parent's counts from the
# start; both together sum up (docs/contract.md §4.5).  A child that execs another
# instrumented program must not replace its parent's file.  With %p in DSPROF_OUT
# every process, a forked child too, puts its own pid in the name.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/fork.c" "$CASE/other.c" .
dscc -o fork fork.c || fail "fork.c does not compile"
dscc -o other other.c || fail "other.c does not compile"

line_of () { grep -n "/\\* $2 \\*/" "$1" | cut -d: -f1; }
BEFORE=$(line_of fork.c BEFORE) CHILD=$(line_of fork.c CHILD)
PARENT=$(line_of fork.c PARENT) EXEC=$(line_of fork.c EXEC) OTHER=$(line_of other.c OTHER)

# count FILE:LINE PROFILE...: the largest count `dsprof lines` gives the line, or
# "none" if it names no such line.
count () {
  local at=$1
  shift
  run_dsprof lines "$@" >lines.out 2>lines.err \
    || fail "dsprof lines $*: status $? ($(cat lines.err))"
  awk -F': ' -v at="$at" '$1 == at { if ($2 + 0 > m) m = $2 + 0; found = 1 }
    END { print found ? m + 0 : "none" }' lines.out
}

# expect FILE:LINE COUNT PROFILE...
expect () {
  local at=$1 want=$2 got
  shift 2
  got=$(count "$at" "$@")
  [ "$got" = "$want" ] || fail "dsprof lines $*: $at has count $got, not $want"
}

# ---- fork: parent and child run loops ------------------------------------------
mkdir plain && cd plain
../fork >out || fail "fork exited with status $?"
cpid=$(cat out)
[ -f dsprof.data ] || fail "no dsprof.data from the parent"
[ -f "dsprof.data.$cpid" ] || fail "no dsprof.data.$cpid from the child: $(ls)"
[ "$(ls | grep -c '^dsprof\.data')" -eq 2 ] || fail "profiles other than the parent's and child's: $(ls)"

expect "fork.c:$BEFORE" 10 dsprof.data
expect "fork.c:$PARENT" 3 dsprof.data
expect "fork.c:$CHILD" 0 dsprof.data
expect "fork.c:$BEFORE" 0 "dsprof.data.$cpid"
expect "fork.c:$PARENT" 0 "dsprof.data.$cpid"
expect "fork.c:$CHILD" 7 "dsprof.data.$cpid"
expect "fork.c:$BEFORE" 10 dsprof.data dsprof.data.*
expect "fork.c:$PARENT" 3 dsprof.data dsprof.data.*
expect "fork.c:$CHILD" 7 dsprof.data dsprof.data.*
# The function's entry block ran once, in the parent, before the fork.
first=$(run_dsprof lines dsprof.data | sed -n 1p)
[ "${first##*: }" = 1 ] || fail "first block of main in the parent: $first"
first=$(run_dsprof lines "dsprof.data.$cpid" | sed -n 1p)
[ "${first##*: }" = 0 ] || fail "first block of main in the child: $first"
first=$(run_dsprof lines dsprof.data "dsprof.data.$cpid" | sed -n 1p)
[ "${first##*: }" = 1 ] || fail "first block of main, parent and child: $first"
cd ..

# ---- fork and exec: the exec'd program does not take the parent's file ---------
# (counters-exec checks that nothing the child counted is lost.)
mkdir exec && cd exec
DSPROF_OUT=prof.data ../fork ../other >out || fail "fork ../other exited with status $?"
cpid=$(cat out)
[ -f prof.data ] || fail "no prof.data from the parent: $(ls)"
[ ! -e dsprof.data ] || fail "DSPROF_OUT=prof.data, yet a dsprof.data was written"
for f in *; do
  case $f in
    prof.data | prof.data."$cpid" | prof.data."$cpid".* | out | lines.*) ;;
    *) fail "a file that is neither prof.data nor prof.data.$cpid[.*]: $f" ;;
  esac
done
expect "fork.c:$BEFORE" 10 prof.data
expect "fork.c:$PARENT" 3 prof.data
expect "fork.c:$EXEC" 0 prof.data
expect "other.c:$OTHER" none prof.data
expect "other.c:$OTHER" 5 prof.data."$cpid"*
expect "fork.c:$PARENT" 3 prof.data prof.data.*
expect "other.c:$OTHER" 5 prof.data prof.data.*
cd ..

# ---- %p: every process's own pid, a forked child's too ----------------------
# (a child writing run.<parent>.data.<child> would be missed by run.*.data)
mkdir pct && cd pct
DSPROF_OUT=run.%p.data ../fork >out || fail "DSPROF_OUT=run.%p.data fork exited with status $?"
cpid=$(cat out)
[ -f "run.$cpid.data" ] || fail "DSPROF_OUT=run.%p.data: no run.$cpid.data from the child: $(ls)"
[ "$(ls | grep -c '^run\.[0-9]*\.data$')" -eq 2 ] && [ "$(ls | grep -c '^run')" -eq 2 ] \
  || fail "DSPROF_OUT=run.%p.data: not run.PARENT.data and run.CHILD.data: $(ls)"
expect "fork.c:$BEFORE" 10 run.*.data
expect "fork.c:$PARENT" 3 run.*.data
expect "fork.c:$CHILD" 7 run.*.data
expect "fork.c:$CHILD" 7 "run.$cpid.data"
cd ..

# ... and exec'd after fork: the exec'd image writes run.<child>.data.exec1.
mkdir pctexec && cd pctexec
DSPROF_OUT=run.%p.data ../fork ../other >out || fail "DSPROF_OUT=run.%p.data fork ../other exited with status $?"
cpid=$(cat out)
[ -f "run.$cpid.data" ] && [ -f "run.$cpid.data.exec1" ] \
  || fail "DSPROF_OUT=run.%p.data fork ../other: no run.$cpid.data and run.$cpid.data.exec1: $(ls)"
[ "$(ls | grep -c '^run')" -eq 3 ] || fail "DSPROF_OUT=run.%p.data fork ../other: $(ls)"
expect "fork.c:$PARENT" 3 run.*
expect "other.c:$OTHER" 5 run.*
expect "other.c:$OTHER" 5 "run.$cpid.data.exec1"
exit 0
