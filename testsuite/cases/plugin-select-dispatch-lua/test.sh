# plugin-select-dispatch-lua: a selection file with a dispatch directive and
# events together on a real program.  Lua 5.4 from Debian's lua5.4 source
# package, unmodified (scripts/lua.sh), built at -O2 with Lua's own Makefile
# plain, with the plugin given lua.sel (dispatch luaV_execute, events on
# luaD_precall and the luaH_get* lookups, call-site events on l_alloc's
# realloc with the size asked for), and with lua.sel less its dispatch line;
# each runs exercise.lua under `setarch -R`.
# 1. The output and exit status are the plain build's.
# 2. `dsprof report outer:name --where name=realloc --sum size` gives the
#    bytes asked for per enclosing record: op records of luaV_execute (OP_*,
#    the arguments of vmcase(OP_X), which writes the jump table's label
#    L_OP_X) are among its buckets, OP_NEWTABLE's among them, and its total is the sum of the realloc records' sizes in
#    `dsprof records`.
# 3. Without the dispatch line the same report has no op bucket (the check of
#    2 fails on it).
. "$(dirname "$0")/../../lib.sh"

one_at_a_time lua-src "$TOP/scripts/lua.sh" source >/dev/null || fail "cannot get the lua5.4 source (scripts/lua.sh source)"
cp "$CASE/lua.sel" .
grep -v '^dispatch ' lua.sel >nodispatch.sel
for v in plain:plain: ds:dsprof:lua.sel nd:dsprof:nodispatch.sel; do
  IFS=: read -r dir variant sel <<<"$v"
  extra=; [ -z "$sel" ] || extra="-fplugin-arg-dsprof-select=$PWD/$sel"
  LUA_EXTRA_CFLAGS="$extra" "$TOP/scripts/lua.sh" build "$dir" -O2 "$variant" \
    >"build-$dir.log" 2>&1 || { tail -20 "build-$dir.log" >&2; fail "the $dir build of Lua failed"; }
done

# 1.
lua_exercise plain ds nd

# 2, 3.  per_op NAME: NAME's bytes per enclosing record -> NAME.csv; fails
# unless op records are among the buckets and the buckets add up to the
# realloc records' sizes.
per_op () {
  local total sum
  run_dsprof report outer:name --where name=realloc --sum size --format csv $1.data >$1.csv ||
    fail "$1: dsprof report outer:name --sum size: status $?"
  head -1 $1.csv | grep -q ',sum(size)$' || fail "$1: no sum(size) column: $(head -1 $1.csv)"
  total=$(run_dsprof records --where name=realloc $1.data |
          awk 'match($0, / size=[0-9]+ /) { s += substr($0, RSTART + 6, RLENGTH - 7) }
               END { printf "%.0f", s }') || fail "$1: dsprof records: status $?"
  sum=$(awk -F, 'NR > 1 { s += $NF } END { printf "%.0f", s }' $1.csv)
  [ "$total" -gt 0 ] || fail "$1: no bytes asked for"
  [ "$sum" = "$total" ] || { echo "$1: the buckets total $sum bytes, the records $total: $(cat $1.csv)"; return 1; }
  awk -F, '$1 == 1 && $2 ~ /^OP_[A-Z]+$/' $1.csv >$1.ops
  [ "$(wc -l <$1.ops)" -ge 3 ] || { echo "$1: $(wc -l <$1.ops) op buckets: $(cat $1.csv)"; return 1; }
  grep -q '^1,OP_NEWTABLE,' $1.ops || { echo "$1: no bytes under OP_NEWTABLE: $(cat $1.csv)"; return 1; }
}
per_op ds || fail "with the dispatch directive"
cat ds.csv
per_op nd >nd.why && fail "without the dispatch directive, op buckets still: $(cat nd.csv)"
grep -q 'op buckets' nd.why || fail "without the dispatch directive: $(cat nd.why)"
exit 0
