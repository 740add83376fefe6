# plugin-select: -fplugin-arg-dsprof-select=FILE (docs/select.md) on a program
# with no annotation at all (prog.c), at -O0 and -O2: sel.txt's `event'
# directives give the events their types, the dims they name and the result
# or not; its `call' directives make the calls of realloc, malloc (in main
# only), free and risky (outside.c, built without the plugin) events in their
# callers, with the named arguments as dims, at the call's line, nested in
# the caller's own event; risky's longjmp back to main leaves its call's event
# open, which is repaired (complete=false) and the events after it are
# recorded; `exclude' keeps quiet_helper from counters and events although an
# `event' directive selects it.  A `dispatch' directive makes vm.c's run a
# dispatch function, in the files its file= matches only (vm.sel, vm-other.sel).  An
# annotated function that a directive also selects keeps its attribute's
# type, dims and result (attr.c).  A call that does not return (exit) is
# closed at exit; a call through a pointer or of a __builtin_ function is no
# event (exit.c).  A function of the program a `call' directive names is not
# inlined, so the call sites in it nest inside its call's event (inline.c).
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/prog.c" "$CASE/outside.c" "$CASE/sel.txt" "$CASE/attr.c" "$CASE/attr.sel" .
line_of () { grep -n "/\\* $1 \\*/" prog.c | cut -d: -f1; }
REALLOC=$(line_of REALLOC) MALLOC=$(line_of MALLOC) FREE=$(line_of FREE) RISKY=$(line_of RISKY)
RISKY2=$(line_of RISKY2)
QUIET=$(grep -n '^quiet_helper' prog.c | cut -d: -f1)

gcc -c outside.c -o outside.o || fail "outside.c does not compile"
# only RECORDS-FILE PATTERN...: the records matching every PATTERN (grep -E)
only () {
  local f=$1
  shift
  cp "$f" only.tmp
  for p in "$@"; do grep -E -- "$p" only.tmp >only.next || true; mv only.next only.tmp; done
  cat only.tmp
}
count () { only "$@" | wc -l; }

for o in -O0 -O2; do
  dscc $o -fplugin-arg-dsprof-select=sel.txt -o prog prog.c outside.o \
    || fail "prog.c does not compile at $o with sel.txt"
  rm -f prog.data
  out=$(DSPROF_OUT=prog.data ./prog) || fail "prog ($o): exit status $?"
  [ "$out" = 19 ] || fail "prog ($o) printed '$out', not 19"
  run_dsprof records prog.data >rec || fail "dsprof records ($o): status $?"

  # Function events: type, the dims named, the result kept or dropped.
  [ "$(count rec ' event=Grow name=grow ' ' n=(100|200|300) ' ' result=0x' 'complete=true')" = 3 ] \
    || fail "$o: not 3 Grow events with n and a result: $(cat rec)"
  [ "$(count rec ' name=grow ' ' p=')" = 0 ] || fail "$o: grow's p is a dim, dims=n said not"
  [ "$(count rec ' event=lookup name=lookup ' ' key=abc complete=true')" = 1 ] \
    || fail "$o: no lookup event with key=abc and no result: $(cat rec)"
  [ "$(count rec ' name=lookup ' 'depth=|result=')" = 0 ] || fail "$o: lookup has depth or a result: $(cat rec)"
  [ "$(count rec ' event=helper name=helper ' ' x=(3|1) result=(6|2) ')" = 2 ] \
    || fail "$o: not 2 helper events with x and result: $(cat rec)"
  # Excluded: no event, no counters.
  [ "$(count rec quiet)" = 0 ] || fail "$o: quiet_helper, excluded, has events"
  run_dsprof lines prog.data >lines || fail "dsprof lines ($o): status $?"
  grep -q "^prog.c:$QUIET:" lines && fail "$o: quiet_helper, excluded, has counters"
  grep -q "^prog.c:$REALLOC:" lines || fail "$o: grow has no counters: $(cat lines)"

  # Call sites: the callee, the call's line, the named arguments, the result.
  [ "$(count rec " event=realloc name=realloc file=prog.c line=$REALLOC " ' size=(100|200|300) result=0x.* complete=true')" = 3 ] \
    || fail "$o: not 3 realloc events at line $REALLOC with size and result: $(cat rec)"
  [ "$(count rec ' name=malloc ')" = 1 ] || fail "$o: not 1 malloc event (in=main): $(cat rec)"
  [ "$(count rec " event=malloc name=malloc file=prog.c line=$MALLOC " ' bytes=16 result=0x')" = 1 ] \
    || fail "$o: main's malloc event lacks its line, bytes or result: $(cat rec)"
  [ "$(count rec ' event=free name=free file=prog.c ' ' ptr=0x[0-9a-f]+ complete=true')" = 2 ] \
    || fail "$o: not 2 free events with ptr as an address and no result: $(cat rec)"
  [ "$(count rec " event=free name=free file=prog.c line=$FREE ")" = 1 ] || fail "$o: no free event at line $FREE"
  # Nesting: each realloc inside a grow.
  run_dsprof report parent --where name=realloc --format csv prog.data >parent.csv || fail "dsprof report parent ($o): status $?"
  grep -q '^1,grow,.*,3,100.00*$' parent.csv || fail "$o: realloc's parent is not grow 3 times: $(cat parent.csv)"
  # Repair: risky(7) longjmps out; its event is closed incomplete, and the
  # events after it (helper(1)) are recorded.
  [ "$(count rec " event=Risky name=risky file=prog.c line=$RISKY " ' code=0 result=1 complete=true')" = 1 ] \
    || fail "$o: risky(0) is not a complete Risky event with code and result: $(cat rec)"
  [ "$(count rec " event=Risky name=risky file=prog.c line=$RISKY2 " ' code=7 complete=false')" = 1 ] \
    || fail "$o: risky(7), left by longjmp, is not an incomplete Risky event: $(cat rec)"
  [ "$(count rec ' name=helper ' ' x=1 ' 'complete=true')" = 1 ] || fail "$o: helper(1) after the longjmp is missing"
  # ... before helper(1) starts, at the top level.
  run_dsprof trace prog.data >trace || fail "dsprof trace ($o): status $?"
  awk '/ Abandon event=Risky / { a = NR } / Start event=helper .* x=1$/ { h = NR }
       END { exit !(a && h && a < h) }' trace || fail "$o: risky(7) is not repaired before helper(1) starts: $(cat trace)"
  run_dsprof report depth --where name=helper --format csv prog.data >depth.csv || fail "dsprof report depth ($o): status $?"
  grep -q '^1,0,.*,2,100.00*$' depth.csv || fail "$o: not both helper events at depth 0: $(cat depth.csv)"
done

# `include' in the file joins include= of the command line: grow and main
# from the file, helper from the argument, nothing else.
printf 'include grow main\n' >inc.sel
dscc -O0 -fplugin-arg-dsprof-select=inc.sel -fplugin-arg-dsprof-include=helper -o inc prog.c outside.o \
  || fail "prog.c does not compile with inc.sel"
DSPROF_OUT=inc.data ./inc >/dev/null || fail "inc: exit status $?"
run_dsprof lines inc.data >inc.lines || fail "dsprof lines inc.data: status $?"
for fn in grow main helper lookup quiet_helper make_buf; do
  at=$(grep -n "^$fn " prog.c | cut -d: -f1)
  case $fn in grow|main|helper) want=yes ;; *) want=no ;; esac
  got=no
  grep -q "^prog.c:$((at + 2)):" inc.lines && got=yes   # its first statement
  [ "$got" = "$want" ] || fail "include grow main + include=helper: $fn counted: $got, not $want: $(cat inc.lines)"
done

# A call that does not return (exit) leaves its event open; it is closed
# complete=false.  A call through a pointer is no call-site event.
cp "$CASE/exit.c" "$CASE/exit.sel" .
dscc -O2 -fplugin-arg-dsprof-select=exit.sel -o exit exit.c || fail "exit.c does not compile with exit.sel"
st=0
DSPROF_OUT=exit.data ./exit 4 >exit.out || st=$?
[ "$st" = 4 ] || fail "exit: status $st, not 4"
run_dsprof records exit.data >exit.rec || fail "dsprof records exit.data: status $?"
[ "$(wc -l <exit.rec)" = 2 ] || fail "exit.c: not 2 records: $(cat exit.rec)"
grep -Eq " event=puts name=puts file=exit.c line=$(grep -n PUTS exit.c | cut -d: -f1) thread=1 s=direct result=[0-9]+ complete=true" exit.rec \
  || fail "exit.c: the direct puts is not an event: $(cat exit.rec)"
grep -Eq " event=exit name=exit file=exit.c line=$(grep -n EXIT exit.c | cut -d: -f1) thread=1 code=4 complete=false" exit.rec \
  || fail "exit.c: the exit call is not an incomplete event: $(cat exit.rec)"

# A function of the program a `call' directive names stays a call, so the
# call-site events inside it nest inside its own.
cp "$CASE/inline.c" "$CASE/inline.sel" .
dscc -O2 -fplugin-arg-dsprof-select=inline.sel -o inline inline.c || fail "inline.c does not compile with inline.sel"
DSPROF_OUT=inline.data ./inline >/dev/null || fail "inline: exit status $?"
run_dsprof records inline.data >inline.rec || fail "dsprof records inline.data: status $?"
[ "$(count inline.rec ' event=More name=more ' ' n=(16|32|48) result=0x.* complete=true -> #')" = 3 ] \
  || fail "inline.c: not 3 complete More events with a child: $(cat inline.rec)"
run_dsprof report parent --where name=realloc --format csv inline.data >inline.csv || fail "dsprof report parent inline.data: status $?"
grep -q '^1,more,.*,3,100.00*$' inline.csv || fail "inline.c: realloc's parent is not more 3 times: $(cat inline.csv)"

# verbose names the call site events of each function.
gcc -fplugin="$PLUGIN" -fplugin-arg-dsprof-verbose -fplugin-arg-dsprof-select=sel.txt -c prog.c 2>verbose.err \
  || fail "verbose: gcc failed: $(cat verbose.err)"
grep -q ': grow: .*, event hooks, 1 call site events$' verbose.err || fail "verbose: grow's line: $(cat verbose.err)"
grep -q ': main: .*counters), 4 call site events$' verbose.err || fail "verbose: main's line: $(cat verbose.err)"
grep -q ': make_buf: .*counters)$' verbose.err || fail "verbose: make_buf's line: $(cat verbose.err)"

# An annotated function keeps its attribute's type, dims and result.
dscc -O2 -fplugin-arg-dsprof-select=attr.sel -o attr attr.c || fail "attr.c does not compile with attr.sel"
out=$(DSPROF_OUT=attr.data ./attr) || fail "attr: exit status $?"
[ "$out" = 3 ] || fail "attr printed '$out'"
run_dsprof records attr.data >attr.rec || fail "dsprof records attr.data: status $?"
grep -Eq ' event=Attr name=both .* a=1 b=2 result=3 complete=true' attr.rec \
  || fail "the annotated function did not keep its attribute's event: $(cat attr.rec)"

# A dispatch directive: vm.c's run gives op records (PUSH 3 times, ADD twice,
# HALT once), unless its file= matches no file.
cp "$CASE/vm.c" "$CASE/vm.sel" "$CASE/vm-other.sel" .
for sel in vm.sel vm-other.sel; do
  dscc -O2 -fplugin-arg-dsprof-select=$sel -o vm vm.c || fail "vm.c does not compile with $sel"
  out=$(DSPROF_OUT=$sel.data ./vm) || fail "vm ($sel): exit status $?"
  [ "$out" = 10 ] || fail "vm ($sel) printed '$out', not 10"
  run_dsprof report name --where event=op --format csv $sel.data >$sel.csv \
    || fail "dsprof report name $sel.data: status $?"
done
for want in 'PUSH,3' 'ADD,2' 'HALT,1'; do
  grep -Eq "^1,${want%,*},.*,${want#*,},[0-9.]+\$" vm.sel.csv || fail "vm.sel: no $want op records: $(cat vm.sel.csv)"
done
! grep -q PUSH vm-other.sel.csv || fail "vm-other.sel: op records although file= matches no file"

# Without the selection file, prog.c has no events.
dscc -O2 -o plain prog.c outside.o || fail "prog.c does not compile without sel.txt"
DSPROF_OUT=plain.data ./plain >/dev/null || fail "plain: exit status $?"
run_dsprof records plain.data >plain.rec || fail "dsprof records plain.data: status $?"
[ ! -s plain.rec ] || fail "prog.c without sel.txt has events: $(cat plain.rec)"
exit 0
