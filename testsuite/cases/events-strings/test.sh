# events-strings: char * parameters that are not NUL-terminated strings
# (strings.c).  A string is bounded by the first later parameter of its
# pointer type (a lexer's (p, end): at most end - p bytes) or integer
# parameter named like a length, and read without ever faulting: the bytes of
# a page followed by a PROT_NONE page are what could be read, then "...";
# a string none of which can be read is "(unreadable)"; a string longer than
# DSPROF_STRMAX (1,024 bytes by default) is read up to the limit, and under
# DSPROF_STRMAX=65536 (the most) across pages up to the PROT_NONE page, then
# "..." (expected.max: the 9,000 'z's and "ok").  The end of a
# (p, end) pair is recorded as an address.  Built with -fsanitize=address
# (no report: nothing is read past a bound; the buffers have no NUL) and at
# -O0 and -O2: exit status and output those of the plain build, the records
# derived by hand (expected.txt).
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/strings.c" .
zs () { head -c "$1" /dev/zero | tr '\0' z; }
for f in lex take name; do
  echo "s/@$f@/$(grep -n "^$f (" strings.c | cut -d: -f1)/g"
done >subst.sed
echo "s/@z600@/$(zs 600)/; s/@z1024@/$(zs 1024)/" >>subst.sed
sed -f subst.sed "$CASE/expected.txt" >expected
sed -E "/^#11 /s/ s=z+\.\.\. / s=$(zs 9000)ok... /" expected >expected.max
[ "$(grep -c "s=z\{9000\}ok\.\.\. " expected.max)" -eq 1 ] || fail "expected.max has no 9,000 'z's"

gcc -O2 -I"$TOP/runtime" -o plain strings.c || fail "strings.c does not build plain"
./plain >plain.out || fail "the plain build exited with status $?"
[ "$(cat plain.out)" = 119 ] || fail "the plain build printed $(cat plain.out)"

for build in asan:-O1:-fsanitize=address O0:-O0: O2:-O2:; do
  IFS=: read -r name level flags <<<"$build"
  mkdir "$name" && cp strings.c "$name" && cd "$name"
  dscc $level $flags -o strings strings.c || fail "strings.c ($name) does not build"
  status=0
  ASAN_OPTIONS=detect_leaks=0 ./strings >out 2>err || status=$?
  [ "$status" -eq 0 ] || fail "strings ($name) exited with status $status: $(cat err)"
  [ ! -s err ] || fail "strings ($name) wrote to stderr: $(cat err)"
  expect_same ../plain.out out
  run_dsprof records >records.raw 2>err || fail "dsprof records ($name): status $? ($(cat err))"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /; s/ end=0x[0-9a-f]+ / end=ADDR /' records.raw >records
  expect_same ../expected records
  # The most DSPROF_STRMAX allows.
  status=0
  DSPROF_STRMAX=65536 DSPROF_OUT=max.data ASAN_OPTIONS=detect_leaks=0 ./strings >out 2>err \
    || status=$?
  [ "$status" -eq 0 ] || fail "strings ($name, DSPROF_STRMAX=65536) exited with status $status: $(cat err)"
  [ ! -s err ] || fail "strings ($name, DSPROF_STRMAX=65536) wrote to stderr: $(cat err)"
  expect_same ../plain.out out
  run_dsprof records max.data >max.raw 2>err || fail "dsprof records max.data ($name): status $? ($(cat err))"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /; s/ end=0x[0-9a-f]+ / end=ADDR /' max.raw >max
  expect_same ../expected.max max
  cd ..
done
exit 0
