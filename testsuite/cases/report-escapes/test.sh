# report-escapes: no text output of the dsprof command hands a recorded string
# to the terminal raw.  hostile.c records queries holding an OSC title change,
# an OSC 52 clipboard write, CSI sequences, the 8-bit CSI byte alone and as
# UTF-8 (U+009B), a newline and a carriage return, under an event type with an
# escape in it, from a source file whose name holds one.  Every text command
# (info, dims, lines, report, records, trace, callgraph, dot, summary, diff, shell,
# top --batch, annotate's messages) writes them escaped (text_plain: \xHH, \n)
# on stdout and stderr: no control character but newline, no C1 control, no
# byte outside UTF-8; the escaped text is there (nothing is dropped).  Under
# tmux, `report` and the terminal view of `top` leave the window's title alone.
. "$(dirname "$0")/../../lib.sh"

src=$(printf 'hos\033[7mtile.c')
cp "$CASE/hostile.c" "$src"
dscc -O2 -o hostile "$src" || fail "hostile.c does not compile"
DSPROF_OUT=a.data ./hostile || fail "hostile: status $?"
DSPROF_OUT=b.data ./hostile || fail "hostile (b): status $?"

# clean FILE WHAT: FILE holds no control character but newline, no C1 control
# (U+0080 to U+009F) and no byte outside UTF-8.
clean () {
  python3 - "$1" <<'PY' || fail "$2 wrote a control sequence: $(od -c "$1" | head -20)"
import re, sys
b = open(sys.argv[1], "rb").read()
try:
    t = b.decode("utf-8")
except UnicodeDecodeError as e:
    print(e); sys.exit(1)
bad = re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", t)
if bad:
    print("control character %r at %d" % (bad.group(), bad.start())); sys.exit(1)
PY
}

n=0
# run WHAT ARGS...: run dsprof ARGS (status 0), its stdout and stderr clean.
run () {
  n=$((n + 1))
  run_dsprof "$@" >out.$n 2>err.$n </dev/null || fail "dsprof $*: status $? ($(cat -v err.$n))"
  clean out.$n "dsprof $* (stdout)"
  clean err.$n "dsprof $* (stderr)"
}
run info a.data
run info --count a.data
run dims a.data
run lines a.data
grep -qF 'hos\x1b[7mtile.c:' out.$n || fail "lines: no escaped file name: $(cat out.$n)"
run report sql a.data
grep -qF '\x1b]0;owned\x07 select 1' out.$n || fail "report: no escaped OSC title: $(cat out.$n)"
grep -qF '\x1b]52;c;ZWNobyBwd25lZA==\x07' out.$n || fail "report: no escaped OSC 52: $(cat out.$n)"
grep -qF 'two\nlines\x0dback' out.$n || fail "report: no escaped newline: $(cat out.$n)"
grep -qF '\x9b31m eight-bit CSI' out.$n || fail "report: no escaped 8-bit CSI: $(cat out.$n)"
grep -qF '\xc2\x9b31m C1 as UTF-8' out.$n || fail "report: no escaped U+009B: $(cat out.$n)"
run report event name file line a.data
grep -qF 'Query\x1b[2J' out.$n || fail "report: no escaped event type: $(cat out.$n)"
run report sql --where 'name=query' a.data
run records a.data
run trace a.data
run callgraph --dim sql a.data
run callgraph --dim event a.data
run dot --dim sql a.data
grep -qF '\\x1b]52;c;' out.$n || fail "dot: no escaped OSC 52: $(cat out.$n)"
run summary a.data
run diff a.data b.data sql
run diff --lines a.data b.data
printf 'sql\nevent sql\nwhere name=query\nwhere\ndims\n' >shell.in
n=$((n + 1))
run_dsprof shell a.data <shell.in >out.$n 2>err.$n || fail "dsprof shell: status $?"
clean out.$n "dsprof shell (stdout)"
clean err.$n "dsprof shell (stderr)"
grep -qF '\x1b]52;c;' out.$n || fail "shell: no escaped OSC 52: $(cat out.$n)"
run top --batch 2 -d 0.1 a.data sql
grep -qF '\x1b]0;owned\x07' out.$n || fail "top: no escaped OSC title: $(cat out.$n)"
# annotate names the source it cannot read on stderr.
mv "$src" gone.c
n=$((n + 1))
run_dsprof annotate a.data >out.$n 2>err.$n || true
clean err.$n "dsprof annotate (stderr)"
grep -qF 'hos\x1b[7mtile.c' err.$n || fail "annotate: no escaped file name: $(cat err.$n)"
mv gone.c "$src"

# Under tmux: the window's title stays as set.
command -v tmux >/dev/null || "$TOP/scripts/deps.sh" install tmux || true
command -v tmux >/dev/null || fail "tmux is not installed (make deps installs it)"
sock=dsprof-esc-$$
trap 'tmux -L $sock kill-server 2>/dev/null || true' EXIT
tmux -L $sock new-session -d -x 150 -y 50 "sleep 60"
tmux -L $sock select-pane -T clean-title
title () { tmux -L $sock display-message -p '#{pane_title}'; }
[ "$(title)" = clean-title ] || fail "tmux does not keep a pane title: $(title)"
# shown CMD: run CMD in the pane until it prints END.
shown () {
  tmux -L $sock respawn-pane -k "$1; echo END; sleep 60"
  for _ in $(seq 100); do
    tmux -L $sock capture-pane -p >tty.txt
    grep -q '^END' tty.txt && return 0
    sleep 0.1
  done
  fail "'$1' did not end under tmux: $(cat tty.txt)"
}
shown "$DSPROF report sql a.data; $DSPROF records a.data; $DSPROF lines a.data"
[ "$(title)" = clean-title ] || fail "report retitled the window: $(title)"
grep -qF 'owned\x07' tty.txt || fail "report under tmux: no escaped title: $(cat tty.txt)"
# The first frame (everything since the start) stays up: no refresh for 60 s.
tmux -L $sock respawn-pane -k "$DSPROF top -d 60 a.data sql; echo END; sleep 60"
# screen PATTERN: until the pane shows PATTERN (10 s at most).
screen () {
  for _ in $(seq 100); do
    tmux -L $sock capture-pane -p >tty.txt
    grep -qF -- "$1" tty.txt && return 0
    sleep 0.1
  done
  fail "top under tmux: no '$1' on the screen: $(cat tty.txt)"
}
screen 'hos\x1b[7mtile.c:'
tmux -L $sock send-keys r
screen '\x1b]52;c;ZWNobyBwd25lZA==\x07'
[ "$(title)" = clean-title ] || fail "top retitled the window: $(title)"
tmux -L $sock send-keys q
tmux -L $sock kill-server || true
exit 0
