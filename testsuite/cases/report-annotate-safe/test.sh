# report-annotate-safe: `dsprof annotate` without -o writes <source>.bb only
# next to the sources of the program's own tree (under the unit's compilation
# directory), never next to a header of a system-like directory outside it
# (written into /usr/include as root before), and never through a symbolic link
# planted where a listing goes (the file it points to was overwritten).  The
# sources skipped are counted in one note saying how to get them: -o DIR writes
# every listing under DIR, --source FILE writes that one beside it.  Run as
# root when the suite is (root may write anywhere: nothing but dsprof stops it).
. "$(dirname "$0")/../../lib.sh"

mkdir -p proj sys/include
cat >sys/include/twice.h <<'C'
static inline int
twice (int x)
{
  if (x > 0)
    return 2 * x;
  return 0;
}
C
printf '%s\n' '#include <twice.h>' 'int util (int x) { return twice (x) + 1; }' >proj/util.c
printf '%s\n' '#include <twice.h>' 'int util (int);' \
  'int main (void) { return util (1) + twice (2) - 7; }' >proj/main.c
echo victim >victim.txt
cd proj
dscc -I../sys/include -o prog main.c util.c || fail "prog does not compile"
./prog || fail "prog exited with $?"
ln -s ../victim.txt util.c.bb

set +e
"$DSPROF" annotate >out.txt 2>err.txt; rc=$?
set -e
[ $rc = 2 ] || fail "annotate with a planted link: status $rc, $(cat err.txt)"
[ "$(cat ../victim.txt)" = victim ] || fail "annotate wrote through util.c.bb: $(cat ../victim.txt)"
[ -L util.c.bb ] || fail "util.c.bb is no longer the link"
[ -f main.c.bb ] && grep -q 'return util (1)' main.c.bb || fail "main.c.bb not written: $(ls)"
[ ! -e ../sys/include/twice.h.bb ] || fail "annotate wrote next to a header outside the tree"
grep -qx "dsprof annotate: '$PWD/util.c.bb': is a symbolic link; dsprof replaces only a regular file" err.txt \
  || fail "no message for util.c.bb: $(cat err.txt)"
grep -q "^dsprof annotate: note: 1 source outside the compilation directory not annotated (.*sys/include/twice.h); -o DIR writes every listing under DIR, --source FILE" err.txt \
  || fail "no note of the header skipped: $(cat err.txt)"
grep -qx "dsprof annotate: wrote 1 listing beside their sources, as SOURCE.bb" err.txt \
  || fail "no count of the listings written: $(cat err.txt)"
[ "$(wc -l <err.txt)" = 3 ] || fail "annotate said more: $(cat err.txt)"

# -o DIR: every listing, the header's too, under DIR.
rm util.c.bb
"$DSPROF" annotate -o ../bb 2>err.txt || fail "annotate -o: status $?, $(cat err.txt)"
[ ! -s err.txt ] || fail "annotate -o said: $(cat err.txt)"
[ "$(find ../bb -name '*.bb' | wc -l)" = 3 ] || fail "annotate -o wrote $(find ../bb)"
grep -q ':    5:    return 2 \* x;' "$(find ../bb -name twice.h.bb)" || fail "twice.h.bb: $(cat "$(find ../bb -name twice.h.bb)")"
[ ! -e ../sys/include/twice.h.bb ] || fail "annotate -o wrote next to the header"

# --source names the header: its listing beside it, as asked.
"$DSPROF" annotate --source ../sys/include/twice.h 2>err.txt || fail "annotate --source: status $?"
[ -f ../sys/include/twice.h.bb ] || fail "annotate --source did not write twice.h.bb"
[ ! -s err.txt ] || fail "annotate --source said: $(cat err.txt)"
# Without a link the own tree is written with no message but the note and
# the count of listings written.
"$DSPROF" annotate 2>err.txt || fail "annotate: status $?"
[ -f util.c.bb ] && [ ! -L util.c.bb ] || fail "util.c.bb not written"
[ "$(wc -l <err.txt)" = 2 ] &&
  [ "$(tail -1 err.txt)" = "dsprof annotate: wrote 2 listings beside their sources, as SOURCE.bb" ] ||
  fail "annotate said: $(cat err.txt)"
exit 0
