# report-options-doc: the man page's OPTIONS section is the commands' option
# tables: docs/dsprof.1 between its marking comments is `dsprof help --man`
# (scripts/man-options.sh writes it); every option it lists is in the
# command's --help with the same argument, and is taken by the command (one
# with an argument, given none, is refused for that, not as unknown).
. "$(dirname "$0")/../../lib.sh"

man=$TOP/docs/dsprof.1
sed -n '/^\.\\" fails when it differs\./,/^\.\\" End of the OPTIONS section\.$/p' "$man" \
  | sed '1d;$d' >man-options.txt
[ -s man-options.txt ] || fail "docs/dsprof.1 has no marked OPTIONS section"
"$DSPROF" help --man >tables.txt || fail "dsprof help --man: status $?"
expect_same tables.txt man-options.txt

# Each ".SS CMD" then ".TP" and the option's line: [\fB\-L\fR, ]\fB\-\-NAME\fR[ \fIARG\fR].
n=0 cmd=
while IFS= read -r line; do
  case $line in
    .SS\ *) cmd=${line#.SS }; continue ;;
    .TP) read -r line; [ -n "$cmd" ] || fail "an option before the first command" ;;
    *) continue ;;
  esac
  plain=$(printf '%s\n' "$line" | sed 's/\\f[BIR]//g; s/\\-/-/g')
  opt=${plain#*--}; opt=--${opt%% *}
  arg=${plain#*"$opt"}; arg=${arg# }
  "$DSPROF" $cmd --help >help.txt || fail "dsprof $cmd --help: status $?"
  grep -qF -- "$opt${arg:+ $arg}" help.txt \
    || fail "dsprof $cmd --help does not list '$opt${arg:+ $arg}' as the man page does"
  set +e
  "$DSPROF" $cmd $opt --bogus-after </dev/null >out.txt 2>err.txt
  set -e
  if [ -n "$arg" ]; then
    # The option takes --bogus-after as its argument or refuses it as one.
    ! grep -q "unknown option '$opt'" err.txt \
      || fail "dsprof $cmd $opt: unknown, though the man page lists it"
    "$DSPROF" $cmd $opt </dev/null >out.txt 2>err.txt && fail "dsprof $cmd $opt: no error"
    grep -qx "dsprof $cmd: option '$opt' needs an argument" err.txt \
      || fail "dsprof $cmd $opt said: $(cat err.txt)"
  else
    grep -qx "dsprof $cmd: unknown option '--bogus-after'" err.txt \
      || fail "dsprof $cmd $opt --bogus-after said: $(cat err.txt)"
  fi
  n=$((n + 1))
done <man-options.txt
[ $n -ge 40 ] || fail "only $n options in the man page's OPTIONS section"
exit 0
