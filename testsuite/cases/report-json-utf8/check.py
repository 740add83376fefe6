"""check.py KIND FILE - FILE must be strict UTF-8; for KIND json and chrome it
must parse as JSON whose word values are bytes.c's strings with each byte that
is not part of a well-formed UTF-8 sequence replaced by U+FFFD; for html it
must show such bytes as the text \\xHH, and cut the icicle label of the
function named with 'x' and 150 'é' before a character, ".." after it.  Exit 1
with the reasons on stderr."""
import json, re, sys

kind, path = sys.argv[1], sys.argv[2]
raw = open(path, "rb").read()
try:
    text = raw.decode("utf-8", errors="strict")
except UnicodeDecodeError as e:
    sys.exit(f"{path}: not UTF-8: {e}")

CHUNKS = [bytes(range(c, min(c + 60, 256))) for c in range(1, 256, 60)]
BAD = [b"\xff\xfe bytes", b"cut \xe2\x82", b"surrogate \xed\xa0\x80",
       b"overlong \xc0\xaf", b"five \xf8\x88\x80\x80\x80", "café €".encode()]


def seq_len(b):
    return 2 if 0xc2 <= b <= 0xdf else 3 if 0xe0 <= b <= 0xef else 4 if 0xf0 <= b <= 0xf4 else 0


def as_json(s):
    """S as dsprof writes it into JSON: each byte of no well-formed sequence is U+FFFD."""
    out, i = [], 0
    while i < len(s):
        n = 1 if s[i] < 0x80 else seq_len(s[i])
        try:
            if not n or i + n > len(s):
                raise UnicodeDecodeError("utf-8", s, i, i + 1, "no sequence")
            out.append(s[i:i + n].decode("utf-8", errors="strict"))
            i += n
        except UnicodeDecodeError:
            out.append("\ufffd")
            i += 1
    return "".join(out)


WANT = {as_json(s) for s in CHUNKS + BAD}
assert "caf\xe9 \u20ac" in WANT and "\ufffd\ufffd bytes" in WANT

if kind == "html":
    for b in (b"\\xff\\xfe bytes", b"cut \\xe2\\x82", b"caf\xc3\xa9 \xe2\x82\xac"):
        if b not in raw:
            sys.exit(f"{path}: no {b!r}")
    labels = re.findall(r"<text[^>]*>(x\u00e9[^<]*)</text>", text)
    if not labels or any(not re.fullmatch(r"x\u00e9+\.\.", l) for l in labels):
        sys.exit(f"{path}: labels of the long name {labels!r}: want 'é' cut, '..'")
    sys.exit(0)

d = json.loads(text)
if kind == "json":
    got = {r["value"] for r in d["rows"]}
elif kind == "chrome":
    got = {e["args"]["s"] for e in d["traceEvents"] if e.get("ph") == "B" and e.get("name") == "word"}
else:
    sys.exit(f"unknown kind {kind}")
if got != WANT:
    sys.exit(f"{path}: values {sorted(got - WANT)!r} not expected, {sorted(WANT - got)!r} missing")
