"""check.py FORMAT ... - checks of `dsprof export` on ex.c's profile; what is
expected is derived by hand in ex.c.  Exit 1 with the reasons on stderr."""
import csv, json, re, sys

ok = True


def expect(cond, what):
    global ok
    if not cond:
        print("wrong:", what, file=sys.stderr)
        ok = False


WORDS = {"plain": 5, 'a,b "q"\nline': 12, "\xff\xfe bytes": 8}   # strlen
NAMES = {"run": 2, "Phase;x": 2, "word": 6, "jumper": 1, "deep": 3, "Tail": 1}
INCOMPLETE = {"deep": 3, "Tail": 1}
# As JSON strings: each byte that is not part of valid UTF-8 becomes U+FFFD.
JSON_WORDS = {w.encode("latin-1").decode("utf-8", "replace"): n for w, n in WORDS.items()}


def chrome(path, pid, profiled_raw):
    d = json.load(open(path, encoding="utf-8"))
    evs = d["traceEvents"]
    meta = [e for e in evs if e["ph"] == "M"]
    expect(any(e["name"] == "process_name" and e["pid"] == pid for e in meta),
           "process_name of the pid")
    stacks, last, pairs = {}, {}, []
    for e in evs:
        if e["ph"] not in "BE":
            expect(e["ph"] == "M", f"event phase {e['ph']}")
            continue
        key = (e["pid"], e["tid"])
        expect(e["pid"] == pid, f"pid {e['pid']}")
        ts = round(float(e["ts"]) * 1000)
        expect(ts >= last.get(key, 0), f"time goes back on {key}")
        last[key] = ts
        st = stacks.setdefault(key, [])
        if e["ph"] == "B":
            st.append((e, ts))
        else:
            expect(st, f"E without B on {key}")
            if st:
                b, t0 = st.pop()
                pairs.append((b, e, ts - t0, len(st)))
    expect(all(not s for s in stacks.values()), "B without E")
    expect(sorted(k[1] for k in stacks) == [1, 2], f"threads {sorted(stacks)}")
    names = {}
    for b, e, _, _ in pairs:
        names[b["name"]] = names.get(b["name"], 0) + 1
    expect(names == NAMES, f"B names {names}")
    inc = {}
    for b, e, _, _ in pairs:
        if e["args"]["complete"] == "false":
            inc[b["name"]] = inc.get(b["name"], 0) + 1
        else:
            expect(e["args"]["complete"] == "true", "complete true|false")
    expect(inc == INCOMPLETE, f"incomplete {inc}")
    for b, e, _, _ in pairs:
        a, z = b["args"], e["args"]
        expect(a["name"] == b["name"] and a["event"] == b["cat"], f"B args {a}")
        if b["name"] == "word":
            expect(a["s"] in JSON_WORDS and z["result"] == str(JSON_WORDS[a["s"]]),
                   f"word args {a} {z}")
        if b["name"] == "Phase;x":
            expect(z.get("items") == "3" and z.get("label") == "x;y z", f"Phase E args {z}")
        if b["name"] == "run":
            want = {"main": (1, "29"), "worker": (2, "31")}[a["who"]]
            expect((b["tid"], z["result"]) == want, f"run {a} {z} on {b['tid']}")
    top = sum(d for _, _, d, depth in pairs if depth == 0)
    expect(top == profiled_raw, f"top-level B..E time {top}, report's {profiled_raw}")


def folded(path, want_sum, raw):
    stacks = {}
    for line in open(path, encoding="latin-1"):
        m = re.fullmatch(r"(\S(?:.*\S)?) (\d+)\n", line)
        expect(m, f"folded line {line!r}")
        if m:
            expect(m.group(1) not in stacks, f"stack {m.group(1)} twice")
            expect(int(m.group(2)) > 0, f"zero line {line!r}")
            stacks[m.group(1)] = int(m.group(2))
    known = {"run", "run;Phase\\x3bx", "run;Phase\\x3bx;word", "jumper", "jumper;deep",
             "jumper;deep;deep", "jumper;deep;deep;deep", "Tail"}
    expect(set(stacks) <= known, f"stacks {sorted(set(stacks) - known)}")
    expect(list(stacks) == sorted(stacks), "stacks sorted")
    # 6 words of 200 us; the 100 us jumper spins after the jump is inside deep (0),
    # open until jumper's own Finish notices the jump.
    expect(stacks.get("run;Phase\\x3bx;word", 0) >= 1_200_000, "word time")
    expect(stacks.get("jumper;deep;deep;deep", 0) >= 100_000, "deep (0) time")
    expect(sum(stacks.values()) == want_sum,
           f"folded sum {sum(stacks.values())}, want {want_sum} ({'raw' if raw else 'Self'})")


def csv_rows(path, pid, records_txt):
    rows = list(csv.reader(open(path, encoding="latin-1", newline="")))
    head, rows = rows[0], rows[1:]
    expect(head[:11] == ["record", "pid", "thread", "start_ns", "duration_ns", "depth",
                         "parent_record", "event", "name", "file", "line"], f"header {head}")
    expect(head[-2:] == ["result", "complete"], f"header ends {head[-2:]}")
    expect(sorted(head[11:-2]) == ["items", "label", "n", "s", "who"], f"dims {head}")
    expect(len(rows) == 15, f"{len(rows)} rows")
    r = [dict(zip(head, x)) for x in rows]
    expect([int(x["record"]) for x in r] == list(range(1, 16)), "records 1..15")
    by = {x["record"]: x for x in r}
    names = {}
    for x in r:
        names[x["name"]] = names.get(x["name"], 0) + 1
        expect(x["pid"] == str(pid), "pid column")
        expect(x["complete"] == ("false" if x["name"] in INCOMPLETE else "true"),
               f"complete of {x['name']}")
    expect(names == NAMES, f"names {names}")
    expect(sorted(x["thread"] for x in r) == ["1"] * 10 + ["2"] * 5, "threads")
    parent_of = {"word": "Phase;x", "Phase;x": "run", "run": None, "jumper": None,
                 "Tail": None}
    depth_of = {"word": "2", "Phase;x": "1", "run": "0", "jumper": "0", "Tail": "0"}
    for x in r:
        p = by.get(x["parent_record"])
        if x["name"] == "deep":
            n = int(x["n"])
            want = ("jumper", None) if n == 2 else ("deep", str(n + 1))
            expect(p and (p["name"], p["n"] or None) == want, f"parent of deep {n}")
            expect(x["depth"] == str(3 - n), f"depth of deep {n}")
        else:
            want = parent_of[x["name"]]
            expect((p["name"] if p else None) == want, f"parent of {x['name']}")
            expect(x["depth"] == depth_of[x["name"]], f"depth of {x['name']}")
        if p:
            expect(p["thread"] == x["thread"] and int(p["record"]) > int(x["record"]),
                   "a parent completes after its children, on their thread")
            expect(int(p["start_ns"]) <= int(x["start_ns"]) and
                   int(x["start_ns"]) + int(x["duration_ns"])
                   <= int(p["start_ns"]) + int(p["duration_ns"]), "inside its parent")
        if x["name"] == "word":
            expect(x["s"] in WORDS and x["result"] == str(WORDS[x["s"]]), f"word {x['s']!r}")
        if x["name"] == "Phase;x":
            expect(x["items"] == "3" and x["label"] == "x;y z" and x["file"] == "",
                   "Phase dims")
        if x["name"] == "run":
            expect(x["who"] in ("main", "worker"), "who")
    # Record numbers and durations as `dsprof records` gives them.
    for line in open(records_txt, encoding="latin-1"):
        m = re.match(r"#(\d+) (\d+)ns event=\S+ name=(\S+)", line)
        x = by.get(m.group(1)) if m else None
        expect(x and x["duration_ns"] == m.group(2) and x["name"] == m.group(3),
               f"record {line.strip()}")


kind = sys.argv[1]
if kind == "chrome":
    chrome(sys.argv[2], int(sys.argv[3]), json.load(open(sys.argv[4]))["profiled_ns"])
elif kind == "folded-raw":
    folded(sys.argv[2], json.load(open(sys.argv[3]))["profiled_ns"], True)
elif kind == "folded":
    rep = json.load(open(sys.argv[3]))
    folded(sys.argv[2], sum(r["self_ns"] for r in rep["rows"]), False)
    diff = abs(sum(r["self_ns"] for r in rep["rows"]) - rep["profiled_ns"])
    expect(diff <= 20000, f"Self total {diff} ns off the profiled time")
elif kind == "csv":
    csv_rows(sys.argv[2], int(sys.argv[3]), sys.argv[4])
sys.exit(0 if ok else 1)
