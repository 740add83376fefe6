# runtime-layers: the runtime's files call each other in no circle, and as
# runtime/internal.h says ("Who calls whom"): from the symbols each object of
# libdsprof.a defines and the ones it uses (nm), every call of a function
# another file defines must be one that file's line in internal.h lists, and
# the calls must form no cycle.  (lifecycle.c's byte that every object refers
# to, dsprof_lifecycle_linked, only makes the static library bring
# lifecycle.o along: it is no call.)
. "$(dirname "$0")/../../lib.sh"

LIB=$TOP/runtime/libdsprof.a
[ -f "$LIB" ] || fail "no $LIB (make all first)"
nm -A "$LIB" >syms 2>/dev/null || fail "nm $LIB failed"

# defs: SYMBOL FILE.c; uses: FILE.c SYMBOL (the format's codec left out: it is
# the shared include/dsprof-format.c, below every file).
# nm -A: "ARCHIVE:OBJECT:ADDRESS TYPE SYMBOL", the address empty if undefined.
awk 'NF == 3 { split ($1, a, ":"); o = a[2]; sub (/\.o$/, ".c", o) }
     NF != 3 || o == "dsprof-format.c" { next }
     $2 ~ /^[TDBRV]$/ { print $3, o > "defs" }
     $2 == "U" { print o, $3 > "uses" }' syms
[ -s defs ] && [ -s uses ] || fail "no symbols read from $LIB"

# edges: FROM.c TO.c, one per pair.
awk 'NR == FNR { def[$1] = $2; next }
     $2 != "dsprof_lifecycle_linked" && ($2 in def) && def[$2] != $1 {
       print $1, def[$2] }' defs uses | sort -u >edges
[ -s edges ] || fail "no call between the runtime's files found"

# allowed: FROM.c TO.c from internal.h's list ("  units.c  -> recorder threads").
awk '/Who calls whom/ { on = 1; next }
     on && /->/ { from = $1; for (i = 3; i <= NF; i++) print from, $i ".c" }
     on && /: none/ { on = 0 }' "$TOP/runtime/internal.h" | sort -u >allowed
[ -s allowed ] || fail "runtime/internal.h has no \"Who calls whom\" list"

unlisted=$(comm -23 edges allowed)
[ -z "$unlisted" ] || fail "calls internal.h does not list: $(echo "$unlisted" | tr '\n' ';')"

# No cycle: tsort fails on one.
tsort edges >order 2>tsort.err || fail "the runtime's calls form a cycle: $(cat tsort.err)"
grep -q 'cycle' tsort.err && fail "the runtime's calls form a cycle: $(cat tsort.err)"
# The test sees the calls it checks: the recorder calls the writer.
grep -qx 'recorder.c writer.c' edges || fail "edges lack recorder.c -> writer.c: $(cat edges)"
exit 0
