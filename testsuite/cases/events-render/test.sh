# events-render: every value rendering rule of docs/contract.md §4.2 and §4.3, checked field
# by field in `dsprof records` (expected.txt, written from render.c by hand;
# @L:f@ is the line of f's definition, @A:x@ the address render prints for x).
#   integers of every width at their limits, _Bool, enum names and an unknown
#   enumerator as its number, float/double/long double with %g, plain, const,
#   signed and unsigned char pointers as text, 64 bytes then "..." (the
#   program runs with DSPROF_STRMAX=64, so the strings of 63, 64, 65 and 100
#   bytes and the formatters' texts straddle the limit), NULL as
#   (null), quoting and C escapes, other pointers as 0x..., formatters (also
#   over 64 bytes), structs/unions by value not recorded, void and struct
#   results absent, dsprof_dim_* of every type in the order added, and a
#   dimension clash where the parameter's (Start's) value wins; a string
#   parameter the function changes keeps its text at entry; qualified and
#   typedef'd parameter types, a char array parameter (a char *) as text, and
#   a call through a function pointer.  At -O0 and -O2.
. "$(dirname "$0")/../../lib.sh"

for opt in O0 O2; do
  mkdir "$opt" && cd "$opt"
  cp "$FIXTURES/render.c" .
  dscc -$opt -o render render.c || fail "render.c does not compile at $opt"
  DSPROF_STRMAX=64 ./render >render.out || fail "render ($opt) exited with status $?"
  [ -f dsprof.data ] || fail "no dsprof.data ($opt)"

  # The substitutions: @L:name@ from the marker comments, @A:name@ from render's
  # output.
  {
    grep -n '/\* @[a-z_]* \*/$' render.c \
      | sed -E 's|^([0-9]+):.*/\* @([a-z_]*) \*/$|s/@L:\2@/\1/g|'
    awk '$1 == "ADDR" { print "s/@A:" $2 "@/" $3 "/g" }' render.out
  } >subst.sed
  [ "$(grep -c '@L:' subst.sed)" -eq 23 ] || fail "expected 23 marked definitions in render.c"
  [ "$(grep -c '@A:' subst.sed)" -eq 5 ] || fail "render printed no addresses: $(cat render.out)"
  sed -f subst.sed "$CASE/expected.txt" >expected

  run_dsprof records >records.raw 2>records.err \
    || fail "dsprof records: status $? ($(cat records.err))"
  # Durations vary: drop them (checked to be present).  A NULL pointer with a
  # formatter is not passed to the formatter; docs/contract.md leaves its text open between
  # 0x0 and (null).
  grep -Ev '^#[0-9]+ [0-9]+ns ' records.raw && fail "records without a duration"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /; s/ null_pt=(0x0|\(null\)) / null_pt=@NULLPTR@ /' \
    records.raw >records
  expect_same expected records
  cd ..
done
exit 0
