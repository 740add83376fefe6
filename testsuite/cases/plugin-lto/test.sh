# plugin-lto: link-time optimisation.  Two units, main.c calling step () of
# step.c across units and an event function of its own, built at -O2 without
# LTO, with -flto, with -flto -ffat-lto-objects (linked with and without
# -flto), and with the plugin given to the -flto link as well (which makes the
# counter stores plain at link time, as in a build without LTO): every build
# compiles without a dsprof or GCC diagnostic, prints the same output, and
# gives the same `dsprof lines` and the same event records (step 10 times,
# twice 20 times, with the same arguments) as the build without LTO; the same
# with update=thread.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/main.c" "$CASE/step.c" .

# build NAME COMPILE-FLAGS LINK-FLAGS: the program NAME, its profile NAME.data.
build () {
  local name=$1 cflags=$2 lflags=$3 u
  for u in main step; do
    gcc -O2 -fplugin="$PLUGIN" $cflags -I"$TOP/runtime" -c $u.c -o "$name-$u.o" 2>"$name.err" \
      || fail "$name: $u.c does not compile with $cflags: $(cat "$name.err")"
    [ ! -s "$name.err" ] || fail "$name: diagnostics compiling $u.c: $(cat "$name.err")"
  done
  gcc -O2 $lflags "$name-main.o" "$name-step.o" -o "$name" -L"$TOP/runtime" -ldsprof -lpthread 2>"$name.err" \
    || fail "$name: link with $lflags failed: $(cat "$name.err")"
  [ ! -s "$name.err" ] || fail "$name: diagnostics at link: $(cat "$name.err")"
  DSPROF_OUT=$name.data "./$name" 30 >"$name.out" || fail "$name exited with status $?"
  run_dsprof lines "$name.data" >"$name.lines" || fail "dsprof lines $name.data: status $?"
  run_dsprof records "$name.data" | sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' >"$name.records" \
    || fail "dsprof records $name.data failed"
}

build plain "" ""
[ "$(cat plain.out)" = 623 ] || fail "the program printed $(cat plain.out), not 623"
[ "$(grep -c ' name=step ' plain.records)" -eq 10 ] || fail "not 10 step records: $(cat plain.records)"
[ "$(grep -c ' name=twice ' plain.records)" -eq 20 ] || fail "not 20 twice records: $(cat plain.records)"
grep -q '^step\.c:' plain.lines || fail "no lines of step.c: $(cat plain.lines)"
grep -q '^main\.c:' plain.lines || fail "no lines of main.c: $(cat plain.lines)"

build lto "-flto" "-flto"
build fat "-flto -ffat-lto-objects" "-flto"
build fatnolto "-flto -ffat-lto-objects" ""
build ltoplugin "-flto" "-flto -fplugin=$PLUGIN"
# update=thread: its counters move into the threads' shards where the plugin
# runs last, at link time with -flto; linked without it, the units count in
# their own arrays, registered as such.
T=-fplugin-arg-dsprof-update=thread
build thread "$T" ""
build threadlto "-flto $T" "-flto"
build threadltoplugin "-flto $T" "-flto -fplugin=$PLUGIN $T"
build threadfatnolto "-flto -ffat-lto-objects $T" ""
for b in lto fat fatnolto ltoplugin thread threadlto threadltoplugin threadfatnolto; do
  expect_same plain.out $b.out
  expect_same plain.lines $b.lines
  expect_same plain.records $b.records
done

# With the plugin at link time, the counter increments are single
# instructions again (`addq $1, counter'), as without LTO.
objdump -d ltoplugin | grep -qE 'addq +\$0x1,0x[0-9a-f]+\(%rip\) +# [0-9a-f]+ <__dsprof_counters' \
  || fail "ltoplugin: no counter increment made plain at link time"
