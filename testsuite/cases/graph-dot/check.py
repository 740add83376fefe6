"""check.py GRAPH.dot GRAPH.svg NODES EDGES - the dot file's nodes (value ->
records) and edges ((from, to) -> count) are the expected ones (JSON lists of
[value, records] and [from, to, count]), and GraphViz drew each of them in
the SVG."""
import json, re, sys
import xml.etree.ElementTree as ET

dot = open(sys.argv[1], encoding="utf-8").read()
want_nodes = {v: n for v, n in json.loads(sys.argv[3])}
want_edges = {(a, b): n for a, b, n in json.loads(sys.argv[4])}
ok = True


def expect(cond, what):
    global ok
    if not cond:
        print("wrong:", what, file=sys.stderr)
        ok = False


def unescape(s):        # a DOT string's \" and \\, and our \n line breaks
    return re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1), s)


STR = r'"((?:[^"\\]|\\.)*)"'
nodes = {}
for m in re.finditer(r'^  (v\d+) \[label=' + STR, dot, re.M):
    label = unescape(m.group(2)).split("\n")
    r = re.fullmatch(r"(\d+) records?", label[1])
    expect(r and re.fullmatch(r"self [\d.]+ (ns|us|ms|s) \([\d.]+%\)", label[2]),
           f"node label {label}")
    nodes[m.group(1)] = (label[0], int(r.group(1)) if r else -1)
edges = {}
for m in re.finditer(r'^  (v\d+) -> (v\d+) \[label="(\d+)"', dot, re.M):
    key = (nodes[m.group(1)][0], nodes[m.group(2)][0])
    expect(key not in edges, f"edge {key} twice")
    edges[key] = int(m.group(3))
expect({v: n for v, n in nodes.values()} == want_nodes,
       f"nodes {sorted(nodes.values())}, want {sorted(want_nodes.items())}")
expect(edges == want_edges, f"edges {sorted(edges.items())}, want {sorted(want_edges.items())}")

svg = ET.parse(sys.argv[2]).getroot()
ns = "{http://www.w3.org/2000/svg}"
groups = [g.get("class") for g in svg.iter(ns + "g")]
expect(groups.count("node") == len(want_nodes), f"{groups.count('node')} nodes drawn")
expect(groups.count("edge") == len(want_edges), f"{groups.count('edge')} edges drawn")
texts = [t.text for t in svg.iter(ns + "text")]
for v, _ in nodes.values():
    expect(v in texts, f"node {v!r} not drawn")
sys.exit(0 if ok else 1)
