# plugin-select-lua: a selection file on a real program.  Lua 5.4 from Debian's
# lua5.4 source package, unmodified (scripts/lua.sh), built at -O2 with Lua's
# own Makefile plain and with the plugin given lua.sel, which makes
# luaD_precall and the luaH_get* lookups events and Lua's calls of realloc and
# free in l_alloc (lauxlib.c) call-site events, realloc's with the size asked
# for; both run exercise.lua under `setarch -R`.
# 0. docs/select.md shows lua.sel whole, as its worked example.
# 1. The output and exit status are the plain build's.
# 2. The number of realloc events is the count `dsprof lines` gives the line
#    of that call in the same run (and so for free); they are at that line.
# 3. `dsprof report outer:name --where name=realloc --sum size` gives the bytes
#    asked for per enclosing event; its total is the sum of the realloc
#    records' size in `dsprof records`, and some are asked for inside
#    precall events.
# 4. The function events have the dims lua.sel names: nresults on every
#    precall, key on every lookup but luaH_getn's (it has no key).
. "$(dirname "$0")/../../lib.sh"

# docs/select.md shows lua.sel as its worked example: every line of it.
while IFS= read -r l; do
  [ -z "$l" ] || grep -Fxq -- "$l" "$TOP/docs/select.md" || fail "docs/select.md lacks lua.sel's line '$l'"
done <"$CASE/lua.sel"

one_at_a_time lua-src "$TOP/scripts/lua.sh" source >/dev/null || fail "cannot get the lua5.4 source (scripts/lua.sh source)"
cp "$CASE/lua.sel" "$FIXTURES/exercise.lua" .
LUA_EXTRA_CFLAGS= "$TOP/scripts/lua.sh" build plain -O2 plain >build-plain.log 2>&1 ||
  { tail -20 build-plain.log >&2; fail "the plain build of Lua failed"; }
LUA_EXTRA_CFLAGS="-fplugin-arg-dsprof-select=$PWD/lua.sel" \
  "$TOP/scripts/lua.sh" build ds -O2 dsprof >build-ds.log 2>&1 ||
  { tail -20 build-ds.log >&2; fail "the build of Lua with lua.sel failed"; }

run () {  # run NAME: the NAME/ interpreter on exercise.lua -> NAME.out, NAME.status
  local st=0
  DSPROF_OUT=$PWD/$1.data setarch -R "$1/src/lua" exercise.lua >"$1.out" 2>"$1.err" || st=$?
  echo "$st" >"$1.status"
}
run plain; run ds

# 1. Same behaviour.
[ "$(cat plain.status)" = 3 ] || fail "plain Lua: exit status $(cat plain.status), expected 3 ($(head -3 plain.err))"
grep -q '^bye$' plain.out || fail "plain Lua did not finish exercise.lua"
expect_same plain.out ds.out
[ "$(cat ds.status)" = 3 ] || fail "Lua with lua.sel: exit status $(cat ds.status)"
[ ! -s ds.err ] || fail "Lua with lua.sel wrote to stderr: $(head -3 ds.err)"

# 2. realloc and free events against the counts of their lines.  A record
# line is summed up as it streams by (a million of them): how many there are,
# how many are complete at lauxlib.c:LINE, how many have a size (or ptr), how
# many a result, and the sum of the sizes.
run_dsprof lines ds.data >ds.lines || fail "dsprof lines: status $?"
stats () {  # stats NAME LINE
  run_dsprof records --where name=$1 ds.data | awk -v name=$1 -v line=$2 '
    { n++ }
    index($0, " event=" name " name=" name " file=lauxlib.c line=" line " thread=1 ") && / complete=true$/ { at++ }
    match($0, / size=[0-9]+ /) { sized++; sum += substr($0, RSTART + 6, RLENGTH - 7) }
    / ptr=(0x[0-9a-f]+|\(null\)) complete=true$/ { ptr++ }
    / result=/ { res++ }
    END { printf "%d %d %d %d %d %.0f\n", n, at, sized, ptr, res, sum }' >$1.stats ||
    fail "dsprof records --where name=$1: status $?"
  read -r n at sized ptr res sum <$1.stats
}
for call in 'realloc(ptr, nsize)' 'free(ptr)'; do
  name=${call%%(*}
  line=$(grep -nF "$call;" ds/src/lauxlib.c | cut -d: -f1)
  [ "$(echo "$line" | wc -w)" = 1 ] || fail "not one line of $call in lauxlib.c: '$line'"
  counts=$(awk -F': ' -v at="lauxlib.c:$line" '$1 == at { print $2 }' ds.lines)
  [ "$(echo "$counts" | wc -w)" = 1 ] || fail "not one block on lauxlib.c:$line: '$counts'"
  stats $name $line
  [ "$n" -gt 100 ] || fail "only $n $name events"
  [ "$n" = "$counts" ] || fail "$n $name events, but line $line ran $counts times"
  [ "$at" = "$n" ] || fail "$((n - at)) of the $name events are not complete at lauxlib.c:$line"
  case $name in
    realloc) [ "$sized" = "$n" ] && [ "$res" = "$n" ] ||
               fail "of $n realloc events, $sized have a size and $res a result"
             total=$sum ;;
    free) [ "$ptr" = "$n" ] && [ "$res" = 0 ] ||
            fail "of $n free events, $ptr have a ptr and $res a result (result=drop)" ;;
  esac
done

# 3. The bytes asked for, per enclosing event.
run_dsprof report outer:name --where name=realloc --sum size --format csv ds.data >outer.csv ||
  fail "dsprof report outer:name --sum size: status $?"
head -1 outer.csv | grep -q ',sum(size)$' || fail "no sum(size) column: $(head -1 outer.csv)"
sum=$(awk -F, 'NR > 1 { s += $NF } END { printf "%.0f", s }' outer.csv)
[ "$sum" = "$total" ] || fail "report's sum(size) totals $sum, the records' sizes $total: $(cat outer.csv)"
grep -q '^1,luaD_precall,' outer.csv || fail "no realloc inside a precall event: $(cat outer.csv)"
cat outer.csv

# 4. The function events' dims.
run_dsprof report event --format csv ds.data >events.csv || fail "dsprof report event: status $?"
for e in precall lookup realloc free; do
  grep -q "^1,$e," events.csv || fail "no $e events: $(cat events.csv)"
done
run_dsprof dims ds.data >dims || fail "dsprof dims: status $?"
for d in nresults key size ptr; do
  grep -q "^$d [1-9]" dims || fail "no dimension $d: $(cat dims)"
done
for d in L func t ud nsize; do
  grep -q "^$d " dims && fail "dimension $d, which lua.sel does not name: $(cat dims)"
done
# nresults on every precall event; key on the lookups but luaH_getn's.
precalls=$(awk -F, '$2 == "precall" { print $9 }' events.csv)
[ "$(awk '$1 == "nresults" { print $2 }' dims)" = "$precalls" ] || fail "not every precall has nresults: $(cat dims)"
lookups=$(awk -F, '$2 == "lookup" { print $9 }' events.csv)
run_dsprof report name --where event=lookup --format csv ds.data >lookups.csv || fail "dsprof report name: status $?"
getn=$(awk -F, '$2 == "luaH_getn" { print $9 }' lookups.csv)
[ "$(awk '$1 == "key" { print $2 }' dims)" = "$((lookups - ${getn:-0}))" ] ||
  fail "key is not on every lookup but luaH_getn's: $(cat dims lookups.csv)"
exit 0
