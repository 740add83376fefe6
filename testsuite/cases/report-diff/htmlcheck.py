#!/usr/bin/env python3
"""htmlcheck.py - check the page of `dsprof html --diff BASE NEW`.

usage: htmlcheck.py PAGE EXPECTED LINES BOTH GONE

- the tags balance and nothing is fetched;
- the first table (By name) of the dimension report, class "dims diff": per
  row its status (the row's class), base and new Count: EXPECTED's lines
  (report-diff's format: value, status, base, new count; '-' for a side
  missing);
- the icicle graph: each box's class (grew, shrank, same, new) agrees with
  its data-base-ns / data-new-ns and its fill's hue (red 0 for slower or new,
  blue 220 for faster, grey for the same); the paths (from the box's title)
  of the boxes with a base are BOTH (comma-separated), each with the
  data-base-count and data-new-count BOTH gives (path=b/n); every other box
  is new; the note of gone paths names GONE (comma-separated);
- the changed source lines: the rows of `dsprof diff --lines` (LINES, its
  output), in order, up to the table's length.
"""
import html.parser
import re
import sys


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack = []
        self.tables = []          # [(classes, rows: [(tr attrs, [cells])])]
        self.boxes = []           # [(rect attrs, title)]
        self.gone = []
        self.title = None
        self.cell = None
        self.in_gone = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("meta", "br", "img", "link", "hr", "input"):
            return
        if tag == "script" and "src" in a or tag == "link":
            fail("the page fetches %s" % a)
        self.stack.append(tag)
        if tag == "table":
            self.tables.append((a.get("class", ""), []))
        elif tag == "tr" and self.tables:
            self.tables[-1][1].append((a, []))
        elif tag in ("td", "th") and self.tables:
            self.cell = ""
        elif tag == "title" and "svg" in self.stack:
            self.title = ""
        elif tag == "rect":
            self.boxes.append((a, self.title_done))
        elif tag == "span" and "gone" in a.get("class", ""):
            self.in_gone = True
            self.gone.append("")

    title_done = None

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            fail("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else ""))
        self.stack.pop()
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][1][-1][1].append(self.cell)
            self.cell = None
        elif tag == "title" and self.title is not None:
            self.title_done = self.title
            self.title = None
        elif tag == "span":
            self.in_gone = False

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.title is not None:
            self.title += data
        if self.in_gone:
            self.gone[-1] += data


def fail(msg):
    sys.exit("htmlcheck: " + msg)


def main():
    page, expected, lines, both, gone = sys.argv[1:6]
    p = Page()
    p.feed(open(page, encoding="utf-8").read())
    p.close()
    if p.stack:
        fail("unclosed %s" % p.stack)

    dims = [t for t in p.tables if t[0] == "dims diff"]
    if not dims:
        fail("no dims diff table")
    head = dims[0][1][0][1]
    if head[:4] != ["Base Total", "New Total", "Change", "Change%"] \
       or head[8:12] != ["Base Count", "New Count", "Change", "Change%"]:
        fail("table head %s" % head)
    got = []
    for attrs, cells in dims[0][1][1:]:
        got.append("\t".join([cells[12], attrs.get("class"), cells[8], cells[9]]))
        b = 0 if cells[8] == "-" else int(cells[8])
        n = 0 if cells[9] == "-" else int(cells[9])
        if int(cells[10]) != n - b:
            fail("row %s: change %s" % (cells, cells[10]))
    want = [l.rstrip("\n") for l in open(expected)
            if l.strip() and not l.startswith("#")]
    if sorted(got) != sorted(want):
        fail("table rows\n  got  %s\n  want %s" % (sorted(got), sorted(want)))

    boxes = [(a, t) for a, t in p.boxes if "rec" in a.get("class", "").split()]
    if not boxes:
        fail("no boxes")
    withbase = {}
    for a, title in boxes:
        cls = a["class"].split()[1]
        path = re.match(r"path: (.*)", title).group(1)
        hue = re.match(r"hsl\((\d+),(\d+)%", a["fill"])
        if not hue:
            fail("fill %s" % a["fill"])
        if cls == "new":
            if "data-base-ns" in a or hue.groups() != ("0", "85"):
                fail("new box %s: %s" % (path, a))
            continue
        b, n = int(a["data-base-ns"]), int(a["data-new-ns"])
        want = "grew" if n > b else "shrank" if n < b else "same"
        hue_want = {"grew": "0", "shrank": "220", "same": "0"}[want]
        if cls != want or hue.group(1) != hue_want \
           or (want == "same") != (hue.group(2) == "0"):
            fail("box %s: class %s, fill %s, base %d new %d" % (path, cls, a["fill"], b, n))
        withbase[path] = "%s/%s" % (a["data-base-count"], a["data-new-count"])
    want = dict(x.split("=") for x in both.split(","))
    if withbase != want:
        fail("boxes with a base %s, not %s" % (withbase, want))
    if sorted(p.gone) != sorted(gone.split(",")):
        fail("gone %s, not %s" % (p.gone, gone))

    rows = [t for t in p.tables if t[0] == "lines diff"]
    want = []
    for l in open(lines):
        m = re.match(r"(.*:\d+): (\d+) -> (\d+) ", l)
        want.append([m.group(2), m.group(3), m.group(1)])
    got = [[c[0], c[1], c[4]] for a, c in rows[0][1][1:]] if rows else []
    if not got or got != want[:len(got)]:
        fail("changed lines %s, not %s" % (got, want[:len(got)]))


main()
