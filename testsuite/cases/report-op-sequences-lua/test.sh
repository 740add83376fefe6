# report-op-sequences-lua: the op sequences of Lua 5.4 (docs/vm.md,
# "Sequences of opcodes") on exercise.lua, Lua built from Debian's source as
# counters-lua and plugin-select-dispatch-lua build it (scripts/lua.sh), at
# -O2 with lua.sel: dispatch luaV_execute, and luaV_execute an event, each of
# its calls a record holding that call's op records.  exercise.lua calls Lua
# from C (pcall, table.sort's comparator, metamethods, gsub with a function),
# each such call a call of luaV_execute nested in the op record that led to
# it.  The pair table `dsprof report prev:name name` and the seq2/3/4:name
# tables hold exactly the sequences that report-op-sequences's seqcheck.py
# counts from `dsprof trace` by the luaV_execute record each op record
# starts in; and nested calls there are (a first opcode inside another op
# record).
. "$(dirname "$0")/../../lib.sh"

one_at_a_time lua-src "$TOP/scripts/lua.sh" source >/dev/null ||
  fail "cannot get the lua5.4 source (scripts/lua.sh source)"
cp "$CASE/lua.sel" .
for v in plain:plain: ds:dsprof:lua.sel; do
  IFS=: read -r dir variant sel <<<"$v"
  extra=; [ -z "$sel" ] || extra="-fplugin-arg-dsprof-select=$PWD/$sel"
  LUA_EXTRA_CFLAGS="$extra" "$TOP/scripts/lua.sh" build "$dir" -O2 "$variant" \
    >"build-$dir.log" 2>&1 || { tail -20 "build-$dir.log" >&2; fail "the $dir build of Lua failed"; }
done
lua_exercise plain ds

mkdir t
run_dsprof report prev:name name --where event=op --format csv ds.data >t/pairs.csv ||
  fail "report prev:name name: status $?"
for n in 2 3 4; do
  run_dsprof report seq$n:name --where event=op --format csv ds.data >t/seq$n.csv ||
    fail "report seq$n:name: status $?"
done
run_dsprof trace ds.data >ds.trace || fail "trace: status $?"
python3 "$TOP/testsuite/cases/report-op-sequences/seqcheck.py" ds.trace t ||
  fail "the tables differ from the trace's sequences (above)"

# Nested calls of luaV_execute: op records whose parent is an op record.
run_dsprof report parent --where event=execute --format csv ds.data >nested.csv ||
  fail "report parent: status $?"
grep -q '^1,OP_[A-Z]*,' nested.csv || fail "no call of luaV_execute inside an op record: $(cat nested.csv)"
exit 0
