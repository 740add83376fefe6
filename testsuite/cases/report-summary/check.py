"""report-summary's check of `dsprof summary --format csv` and `--format json`
against the text table: python3 check.py TEXT CSV JSON.  Every row of each
holds the same figures in the same order; exit 1 naming the first difference."""
import csv
import json
import re
import sys

text, csvf, jsonf = sys.argv[1:4]
KEYS = ("lines", "blocks", "functions", "branches_executed", "branches_taken")


def from_text(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            cell = r"(\S+(?: \S+%)?)\s+"
            m = re.match(r"\s*" + cell * 5 + r"(.*)$", line.rstrip("\n"))
            cells = [m.group(i) for i in (1, 2, 3, 4, 5)]
            row = {}
            for k, cell in zip(KEYS, cells):
                hit, total = (cell.split()[0].split("/") if cell != "-"
                              else ("0", "0"))
                row[k + "_hit"], row[k] = int(hit), int(total)
            row["where"] = m.group(6)
            rows.append(row)
    return rows


def where(r):
    if r["kind"] == "total":
        return "total"
    if r["kind"] == "file":
        return r["file"]
    return "%s:%s %s" % (r["file"], r["line"], r["function"])


def figures(r):
    """The figures of a csv or json row as from_text names them: the
    branches' totals are both `branches`."""
    f = {k + "_hit": int(r[k + "_hit"]) for k in KEYS[:3]}
    f.update({k: int(r[k]) for k in KEYS[:3]})
    f["branches_executed_hit"] = int(r["branches_executed"])
    f["branches_taken_hit"] = int(r["branches_taken"])
    f["branches_executed"] = f["branches_taken"] = int(r["branches"])
    return f


t = from_text(text)
with open(csvf, newline="", encoding="utf-8") as f:
    c = list(csv.DictReader(f))
with open(jsonf, encoding="utf-8") as f:
    j = json.load(f)
for name, rows in (("csv", c), ("json", j)):
    if len(rows) != len(t):
        sys.exit("%s has %d rows, the text %d" % (name, len(rows), len(t)))
    for a, b in zip(rows, t):
        want = {k: v for k, v in b.items() if k != "where"}
        if where(a) != b["where"] or figures(a) != want:
            sys.exit("%s row %s %s, text %s" % (name, where(a), figures(a), b))
print("csv and json agree with the text: %d rows" % len(t))
