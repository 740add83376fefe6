#!/usr/bin/env python3
"""timecheck.py DSPROF DIM... - Self, Desc and Total of `dsprof report DIM...
--raw` recomputed from `dsprof records` (whose durations are the recorded ones):
for a bucket B (the records with B's values of DIM...), Total is the time of B's
records with no ancestor in B (so a record inside another of the same bucket,
recursion, is not counted twice), Self the sum of each record's duration less its
direct descendants' durations, Desc = Total - Self; the profiled time is the sum
of the top-level records' durations.  Exact, whatever the times are."""
import csv
import io
import json
import re
import subprocess
import sys

dsprof, dims = sys.argv[1], sys.argv[2:]


def run(args):
    return subprocess.run([dsprof] + args, check=True, stdout=subprocess.PIPE).stdout.decode()


def parse_dims(s):
    """key=value pairs; a value is bare or in double quotes with C escapes."""
    out, i = {}, 0
    while i < len(s):
        j = s.index("=", i)
        key = s[i:j]
        i = j + 1
        if i < len(s) and s[i] == '"':
            i += 1
            v = []
            while s[i] != '"':
                if s[i] == "\\":
                    c = s[i + 1]
                    if c == "x":
                        v.append(chr(int(s[i + 2:i + 4], 16)))
                        i += 4
                        continue
                    v.append({"n": "\n", "t": "\t", "r": "\r"}.get(c, c))
                    i += 2
                else:
                    v.append(s[i])
                    i += 1
            value = "".join(v)
            i += 1
        else:
            j = s.find(" ", i)
            j = len(s) if j < 0 else j
            value = s[i:j]
            i = j
        out[key] = value
        if i < len(s) and s[i] == " ":
            i += 1
    return out


recs = {}
for line in run(["records"]).splitlines():
    m = re.match(r"#(\d+) (\d+)ns (.*?)((?: -> (?:#\d+ ?)+)?)$", line)
    if not m:
        sys.exit("timecheck: unparsed record line %r" % line)
    kids = [int(x) for x in re.findall(r"#(\d+)", m.group(4))]
    recs[int(m.group(1))] = {"dur": int(m.group(2)), "dims": parse_dims(m.group(3)),
                             "kids": kids, "parent": None}
for n, r in recs.items():
    for c in r["kids"]:
        recs[c]["parent"] = n

want = {}
for n, r in recs.items():
    key = tuple(r["dims"].get(d, "") for d in dims)
    b = want.setdefault(key, {"total": 0, "self": 0, "count": 0})
    b["count"] += 1
    b["self"] += r["dur"] - sum(recs[c]["dur"] for c in r["kids"])
    p = r["parent"]
    while p is not None and tuple(recs[p]["dims"].get(d, "") for d in dims) != key:
        p = recs[p]["parent"]
    if p is None:
        b["total"] += r["dur"]
profiled = sum(r["dur"] for r in recs.values() if r["parent"] is None)

bad = 0
doc = json.loads(run(["report"] + dims + ["--raw", "--format", "json"]))
if doc["profiled_ns"] != profiled or doc["records"] != len(recs):
    print("profiled %d ns and %d records, want %d ns and %d records"
          % (doc["profiled_ns"], doc["records"], profiled, len(recs)), file=sys.stderr)
    bad = 1
got = {}
for r in list(csv.reader(io.StringIO(run(["report"] + dims + ["--raw", "--format",
                                                               "csv"]))))[1:]:
    if int(r[0]) == len(dims):
        got[tuple(r[1:1 + len(dims)])] = {"total": int(r[1 + len(dims)]),
                                          "self": int(r[3 + len(dims)]),
                                          "count": int(r[7 + len(dims)])}
if got != want:
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            print("%s: report %s, from the records %s" % ("/".join(k), got.get(k),
                                                          want.get(k)), file=sys.stderr)
    bad = 1
sys.exit(bad)
