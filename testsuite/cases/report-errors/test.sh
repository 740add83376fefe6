# report-errors: the exit statuses and messages of docs/contract.md §5 at the command line:
# 0 success, 1 usage error, 2 unreadable or corrupt input; every command has --help.
. "$(dirname "$0")/../../lib.sh"

status () { set +e; "$@" >out.txt 2>err.txt; echo $?; set -e; }

dscc -o expr "$TOP/examples/expr/expr.c" && ./expr >/dev/null

for c in lines annotate report dims shell records trace info diff; do
  [ "$(status run_dsprof $c --help)" = 0 ] || fail "dsprof $c --help failed"
  grep -q "^usage: dsprof $c" out.txt || fail "dsprof $c --help prints no usage"
  [ "$(status run_dsprof $c --bogus)" = 1 ] || fail "dsprof $c --bogus: not status 1"
  grep -q "unknown option '--bogus'" err.txt || fail "dsprof $c --bogus: $(cat err.txt)"
done
[ "$(status run_dsprof frobnicate)" = 1 ] && grep -q "'frobnicate' is not a dsprof command" err.txt \
  || fail "unknown command"
[ "$(status run_dsprof)" = 1 ] || fail "no command: not status 1"
[ "$(status run_dsprof report --unit years)" = 1 ] || fail "--unit years"
[ "$(status run_dsprof report --where novalue)" = 1 ] || fail "--where without ="
[ "$(status run_dsprof report --format xml)" = 1 ] || fail "--format xml"
[ "$(status run_dsprof report --top 0)" = 1 ] || fail "--top 0"

# Bad profiles: status 2, the file named, the problem said.
: >empty.data
head -c 5000 dsprof.data >short.data
printf 'hello, world, this is not a profile at all%4096s' x >text.data
cp dsprof.data version.data && printf '\x09' | dd of=version.data bs=1 seek=8 conv=notrunc 2>/dev/null
for f in empty:empty short:truncated text:'not a dsprof profile' version:'version 9' missing:'No such file'; do
  name=${f%%:*} msg=${f#*:}
  for c in lines annotate report records trace info dims; do
    [ "$(status run_dsprof $c $name.data)" = 2 ] || fail "dsprof $c $name.data: not status 2"
    grep -q "$name.data: .*$msg" err.txt || fail "dsprof $c $name.data said: $(cat err.txt)"
  done
  for args in "$name.data dsprof.data" "dsprof.data $name.data" "--lines dsprof.data $name.data"; do
    [ "$(status run_dsprof diff $args)" = 2 ] || fail "dsprof diff $args: not status 2"
    grep -q "$name.data: .*$msg" err.txt || fail "dsprof diff $args said: $(cat err.txt)"
  done
done
# A damaged byte in the unit's metadata: found by the check word.  The unit
# chunk is the first of kind 1 (DSPROF_CHUNK_UNIT) or 6 (DSPROF_CHUNK_TUNIT,
# update=thread, an executable's default) after the header.
unit_off=$(python3 -c '
import struct, sys
data = open(sys.argv[1], "rb").read()
off = 4096
while struct.unpack_from("<I", data, off)[0] not in (1, 6):
    off += struct.unpack_from("<Q", data, off + 8)[0]
print(off)' dsprof.data)
cp dsprof.data meta.data && printf 'Z' | dd of=meta.data bs=1 seek=$((unit_off + 60)) conv=notrunc 2>/dev/null
[ "$(status run_dsprof lines meta.data)" = 2 ] && grep -q 'damaged' err.txt \
  || fail "damaged metadata not detected: $(cat err.txt)"

# Output that cannot be written: status 2 and a message.
# (-o of a device is refused: report-outputs.)
if [ -w /dev/full ]; then
  set +e; run_dsprof report name >/dev/full 2>err.txt; rc=$?; set -e
  [ $rc = 2 ] || fail "report >/dev/full: status $rc"
fi
[ "$(status run_dsprof lines -o /nonexistent/dir/x)" = 2 ] || fail "lines -o into a missing dir"
# A profile without counters (counters=off): `lines` prints nothing, status 0.
mkdir nob && cd nob
printf '%s\n' '__attribute__((dsprof_event)) int f (int x) { return x + 1; }' \
  'int main (void) { return f (0) - 1; }' >nob.c
dscc -fplugin-arg-dsprof-counters=off -o nob nob.c && ./nob || fail "nob.c"
[ "$(status run_dsprof lines)" = 0 ] && [ ! -s out.txt ] && [ ! -s err.txt ] \
  || fail "lines of a profile without counters: $(cat out.txt err.txt)"
cd ..

# annotate: a source that became a directory or a fifo is named in one warning
# and skipped (a fifo is never opened for reading: no wait for a writer); the
# other sources are listed, and a last line says how many and where.
mkdir ann && cd ann
printf 'int main (void) { return 0; }\n' >a.c
printf 'int g (int x) { return x; }\n' >b.c
printf 'int h (int x) { return x; }\n' >c.c
dscc -o prog a.c b.c c.c && ./prog || fail "a.c b.c c.c"
rm a.c c.c && mkdir a.c && mkfifo c.c
set +e; timeout 20 "$DSPROF" annotate >out.txt 2>err.txt; rc=$?; set -e
[ $rc = 0 ] || fail "annotate with a directory and a fifo as sources: status $rc"
[ "$(grep -c 'a\.c: not a regular file; skipped$' err.txt)" = 1 ] \
  && [ "$(grep -c 'c\.c: not a regular file; skipped$' err.txt)" = 1 ] \
  && [ "$(tail -1 err.txt)" = "dsprof annotate: wrote 1 listing beside their sources, as SOURCE.bb" ] \
  && [ "$(wc -l <err.txt)" = 3 ] || fail "annotate warned: $(cat err.txt)"
[ -f b.c.bb ] && [ ! -e a.c.bb ] && [ ! -e c.c.bb ] || fail "annotate wrote $(ls)"
"$DSPROF" annotate -o listings 2>err.txt || fail "annotate -o listings: status $?"
[ "$(tail -1 err.txt)" = "dsprof annotate: wrote 1 listing under listings" ] ||
  fail "annotate -o listings said: $(cat err.txt)"
cd ..
exit 0
