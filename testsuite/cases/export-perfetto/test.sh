# export-perfetto: `dsprof export --format perfetto` (docs/contract.md §5.8),
# decoded by protoc (Debian's protobuf-compiler) with the schema of the fields
# it writes (fixtures/perfetto_trace.proto), against the chrome export of the
# same profiles (check.py): the same processes and threads, on each thread the
# same slices in the same order at the same ns, balanced, with the same names,
# categories and dimensions, and well-formed packet sequences.  Profiles:
# traced.c (threads, a fork, signal handlers' events, longjmp repairs, more
# distinct names than a sequence interns before starting afresh) and ex.c
# (strings to escape, added dimensions, manual events, one left open).  The
# export is written as the events are decoded: its memory does not grow with
# the records, and it is at most a third of the chrome export's size.
. "$(dirname "$0")/../../lib.sh"

command -v protoc >/dev/null || fail "protoc is missing (Debian protobuf-compiler: make deps installs it)"
decode () {
  protoc --decode=perfetto.protos.Trace -I"$FIXTURES" perfetto_trace.proto <"$1" >"$2" 2>protoc.err \
    || fail "protoc cannot decode $1: $(cat protoc.err)"
}

dscc -O1 -o traced "$CASE/traced.c" || fail "traced.c does not compile"
child=$(DSPROF_OUT=traced.data ./traced 5000) || fail "traced exited with $?"
[ -f traced.data.$child ] || fail "no profile of the child $child"
run_dsprof export --format perfetto -o traced.pftrace traced.data traced.data.$child \
  || fail "perfetto: status $?"
run_dsprof export --format chrome -o traced.json traced.data traced.data.$child
decode traced.pftrace traced.txt
python3 "$CASE/check.py" traced.txt traced.json \
  "work=3,on_signal=3,leaf=12,thrower=9,m0=1,m4999=1,incomplete:thrower=9" \
  || fail "perfetto export of traced.c (traced.txt) against traced.json"
# 5,000 names and more: the main thread's sequence started afresh on an event.
grep -q 'sequence_flags: 3' traced.txt || fail "no sequence started afresh"

dscc -O1 -o ex "$FIXTURES/ex.c" || fail "ex.c does not compile"
[ "$(./ex)" = 30 ] || fail "ex printed the wrong result"
run_dsprof export --format perfetto >ex.pftrace || fail "perfetto of ex: status $?"
run_dsprof export --format chrome >ex.json
decode ex.pftrace ex.txt
python3 "$CASE/check.py" ex.txt ex.json \
  "run=2,Phase;x=2,word=6,jumper=1,deep=3,Tail=1,incomplete:deep=3,incomplete:Tail=1" \
  || fail "perfetto export of ex.c (ex.txt) against ex.json"

# The check can fail: a slice's end dropped, a time changed.
python3 - ex.pftrace <<'PY' || fail "cannot make bad traces"
import sys
data = open(sys.argv[1], "rb").read()
# Packets are field 1, length-delimited: split them, drop the last (an end).
packets, i = [], 0
while i < len(data):
    j, n, shift = i + 1, 0, 0
    while True:
        b = data[j]; n |= (b & 0x7f) << shift; j += 1; shift += 7
        if b < 0x80:
            break
    packets.append(data[i:j + n]); i = j + n
open("bad-end.pftrace", "wb").write(b"".join(packets[:-1]))
PY
decode bad-end.pftrace bad-end.txt
python3 "$CASE/check.py" bad-end.txt ex.json 2>/dev/null && fail "check accepts a trace without its last end"
sed 's/"ts":\([0-9]*\)\.\([0-9]*\)/"ts":\1.\2/; 0,/"ph":"E","ts":[0-9]*/s/"ph":"E","ts":\([0-9]*\)/"ph":"E","ts":1\1/' \
  ex.json >bad.json
cmp -s bad.json ex.json && fail "cannot make bad.json"
python3 "$CASE/check.py" ex.txt bad.json 2>/dev/null && fail "check accepts a changed time"

# Memory bounded whatever the records (10 times more here: the same but for
# the larger chunks of a longer stream, each mapped while decoded, up to 1 MB),
# and a third of chrome's size at most.
DSPROF_OUT=small.data ./traced 0 20000 >/dev/null && DSPROF_OUT=big.data ./traced 0 200000 >/dev/null \
  || fail "traced failed"
rm -f small.data.* big.data.*
for p in small big; do
  /usr/bin/time -f %M -o $p.rss "$DSPROF" export --format perfetto -o $p.pftrace $p.data \
    || fail "perfetto of $p.data: status $?"
done
[ "$(cat big.rss)" -le $(( $(cat small.rss) + 4096 )) ] \
  || fail "perfetto export took $(cat big.rss) KB for 10 times the records of $(cat small.rss) KB"
run_dsprof export --format chrome -o big.json big.data
p=$(wc -c <big.pftrace) c=$(wc -c <big.json)
[ $((3 * p)) -le "$c" ] || fail "perfetto export $p bytes, more than a third of chrome's $c"

# ---- bad input ----
set +e
run_dsprof export --format perfetto nothere.data >/dev/null 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q nothere.data err.txt || fail "missing profile: status $rc"
head -c 9000 dsprof.data >cut.data
run_dsprof export --format perfetto -o cut.pftrace cut.data 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q cut.data err.txt && [ ! -e cut.pftrace ] || fail "truncated profile: status $rc"
exit 0
