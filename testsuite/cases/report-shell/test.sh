# report-shell: `dsprof shell` on examples/expr, driven by piped input and once
# through a terminal (tmux), docs/contract.md §5.5.
. "$(dirname "$0")/../../lib.sh"

dscc -o expr "$TOP/examples/expr/expr.c" || fail "expr.c does not compile"
./expr >/dev/null || fail "expr exited with $?"

# Piped: each line a command; the report lines equal `dsprof report`'s tables.
printf '%s\n' 'name cached' 'where cached=true' 'name' 'where' 'where clear' \
  'unit ns' 'dims' 'help' 'nonsense-dim' 'quit' 'name' | run_dsprof shell >out.txt \
  || fail "shell exited with $?"
tables () { grep -E '^(By |\s+[0-9.]+ +[0-9.]+ )' | awk '{ print $1 == "By" ? $0 : $(NF-2) " " $NF }'; }
run_dsprof report name cached | tables >want1.txt
# The first report of the shell is the first block of its output.
awk '/^Total time/ { n++ } n == 1' out.txt | tables >got1.txt
expect_same want1.txt got1.txt
# where cached=true: one record, the cached value.
awk '/^Total time/ { n++ } n == 2' out.txt | grep -q '^Profile records: 1$' \
  || fail "where cached=true did not filter to one record"
grep -q '^where cached=true$' out.txt || fail "'where' did not list the filter"
grep -q '^cached 6$' out.txt || fail "dims did not list cached 6"
grep -q 'where DIM=VALUE' out.txt || fail "help printed no command list"
# An unknown dimension is an empty value: one row holding all 7 records.
awk '/^Total time/ { n++ } n == 3' out.txt | grep -qE '^Profile records: 7$' \
  || fail "unknown dimension report missing"
# quit ends it: the 'name' after quit never ran (3 reports in all).
[ "$(grep -c '^Total time' out.txt)" = 3 ] || fail "want 3 reports, quit must stop"

# End of input ends it too.
printf 'name\n' | run_dsprof shell >eof.txt || fail "shell at end of input: $?"
grep -q '^By name:$' eof.txt || fail "no report from piped 'name'"

# A terminal: line editing with readline (the prompt, and history: Up recalls).
if command -v tmux >/dev/null; then
  sock=dsprof-test-$$
  # wait_for N PATTERN: until the pane shows PATTERN N times (10 s at most).
  wait_for () {
    for _ in $(seq 100); do
      tmux -L $sock capture-pane -p -S -200 >tty.txt
      [ "$(grep -c -- "$2" tty.txt)" -ge "$1" ] && return 0
      sleep 0.1
    done
    return 1
  }
  tmux -L $sock new-session -d -x 150 -y 50 "$DSPROF shell; sleep 30"
  wait_for 1 'dsprof>' || fail "no prompt on a terminal: $(cat tty.txt)"
  tmux -L $sock send-keys 'name' Enter
  wait_for 1 '^By name:' || fail "no report for 'name': $(cat tty.txt)"
  tmux -L $sock send-keys Up Enter
  wait_for 2 '^By name:' || fail "history (Up, Enter) did not repeat the report: $(cat tty.txt)"
  tmux -L $sock send-keys 'quit' Enter
  sleep 0.3
  tmux -L $sock capture-pane -p -S -200 >tty.txt
  tmux -L $sock kill-server || true
  grep -q 'dsprof>' tty.txt || fail "no prompt on a terminal: $(cat tty.txt)"
  [ "$(grep -c '^By name:' tty.txt)" = 2 ] \
    || fail "history (Up, Enter) did not repeat the report: $(cat tty.txt)"
else
  fail "tmux is not installed (make deps installs it)"
fi
exit 0
