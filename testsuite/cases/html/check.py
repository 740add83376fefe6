#!/usr/bin/env python3
"""check.py - checks of `dsprof html` pages for the html case.

  check.py wellformed PAGE          tags balanced, nothing fetched from outside
  check.py expr PAGE SOURCE         the page of examples/expr (SOURCE: expr.c)
  check.py expr-dims PAGE           ... with --dims name,cached
  check.py top PAGE                 ... with --dims name,cached --top 1
  check.py merged PAGE              ... with one box per name path
  check.py extra PAGE               the page of extra.c (markup, two threads)
  check.py png SHOT                 a screenshot that shows the record tree
  check.py pairs PAGE TOP OPS PAIRS SEQ3 SEQ4
                                    the opcode pairs and sequences of a VM's
                                    page with --top TOP, against the CSVs of
                                    `dsprof report` name, prev:name name,
                                    seq3:name and seq4:name --where event=op
  check.py no-pairs PAGE            a page without the opcode pairs view

Pages are parsed into a small tree with html.parser; the same checks read the
page as dsprof wrote it and the DOM as Chromium rendered it.  Every expectation
comes from the programs' logic (see test.sh).  Exits 1 with a message on the
first failure."""

import csv
import html.parser
import re
import struct
import sys
import zlib

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.kids = []                      # Nodes and strings

    def text(self):
        return "".join(k if isinstance(k, str) else k.text() for k in self.kids)

    def all(self, tag=None, cls=None):
        for k in self.kids:
            if isinstance(k, Node):
                if (tag is None or k.tag == tag) and (
                        cls is None or cls in k.attrs.get("class", "").split()):
                    yield k
                yield from k.all(tag, cls)

    def first(self, tag=None, cls=None):
        return next(self.all(tag, cls), None)


class Builder(html.parser.HTMLParser):
    """A strict tree builder: every non-void element must be closed by its own
    end tag, in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.cur = self.root
        self.errors = []

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.kids.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.kids.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.cur.tag != tag:
            self.errors.append("</%s> closes <%s> at line %d" %
                               (tag, self.cur.tag, self.getpos()[0]))
            return
        self.cur = self.cur.parent

    def handle_data(self, data):
        self.cur.kids.append(data)


def parse(path, strict=True):
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    b = Builder()
    b.feed(raw)
    b.close()
    if strict:
        if b.errors:
            fail("%s: %s" % (path, b.errors[0]))
        if b.cur is not b.root:
            fail("%s: <%s> is never closed" % (path, b.cur.tag))
    return raw, b.root


def section(root, ident):
    for s in root.all("section"):
        if s.attrs.get("id") == ident:
            return s
    fail("no section %s" % ident)


def tables(sec):
    """{heading text: [rows as lists of cell texts]} of the h3 + table pairs."""
    out, heading = {}, None
    for n in sec.all():
        if n.tag == "h3":
            heading = n.text().strip()
        elif n.tag == "table" and heading is not None:
            out[heading] = [[cell(td) for td in tr.all("td")]
                            for tr in n.all("tr") if tr.first("td")]
            for row in out[heading]:
                clamped_note(heading, row)
            heading = None
    return out


def cell(td):
    """A cell's text; a value cell's without its clamp note (a busy machine
    can raise a record to its children's time), kept apart for
    clamped_note as (value, N)."""
    note = td.first("span", "note") if "value" in td.attrs.get("class", "").split() else None
    if note is None:
        return td.text()
    own = "".join(k for k in td.kids if isinstance(k, str))
    if not own.endswith(" "):
        fail("value cell %r: no blank before its note" % td.text())
    return (own[:-1], note.text())


def clamped_note(where, row):
    """Check a row's clamp note, if any (docs/contract.md §5.3: N of the
    row's records had their Self clamped), and leave the bare value."""
    if not row or not isinstance(row[-1], tuple):
        return
    value, note = row[-1]
    m = re.fullmatch(r"\(Self clamped in ([0-9]+) records?\)", note)
    if not m or not 1 <= int(m[1]) <= float(row[6]) or (int(m[1]) == 1) != note.endswith("record)"):
        fail("%s: row %r: clamp note %r" % (where, value, note))
    row[-1] = value


def check_table_row(where, row):
    if len(row) != 9:
        fail("%s: %d cells in %r, not 9" % (where, len(row), row))
    total, tpct, self_, spct, desc, dpct, count, cpct = map(float, row[:8])
    if not (0 <= self_ <= total + 0.0005 and abs(total - self_ - desc) <= 0.0015):
        fail("%s: Total %s Self %s Desc %s do not add up" % (where, row[0], row[2],
                                                             row[4]))
    for p in (tpct, spct, dpct, cpct):
        if not 0 <= p <= 100.05:
            fail("%s: percentage %s" % (where, p))
    return int(count), cpct


def expect_table(tabs, heading, expected, records):
    """EXPECTED: {value: count}; the Count% of each row is count / RECORDS."""
    if heading not in tabs:
        fail("no table %r (tables: %s)" % (heading, list(tabs)))
    got = {}
    for row in tabs[heading]:
        count, cpct = check_table_row(heading, row)
        if abs(cpct - 100.0 * count / records) > 0.051:
            fail("%s: Count%% %s for count %d of %d" % (heading, cpct, count, records))
        got[row[8]] = count
    if got != expected:
        fail("%s: rows %r, expected %r" % (heading, got, expected))


def boxes(root, cls):
    """(rect attrs, title text, label) of every box of the record tree."""
    svg = root.first("svg", "flame")
    if svg is None:
        fail("no svg.flame element")
    out = []
    for g in svg.all("g", "box"):
        rect, title = g.first("rect"), g.first("title")
        if rect is None or title is None:
            fail("a box without rect or title")
        if cls in rect.attrs.get("class", "").split():
            out.append((rect.attrs, title.text()))
    if sum(1 for _ in svg.all("rect")) != sum(1 for _ in svg.all("g", "box")):
        fail("rects outside boxes")
    return out


def dims_of(tip):
    d = {}
    for line in tip.split("\n"):
        if "=" in line and not line.startswith("time:"):
            k, v = line.split("=", 1)
            d[k] = v
    m = re.search(r"from (\d+) ns to (\d+) ns", tip)
    if not m:
        fail("tooltip without times: %r" % tip)
    return d, int(m.group(1)), int(m.group(2))


def geom(a):
    return float(a["x"]), int(float(a["y"])) // 18, float(a["width"])


# ---- the pages ----------------------------------------------------------------

def cmd_wellformed(path):
    raw, root = parse(path)
    if re.search(r"https?://", raw, re.I):
        fail("%s refers to http(s)://" % path)
    for n in root.all():
        if n.tag in ("link", "img", "iframe", "object", "embed", "audio", "video",
                     "source", "base"):
            fail("%s has a <%s> element" % (path, n.tag))
        if "src" in n.attrs:
            fail("%s: <%s src=...>" % (path, n.tag))
        href = n.attrs.get("href", "#")
        if not href.startswith("#"):
            fail("%s: href %r leaves the page" % (path, href))
    for s in root.all("style"):
        if re.search(r"url\(|@import", s.text()):
            fail("%s: the style loads something" % path)
    if [n.tag for n in root.kids if isinstance(n, Node)] != ["html"]:
        fail("%s: not one <html> element" % path)


EXPR_RECORDS = {
    # (name, subject, cached) -> (depth, parent key)
    ("iszero", "Add(Num(3),Mul(Num(4),Num(5)))", None): (0, None),
    ("value", "Add(Num(3),Mul(Num(4),Num(5)))", "false"):
        (1, ("iszero", "Add(Num(3),Mul(Num(4),Num(5)))", None)),
    ("value", "Num(3)", "false"): (2, ("value", "Add(Num(3),Mul(Num(4),Num(5)))",
                                       "false")),
    ("value", "Mul(Num(4),Num(5))", "false"):
        (2, ("value", "Add(Num(3),Mul(Num(4),Num(5)))", "false")),
    ("value", "Num(4)", "false"): (3, ("value", "Mul(Num(4),Num(5))", "false")),
    ("value", "Num(5)", "false"): (3, ("value", "Mul(Num(4),Num(5))", "false")),
    ("value", "Add(Num(3),Mul(Num(4),Num(5)))", "true"): (0, None),
}


def cmd_expr(path, source):
    raw, root = parse(path, strict=False)
    # The report: 7 records, iszero once, value six times.
    tabs = tables(section(root, "tables"))
    summary = section(root, "tables").first("p", "summary").text()
    if "Profile records: 7." not in summary:
        fail("summary: %r" % summary)
    expect_table(tabs, "By name:", {"iszero": 1, "value": 6}, 7)

    # The record tree: one box per record, each where the tree puts it.
    recs = boxes(root, "rec")
    if len(recs) != 7:
        fail("%d record boxes, expected 7" % len(recs))
    if boxes(root, "lane"):
        fail("lanes drawn for one thread")
    seen = {}
    for attrs, tip in recs:
        d, start, end = dims_of(tip)
        if not tip.startswith("event=AttrEval\nname=%s\n" % d.get("name")):
            fail("tooltip does not start with event and name: %r" % tip)
        key = (d.get("name"), d.get("subject"), d.get("cached"))
        if key not in EXPR_RECORDS or key in seen:
            fail("unexpected record box %r" % (key,))
        if d.get("complete") != "true":
            fail("record %r not complete" % (key,))
        seen[key] = (geom(attrs), start, end)
    results = {"Num(3)": "3", "Num(4)": "4", "Num(5)": "5",
               "Mul(Num(4),Num(5))": "20", "Add(Num(3),Mul(Num(4),Num(5)))": "23"}
    for attrs, tip in recs:
        d, _, _ = dims_of(tip)
        want = "false" if d["name"] == "iszero" else results[d["subject"]]
        if d.get("result") != want:
            fail("record %s %s: result %r, expected %s" % (d["name"], d["subject"],
                                                           d.get("result"), want))
    tops = [k for k, (depth, parent) in EXPR_RECORDS.items() if parent is None]
    topns = sum(seen[k][2] - seen[k][1] for k in tops)
    scale = 1200.0 / topns
    for key, (depth, parent) in EXPR_RECORDS.items():
        (x, row, w), start, end = seen[key]
        if row != depth:
            fail("record %r drawn at depth %d, expected %d" % (key, row, depth))
        if abs(w - max(0.5, (end - start) * scale)) > 0.02:
            fail("record %r: width %.2f for %d ns of %d" % (key, w, end - start,
                                                          topns))
        if parent:
            (px, _, pw), pstart, _ = seen[parent]
            if abs(x - (px + (start - pstart) * scale)) > 0.02 or \
               x + w > px + pw + 0.6:
                fail("record %r at x %.2f..%.2f is not inside its parent's "
                     "%.2f..%.2f" % (key, x, x + w, px, px + pw))
    first = seen[("iszero", "Add(Num(3),Mul(Num(4),Num(5)))", None)]
    second = seen[("value", "Add(Num(3),Mul(Num(4),Num(5)))", "true")]
    if first[0][0] != 0 or abs(second[0][0] - first[0][2]) > 0.02:
        fail("the top-level records are not side by side from x=0 in order")

    # The call graph by name: iszero called once from outside any record; value
    # twice from outside value (by iszero, and at top level) and 4 times by
    # itself (Add's two operands, Mul's two).
    # The call graph is a table, one body per entry: callers, the entry's own
    # row ([n], %time, self, children, called, name), callees.
    cgt = section(root, "callgraph").first("table", "callgraph")
    if cgt is None:
        fail("no call graph")
    entries = {}
    for body in cgt.all("tbody"):
        rows = [(tr.attrs.get("class"), [td.text() for td in tr.all("td")])
                for tr in body.all("tr")]
        if any(len(cells) != 6 for _, cells in rows):
            fail("call graph rows %r" % rows)
        own = [cells for cls, cells in rows if cls == "entry"]
        if len(own) != 1:
            fail("call graph entry without one own row: %r" % rows)
        m = re.match(r"(\S+) \[(\d+)\]$", own[0][5])
        if (not m or own[0][0] != "[%s]" % m.group(2)
                or not all(re.match(r"[\d.]+$", c) for c in own[0][1:4])):
            fail("call graph own row %r" % own[0])
        entries[m.group(1)] = (own[0][4], rows)
    if {k: v[0] for k, v in entries.items()} != {"iszero": "1", "value": "2+4"}:
        fail("call graph entries %r" % {k: v[0] for k, v in entries.items()})
    callers = [(cells[4], re.sub(r" \[\d+\]$", "", cells[5]))
               for cls, cells in entries["value"][1]
               if cls == "caller" and "/" in cells[4]]
    if sorted(callers) != [("1/2", "<spontaneous>"), ("1/2", "iszero")]:
        fail("callers of value: %r" % callers)

    # The hottest lines: counts from the program's logic, the text of each line
    # as in the source, largest first.
    with open(source, encoding="utf-8") as f:
        src = f.read().split("\n")

    def line_of(text):
        n = [i + 1 for i, l in enumerate(src) if l.strip() == text]
        if len(n) != 1:
            fail("expr.c has %d lines %r" % (len(n), text))
        return n[0]

    rows = [[td.text() for td in tr.all("td")]
            for tr in section(root, "lines").all("tr") if tr.first("td")]
    if len(rows) != 25:
        fail("%d hot lines, expected 25 (more than 25 lines ran)" % len(rows))
    got = {}
    for count, loc, text in rows:
        m = re.fullmatch(r"(.*expr\.c):(\d+)", loc)
        if not m:
            fail("hot line location %r" % loc)
        n = int(m.group(2))
        if text != src[n - 1]:
            fail("hot line %s shows %r, the source has %r" % (loc, text, src[n - 1]))
        got[n] = int(count)
    counts = [int(r[0]) for r in rows]
    if counts != sorted(counts, reverse=True):
        fail("hot lines not by count: %s" % counts)
    # The formatter shows each record's subject once: 7 records whose subjects
    # hold 1+1+1+3+5+5+5 = 21 nodes, 14 of them Num, 7 Add or Mul (3 Add, 4
    # Mul: the largest count on that line is 7).  value runs 6 times, 5 of them
    # uncached; 3 Num nodes computed, 1 Add, 1 Mul (the label lines have their
    # blocks' counts; with them, iszero's line, once, is the 26th line).
    expected = {
        "show_node (const void *p, char *buf, size_t size)": 21,
        "if (n->kind == NUM)": 21,
        'return (size_t) snprintf (buf, size, "Num(%ld)", n->num);': 14,
        'return (size_t) snprintf (buf, size, "%s(%s,%s)", n->kind == ADD ? '
        '"Add" : "Mul",': 7,
        "value (struct node *subject)": 6,
        "if (subject->has_value)": 6,
        'dsprof_dim_bool ("cached", 0);': 5,
        "v = subject->num;": 3,
        'dsprof_dim_bool ("cached", 1);': 1,
        "case NUM:": 3,
        "case ADD:": 1,
        "default:": 1,
    }
    for text, count in expected.items():
        n = line_of(text)
        if got.get(n) != count:
            fail("hot line %d (%s): count %s, expected %d" % (n, text, got.get(n),
                                                              count))


def cmd_expr_dims(path):
    raw, root = parse(path, strict=False)
    tabs = tables(section(root, "tables"))
    expect_table(tabs, "By name:", {"iszero": 1, "value": 6}, 7)
    expect_table(tabs, "By cached for value:", {"false": 5, "true": 1}, 7)
    expect_table(tabs, "By cached for iszero:", {"": 1}, 7)
    if len(tabs) != 3:
        fail("tables %s, expected 3" % list(tabs))


def cmd_top(path):
    """--dims name,cached --top 1: one row per table, the other name noted."""
    raw, root = parse(path, strict=False)
    sec = section(root, "tables")
    tabs = tables(sec)
    if len(tabs) != 2 or len(tabs["By name:"]) != 1:
        fail("--top 1: tables %r" % tabs)
    shown = tabs["By name:"][0][8]
    if shown not in ("iszero", "value"):
        fail("--top 1 shows %r" % shown)
    if "By cached for %s:" % shown not in tabs:
        fail("--top 1: no table for the row shown (%s)" % list(tabs))
    notes = [p.text() for p in sec.all("p", "note")]
    if notes[:1] != ["1 more rows not shown (--top 1)."]:
        fail("--top 1: notes %r" % notes)


def cmd_merged(path):
    raw, root = parse(path, strict=False)
    recs = boxes(root, "rec")
    got = {}
    for attrs, tip in recs:
        m = re.match(r"path: (\S+)\nrecords: (\d+)\n", tip)
        if not m:
            fail("name-path tooltip %r" % tip)
        p = m.group(1)
        if p in got:
            fail("path %s drawn twice" % p)
        got[p] = int(m.group(2))
        x, row, w = geom(attrs)
        if row != p.count(";"):
            fail("path %s drawn at depth %d" % (p, row))
    expected = {"iszero": 1, "iszero;value": 1, "iszero;value;value": 2,
                "iszero;value;value;value": 2, "value": 1}
    if got != expected:
        fail("name paths %r, expected %r" % (got, expected))


MARKUP_TYPE = "Tag<img src=x onerror=alert(1)>"
MARKUP_TEXT = "<script>alert(\"x\")</script> & 'q'"


def cmd_extra(path):
    raw, root = parse(path, strict=False)
    if sum(1 for _ in root.all("script")) != 1 or root.first("img") is not None:
        fail("markup from the profile became elements")
    if "&lt;img src=x" not in raw or "&lt;script&gt;" not in raw:
        fail("markup not escaped")
    tabs = tables(section(root, "tables"))
    expect_table(tabs, "By name:", {MARKUP_TYPE: 1, "worker": 1, "inner": 1}, 3)
    expect_table(tabs, "By text for %s:" % MARKUP_TYPE, {MARKUP_TEXT: 1}, 3)
    lanes = boxes(root, "lane")
    if len(lanes) != 2:
        fail("%d lanes, expected one per thread (2)" % len(lanes))
    recs = {}
    for attrs, tip in boxes(root, "rec"):
        d, start, end = dims_of(tip)
        # Quoted as `dsprof records` quotes a value with a blank.
        name = d["name"]
        if name == '"%s"' % MARKUP_TYPE:
            name = MARKUP_TYPE
        recs[name] = (geom(attrs), d)
    if sorted(recs) != sorted([MARKUP_TYPE, "worker", "inner"]):
        fail("record boxes %r" % sorted(recs))
    # put_value quoting, as `dsprof records` shows it.
    if recs[MARKUP_TYPE][1].get("text") != \
       '"<script>alert(\\"x\\")</script> & \'q\'"':
        fail("text dimension in the tooltip: %r" % recs[MARKUP_TYPE][1].get("text"))
    for name, depth in ((MARKUP_TYPE, 1), ("worker", 1), ("inner", 2)):
        if recs[name][0][1] != depth:
            fail("%s at depth %d, expected %d" % (name, recs[name][0][1], depth))
    rows = [[td.text() for td in tr.all("td")]
            for tr in section(root, "lines").all("tr") if tr.first("td")]
    if not rows or any(r[2] != "(source not found)" for r in rows):
        fail("lines of a missing source: %r" % rows[:3])


def png_pixels(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail("PNG kind %s not handled" % (hdr,))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    i = 0
    for _ in range(h):
        ft, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ft == 1:
                line[x] = (line[x] + a) & 255
            elif ft == 2:
                line[x] = (line[x] + b) & 255
            elif ft == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def report_csv(path, ndims):
    """{values of the last level's row: count} of a `dsprof report --format
    csv` of NDIMS dimensions."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if rows[0][0] != "level" or rows[0][ndims + 1 + 6] != "count":
        fail("%s: header %r" % (path, rows[0]))
    return {tuple(r[1:ndims + 1]): int(r[ndims + 1 + 6])
            for r in rows[1:] if r[0] == str(ndims)}


def expect_seqs(sec, heading, want, ops, top, begin, why):
    """The table HEADING of SEC: the rows of WANT ({values: count}, those with
    an empty value left out, BEGIN op records), the TOP most frequent of them,
    by Count; Share% of the OPS op records; the notes of the rows left out."""
    tabs = tables(sec)
    if heading not in tabs:
        fail("no table %r in the pairs view (tables: %s)" % (heading, list(tabs)))
    rows = tabs[heading]
    counts = [int(r[0]) for r in rows]
    if counts != sorted(counts, reverse=True):
        fail("%s: not by Count: %r" % (heading, counts))
    for r in rows:
        if abs(float(r[1]) - 100.0 * int(r[0]) / ops) > 0.051:
            fail("%s: Share%% %s for count %s of %d op records" % (heading, r[1], r[0], ops))
        if want.get(tuple(r[2:])) != int(r[0]):
            fail("%s: row %r, the report's count %r" % (heading, r, want.get(tuple(r[2:]))))
    expected = sorted(want.values(), reverse=True)
    if top:
        expected = expected[:top]
    if counts != expected:
        fail("%s: counts %r, the report's most frequent %r" % (heading, counts, expected))
    return len(want) - len(rows), begin and "Op records with %s: %d." % (why, begin)


def cmd_pairs(path, top, ops_csv, pairs_csv, seq3_csv, seq4_csv):
    raw, root = parse(path)
    top = int(top)
    ops = sum(report_csv(ops_csv, 1).values())
    links = [a.attrs.get("href") for a in section(root, "overview").all("a")]
    if "#pairs" not in links:
        fail("the summary does not link to the pairs: %r" % links)
    sec = section(root, "pairs")
    notes = [p.text() for p in sec.all("p", "note")]
    pairs = report_csv(pairs_csv, 2)
    begin = sum(c for v, c in pairs.items() if v[0] == "")
    want = {v: c for v, c in pairs.items() if v[0] != ""}
    got = [expect_seqs(sec, "Pairs", want, ops, top, begin,
                       "no opcode before them (the first of their call)")]
    for n, f in ((3, seq3_csv), (4, seq4_csv)):
        seqs = report_csv(f, 1)
        got.append(expect_seqs(sec, "Sequences of %d" % n,
                               {v: c for v, c in seqs.items() if v[0] != ""},
                               ops, top, seqs.get(("",), 0),
                               "fewer than %d opcodes before them in their call"
                               % (n - 1)))
    expected = []
    for more, note in got:
        if more:
            expected.append("%d more rows not shown (--top %d)." % (more, top))
        if note:
            expected.append(note)
    if notes != expected:
        fail("pairs view notes %r, expected %r" % (notes, expected))
    print("pairs: %d op records, %d pairs" % (ops, len(want)))


def cmd_no_pairs(path):
    raw, root = parse(path)
    if any(s.attrs.get("id") == "pairs" for s in root.all("section")):
        fail("%s: a pairs view without op records" % path)
    if 'href="#pairs"' in raw or "seq3:name" in raw:
        fail("%s: the summary links to pairs it does not show" % path)


def cmd_png(path):
    w, h, bpp, rows = png_pixels(path)
    colours, warm = set(), 0
    for line in rows:
        for x in range(0, w * bpp, bpp):
            r, g, b = line[x], line[x + 1], line[x + 2]
            colours.add((r, g, b))
            # The boxes' fills: hues 10..55, saturated, light.
            if r > 180 and r - b > 80 and g > 60 and b < 150:
                warm += 1
    if len(colours) < 2:
        fail("the screenshot is one colour")
    if warm < 2000:
        fail("the screenshot shows %d pixels of the record boxes' colours" % warm)
    print("screenshot %dx%d: %d colours, %d box pixels" % (w, h, len(colours), warm))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"wellformed": cmd_wellformed, "expr": cmd_expr, "expr-dims": cmd_expr_dims,
     "merged": cmd_merged, "top": cmd_top, "extra": cmd_extra, "png": cmd_png,
     "pairs": cmd_pairs, "no-pairs": cmd_no_pairs}[cmd](*args)


if __name__ == "__main__":
    main()
