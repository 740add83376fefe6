# plugin-args: every argument of the plugin (docs/contract.md §2).  An unknown key or a bad
# value is a compile error with an exact message naming the valid keys or values,
# which `gcc -v --help` lists with the plugin's help, a line each with its values;
# include= and exclude= restrict which functions get counters and events (exclude
# wins); verbose prints one line per instrumented function; counters=off gives a
# unit no counters, events=off no events; functions=all makes every function an
# event of type call; update=single, atomic and thread give the same counts.  The
# plugin works with -std=c99, c11, c17 and gnu17 (and adds no warnings), and
# dsprof.h with -std=c89 -pedantic-errors, with the plugin and without.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/sel.c" "$CASE/on.c" "$CASE/off.c" .
line_of () { grep -n "/\\* $2 \\*/" "$1" | cut -d: -f1; }
ALPHA=$(line_of sel.c ALPHA) BETA=$(line_of sel.c BETA) GAMMA=$(line_of sel.c GAMMA)
MAIN=$(line_of sel.c MAIN) ON=$(line_of on.c ON) OFF=$(line_of off.c OFF)

# ---- unknown keys and bad values ------------------------------------------------
# bad ARG MESSAGE: compiling with -fplugin-arg-dsprof-ARG fails without writing an
# object, and gcc's first error (in the C locale) is exactly "error: MESSAGE".
KEYS="counters, events, update, functions, include, exclude, verbose, select, dispatch"
bad () {
  local arg=$1 want=$2 got
  rm -f sel.o
  if LC_ALL=C gcc -fplugin="$PLUGIN" "-fplugin-arg-dsprof-$arg" -c sel.c 2>bad.err; then
    fail "-fplugin-arg-dsprof-$arg was accepted"
  fi
  [ ! -e sel.o ] || fail "-fplugin-arg-dsprof-$arg: gcc failed but wrote sel.o"
  got=$(grep -m1 'error: ' bad.err | sed 's/^.*error: //')
  [ "$got" = "$want" ] \
    || fail "-fplugin-arg-dsprof-$arg: error '$got', not '$want' (all: $(cat bad.err))"
}
bad colour=red "dsprof: unknown argument 'colour' (valid keys: $KEYS)"
bad colour "dsprof: unknown argument 'colour' (valid keys: $KEYS)"
bad Update=atomic "dsprof: unknown argument 'Update' (valid keys: $KEYS)"
bad update=sometimes "dsprof: bad value 'sometimes' for argument 'update' (valid: single, atomic, thread)"
bad update "dsprof: bad value '' for argument 'update' (valid: single, atomic, thread)"
bad counters=maybe "dsprof: bad value 'maybe' for argument 'counters' (valid: on, off)"
bad counters=ON "dsprof: bad value 'ON' for argument 'counters' (valid: on, off)"
bad events=1 "dsprof: bad value '1' for argument 'events' (valid: on, off)"
bad functions=some "dsprof: bad value 'some' for argument 'functions' (valid: all, source, annotated)"
bad verbose=yes "dsprof: argument 'verbose' takes no value"
bad include "dsprof: argument 'include' needs a colon-separated list of patterns"
bad exclude= "dsprof: argument 'exclude' needs a colon-separated list of patterns"
bad select "dsprof: argument 'select' needs one file name, given once"
bad select= "dsprof: argument 'select' needs one file name, given once"

# ---- the plugin's help -------------------------------------------------------------
# gcc -v --help prints it on stderr under "Help for the loaded plugins:", " dsprof:":
# a line per argument (KEY=SYNTAX or KEY, then its help), the keys those of the error
# above in its order, a choice's words those of its bad-value error.
LC_ALL=C gcc -fplugin="$PLUGIN" -v --help >/dev/null 2>help.err \
  || fail "gcc -v --help with the plugin: status $?: $(cat help.err)"
awk '/^Help for the loaded plugins:$/ { on = 1; next }
     on && /^ dsprof:$/ { mine = 1; next }
     mine && /^      [a-z]/ { print substr($0, 7); next }
     mine && !/^    / { exit }' help.err >help.args
got=$(sed 's/[= ].*//' help.args | paste -sd, - | sed 's/,/, /g')
[ "$got" = "$KEYS" ] || fail "the plugin's help lists the keys '$got', not '$KEYS': $(cat help.err)"
for arg in "counters=on|off" "events=on|off" "update=single|atomic|thread" \
           "functions=all|source|annotated" "verbose"; do
  grep -q "^$(printf '%s' "$arg" | sed 's/|/[|]/g')  *[a-z]" help.args \
    || fail "the plugin's help has no line '$arg' with its help: $(cat help.args)"
done

# ---- include= and exclude= ------------------------------------------------------------
# build_sel NAME WANT ARGS...: build sel.c with ARGS, run it; `dsprof lines` must give
# the lines ALPHA BETA GAMMA MAIN the counts in WANT ("-" for no block at all).  A
# unit left with no counters may leave no profile at all.
build_sel () {
  local name=$1 want=$2 got="" at
  shift 2
  dscc "$@" -o "sel-$name" sel.c || fail "sel.c does not compile with $*"
  out=$(DSPROF_OUT=$name.data "./sel-$name") || fail "sel built with $*: exit status $?"
  [ "$out" = 3 ] || fail "sel built with $* printed '$out'"
  : >"$name.lines"
  if [ -e "$name.data" ]; then
    run_dsprof lines "$name.data" >"$name.lines" || fail "dsprof lines $name.data: status $?"
  fi
  for at in $ALPHA $BETA $GAMMA $MAIN; do
    got="$got $(awk -F': ' -v at="sel.c:$at" '$1 == at { if ($2 + 0 > m) m = $2 + 0; found = 1 }
      END { print found ? m + 0 : "-" }' "$name.lines")"
  done
  [ "$got" = " $want" ] || fail "sel.c built with $*: counts of alpha beta gamma_two main are$got, not $want"
}
build_sel all "2 3 4 4"
build_sel inc "2 - 4 -" -fplugin-arg-dsprof-include=alpha:gamma*
build_sel exc "2 - 4 4" -fplugin-arg-dsprof-exclude=beta
build_sel both "2 - - -" -fplugin-arg-dsprof-include=alpha:beta -fplugin-arg-dsprof-exclude=beta:main
build_sel wins "- - - -" -fplugin-arg-dsprof-include=alpha -fplugin-arg-dsprof-exclude=alpha
build_sel file "2 3 4 4" -fplugin-arg-dsprof-include=sel.c
build_sel glob "2 3 4 4" -fplugin-arg-dsprof-include=nomatch:s*.c
build_sel other "- - - -" -fplugin-arg-dsprof-include=other.c
build_sel exfile "- - - -" -fplugin-arg-dsprof-exclude=sel.c

# ---- verbose ------------------------------------------------------------------------
gcc -fplugin="$PLUGIN" -fplugin-arg-dsprof-verbose -c sel.c 2>verbose.err \
  || fail "-fplugin-arg-dsprof-verbose: gcc failed: $(cat verbose.err)"
[ "$(wc -l <verbose.err)" -eq 4 ] || fail "verbose: not 4 lines (one per function): $(cat verbose.err)"
for fn in alpha beta gamma_two main; do
  [ "$(grep -cw "$fn" verbose.err)" -eq 1 ] || fail "verbose: not one line for $fn: $(cat verbose.err)"
done
grep -vq '^dsprof' verbose.err && fail "verbose: lines not starting with dsprof: $(cat verbose.err)"
gcc -fplugin="$PLUGIN" -fplugin-arg-dsprof-verbose -fplugin-arg-dsprof-include=beta -c sel.c 2>verbose.err \
  || fail "verbose with include=beta: gcc failed"
[ "$(wc -l <verbose.err)" -eq 1 ] && grep -qw beta verbose.err \
  || fail "verbose with include=beta: not one line for beta: $(cat verbose.err)"
gcc -fplugin="$PLUGIN" -c sel.c 2>quiet.err || fail "gcc with the plugin failed"
[ ! -s quiet.err ] || fail "without verbose the plugin printed: $(cat quiet.err)"

# ---- counters=off ---------------------------------------------------------------------
dscc -fplugin-arg-dsprof-counters=off -c off.c || fail "off.c does not compile with counters=off"
dscc -o onoff on.c off.o || fail "on.c does not build"
out=$(DSPROF_OUT=onoff.data ./onoff) || fail "onoff: exit status $?"
[ "$out" = 13 ] || fail "onoff printed '$out'"
run_dsprof lines onoff.data >onoff.lines || fail "dsprof lines onoff.data: status $?"
grep -q "^on\.c:$ON: 1\$" onoff.lines || fail "on.c:$ON not counted once: $(cat onoff.lines)"
grep -q '^off\.c:' onoff.lines && fail "off.c, built with counters=off, has counters: $(grep '^off\.c:' onoff.lines)"
build_sel off "- - - -" -fplugin-arg-dsprof-counters=off
build_sel on "2 3 4 4" -fplugin-arg-dsprof-counters=on

# ---- events=, functions=, update= ---------------------------------------------------
# build_ev NAME ARGS...: build ev.c with ARGS and run it (it must print 11); then
# NAME.records holds `dsprof records` cut to the dimensions event, name, x, result
# and complete plus the descendant list, and NAME.counts the counts of the lines
# SQUARE and TWICE ("-" for no block).
cp "$CASE/ev.c" .
SQUARE=$(line_of ev.c SQUARE) TWICE=$(line_of ev.c TWICE)
build_ev () {
  local name=$1 at
  shift
  dscc "$@" -o "ev-$name" ev.c || fail "ev.c does not compile with $*"
  out=$(DSPROF_OUT=$name.data "./ev-$name") || fail "ev built with $*: exit status $?"
  [ "$out" = 11 ] || fail "ev built with $* printed '$out'"
  run_dsprof records "$name.data" >"$name.all" || fail "dsprof records $name.data: status $?"
  awk '{ out = $1
         for (i = 3; i <= NF; i++)
           if ($i ~ /^(event|name|x|result|complete)=/ || $i == "->" || $i ~ /^#/) out = out " " $i
         print out }' "$name.all" >"$name.records"
  run_dsprof lines "$name.data" >"$name.lines" || fail "dsprof lines $name.data: status $?"
  : >"$name.counts"
  for at in $SQUARE $TWICE; do
    awk -F': ' -v at="ev.c:$at" '$1 == at { if ($2 + 0 > m) m = $2 + 0; found = 1 }
      END { print found ? m + 0 : "-" }' "$name.lines" >>"$name.counts"
  done
}
# events_are NAME LINE...: NAME.records is exactly the LINEs.
events_are () {
  local name=$1
  shift
  if [ $# -eq 0 ]; then : >want.records; else printf '%s\n' "$@" >want.records; fi
  diff -u want.records "$name.records" >&2 || fail "dsprof records of ev built as '$name' differs (left: expected)"
}
counts_are () {
  [ "$(echo $(cat "$1.counts"))" = "$2" ] || fail "ev built as '$1': SQUARE TWICE counted $(echo $(cat "$1.counts")), not $2"
}
SQ1="#1 event=square name=square x=0 result=0 complete=true"
SQ2="#2 event=square name=square x=1 result=1 complete=true"
SQ3="#3 event=square name=square x=2 result=4 complete=true"
for variant in default:"" on:-fplugin-arg-dsprof-events=on ann:-fplugin-arg-dsprof-functions=annotated \
               single:-fplugin-arg-dsprof-update=single atomic:-fplugin-arg-dsprof-update=atomic \
               thread:-fplugin-arg-dsprof-update=thread; do
  # shellcheck disable=SC2086
  build_ev "${variant%%:*}" ${variant#*:}
  events_are "${variant%%:*}" "$SQ1" "$SQ2" "$SQ3"
  counts_are "${variant%%:*}" "3 3"
done
# events=off: no event at all, the same counts.
build_ev evoff -fplugin-arg-dsprof-events=off
events_are evoff
counts_are evoff "3 3"
grep -qx 'events: 0' <(run_dsprof info --count evoff.data | sed 's/ (.*//') \
  || fail "events=off: dsprof info does not say events: 0: $(run_dsprof info --count evoff.data | grep events)"
# functions=all: twice and main become events of type call, square keeps its type;
# main's record holds the other six.
build_ev all -fplugin-arg-dsprof-functions=all
events_are all "#1 event=square name=square x=0 result=0 complete=true" \
  "#2 event=call name=twice complete=true" \
  "#3 event=square name=square x=1 result=1 complete=true" \
  "#4 event=call name=twice complete=true" \
  "#5 event=square name=square x=2 result=4 complete=true" \
  "#6 event=call name=twice complete=true" \
  "#7 event=call name=main complete=true -> #1 #2 #3 #4 #5 #6"
counts_are all "3 3"
build_ev alloff -fplugin-arg-dsprof-functions=all -fplugin-arg-dsprof-events=off
events_are alloff
# functions=all with exclude: an excluded function is neither counted nor an event.
build_ev allex -fplugin-arg-dsprof-functions=all -fplugin-arg-dsprof-exclude=twice
events_are allex "$SQ1" "$SQ2" "$SQ3" "#4 event=call name=main complete=true -> #1 #2 #3"
counts_are allex "3 -"
# counters=off: events only.
build_ev cntoff -fplugin-arg-dsprof-counters=off
events_are cntoff "$SQ1" "$SQ2" "$SQ3"
counts_are cntoff "- -"

# ---- language standards ------------------------------------------------------------
for f in branches loops; do
  cp "$FIXTURES/$f.c" .
  for std in c99 c11 c17 gnu17; do
    dscc -std=$std -Wall -Wextra -pedantic -Werror -o "$f-$std" "$f.c" \
      || fail "$f.c does not compile warning-free with -std=$std and the plugin"
    DSPROF_OUT=$f-$std.data "./$f-$std" >/dev/null || fail "$f-$std: exit status $?"
    rm -rf "bb-$std"
    run_dsprof annotate -o "bb-$std" "$f-$std.data" || fail "dsprof annotate ($std): status $?"
    expect_same "$FIXTURES/expected/$f.c.bb" "bb-$std/$f.c.bb"
  done
done
# dsprof.h (and ev.c's event) in strict C89, without the plugin and with it.
cp "$CASE/ev.c" .
gcc -std=c89 -pedantic-errors -Wall -Wextra -Werror -I"$TOP/runtime" -c ev.c -o ev-c89-plain.o \
  || fail "ev.c (dsprof.h) does not compile with -std=c89 -pedantic-errors"
dscc -std=c89 -pedantic-errors -Wall -Wextra -Werror -o ev-c89 ev.c \
  || fail "ev.c (dsprof.h) does not compile with -std=c89 -pedantic-errors and the plugin"
[ "$(DSPROF_OUT=ev-c89.data ./ev-c89)" = 11 ] || fail "ev-c89 did not print 11"
[ "$(run_dsprof records ev-c89.data | grep -c ' name=square ')" -eq 3 ] \
  || fail "ev-c89: not 3 square records: $(run_dsprof records ev-c89.data)"
exit 0
