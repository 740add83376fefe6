# events-dispatch-lua: op records of a real VM with no source edit.  Lua 5.4 from
# Debian's lua5.4 source package (scripts/lua.sh), unmodified, built at -O2 with
# Lua's own Makefile three times:
#   plain/   nothing
#   jt/      the plugin with dispatch=luaV_execute, Lua's default dispatch:
#            its computed-goto jump table (ljumptab.h: vmcase(l) is L_##l:)
#   sw/      the same with -DLUA_USE_JUMPTABLE=0: Lua's `switch' on an OpCode
# and run on exercise.lua under `setarch -R`.
# 1. The dispatch builds print the same output and exit with the same status
#    (3, from os.exit) as the plain one, and write nothing to stderr.
# 2. In each, every op record has function=luaV_execute and is on the
#    `vmcase(OP)' line of lvm.c naming its opcode, named OP in both builds
#    (sw: the case's enumerator, jt: the argument the label L_OP is written
#    from), `vmcase(OP_TFORCALL) { l_tforcall:' included; `dsprof lines
#    --ops' gives its record count on that line; where
#    `dsprof lines' lists that line, its count (every entry into the
#    label's code: dispatches, fall-throughs, gotos) is at least the
#    opcode's record count; dozens of opcodes ran.
# 3. The two builds give the same records by name, line and count: a record starts
#    at a dispatch, so OP_TFORPREP's `goto l_tforcall' and OP_TFORCALL's
#    `goto l_tforloop' start none in either (OP_TFORCALL's records are as
#    many as in the jump-table build, OP_TFORLOOP, never dispatched, has
#    none).
# 4. `dsprof report name --where event=op' lists them.
. "$(dirname "$0")/../../lib.sh"

one_at_a_time lua-src "$TOP/scripts/lua.sh" source >src.dir ||
  fail "cannot get the lua5.4 source (scripts/lua.sh source)"
lvm=$(cat src.dir)/src/lvm.c

for v in plain:plain: jt:dsprof-dispatch: sw:dsprof-dispatch:-DLUA_USE_JUMPTABLE=0; do
  IFS=: read -r dir variant extra <<<"$v"
  LUA_EXTRA_CFLAGS="$extra" "$TOP/scripts/lua.sh" build "$dir" -O2 "$variant" \
    >"build-$dir.log" 2>&1 || { tail -20 "build-$dir.log" >&2; fail "the $dir build of Lua failed"; }
done

# 1.
lua_exercise plain jt sw

# 2.
for v in jt sw; do
  run_dsprof report function name line --where event=op --format csv $v.data >$v.csv ||
    fail "$v: dsprof report: status $?"
  run_dsprof lines $v.data | grep -E '(^|/)lvm\.c:' >$v.lines || fail "$v: dsprof lines: status $?"
  run_dsprof lines --ops $v.data >$v.oplines || fail "$v: dsprof lines --ops: status $?"
  [ "$(awk -F, 'NR > 1 && $1 == 1 { print $2 }' $v.csv)" = luaV_execute ] ||
    fail "$v: op records of other functions: $(awk -F, '$1 == 1' $v.csv)"
  awk -F, '$1 == 3 { print $3, $4, $11 }' $v.csv >$v.ops
  [ "$(wc -l <$v.ops)" -ge 40 ] || fail "$v: only $(wc -l <$v.ops) opcodes: $(cat $v.ops)"
  while read -r name line count; do
    sed -n "${line}p" "$lvm" | grep -q "vmcase($name)" ||
      fail "$v: op $name on lvm.c:$line: $(sed -n "${line}p" "$lvm")"
    grep -Eq "(^|/)lvm\.c:$line: $count $name\$" $v.oplines ||
      fail "$v: $name: $count records, lines --ops: $(grep -E "(^|/)lvm\.c:$line: " $v.oplines)"
    listed=$(grep -E "(^|/)lvm\.c:$line: " $v.lines | sed 's/.*: //' | sort -n | tail -1)
    [ -z "$listed" ] || [ "$listed" -ge "$count" ] ||
      fail "$v: $name: $count records, lvm.c:$line counts $listed"
  done <$v.ops
  awk '{ print $2, $1, $3 }' $v.ops | sort -n >$v.by-line
done

# 3.
expect_same jt.by-line sw.by-line
tforcall=$(grep -n 'vmcase(OP_TFORCALL)' "$lvm" | cut -d: -f1)
grep -q "^$tforcall OP_TFORCALL [1-9]" sw.by-line || fail "no OP_TFORCALL records: $(cat sw.ops)"

# 4.
run_dsprof report name --where event=op sw.data >report.txt || fail "dsprof report: status $?"
grep -Eq ' OP_CALL$' report.txt || fail "report lacks OP_CALL: $(head -20 report.txt)"
exit 0
