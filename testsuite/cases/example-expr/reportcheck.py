#!/usr/bin/env python3
"""reportcheck.py - check one `dsprof report` query in all three formats.

usage: reportcheck.py DSPROF EXPECTED [--top N] [--raw] [--where W]... [--unit U]
                      [--profile P]... -- DIM...

Runs `DSPROF report DIM... [options] --format csv|json|text` and checks, from the
formats' definitions (docs/contract.md §5.3) rather than from a recorded output:

- csv: the header; every row's level, its path (dimensions past its level empty),
  Total = Self + Desc, the percentages (times of the profiled time, Count of the
  records); rows depth first under their parent; siblings by Total descending,
  then Count descending, then value; a child's Count and Self add up to its
  parent's (each record has exactly one value of every dimension) and a child's
  Total is at most its parent's; the first level's Counts add up to the records
  (unless --top or --where cut rows);
- json: parses (also through `python3 -m json.tool`), header fields agree with
  csv, and its nested rows are the csv rows in the same order;
- text: the three header lines, then `By D1:`, then `By D2 for v:` for each
  value in table order, and so on; each row's eight figures agree with csv in
  the chosen unit; values over 25 characters or with a newline shown as [n],
  numbered from 1 in order of first appearance (table titles included), the
  same value always the same number, and listed at the end as `[n] value`;
- the (path -> Count) pairs equal EXPECTED: one line per row, the path's values
  separated by tabs, then a tab and the count ('#' lines and blank lines are
  ignored; an empty value is an empty field).  EXPECTED "-" skips this.
"""
import csv
import io
import json
import subprocess
import sys

UNITS = {"ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000}
errors = []


def err(msg):
    errors.append(msg)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("reportcheck: %s: status %d: %s" % (" ".join(cmd), p.returncode,
                                                     p.stderr.decode(errors="replace")))
    return p.stdout.decode()


def pct(part, whole):
    return "%.2f" % (100.0 * part / whole if whole else 0.0)


def main():
    args = sys.argv[1:]
    dsprof, expected = args[0], args[1]
    sep = args.index("--")
    opts, dims = args[2:sep], args[sep + 1:]
    top = None
    cut = False
    unit = None
    query = list(dims)
    i = 0
    while i < len(opts):
        o = opts[i]
        if o == "--raw":
            query.append(o)
            i += 1
            continue
        val = opts[i + 1]
        i += 2
        if o == "--profile":
            query.append(val)
            continue
        query += [o, val]
        if o == "--top":
            top = int(val)
            cut = True
        elif o == "--where":
            cut = True
        elif o == "--unit":
            unit = val
    k = len(dims)

    # ---- csv
    text_csv = run([dsprof, "report"] + query + ["--format", "csv"])
    rows = list(csv.reader(io.StringIO(text_csv)))
    want_header = ["level"] + dims + ["total_ns", "total_pct", "self_ns", "self_pct",
                                      "desc_ns", "desc_pct", "count", "count_pct"]
    if rows[0] != want_header:
        err("csv header %s, want %s" % (rows[0], want_header))
    body = []
    for r in rows[1:]:
        if len(r) != len(want_header):
            err("csv row with %d fields: %s" % (len(r), r))
            continue
        level = int(r[0])
        if not 1 <= level <= k:
            err("csv level %d: %s" % (level, r))
            continue
        if any(r[1 + j] for j in range(level, k)):
            err("csv row fills dimensions past its level: %s" % r)
        nums = r[1 + k:]
        body.append({"level": level, "path": tuple(r[1:1 + level]),
                     "total": int(nums[0]), "total_pct": nums[1],
                     "self": int(nums[2]), "self_pct": nums[3],
                     "desc": int(nums[4]), "desc_pct": nums[5],
                     "count": int(nums[6]), "count_pct": nums[7]})

    # ---- json
    text_json = run([dsprof, "report"] + query + ["--format", "json"])
    tool = subprocess.run([sys.executable, "-m", "json.tool"], input=text_json.encode(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if tool.returncode != 0:
        err("json.tool rejects the json: %s" % tool.stderr.decode())
    doc = json.loads(text_json)
    profiled, records, total_run = doc["profiled_ns"], doc["records"], doc["total_ns"]
    if doc["dims"] != dims:
        err("json dims %s, want %s" % (doc["dims"], dims))
    if profiled > total_run:
        err("profiled %d ns > total %d ns" % (profiled, total_run))
    flat = []

    def walk(rs, path):
        for r in rs:
            p = path + (r["value"],)
            flat.append((len(p), p, r["total_ns"], r["self_ns"], r["desc_ns"], r["count"]))
            walk(r.get("rows", []), p)
    try:
        walk(doc["rows"], ())
    except (KeyError, TypeError) as e:
        err("json rows lack a field: %r" % (e,))

    # ---- csv rows: figures, table order, sorting, sums
    children = {(): []}
    for b in body:
        if b["total"] != b["self"] + b["desc"]:
            err("Total != Self + Desc: %s" % (b,))
        if b["total"] > profiled:
            err("Total beyond the profiled time: %s" % (b,))
        for f in ("total", "self", "desc"):
            if b[f + "_pct"] != pct(b[f], profiled):
                err("%s_pct %s, want %s: %s" % (f, b[f + "_pct"], pct(b[f], profiled), b))
        if b["count_pct"] != pct(b["count"], records):
            err("count_pct %s, want %s: %s" % (b["count_pct"], pct(b["count"], records), b))
        if b["path"][:-1] not in children:
            err("csv row before its parent's row: %s" % (b,))
            children[b["path"][:-1]] = []
        children[b["path"][:-1]].append(b)
        children.setdefault(b["path"], [])
    # One row per table row, in the order of the tables: the first level's, then
    # the second level's table under each first-level row in turn, and so on.
    order, parents = [], [()]
    while parents:
        nxt = []
        for p in parents:
            for c in children.get(p, []):
                order.append(c["path"])
                nxt.append(c["path"])
        parents = nxt
    if order != [b["path"] for b in body]:
        err("csv rows not in table order: %s" % [b["path"] for b in body])
    depth_first = []

    def df(p):
        for c in children.get(p, []):
            depth_first.append((c["level"], c["path"], c["total"], c["self"], c["desc"],
                                c["count"]))
            df(c["path"])
    df(())
    if flat != depth_first:
        err("json rows differ from csv rows:\n  json %s\n  csv  %s" % (flat, depth_first))
    by_path = {b["path"]: b for b in body}
    # --top N: the first N rows of each table of the same query without --top.
    if top is not None:
        q = list(query)
        j = q.index("--top")
        del q[j:j + 2]
        full = {}
        for r in list(csv.reader(io.StringIO(run([dsprof, "report"] + q
                                                 + ["--format", "csv"]))))[1:]:
            lv = int(r[0])
            full.setdefault(tuple(r[1:lv]), []).append((tuple(r[1:1 + lv]), r[1 + k:]))
        for parent, kids in children.items():
            if parent != () and not kids:
                continue
            got_rows = [(c["path"], [str(c["total"]), c["total_pct"], str(c["self"]),
                                     c["self_pct"], str(c["desc"]), c["desc_pct"],
                                     str(c["count"]), c["count_pct"]]) for c in kids]
            if got_rows != full.get(parent, [])[:top]:
                err("--top %d under %s: %s, want the first rows of %s"
                    % (top, parent or "the top", got_rows, full.get(parent)))
    for parent, kids in children.items():
        keys = [(-c["total"], -c["count"], c["path"][-1].encode()) for c in kids]
        if keys != sorted(keys):
            err("rows under %s not by Total, Count, value: %s"
                % (parent or "the top", [c["path"][-1] for c in kids]))
        if len({c["path"] for c in kids}) != len(kids):
            err("a value twice under %s" % (parent,))
        if top is not None and len(kids) > top:
            err("%d rows under %s with --top %d" % (len(kids), parent, top))
        if parent == ():
            if not cut and sum(c["count"] for c in kids) != records:
                err("first-level Counts add up to %d, not the %d records"
                    % (sum(c["count"] for c in kids), records))
            continue
        if not kids:
            continue
        pb = by_path[parent]
        if top is None:
            if sum(c["count"] for c in kids) != pb["count"]:
                err("Counts under %s add up to %d, not %d"
                    % (parent, sum(c["count"] for c in kids), pb["count"]))
            if sum(c["self"] for c in kids) != pb["self"]:
                err("Self under %s adds up to %d, not %d"
                    % (parent, sum(c["self"] for c in kids), pb["self"]))
        for c in kids:
            if c["total"] > pb["total"]:
                err("Total of %s beyond its parent's" % (c["path"],))

    # ---- text
    text = run([dsprof, "report"] + query + ["--format", "text"]).split("\n")
    u = unit
    if u is None:
        # The unit the header uses; checked below against the figures.
        u = text[0].split()[-1] if text and text[0].startswith("Total time: ") else "ns"
    if u not in UNITS:
        err("unknown unit %r" % u)
        u = "ns"

    def t(ns):
        return str(ns) if u == "ns" else "%.3f" % (ns / UNITS[u])
    notes = {}

    def shown(v):
        if len(v.encode()) <= 25 and "\n" not in v:
            return v
        if v not in notes:
            notes[v] = len(notes) + 1
        return "[%d]" % notes[v]
    want = ["Total time: %s %s" % (t(total_run), u),
            "Profiled time: %s %s (%.1f%%)" % (t(profiled), u,
                                             100.0 * profiled / total_run if total_run else 0),
            "Profile records: %d" % records]
    if records == 0:
        want += ["", "No profile records%s." % (" pass the --where filters" if cut else "")]
    parents = [()] if records else []
    for level in range(1, k + 1):
        nxt = []
        for p in parents:
            if level > 1 and p not in by_path:
                continue
            title = "By %s" % dims[level - 1]
            if p:
                vals = [shown(v) for v in p]
                title += " for " + (vals[0] if len(vals) == 1 else
                                    ", ".join(vals[:-1]) + " and " + vals[-1])
            want += ["", title + ":", "", "HEADER"]
            for c in children.get(p, []):
                want.append(("ROW", c, shown(c["path"][-1])))
                nxt.append(c["path"])
        parents = nxt
    if notes:
        want.append("")
        want += ["[%d] %s" % (n, v) for v, n in sorted(notes.items(), key=lambda x: x[1])]
    want.append("")
    got = text
    for i, w in enumerate(want):
        g = got[i] if i < len(got) else "<end of output>"
        if w == "HEADER":
            if g.split() != ["Total", "Total%", "Self", "Self%", "Desc", "Desc%",
                             "Count", "Count%", "Value"]:
                err("text line %d: %r, want the column header" % (i + 1, g))
        elif isinstance(w, tuple):
            c, value = w[1], w[2]
            f = g.split(None, 8)
            figs = [t(c["total"]), "%.1f" % (100.0 * c["total"] / profiled if profiled else 0),
                    t(c["self"]), "%.1f" % (100.0 * c["self"] / profiled if profiled else 0),
                    t(c["desc"]), "%.1f" % (100.0 * c["desc"] / profiled if profiled else 0),
                    str(c["count"]), "%.1f" % (100.0 * c["count"] / records)]
            if f[:8] != figs or (f[8] if len(f) > 8 else "") != value:
                err("text line %d: %r, want %s %r" % (i + 1, g, " ".join(figs), value))
        elif g != w:
            err("text line %d: %r, want %r" % (i + 1, g, w))
            if w.startswith("By ") or g.startswith("By "):
                break
    if len(got) > len(want):
        err("text: %d lines more than expected, from %r" % (len(got) - len(want),
                                                            got[len(want)]))

    # ---- the hand-derived counts
    if expected != "-":
        want_counts = {}
        for line in open(expected):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            f = line.split("\t")
            want_counts[tuple(f[:-1])] = int(f[-1])
        got_counts = {b["path"]: b["count"] for b in body}
        if got_counts != want_counts:
            for p in sorted(set(want_counts) | set(got_counts)):
                if want_counts.get(p) != got_counts.get(p):
                    err("count of %s: got %s, want %s" % ("/".join(p), got_counts.get(p),
                                                          want_counts.get(p)))

    if errors:
        print("reportcheck: dsprof report %s:" % " ".join(query), file=sys.stderr)
        for e in errors[:40]:
            print("  " + e, file=sys.stderr)
        sys.exit(1)


main()
