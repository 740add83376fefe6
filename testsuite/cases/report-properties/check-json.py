"""check-json.py FILE... - each FILE must be strict UTF-8 (no byte outside a
well-formed sequence), parse as one JSON value with no NaN or Infinity, no
object with a key twice, no raw control character, and no string (key or
value) holding a surrogate code point (a lone \\ud800 escape).  Exit 1 with the
reasons on stderr."""
import json
import sys


def no_constant(name):
    raise ValueError("non-JSON constant " + name)


def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ValueError("duplicate keys %r" % dup)
    return dict(pairs)


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)


bad = 0
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
        ctl = [c for c in text if ord(c) < 0x20 and c not in "\t\n\r"]
        if ctl:
            raise ValueError("raw control characters %r" % ctl[:5])
        value = json.loads(text, parse_constant=no_constant,
                           object_pairs_hook=no_duplicates)
        for s in strings(value):
            s.encode("utf-8")   # raises on a surrogate code point
    except (UnicodeError, ValueError) as e:
        print("%s: %s" % (path, e), file=sys.stderr)
        bad = 1
sys.exit(bad)
