"""check.py MODE ... - `go tool pprof`'s reading of `dsprof export --format
pprof` against dsprof's own outputs.  Exit 1 with the reasons on stderr.

  top TOP CSV COLS     -top's flat (and cum) by name against the report's
                       columns COLS (self,total or count) by value
  traces TRACES FOLDED -traces' samples summed by stack against the folded
                       export's self times; labels name the leaf
  diff TOP BASE NEW    -top -diff_base's flat against NEW's Self - BASE's"""
import csv, re, sys

ok = True


def expect(cond, what):
    global ok
    if not cond:
        print("wrong:", what, file=sys.stderr)
        ok = False


def close(a, b):
    """Equal within pprof's rounding of what it shows."""
    return abs(a - b) <= 1 + abs(b) * 1e-6


def number(text):
    m = re.fullmatch(r"(-?[0-9.]+)(ns)?", text)
    expect(m, f"a number in ns: {text!r}")
    return float(m.group(1)) if m else 0.0


def top(path):
    """-top's rows: name -> (flat, cum)."""
    rows, seen = {}, False
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.split()
        if f[:2] == ["flat", "flat%"]:
            seen = True
        elif seen and len(f) >= 6:
            name = line.split(None, 5)[5].rstrip("\n")
            expect(name not in rows, f"-top lists {name} twice")
            rows[name] = (number(f[0]), number(f[3]))
    expect(seen, f"no -top table in {path}")
    return rows


def report(path):
    """The report's first table: value -> row."""
    rows = list(csv.DictReader(open(path, encoding="utf-8", errors="replace")))
    return {list(r.values())[1]: r for r in rows if r["level"] == "1"}


def check_top(top_path, csv_path, cols):
    got, want = top(top_path), report(csv_path)
    cols = cols.split(",")
    want = {k: v for k, v in want.items() if float(v["total_ns"]) > 0}
    expect(set(got) == set(want), f"names {sorted(got)}, the report's {sorted(want)}")
    for name, row in want.items():
        if name not in got:
            continue
        flat, cum = got[name]
        if cols[0] == "count":
            expect(flat == float(row["count"]), f"{name}: {flat} records, the report's {row['count']}")
            continue
        expect(close(flat, float(row["self_ns"])), f"{name}: flat {flat}, Self {row['self_ns']}")
        expect(close(cum, float(row["total_ns"])), f"{name}: cum {cum}, Total {row['total_ns']}")


def traces(path):
    """-traces' samples: (labels, value, frames leaf first)."""
    out = []
    for block in open(path, encoding="utf-8", errors="replace").read().split("-----------+")[1:]:
        lines = block.split("\n")[1:]
        if not any(line.strip() for line in lines):
            continue                    # the closing rule
        labels, frames, value = {}, [], None
        for line in lines:
            if not line.strip():
                continue
            m = re.fullmatch(r"\s*(-?[0-9.]+(?:ns)?)\s+(\S.*)", line)
            if value is None and m:
                value = number(m.group(1))
                frames.append(m.group(2))
            elif value is None:
                m = re.fullmatch(r"\s*([^:]+):\s+(.*)", line)
                if m:
                    labels[m.group(1)] = m.group(2)
            else:
                frames.append(line.strip())
        expect(value is not None, f"a sample without a value: {block!r}")
        out.append((labels, value or 0.0, frames))
    return out


def check_traces(path, folded_path):
    samples = traces(path)
    expect(samples, "no samples")
    by_stack = {}
    for labels, value, frames in samples:
        stack = ";".join(f.replace(";", "\\x3b") for f in reversed(frames))
        by_stack[stack] = by_stack.get(stack, 0) + value
        for d in ("event", "thread", "complete"):
            expect(d in labels, f"sample {stack} lacks label {d}: {labels}")
        expect(labels.get("name", labels.get("event")) == frames[0],
               f"sample {stack}: name label {labels.get('name')}")
    want = {}
    for line in open(folded_path, encoding="utf-8", errors="replace"):
        stack, ns = line.rstrip("\n").rsplit(" ", 1)
        expect(stack not in want, f"folded stack {stack} twice")
        want[stack] = want.get(stack, 0) + int(ns)
    for stack, ns in want.items():
        expect(close(by_stack.get(stack, -1), ns), f"{stack}: {by_stack.get(stack)} ns, folded {ns}")
    for stack, ns in by_stack.items():
        expect(stack in want or ns == 0, f"{stack}: {ns} ns, not in the folded export")


def check_diff(top_path, base_path, new_path):
    got, base, new = top(top_path), report(base_path), report(new_path)
    names = set(base) | set(new)
    want = {n: float(new[n]["self_ns"] if n in new else 0) - float(base[n]["self_ns"] if n in base else 0)
            for n in names}
    for n, d in want.items():
        expect(n in got or d == 0, f"{n} missing from the diff")
        if n in got:
            expect(close(got[n][0], d), f"{n}: diff flat {got[n][0]}, the reports' change {d}")
    expect(set(got) <= names, f"diff names {sorted(set(got) - names)}")


def check_dsdiff(top_path, diff_path):
    """-diff_base's flat of each name against `dsprof diff name`'s change of
    Self (the name's row on either side: new, gone or both)."""
    got = top(top_path)
    rows = list(csv.DictReader(open(diff_path, encoding="utf-8", errors="replace")))
    want = {r["name"]: float(r["change_self_ns"]) for r in rows if r["level"] == "1"}
    expect(want, f"no rows in {diff_path}")
    for n, d in want.items():
        expect(n in got or d == 0, f"{n} missing from the pprof diff")
        if n in got:
            expect(close(got[n][0], d), f"{n}: pprof diff flat {got[n][0]}, dsprof diff {d}")
    expect(set(got) <= set(want), f"pprof diff names {sorted(set(got) - set(want))}")


mode = sys.argv[1]
if mode == "top":
    check_top(*sys.argv[2:5])
elif mode == "traces":
    check_traces(*sys.argv[2:4])
elif mode == "diff":
    check_diff(*sys.argv[2:5])
elif mode == "dsdiff":
    check_dsdiff(*sys.argv[2:4])
else:
    sys.exit(f"unknown mode {mode}")
sys.exit(0 if ok else 1)
