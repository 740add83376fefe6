# events-strings-repeat: a string value its thread recorded earlier in the
# same chunk is stored as a reference to that copy (dsprof-format.h, section
# 4), and every value still reads exactly as recorded (repeat.c):
#   - `repeat values 3`: long strings repeated, near-identical ones (one byte
#     different at the start, the end, in the part DSPROF_STRMAX cuts off, in
#     the part kept), a string cut at 1,024 bytes and the same 1,024 bytes
#     whole, short, empty and NULL strings, a string after a thousand others,
#     thousands of repeats across many chunk ends, parameters, results,
#     dsprof_dim_str and a formatter's text, in three threads at once: the
#     records of each thread are the values the program recorded, cut as
#     DSPROF_STRMAX says; `dsprof merge` reads the same, and merging the
#     merge gives it again byte for byte;
#   - `repeat size same|new N 1000`: N events with the same 1,000-byte string
#     and with one that changes every time; the stream (walked here by the
#     format's description, the time deltas left out since they vary) holds
#     the same string whole once per chunk and a two-byte reference for every
#     other event, so it is smaller than the other by exactly
#     (N - copies) x (the string's size whole - 2);
#   - a reference to a string the chunk has not defined (the first one's
#     number made 1, then 127) is a corrupt stream: one line, a non-zero
#     exit.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/repeat.c" .
dscc -O2 -o repeat repeat.c || fail "repeat.c does not build"

# ---- every value as recorded, in each thread ----
DSPROF_OUT=values.data ./repeat values 3 >values.out 2>values.err \
  || fail "repeat values exited with status $?: $(cat values.err)"
[ ! -s values.err ] || fail "repeat values wrote to stderr: $(cat values.err)"
# The records the values make: cut at 1,024 bytes then "...", "" if empty.
awk '{ ev = $1; v = substr ($0, length (ev) + 2)
       if (length (v) > 1024) v = substr (v, 1, 1024) "..."
       if (v == "") v = "\"\""
       if (ev == "take") print "event=take s=" v
       else if (ev == "give") print "event=give s=" v " result=" v
       else if (ev == "note") print "event=note text=" v
       else print "event=shown b=" v " result=1" }' values.out >expected
[ "$(wc -l <expected)" -gt 7000 ] || fail "repeat values printed $(wc -l <expected) values"
records () {   # records PROFILE THREAD: the thread's records without times
  run_dsprof records "$1" >"$1.rec" 2>&1 || fail "dsprof records $1: $(cat "$1.rec")"
  grep " thread=$2 " "$1.rec" \
    | sed -E 's/^#[0-9]+ [0-9]+ns //; s/ name=[^ ]+( file=[^ ]+ line=[0-9]+)? thread=[0-9]+//; s/ complete=true$//'
}
for t in 1 2 3; do
  records values.data $t >got.$t
  expect_same expected got.$t
done

# merge reads the same, and is its own merge.
run_dsprof merge -o merged.data values.data || fail "merge: status $?"
run_dsprof records values.data >want.rec && run_dsprof records merged.data >got.rec \
  || fail "records of the merge: status $?"
expect_same want.rec got.rec
run_dsprof merge -o merged2.data merged.data || fail "merge of the merge: status $?"
cmp merged.data merged2.data || fail "the merge of the merge differs from the merge"

# ---- the size: once per chunk, then references ----
# walk PROFILE: the stream's bytes but for time deltas, the strings written
# whole, the references, the chunks that define a string, and the file offset
# of the first reference's number.  The program's one site: ENTER is the op,
# the delta, the site id and one STR value; EXIT the op and the delta.
walk () {
  python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
def uleb(p):
    v = s = 0
    while True:
        b = data[p]
        p += 1
        v |= (b & 0x7f) << s
        s += 7
        if b < 0x80:
            return v, p
end = struct.unpack_from("<Q", data, 16)[0]
off, stream, deltas, whole, refs, chunks, first = 4096, 0, 0, 0, 0, 0, 0
while off < end:
    kind, _, size = struct.unpack_from("<IIQ", data, off)
    if kind == 2:
        used = struct.unpack_from("<Q", data, off + 24)[0]
        p, e, defined = off + 48, off + 48 + used, 0
        stream += used
        while p < e:
            op = data[p]
            q = p + 1
            _, r = uleb(q)
            deltas += r - q
            if op == 1:
                _, r = uleb(r)
                h, r = uleb(r)
                if h == 2:
                    first = first or r
                    k, r = uleb(r)
                    if k >= defined:
                        sys.exit("reference %d of %d strings" % (k, defined))
                    refs += 1
                elif h:
                    n = (h - 1) >> 1
                    r += n
                    whole += 1
                    defined += n >= 8
            elif op != 2:
                sys.exit("op %d" % op)
            p = r
        chunks += defined > 0
    off += size
print(stream - deltas, whole, refs, chunks, first)
PY
}
n=3000 len=1000
declare -A bytes whole refs chunks first
for v in same new; do
  DSPROF_OUT=$v.data ./repeat size $v $n $len 2>$v.err || fail "repeat size $v: status $?"
  read -r bytes[$v] whole[$v] refs[$v] chunks[$v] first[$v] < <(walk $v.data) \
    || fail "$v.data: its stream is not as described"
done
[ "${whole[new]}" = "$n" ] && [ "${refs[new]}" = 0 ] \
  || fail "$n different strings: ${whole[new]} whole, ${refs[new]} references"
[ "${whole[same]}" = "${chunks[same]}" ] && [ "${chunks[same]}" -lt $((n / 10)) ] \
  || fail "the same string is whole ${whole[same]} times in ${chunks[same]} chunks"
[ "${refs[same]}" = $((n - whole[same])) ] \
  || fail "the same string: ${refs[same]} references of $n values"
# The string whole: its head (uleb of len << 1 | 0, plus 1) and its bytes.
head=$(python3 -c "
v, n = ($len << 1) + 1, 1
while v >= 0x80: v, n = v >> 7, n + 1
print(n)")
saved=$((bytes[new] - bytes[same]))
[ "$saved" = $(((n - whole[same]) * (head + len - 2))) ] \
  || fail "the same string saves $saved bytes, not $(((n - whole[same]) * (head + len - 2)))"

# ---- a reference to no string ----
for k in 1 127; do
  cp same.data bad$k.data
  printf "$(printf '\\%03o' $k)" | dd of=bad$k.data bs=1 seek="${first[same]}" conv=notrunc 2>/dev/null
  status=0
  run_dsprof records bad$k.data >bad$k.out 2>bad$k.err || status=$?
  [ "$status" -ne 0 ] || fail "a reference to string $k of 1 was read"
  [ "$(wc -l <bad$k.err)" = 1 ] && grep -q "corrupt event stream" bad$k.err \
    || fail "a reference to string $k of 1: $(cat bad$k.err)"
done
exit 0
