# counters-lua: a real program.  Lua 5.4 from Debian's lua5.4 source package (fetched once
# into build/lua-src by scripts/lua.sh), built here at -O0 with Lua's own
# Makefile three times, the same flags but the instrumentation:
#   plain/  nothing
#   ds/     the dsprof plugin
#   both/   the dsprof plugin AND gcc --coverage (-fprofile-arcs -ftest-coverage)
# and run on exercise.lua (tables, strings, closures, coroutines, string.format,
# gsub, errors under pcall, sort, integer/float math, goto, load/dump, ...) under
# `setarch -R`.  Repeatability: the hash seed is fixed (-D'luai_makeseed(L)=0'),
# and two address-dependent behaviours are made content-based: the C-string
# cache (-DSTRCACHE_N=1) and the sort pivot (-D'l_randomizePivot()=0').
#
# 1. The three programs print the same output and exit with the same status (3,
#    from os.exit) as the plain one.
# 2. `dsprof lines` of ds/ and of both/ name the same blocks (FILE:LINE in the
#    same order): --coverage does not change what dsprof counts, so both/ stands
#    for any dsprof build.
#    `dsprof summary`'s totals of lines and functions are `lcov --summary`'s
#    of the lcov export.
# 3. dsprof's counts of the both/ run against gcov's of the SAME run (compare.py).
#    One binary with both instrumentations, not two builds, because Lua's work
#    depends on addresses (pointer keys hash by address: the parser's constant
#    table keys nil by a table pointer, the registry has a light userdata key),
#    and two differently instrumented binaries have different heap addresses, so
#    a few ltable.c counts differ by one or two between them.  The dsprof pass
#    runs right after the CFG is built, gcov's instrumentation later on the same
#    CFG, so gcov's blocks are dsprof's blocks, split further after every call.
#    With D(L) = dsprof annotate's count of line L (the largest count of the
#    blocks holding a statement on L, blank if none) and gcov's block graph (the
#    lines of every block from the .gcno, its count from `gcov -D`):
#    (i)   every function's entry count (`dsprof export --format lcov`) equals
#          gcov's function execution count (`gcov --json-format`), and D of its
#          definition line too;
#    (ii)  D(L) equals the largest count of the gcov blocks holding L, on every
#          line either tool has a block on (so a line executed per one tool is
#          executed per the other);
#    (iii) every block `dsprof lines` lists on L has the count of a distinct
#          gcov block holding L.  This is the per-block check: a block's line is
#          its first located statement, which gcov puts in its first block of
#          the same code, with the same count.
#    (iv)  on every line either tool lists branches on (`dsprof annotate
#          --branches`, `gcov -b --json-format`), dsprof's branches are gcov's:
#          as many, in gcov's order, each with gcov's count and fallthrough
#          flag (branchcheck.py, which compare.py calls);
#    (v)   the BRDA records of `dsprof export --format lcov` are geninfo's
#          from gcov's data of the run (`lcov --capture`), and `dsprof
#          summary`'s branch total is `lcov --summary`'s (2b).
#    These differences between the two counting models are accepted, each only
#    under a condition checked in gcov's own data (compare.py -v lists them):
#    LATEREND  (ii) gcov says ##### on a line whose code ran in a block
#              ending on a later line (lobject.c:230, a `?:' over two lines):
#              dsprof's count must be that block's.  On no other line may
#              dsprof count a line gcov says never ran, and every label line
#              has gcov's own count of the line (docs/contract.md §3).
#    FAKEENTRY (i) gcov's function count includes the fake entry arcs it adds to
#              computed-goto targets (luaV_execute's jump table): accepted when
#              dsprof's count equals gcov's count of the real entry arc's block.
#    ONELINE   (i) the definition line holds other code, so its D is the largest
#              of several blocks: gcov's count must be one of the counts
#              `dsprof lines` lists on that line.
#    LATCHFWD  (iv) the fallthrough flags of a do-while's condition: with
#              -Wall, GCC gives the loop a simple latch (an empty block on the
#              edge back, right after the condition) after dsprof's pass, so
#              gcov calls the way back the fallthrough and dsprof the exit
#              (llex.c:544, lparser.c:980, lvm.c:630).
#    JUMPLOC   (iii) a block holding only a jump GCC folded into the CFG (the
#              back jump of `for (;;)`, the jump from the end of a then-branch
#              over the else) has the jump's location, which is often the
#              location of the `switch`/`if` starting the construct; gcov gives
#              a block a jump's location only if no other block already holds
#              that very location, so its copy of the block has no line: the
#              dsprof block's count must be the count of a distinct line-less
#              gcov block of the same function.
#    (compare.py describes three more, FORKED, EXECRET and INLINED, which Lua
#    does not need: real programs that fork and exec, and always_inline
#    functions; `make check-real` runs it on gawk and jq.)
#    gcov's own line counts are compared one to one on label lines only (and
#    for ##### on every line): elsewhere gcov counts a line by the arcs entering
#    the blocks that END on it, which says ##### for a line whose code ran in a
#    block ending on a later line (lobject.c:230, LATEREND), and sums the blocks
#    of a line it split at calls (ldo.c:498 shows twice the calls).
. "$(dirname "$0")/../../lib.sh"

command -v python3 >/dev/null || fail "python3 is needed (make deps installs it)"
command -v gcov >/dev/null || fail "gcov is needed"
one_at_a_time lua-src "$TOP/scripts/lua.sh" source >/dev/null || fail "cannot get the lua5.4 source (scripts/lua.sh source)"

export LUA_EXTRA_CFLAGS="-DSTRCACHE_N=1 -DSTRCACHE_M=2 -D'l_randomizePivot()=0'"
for v in plain:plain ds:dsprof both:dsprof-gcov; do
  "$TOP/scripts/lua.sh" build "${v%%:*}" -O0 "${v#*:}" >"build-${v%%:*}.log" 2>&1 ||
    { tail -20 "build-${v%%:*}.log" >&2; fail "the ${v#*:} build of Lua failed"; }
done

# 1. Same behaviour.
lua_exercise plain ds both

# 2. Same blocks with and without --coverage.
run_dsprof lines ds.data >ds.lines || fail "dsprof lines ds.data: status $?"
run_dsprof lines both.data >both.lines || fail "dsprof lines both.data: status $?"
[ "$(wc -l <ds.lines)" -gt 5000 ] || fail "dsprof lines ds.data: only $(wc -l <ds.lines) blocks"
cut -d: -f1,2 ds.lines >ds.blocks
cut -d: -f1,2 both.lines >both.blocks
cmp -s ds.blocks both.blocks ||
  fail "the blocks of the dsprof build and the dsprof+coverage build differ: $(diff ds.blocks both.blocks | head -5)"

# 2b. `dsprof summary`'s totals are lcov's on a real program.
summary_is_lcovs both.data

# 3. dsprof against gcov, same run.
run_dsprof annotate --branches -o bb both.data >annotate.log 2>&1 ||
  fail "dsprof annotate both.data: status $? ($(head -3 annotate.log))"
grep -q '^branch  1 taken' bb/lvm.c.bb || fail "dsprof annotate --branches shows no branches in lvm.c"
run_dsprof export --format lcov -o both.lcov both.data ||
  fail "dsprof export --format lcov both.data: status $?"
mkdir -p gcov
(
  cd both/src
  for g in *.gcda; do
    u=${g%.gcda}
    gcov -b --json-format --stdout "$g" >"../../gcov/$u.json" 2>/dev/null
    gcov -D -n "$g" >"../../gcov/$u.debug" 2>&1
  done
) || fail "gcov failed"
[ -s gcov/lvm.json ] || fail "gcov wrote nothing for lvm.gcda"
python3 "$FIXTURES/compare.py" both/src bb both.lines both.lcov gcov >compare.out 2>&1 || {
  cat compare.out >&2
  fail "dsprof's counts differ from gcov's (above)"
}
cat compare.out

# (v) BRDA against geninfo's.
if command -v lcov >/dev/null; then
  lcov --capture --directory both/src --rc lcov_branch_coverage=1 -o gcov.info >lcov.log 2>&1 ||
    fail "lcov --capture: $(tail -3 lcov.log)"
  python3 "$FIXTURES/branchcheck.py" --brda both.lcov gcov.info >brda.out 2>&1 || {
    head -20 brda.out >&2
    fail "the lcov export's BRDA records are not geninfo's"
  }
  tail -1 brda.out
fi
exit 0
