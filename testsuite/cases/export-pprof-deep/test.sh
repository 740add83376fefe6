# export-pprof-deep: the pprof export of a recursion 100,000 calls deep
# (deep.c) keeps each sample's innermost 128 frames and, past them, one frame
# "[truncated N frames]" for the N left out (docs/contract.md §5.8): a file
# linear in the depth.  Every stack whole, it was 5.0 GB uncompressed (8.4 MB
# gzipped), 100,000 x 100,001 / 2 location ids.  Checked by structure: the
# uncompressed size (under 64 MB; 25 MB when written), each sample's location
# ids (128 and the truncated frame at most), how many samples are cut (those
# deeper than 128: 99,873) and the truncated frames' names.  The folded
# export cuts its lines the same way (export-deep checks them): under 80 MB
# here, where whole stacks are 100,000^2 / 2 frames (25 GB).
. "$(dirname "$0")/../../lib.sh"

N=100000
dscc -O2 -o deep "$FIXTURES/deep.c" || fail "deep.c does not compile"
./deep $N >out.txt || fail "deep exited with $?"
run_dsprof export --format pprof -o deep.pb.gz || fail "pprof export: status $?"
gzip -t deep.pb.gz || fail "deep.pb.gz is not gzip"
# The size first, reading no more than the bound (whole stacks are 5 GB).
size=$(gzip -dc deep.pb.gz | head -c $((64 << 20 + 1)) | wc -c)
[ "$size" -le $((64 << 20)) ] || fail "the export is over 64 MB uncompressed"
gzip -dc deep.pb.gz >deep.pb
python3 - deep.pb $N <<'PY' || fail "the samples' stacks are not cut at 128 frames"
import re, sys
data, n = open(sys.argv[1], 'rb').read(), int(sys.argv[2])
def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if c < 0x80:
            return v, i
def fields(b):
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        f, t = key >> 3, key & 7
        if t == 0:
            v, i = varint(b, i)
        elif t == 2:
            k, i = varint(b, i); v = b[i:i + k]; i += k
        else:
            raise SystemExit("wire type %d" % t)
        yield f, v
high = bytes(range(128, 256))
depths, strings = [], []
for f, v in fields(data):
    if f == 2:                                  # Sample
        ids = next(x for g, x in fields(v) if g == 1)
        depths.append(len(ids.translate(None, high)))   # one last byte per id
    elif f == 6:
        strings.append(v.decode())
cut = [d for d in depths if d > 128]
trunc = sorted(int(m.group(1)) for s in strings
               for m in [re.fullmatch(r'\[truncated (\d+) frames?\]', s)] if m)
want = n + 1 - 128                              # records deeper than 128
errors = []
if len(depths) != n + 1:
    errors.append("%d samples, not %d" % (len(depths), n + 1))
if max(depths) != 129 or len(cut) != want or set(cut) != {129}:
    errors.append("deepest sample %d ids, %d of 129" % (max(depths), len(cut)))
if trunc != list(range(1, want + 1)):
    errors.append("truncated frames %s..%s (%d), want 1..%d"
                  % (trunc[:1], trunc[-1:], len(trunc), want))
if errors:
    print("; ".join(errors), file=sys.stderr); sys.exit(1)
PY
size=$("$DSPROF" export --format folded | head -c $((80 << 20 + 1)) | wc -c)
[ "$size" -le $((80 << 20)) ] || fail "the folded export is over 80 MB"
exit 0
