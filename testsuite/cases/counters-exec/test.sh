# counters-exec: exec after fork, and exec without fork (docs/contract.md §3, §4.5).  A forked
# child writes <name>.<pid> with its counts from the fork; when it then execs a
# program, instrumented or not, nothing either image counted may be lost: the
# profiles of the run, given together to `dsprof lines`, hold the exact counts
# of every line of both programs, and the parent's own profile is left alone.  The
# same for a process that execs an instrumented program without forking, and for
# an exec'd program that forks again.  The test does not care how the files of an
# exec'd image are named, only that they are <name>.* profiles of that process
# (<name>.<pid>...).
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/spawn.c" "$CASE/other.c" .
dscc -o spawn spawn.c || fail "spawn.c does not compile"
dscc -o other other.c || fail "other.c does not compile"
line_of () { grep -n "/\\* $2 \\*/" "$1" | cut -d: -f1; }
BEFORE=spawn.c:$(line_of spawn.c BEFORE) CHILD=spawn.c:$(line_of spawn.c CHILD)
PARENT=spawn.c:$(line_of spawn.c PARENT) EXECCHILD=spawn.c:$(line_of spawn.c EXECCHILD)
EXECSELF=spawn.c:$(line_of spawn.c EXECSELF)
OTHER=other.c:$(line_of other.c OTHER) OTHERCHILD=other.c:$(line_of other.c OTHERCHILD)

# expect FILE:LINE COUNT PROFILE...: the largest count `dsprof lines PROFILE...`
# gives the line ("none": no block on it).
expect () {
  local at=$1 want=$2 got
  shift 2
  run_dsprof lines "$@" >lines.out 2>lines.err \
    || fail "dsprof lines $*: status $? ($(cat lines.err))"
  got=$(awk -F': ' -v at="$at" '$1 == at { if ($2 + 0 > m) m = $2 + 0; found = 1 }
    END { print found ? m + 0 : "none" }' lines.out)
  [ "$got" = "$want" ] || fail "$SCENARIO: dsprof lines $*: $at has count $got, not $want"
}

# profiles PID: every profile is prof.data or prof.data.PID[.*]; prints them.
profiles () {
  local f
  for f in *; do
    case $f in
      prof.data | prof.data."$1" | prof.data."$1".*) echo "$f" ;;
      pids | *.out | *.err) ;;
      *) fail "$SCENARIO: a file that is not prof.data or prof.data.$1[.*]: $f (all: $(ls | tr '\n' ' '))" ;;
    esac
  done
}

# Each scenario runs in a subshell, so that all of them are tried (set -e does not
# hold there: every check fails explicitly); the case fails
# at the end if any did.
failed=""

# ---- fork, then exec an instrumented program --------------------------------------
(
  SCENARIO="fork + exec other"
  mkdir a && cd a
  DSPROF_OUT=prof.data ../spawn fork ../other >pids || fail "$SCENARIO: status $?"
  cpid=$(cat pids)
  [ -f prof.data ] || fail "$SCENARIO: no prof.data"
  all=$(profiles "$cpid") || exit 1
  expect "$BEFORE" 10 prof.data
  expect "$PARENT" 3 prof.data
  expect "$CHILD" 0 prof.data
  expect "$OTHER" none prof.data
  # shellcheck disable=SC2086
  {
    expect "$BEFORE" 10 $all
    expect "$PARENT" 3 $all
    expect "$CHILD" 2 $all
    expect "$EXECCHILD" 1 $all
    expect "$OTHER" 5 $all
  }
  cd ..
) || failed="$failed; fork + exec other"

# ---- fork, then exec a program without the plugin --------------------------------
(
  SCENARIO="fork + exec /bin/true"
  mkdir b && cd b
  DSPROF_OUT=prof.data ../spawn fork /bin/true >pids || fail "$SCENARIO: status $?"
  cpid=$(cat pids)
  all=$(profiles "$cpid") || exit 1
  [ -f "prof.data.$cpid" ] || fail "$SCENARIO: no prof.data.$cpid: $(ls)"
  expect "$CHILD" 2 "prof.data.$cpid"
  expect "$EXECCHILD" 1 "prof.data.$cpid"
  expect "$BEFORE" 0 "prof.data.$cpid"
  # shellcheck disable=SC2086
  expect "$BEFORE" 10 $all
  cd ..
) || failed="$failed; fork + exec /bin/true"

# ---- fork, exec a program that forks again ------------------------------------------
(
  SCENARIO="fork + exec other fork"
  mkdir c && cd c
  DSPROF_OUT=prof.data ../spawn fork ../other fork >pids || fail "$SCENARIO: status $?"
  cpid=$(cat pids)
  all=$(profiles "$cpid") || exit 1
  # shellcheck disable=SC2086
  {
    expect "$BEFORE" 10 $all
    expect "$PARENT" 3 $all
    expect "$CHILD" 2 $all
    expect "$EXECCHILD" 1 $all
    expect "$OTHER" 5 $all
    expect "$OTHERCHILD" 2 $all
  }
  expect "$OTHERCHILD" none prof.data
  cd ..
) || failed="$failed; fork + exec other fork"

# ---- exec without fork --------------------------------------------------------------
(
  SCENARIO="exec other (no fork)"
  mkdir d && cd d
  DSPROF_OUT=prof.data ../spawn exec ../other >pids || fail "$SCENARIO: status $?"
  pid=$(cat pids)
  all=$(profiles "$pid") || exit 1
  [ -n "$all" ] || fail "$SCENARIO: no profile at all"
  # shellcheck disable=SC2086
  {
    expect "$OTHER" 5 $all
    expect "$BEFORE" 10 $all
    expect "$EXECSELF" 1 $all
  }
  cd ..
) || failed="$failed; exec other (no fork)"

[ -z "$failed" ] || fail "scenarios that failed:${failed#;}"
exit 0
