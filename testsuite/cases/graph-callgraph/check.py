"""check.py CALLGRAPH REPORT.json TOL - check `dsprof callgraph --unit ns` output
of cg.c against the structure derived by hand in cg.c, and its times for
consistency: Self + children = Total, the callers' lines add up to the entry,
the callees' lines to its children, each arc shows the same times at both
ends, the sort orders, and against REPORT.json (`report name --format json` of
the same profile and deduction) the profiled time and each value's total.

The sums are exact for raw times (TOL 0).  With the recorder's cost deducted a
record's self time is clamped at 0 when the deduction exceeds it (as in the
report), so sums may differ by up to TOL ns."""
import json, re, sys

text = open(sys.argv[1]).read()
tol = int(sys.argv[3])
ok = True


def expect(cond, what):
    global ok
    if not cond:
        print("wrong:", what, file=sys.stderr)
        ok = False


def near(a, b):
    return abs(a - b) <= tol


head = re.match(r"Call graph by name: (\d+) records, profiled time (\d+) ns", text)
expect(head, "header line")
records, profiled = (int(head.group(1)), int(head.group(2))) if head else (0, 0)
expect(records == 18, f"18 records, got {records}")

body, _, index_part = text.partition("\nIndex by name:\n")
lines = body.splitlines()
start = next(i for i, l in enumerate(lines) if l.split()[:2] == ["index", "%time"])
blocks, cur = [], []
for l in lines[start + 1:]:
    if l.startswith("-----"):
        blocks.append(cur)
        cur = []
    elif l.strip():
        cur.append(l)
expect(not cur, "every entry ends with a dashed line")

PRIMARY = re.compile(r"^\[(\d+)\]\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+(?:\+\d+)?)\s+(.*)$")
TIMED = re.compile(r"^\s+(\d+)\s+(\d+)\s+(\d+/\d+)\s+(.*)$")
COUNT = re.compile(r"^\s+(\d+)\s+(.*)$")
TIMED_MEMBER = re.compile(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(.*)$")
INDEX = re.compile(r"^(.*) \[(\d+)\]$")


def strip_index(name):
    m = INDEX.match(name)
    return (m.group(1), int(m.group(2))) if m else (name, None)


entries = {}      # name -> dict
refs = []         # (name, index) seen anywhere
for b in blocks:
    p = next((i for i, l in enumerate(b) if PRIMARY.match(l)), None)
    if p is None:
        expect(False, f"entry without a primary line: {b}")
        continue
    m = PRIMARY.match(b[p])
    name, idx = strip_index(m.group(6))
    expect(idx == int(m.group(1)), f"{name}: [n] at both ends of its line")
    e = {"index": int(m.group(1)), "pct": float(m.group(2)), "self": int(m.group(3)),
         "children": int(m.group(4)), "called": m.group(5), "parents": [], "kids": []}
    cycle_whole = name.startswith("<cycle") and name.endswith("as a whole>")
    for side, part in (("parents", b[:p]), ("kids", b[p + 1:])):
        for l in part:
            t = TIMED.match(l) or (cycle_whole and side == "kids" and TIMED_MEMBER.match(l))
            if t:
                n, i = strip_index(t.group(4))
                e[side].append((n, t.group(3), int(t.group(1)), int(t.group(2))))
            else:
                c = COUNT.match(l)
                expect(c, f"{name}: line '{l}'")
                if not c:
                    continue
                n, i = strip_index(c.group(2))
                e[side].append((n, c.group(1), None, None))
            if i is not None:
                refs.append((n, i))
    entries[name] = e

# ---- structure and counts, by hand (cg.c) ----
C = "<cycle 1 as a whole>"
EVEN, ODD = "even <cycle 1>", "odd <cycle 1>"
T, N = True, False      # a line with times / counts only
want = {
    "leaf": ("5", {("fact", "2/5", T), ("top", "2/5", T), (EVEN, "1/5", T)}, set()),
    "top": ("1", {("<spontaneous>", "1/1", T)},
            {("leaf", "2/5", T), ("fact", "1/2", T), (EVEN, "1/1", T)}),
    "fact": ("2+5", {("fact", "5", N), ("<spontaneous>", "1/2", T), ("top", "1/2", T)},
             {("leaf", "2/5", T), ("fact", "5", N)}),
    C: ("1+4", {("top", "1/1", T)}, {(EVEN, "2", T), (ODD, "2", T)}),
    EVEN: ("1", {(ODD, "2", N), ("top", "1/1", T)}, {("leaf", "1/5", T), (ODD, "2", N)}),
    ODD: ("0", {(EVEN, "2", N)}, {(EVEN, "2", N)}),
}
expect(set(entries) == set(want), f"entries {sorted(entries)}")
for name, (called, parents, kids) in want.items():
    e = entries.get(name)
    if not e:
        continue
    expect(e["called"] == called, f"{name}: called {e['called']}, want {called}")
    got_p = {(n, c, s is not None) for n, c, s, _ in e["parents"]}
    got_k = {(n, c, s is not None) for n, c, s, _ in e["kids"]}
    expect(got_p == parents and len(e["parents"]) == len(parents),
           f"{name}: callers {sorted(got_p)}, want {sorted(parents)}")
    expect(got_k == kids and len(e["kids"]) == len(kids),
           f"{name}: callees {sorted(got_k)}, want {sorted(kids)}")

# ---- index numbers: 1..6 in order, every reference to the right entry ----
expect(sorted(e["index"] for e in entries.values()) == list(range(1, 7)), "indexes 1..6")
for n, i in refs:
    expect(n in entries and entries[n]["index"] == i, f"reference {n} [{i}]")
idx_lines = [l.strip() for l in index_part.splitlines() if l.strip()]
want_idx = sorted(f"[{e['index']}] {n}" for n, e in entries.items())
expect(sorted(idx_lines) == want_idx, f"index by name {idx_lines}")
names_in_order = [re.sub(r"^\[\d+\] ", "", l) for l in idx_lines]
expect(names_in_order == sorted(names_in_order), "index by name sorted")

# ---- times: consistency ----
total = lambda e: e["self"] + e["children"]
order = sorted(entries.values(), key=lambda e: e["index"])
expect(all(total(a) >= total(b) for a, b in zip(order, order[1:])), "entries by total")
for name, e in entries.items():
    pct = 100.0 * total(e) / profiled if profiled else 0
    expect(abs(pct - e["pct"]) <= 0.051, f"{name}: %time {e['pct']}, want {pct:.2f}")
    tp = [x for x in e["parents"] if x[2] is not None]
    tk = [x for x in e["kids"] if x[2] is not None]
    # callers ascending (counts-only lines first), callees descending
    kinds = [x[2] is not None for x in e["parents"]]
    expect(kinds == sorted(kinds), f"{name}: counts-only callers first")
    pt = [x[2] + x[3] for x in tp]
    expect(pt == sorted(pt), f"{name}: callers ascending by time")
    kinds = [x[2] is not None for x in e["kids"]]
    expect(kinds == sorted(kinds, reverse=True), f"{name}: counts-only callees last")
    kt = [x[2] + x[3] for x in tk]
    expect(kt == sorted(kt, reverse=True), f"{name}: callees descending by time")
    if name in ("leaf", "top", "fact", C):
        # what the callers account for is the whole entry
        expect(near(sum(x[2] for x in tp), e["self"]), f"{name}: callers' self add up")
        expect(near(sum(x[3] for x in tp), e["children"]), f"{name}: callers' children add up")
    if name in ("leaf", "top", "fact", EVEN, ODD):
        expect(near(sum(x[2] + x[3] for x in tk), e["children"]),
               f"{name}: callees add up to its children")
    if name == C:
        expect(near(sum(x[2] for x in e["kids"]), e["self"]), "cycle: members' self add up")
        expect(near(sum(x[2] + x[3] for x in e["kids"]), total(e)), "cycle: members' total")
        for n, _, s, d in e["kids"]:
            m = entries.get(n)
            expect(m and (m["self"], m["children"]) == (s, d), f"cycle member {n} line")
# each arc shows the same times at both ends
for name, e in entries.items():
    for n, c, s, d in e["kids"]:
        if s is None or name == C:
            continue
        other = [x for x in entries.get(n, {"parents": []})["parents"] if x[0] == name]
        expect(other and (other[0][2], other[0][3], other[0][1]) == (s, d, c),
               f"arc {name} -> {n}: same at both ends")
# the cycle's callers show the time that enters the cycle (members list it too)
expect(entries[C]["parents"][0][2:] == [x for x in entries[EVEN]["parents"]
                                          if x[0] == "top"][0][2:], "top -> cycle")
# leaf spins 8 + 8 + 2 + 2 + 0.5 ms
expect(entries["leaf"]["self"] >= 20_500_000, f"leaf self {entries['leaf']['self']}")
expect(total(entries["top"]) >= 18_500_000, "top total")
expect(entries["leaf"]["children"] == 0, "leaf has no children time")

if True:
    rep = json.load(open(sys.argv[2]))
    expect(rep["profiled_ns"] == profiled,
           f"profiled time {profiled}, report's {rep['profiled_ns']}")
    rows = {r["value"]: r for r in rep["rows"]}
    for name in ("leaf", "top", "fact"):
        expect(rows[name]["total_ns"] == total(entries[name]),
               f"{name}: total {total(entries[name])}, report's {rows[name]['total_ns']}")
        expect(rows[name]["self_ns"] == entries[name]["self"], f"{name}: self as report")
    expect(rows["even"]["self_ns"] == entries[EVEN]["self"], "even: self as report")
if not ok:
    print(text, file=sys.stderr)
sys.exit(0 if ok else 1)
