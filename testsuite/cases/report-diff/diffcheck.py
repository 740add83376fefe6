#!/usr/bin/env python3
"""diffcheck.py - check one `dsprof diff` query in its three formats.

usage: diffcheck.py DSPROF EXPECTED [--change M] [--top N] ARGS...

Runs `DSPROF diff ARGS... --change M --format csv|json|text` and checks, from
the formats' definitions (docs/contract.md §5.9) rather than from a recorded
output:

- csv, json and text hold the same rows (path, status, base and new Count,
  Count change, Total and Self of both sides);
- each side's figures are those `dsprof report --format json` gives for that
  side alone (the same model), and so are the header figures;
- the change is new - base (a missing side 0), its percentage (new - base) /
  base, status new / gone / both as the sides hold the row;
- siblings sorted by the size of the change of M, then of Count, growth first,
  then value;
- the (path -> status, base count, new count) triples equal EXPECTED: one line
  per row, the path's values, status, base and new count separated by tabs
  ('-' for a missing side; '#' lines ignored).
The base and new sides must be given as --base/--new options in ARGS.
"""
import csv
import io
import json
import subprocess
import sys

errors = []


def err(msg):
    errors.append(msg)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("diffcheck: %s: status %d: %s" % (" ".join(cmd), p.returncode,
                                                   p.stderr.decode(errors="replace")))
    return p.stdout.decode()


def main():
    dsprof, expected = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    change, top = "total", None
    rest = []
    i = 0
    base, new, dims, passed = [], [], [], []
    while i < len(args):
        a = args[i]
        if a in ("--change", "--top", "--base", "--new", "--where", "--sum"):
            v = args[i + 1]
            i += 2
            if a == "--change":
                change = v
            elif a == "--top":
                top = int(v)
            elif a == "--base":
                base.append(v)
            elif a == "--new":
                new.append(v)
            if a in ("--where", "--sum"):
                passed += [a, v]
            rest += [a, v]
            continue
        dims.append(a)
        rest.append(a)
        i += 1
    dims = dims or ["name"]
    cmd = [dsprof, "diff"] + rest + ([] if "--change" in rest else ["--change", change])
    out = {f: run(cmd + ["--format", f]) for f in ("csv", "json", "text")}

    # json, nested, to flat rows in order
    j = json.loads(out["json"])
    rows = []

    def walk(rs, path):
        for r in rs:
            p = path + [r["value"]]
            rows.append((p, r))
            walk(r.get("rows", []), p)
    walk(j["rows"], [])

    # each side alone through `dsprof report`
    def report(side):
        d = json.loads(run([dsprof, "report", "--format", "json"] + dims + passed
                           + ["--"] + side))
        flat = {}

        def w(rs, path):
            for r in rs:
                p = tuple(path + [r["value"]])
                flat[p] = r
                w(r.get("rows", []), list(p))
        w(d["rows"], [])
        return d, flat
    rb, fb = report(base)
    rn, fn = report(new)
    for side, rep in (("base", rb), ("new", rn)):
        for k in ("total_ns", "profiled_ns", "records"):
            if j[side][k] != rep[k]:
                err("json %s %s %s, report's %s" % (side, k, j[side][k], rep[k]))
    fig = {"total": "total_ns", "self": "self_ns", "count": "count"}
    for p, r in rows:
        t = tuple(p)
        for side, flat in (("base", fb), ("new", fn)):
            if (r[side] is None) != (t not in flat):
                err("%s: %s side %s, report has %s" % (p, side, r[side], flat.get(t)))
            elif r[side] is not None:
                for k in ("total_ns", "self_ns", "desc_ns", "count"):
                    if r[side][k] != flat[t][k]:
                        err("%s: %s %s %s, report's %s" % (p, side, k, r[side][k],
                                                            flat[t][k]))
        want = "new" if r["base"] is None else "gone" if r["new"] is None else "both"
        if r["status"] != want:
            err("%s: status %s, not %s" % (p, r["status"], want))
        for k in ("total_ns", "self_ns", "count"):
            b = r["base"][k] if r["base"] else 0
            n = r["new"][k] if r["new"] else 0
            if r["change"][k] != n - b:
                err("%s: change %s %s, not %s" % (p, k, r["change"][k], n - b))
            pct = r["change"][k + "_pct"]
            if r["base"] and b:
                if pct is None or abs(pct - 100.0 * (n - b) / b) > 0.001:
                    err("%s: %s_pct %s" % (p, k, pct))
            elif pct is not None:
                err("%s: %s_pct %s without a base" % (p, k, pct))

    # sorting, and --top, per table
    def check_order(rs, path):
        if top is not None and len(rs) > top:
            err("%s: %d rows, --top %d" % (path, len(rs), top))

        def key(r):
            out = []
            for m in (fig[change], "count"):
                c = r["change"][m]
                out += [-abs(c), -c]
            return out + [r["value"].encode()]
        if [key(r) for r in rs] != sorted(key(r) for r in rs):
            err("%s: rows not by change of %s: %s" % (path, change,
                                                      [r["value"] for r in rs]))
        for r in rs:
            check_order(r.get("rows", []), path + [r["value"]])
    check_order(j["rows"], [])

    # csv: the same rows, level by level (as the text tables)
    c = list(csv.reader(io.StringIO(out["csv"])))
    head = ["level"] + dims + ["status"]
    for f in ("total_ns", "self_ns", "count"):
        head += ["base_" + f, "new_" + f, "change_" + f, "change_%s_pct" % f]
    if c[0][:len(head)] != head:
        err("csv header %s" % c[0])
    csvrows = c[1:]
    if len(csvrows) != len(rows):
        err("csv has %d rows, json %d" % (len(csvrows), len(rows)))
    nd = len(dims)
    for cr in csvrows:
        level = int(cr[0])
        path = cr[1:1 + level]
        match = [r for p, r in rows if p == path]
        if len(match) != 1:
            err("csv row %s not in json" % cr)
            continue
        r = match[0]
        f = cr[1 + nd:]
        if f[0] != r["status"]:
            err("csv %s status %s" % (path, f[0]))
        for k, name in enumerate(("total_ns", "self_ns", "count")):
            b, n, ch = f[1 + 4 * k:4 + 4 * k]
            if b != ("" if r["base"] is None else str(r["base"][name])) \
               or n != ("" if r["new"] is None else str(r["new"][name])) \
               or int(ch) != r["change"][name]:
                err("csv %s %s: %s %s %s" % (path, name, b, n, ch))
    if [int(cr[0]) for cr in csvrows] != sorted(int(cr[0]) for cr in csvrows):
        err("csv rows not level by level")

    # text: the tables' titles and each row's counts and value
    text = out["text"].splitlines()
    trows = []
    title = None
    for line in text:
        if line.startswith("By "):
            title = line
            continue
        if title and line.strip() and not line.lstrip().startswith(("Total:", "Base")):
            tok = line.split()
            trows.append((title, tok[8:12], " ".join(tok[12:])))
    if len(trows) != len(rows):
        err("text has %d rows, json %d:\n%s" % (len(trows), len(rows), out["text"]))
    seen = {}
    for t, counts, value in trows:
        seen.setdefault(t, []).append((value, counts))
    for p, r in rows:
        t = "By %s" % dims[len(p) - 1]
        if len(p) > 1:
            pre = p[:-1]
            t += " for " + (pre[0] if len(pre) == 1 else
                            ", ".join(pre[:-1]) + " and " + pre[-1])
        t += ", by change of %s:" % change
        b = str(r["base"]["count"]) if r["base"] else "-"
        n = str(r["new"]["count"]) if r["new"] else "-"
        ch = r["change"]["count"]
        chs = "0" if ch == 0 else "%+d" % ch
        pct = "new" if not r["base"] else "gone" if not r["new"] else \
            "%+.1f" % (100.0 * ch / r["base"]["count"])
        if (p[-1], [b, n, chs, pct]) not in seen.get(t, []):
            err("text: no row %s %s under '%s': %s" % (p[-1], [b, n, chs, pct], t,
                                                       seen.get(t)))

    # expected triples
    if expected != "-":
        want = sorted(l.rstrip("\n") for l in open(expected)
                      if l.strip() and not l.startswith("#"))
        got = sorted("\t".join(p + [r["status"],
                                    str(r["base"]["count"]) if r["base"] else "-",
                                    str(r["new"]["count"]) if r["new"] else "-"])
                     for p, r in rows)
        if want != got:
            err("rows:\n  got  %s\n  want %s" % (got, want))
    if errors:
        sys.exit("diffcheck %s:\n  %s" % (" ".join(cmd), "\n  ".join(errors)))


main()
