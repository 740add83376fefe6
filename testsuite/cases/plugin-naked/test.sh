# plugin-naked: functions whose bodies the hooks cannot wrap.
# - A naked function (its body is its asm alone, no prologue or epilogue) is
#   left alone, at -O0 and -O2: no counters, no event hooks; DSPROF_EVENT on one
#   gets one warning saying it is ignored and why.  The naked functions return
#   what their asm says, and the caller's counts and registers are unharmed.
# - DSPROF_EVENT on an always_inline function is one error of dsprof's naming
#   the function (its hooks need a call of its own), and no other diagnostic.
# - With functions=all, an always_inline function is counted, inlined, and not
#   an event; the others are events of type call.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/naked.c" "$CASE/inline.c" "$CASE/allinline.c" .
line_of () { grep -n "$2" "$1" | head -1 | cut -d: -f1; }
SEVEN=$(line_of naked.c '^seven (void)') ADD3=$(line_of naked.c '^add3 (long x)')
LOOP=$(line_of naked.c '/\* LOOP \*/') MAIN=$(line_of naked.c '^main (void)')

for opt in O0 O2; do
  LC_ALL=C dscc -$opt -o naked-$opt naked.c 2>naked-$opt.err || fail "naked.c (-$opt) does not compile: $(cat naked-$opt.err)"
  want="naked.c:$ADD3:1: warning: dsprof: 'dsprof_event' ignored on naked function 'add3': it has no prologue or epilogue for event hooks, so dsprof leaves it alone (no counters, no events)"
  [ "$(grep -c 'warning\|error' naked-$opt.err)" -eq 1 ] || fail "naked.c (-$opt): not one diagnostic: $(cat naked-$opt.err)"
  [ "$(grep -m1 'warning:' naked-$opt.err)" = "$want" ] || fail "naked.c (-$opt): warning '$(grep -m1 'warning:' naked-$opt.err)', not '$want'"
  DSPROF_OUT=naked-$opt.data ./naked-$opt >naked-$opt.out || fail "naked-$opt exited with status $?"
  [ "$(cat naked-$opt.out)" = 60 ] || fail "naked-$opt printed $(cat naked-$opt.out), not 60 (5 x 7 + 3+4+5+6+7)"
  run_dsprof lines naked-$opt.data >naked-$opt.lines || fail "dsprof lines naked-$opt.data: status $?"
  # No block in the naked functions; main's loop body ran 5 times.
  awk -F: -v lo="$SEVEN" -v hi="$MAIN" '$2 + 0 >= lo && $2 + 0 < hi' naked-$opt.lines | grep . \
    && fail "naked-$opt: blocks counted in a naked function"
  grep -qx "naked.c:$LOOP: 5" naked-$opt.lines || fail "naked-$opt: the loop line is not counted 5: $(cat naked-$opt.lines)"
  run_dsprof records naked-$opt.data >naked-$opt.records || fail "dsprof records naked-$opt.data: status $?"
  [ ! -s naked-$opt.records ] || fail "naked-$opt: event records of a naked function: $(cat naked-$opt.records)"

  rm -f inline.o
  if LC_ALL=C gcc -fplugin="$PLUGIN" -I"$TOP/runtime" -$opt -c inline.c 2>inline-$opt.err; then
    fail "inline.c (-$opt): an always_inline event function compiled"
  fi
  TWICE=$(line_of inline.c '^twice (int x)')
  want="inline.c:$TWICE:1: error: dsprof: event function 'twice' cannot be 'always_inline': its hooks need a call of its own"
  [ "$(grep -c 'error:' inline-$opt.err)" -eq 1 ] || fail "inline.c (-$opt): not one error: $(cat inline-$opt.err)"
  [ "$(grep 'error:' inline-$opt.err)" = "$want" ] || fail "inline.c (-$opt): error '$(grep 'error:' inline-$opt.err)', not '$want'"

  LC_ALL=C dscc -$opt -fplugin-arg-dsprof-functions=all -o allinline-$opt allinline.c 2>allinline-$opt.err \
    || fail "allinline.c (-$opt) does not compile: $(cat allinline-$opt.err)"
  [ ! -s allinline-$opt.err ] || fail "allinline.c (-$opt): diagnostics: $(cat allinline-$opt.err)"
  DSPROF_OUT=allinline-$opt.data ./allinline-$opt >allinline-$opt.out || fail "allinline-$opt exited with status $?"
  [ "$(cat allinline-$opt.out)" = 30 ] || fail "allinline-$opt printed $(cat allinline-$opt.out), not 30"
  run_dsprof lines allinline-$opt.data >allinline-$opt.lines || fail "dsprof lines allinline-$opt.data: status $?"
  grep -qx "allinline.c:$(line_of allinline.c '/\* TWICE \*/'): 4" allinline-$opt.lines \
    || fail "allinline-$opt: the always_inline function's line is not counted 4: $(cat allinline-$opt.lines)"
  run_dsprof records allinline-$opt.data >allinline-$opt.records || fail "dsprof records allinline-$opt.data: status $?"
  [ "$(grep -c ' name=thrice ' allinline-$opt.records)" -eq 4 ] || fail "allinline-$opt: not 4 thrice records: $(cat allinline-$opt.records)"
  [ "$(grep -c ' name=main ' allinline-$opt.records)" -eq 1 ] || fail "allinline-$opt: not 1 main record: $(cat allinline-$opt.records)"
  grep ' name=twice ' allinline-$opt.records && fail "allinline-$opt: the always_inline function is an event"
done
exit 0
