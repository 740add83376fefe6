# report-progress: the progress line of the commands that read whole profiles
# (docs/contract.md §5): on a terminal, "dsprof: reading NAME: N %" rewritten
# with \r and cleared at the end; nothing in a file or a pipe, and the same
# output either way.  DSPROF_PROGRESS_DELAY=0 (seconds before the first line;
# 1 by default) lets a small profile show it; script(1) gives stderr a
# terminal.
# 1. report, html, export, merge and diff show it on a terminal, cleared at
#    the end, and write the same bytes to their output as with stderr a file
#    or a pipe, where nothing is written on stderr.
# 2. A delay longer than the run shows nothing; so does a command that does
#    not read whole profiles (records), and an export written to the terminal.
. "$(dirname "$0")/../../lib.sh"

dscc -O1 -o many "$CASE/many.c" || fail "many.c does not compile"
[ "$(./many 200000)" = 100000 ] || fail "many printed the wrong result"
chunks=$(run_dsprof info | sed -n 's/^event stream: .* in \([0-9]*\) chunks$/\1/p')
[ "${chunks:-0}" -ge 4 ] || fail "the profile has ${chunks:-no} chunks, not 4 or more"

# on_tty FILE CMD...: CMD with stderr (and stdin) a terminal, stdout into
# FILE; what the terminal showed into tty.txt.
on_tty () {
  local out=$1
  shift
  script -qec "$(printf '%q ' "$@") >$out" /dev/null >tty.txt ||
    fail "$*: status $? on a terminal: $(cat tty.txt)"
}

export DSPROF_PROGRESS_DELAY=0
for cmd in "report" "html -o -" "export --format perfetto" \
           "merge -o - dsprof.data" "diff dsprof.data dsprof.data"; do
  # shellcheck disable=SC2086
  on_tty tty.out "$DSPROF" $cmd
  grep -aq "dsprof: reading dsprof.data: [0-9]* %" tty.txt ||
    fail "$cmd: no progress on a terminal: $(od -c tty.txt | head -5)"
  [ "$(tr -cd '\r' <tty.txt | wc -c)" -ge 3 ] ||
    fail "$cmd: the progress line is not rewritten: $(od -c tty.txt | head -5)"
  # Cleared: the last line shown is blanks, ended by \r.
  last=$(tr '\r' '\n' <tty.txt | tail -n 1)
  [ -z "$(echo "$last" | tr -d ' ')" ] && [ "$(tail -c 1 tty.txt)" = "$(printf '\r')" ] ||
    fail "$cmd: the progress line is not cleared: $(tail -c 120 tty.txt | od -c)"
  # shellcheck disable=SC2086
  run_dsprof $cmd >file.out 2>file.err || fail "$cmd: status $?"
  [ ! -s file.err ] || fail "$cmd: stderr a file: $(cat file.err)"
  # shellcheck disable=SC2086
  { run_dsprof $cmd >pipe.out; } 2>&1 | cat >pipe.err
  [ ! -s pipe.err ] || fail "$cmd: stderr a pipe: $(cat pipe.err)"
  cmp tty.out file.out || fail "$cmd: output differs with stderr a terminal"
  cmp pipe.out file.out || fail "$cmd: output differs with stderr a pipe"
done

# ---- 2. nothing ----
DSPROF_PROGRESS_DELAY=1000 on_tty tty.out "$DSPROF" report
! grep -aq "reading" tty.txt || fail "progress before the delay: $(cat tty.txt)"
on_tty tty.out "$DSPROF" records
! grep -aq "reading" tty.txt || fail "records shows progress: $(cat tty.txt)"
script -qec "$DSPROF export --format csv" /dev/null >tty.txt ||
  fail "export to the terminal: status $?"
grep -aq "^record,pid" tty.txt || fail "no csv on the terminal: $(head -c 200 tty.txt)"
! grep -aq "reading" tty.txt || fail "progress amid the export on the terminal"
echo "report-progress: ok"
