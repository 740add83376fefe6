#!/usr/bin/env python3
"""seqcheck.py TRACE CSVDIR: the op sequences of `dsprof trace`'s output
TRACE, counted here from the events alone, against the tables of
`dsprof report` in CSVDIR (pairs.csv: prev:name name; seq2.csv .. seq4.csv:
seqN:name; all --where event=op --format csv).

An invocation of a dispatch function is told apart by the record that
encloses its op records: the test's VMs are events themselves
(functions=all, or a selection file's event line), so each call of one has
a record of its own, which holds its op records and nothing else's
(docs/vm.md, "Sequences of opcodes").  Per thread, a stack of the open
events; an op record's invocation is the innermost open record when it
starts, not counting op records.  Prints the tables' sizes; exits 1 on the
first difference."""
import collections, csv, re, sys

trace, csvdir = sys.argv[1], sys.argv[2]
line_re = re.compile(r"^\d+ns t(\d+) (Start|Finish|Abandon) (.*)$")
stacks = collections.defaultdict(list)   # thread -> [(is_op, invocation id)]
history = {}                             # invocation id -> op names so far
serial = 0
grams = {n: collections.Counter() for n in (2, 3, 4)}
firsts = collections.Counter()           # prev:name empty, by name
ops = 0
for text in open(trace, encoding="utf-8", errors="replace"):
    m = line_re.match(text.rstrip("\n"))
    if not m:
        sys.exit("seqcheck: unreadable trace line: " + text)
    thread, kind, rest = m.groups()
    stack = stacks[thread]
    if kind != "Start":
        stack.pop()
        continue
    serial += 1
    is_op = rest.startswith("event=op ")
    if is_op:
        ops += 1
        name = re.search(r"(?:^| )name=(\S+)", rest).group(1)
        inv = next((i for o, i in reversed(stack) if not o), ("top", thread))
        seen = history.setdefault(inv, [])
        seen.append(name)
        if len(seen) == 1:
            firsts[name] += 1
        for n in grams:
            if len(seen) >= n:
                grams[n][" > ".join(seen[-n:])] += 1
    stack.append((is_op, serial))

def table(path, level, key):
    got = collections.Counter()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["level"] == str(level):
                got[key(row)] += int(row["count"])
    return got

want_pairs = collections.Counter(
    {tuple(k.split(" > ")): v for k, v in grams[2].items()})
want_pairs.update({("", name): v for name, v in firsts.items()})
got_pairs = table(f"{csvdir}/pairs.csv", 2,
                  lambda r: (r["prev:name"], r["name"]))
if got_pairs != want_pairs:
    sys.exit(f"seqcheck: prev:name name: got {dict(got_pairs)}\n"
             f"  counted from the trace {dict(want_pairs)}")
for n in grams:
    want = collections.Counter(grams[n])
    got = table(f"{csvdir}/seq{n}.csv", 1, lambda r: r[f"seq{n}:name"])
    # The records with fewer than N - 1 before them: the empty value.
    short = got.pop("", 0)
    if got != want or short != ops - sum(want.values()):
        sys.exit(f"seqcheck: seq{n}:name: got {dict(got)} and {short} short,\n"
                 f"  counted from the trace {dict(want)} of {ops} op records")
print(f"{ops} op records, {len(firsts)} first opcodes, "
      + ", ".join(f"{len(grams[n])} distinct {n}-grams" for n in grams))
