# check.py COBERTURA.xml LCOV.info SUMMARY.csv ROOT - the export-cobertura
# figures: the Cobertura export's totals, per file (its class's <line>s,
# their hits and condition-coverage) and overall (its attributes), are the
# lcov export's (LF, LH, BRF, BRH) and `dsprof summary --format csv`'s
# (lines_hit, lines, branches_taken, branches); its <source> is ROOT and its
# filenames below it; each package holds the files of its directory.
import csv
import re
import sys
import xml.etree.ElementTree as ET

xml_path, lcov_path, csv_path, root = sys.argv[1:5]
bad = []


def figures_of_lines(lines):
    """(lines hit, lines, branches taken, branches) of <line> elements."""
    lh = lf = bh = bf = 0
    for ln in lines:
        lf += 1
        lh += int(ln.get("hits")) > 0
        if ln.get("branch") == "true":
            m = re.fullmatch(r"(\d+)% \((\d+)/(\d+)\)", ln.get("condition-coverage"))
            taken, total = int(m.group(2)), int(m.group(3))
            if int(m.group(1)) != 100 * taken // total:
                bad.append("line %s: %s" % (ln.get("number"), ln.get("condition-coverage")))
            bh += taken
            bf += total
    return (lh, lf, bh, bf)


cov = ET.parse(xml_path).getroot()
sources = [s.text for s in cov.iter("source")]
if sources != [root]:
    bad.append("sources %r, not [%r]" % (sources, root))
got = {}
for pkg in cov.iter("package"):
    for cls in pkg.iter("class"):
        name = cls.get("filename")
        d = name.rpartition("/")[0].replace("/", ".")
        if pkg.get("name") != d:
            bad.append("%s in package %r" % (name, pkg.get("name")))
        got[root + "/" + name] = figures_of_lines(cls.find("lines").iter("line"))
total = tuple(int(cov.get(k)) for k in
              ("lines-covered", "lines-valid", "branches-covered", "branches-valid"))

lcov, cur = {}, None
for line in open(lcov_path):
    key, _, val = line.strip().partition(":")
    if key == "SF":
        cur = val
        lcov[cur] = {"BRH": 0, "BRF": 0}
    elif key in ("LF", "LH", "BRF", "BRH"):
        lcov[cur][key] = int(val)
lcov = {k: (v["LH"], v["LF"], v["BRH"], v["BRF"]) for k, v in lcov.items()}

summary, summary_total = {}, None
for row in csv.DictReader(open(csv_path)):
    f = tuple(int(row[k]) for k in ("lines_hit", "lines", "branches_taken", "branches"))
    if row["kind"] == "file":
        summary[row["file"]] = f
    elif row["kind"] == "total":
        summary_total = f

if got != lcov:
    bad.append("per file: cobertura %r, lcov %r" % (got, lcov))
if got != summary:
    bad.append("per file: cobertura %r, summary %r" % (got, summary))
sums = tuple(sum(v[i] for v in lcov.values()) for i in range(4))
if total != sums or total != summary_total:
    bad.append("totals: cobertura %r, lcov %r, summary %r" % (total, sums, summary_total))
if not got or total[3] == 0:
    bad.append("nothing to compare: %r" % (total,))
for b in bad:
    print("check.py:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
