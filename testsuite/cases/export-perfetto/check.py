"""check.py TRACE.txt CHROME.json [EXPECT] - `dsprof export --format perfetto`
as protoc decodes it (protoc --decode=perfetto.protos.Trace with
testsuite/fixtures/perfetto_trace.proto) against `dsprof export --format
chrome` of the same profiles: the same processes and threads, on each thread
the same slices in the same order at the same times, balanced, with the same
names, categories and dimensions; packet sequences well formed (each starts
afresh with SEQ_INCREMENTAL_STATE_CLEARED and its defaults, every iid
interned on its sequence since then, no iid reused for another string).
EXPECT: NAME=N,... the slices (of every process) by name, and
incomplete:NAME=N,... those closed by repair.  Exit 1 with the reasons on
stderr."""
import codecs, decimal, json, re, sys

ok = True


def expect(cond, what):
    global ok
    if not cond:
        print("wrong:", what, file=sys.stderr)
        ok = False


def parse(path):
    """protoc's text format: each message a dict of field -> list of values."""
    root = {}
    stack = [root]
    for line in open(path, encoding="ascii"):
        line = line.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        m = re.fullmatch(r"(\w+) \{", line)
        if m:
            msg = {}
            stack[-1].setdefault(m.group(1), []).append(msg)
            stack.append(msg)
            continue
        m = re.fullmatch(r"(\w+): (.*)", line)
        expect(m, f"protoc line {line!r}")
        if not m:
            continue
        key, text = m.groups()
        expect(not key[0].isdigit(), f"field {key} is not in the schema: {line!r}")
        if text.startswith('"'):
            raw = codecs.escape_decode(text[1:-1].encode("latin-1"))[0]
            value = raw.decode("utf-8")            # fails unless valid UTF-8
        elif re.fullmatch(r"-?\d+", text):
            value = int(text)
        elif text in ("true", "false"):
            value = text == "true"
        elif re.fullmatch(r"[A-Z_]+", text):
            value = text
        else:
            value = float(text)
        stack[-1].setdefault(key, []).append(value)
    expect(len(stack) == 1, "unbalanced braces")
    return root


def one(msg, key, default=None):
    v = msg.get(key, [])
    expect(len(v) <= 1, f"{key} repeated")
    return v[0] if v else default


def shown(a, names):
    """An annotation's value as the chrome export shows the dimension."""
    name = one(a, "name") if "name" in a else names.get(one(a, "name_iid"))
    expect(name is not None, f"annotation name {a}")
    for key in ("int_value", "uint_value"):
        if key in a:
            return name, str(one(a, key))
    if "bool_value" in a:
        return name, "true" if one(a, "bool_value") else "false"
    if "double_value" in a:
        return name, "%g" % one(a, "double_value")
    if "pointer_value" in a:
        return name, "0x%x" % one(a, "pointer_value")
    expect("string_value" in a, f"annotation value {a}")
    return name, one(a, "string_value", "")


KINDS = {"event_categories": "cat", "event_names": "name",
         "debug_annotation_names": "ann", "source_locations": "loc"}


def perfetto(path):
    """The slices by (pid, thread number): [(ph, ts, name, cat, args)]."""
    trace = parse(path)
    packets = trace.get("packet", [])
    expect(packets, "no packets")
    procs, threads = {}, {}                   # uuid -> pid; uuid -> (pid, n)
    seqs = {}                                 # sequence -> its state
    ever = {}                                 # (kind, iid) -> value
    out, stacks, last = {}, {}, {}
    for p in packets:
        seq = one(p, "trusted_packet_sequence_id")
        expect(seq, f"packet without a sequence: {p}")
        flags = one(p, "sequence_flags", 0)
        st = seqs.setdefault(seq, {"valid": False, "track": None})
        if flags & 1:
            st.update(valid=True, interned={k: {} for k in KINDS.values()})
            d = one(p, "trace_packet_defaults")
            st["track"] = one(one(d, "track_event_defaults", {}), "track_uuid") if d else None
        for idata in p.get("interned_data", []):
            expect(st["valid"], f"interned data on sequence {seq} before it started")
            for field, kind in KINDS.items():
                for e in idata.get(field, []):
                    iid = one(e, "iid")
                    val = (one(e, "file_name"), one(e, "line_number")) if kind == "loc" \
                        else one(e, "name")
                    expect(ever.setdefault((kind, iid), val) == val,
                           f"{kind} iid {iid} is {ever.get((kind, iid))} and {val}")
                    if st["valid"]:
                        st["interned"][kind][iid] = val
        td = one(p, "track_descriptor")
        if td:
            uuid = one(td, "uuid")
            if "process" in td:
                procs[uuid] = one(one(td, "process"), "pid")
            else:
                th = one(td, "thread")
                expect(th and one(td, "parent_uuid") in procs, f"thread track {td}")
                m = re.fullmatch(r"thread (\d+)", one(th, "thread_name", ""))
                expect(m and one(th, "pid") == procs.get(one(td, "parent_uuid")),
                       f"thread track {td}")
                if m:
                    threads[uuid] = (one(th, "pid"), int(m.group(1)))
                    out[threads[uuid]] = []
                    expect(one(td, "parent_uuid") == uuid & ~0xffffffff, f"uuids {td}")
            continue
        te = one(p, "track_event")
        expect(te is not None, f"packet with neither track nor event: {p}")
        if te is None:
            continue
        expect(flags & 2 and st["valid"], f"event packet flags {flags} on sequence {seq}")
        if not st["valid"]:
            continue
        track = one(te, "track_uuid", st["track"])
        expect(track in threads, f"event on unknown track {track}")
        key = threads.get(track)
        ts = one(p, "timestamp")
        expect(ts is not None and ts >= last.get(key, 0), f"time {ts} goes back on {key}")
        last[key] = ts
        interned = st["interned"]
        args = dict(shown(a, interned["ann"]) for a in te.get("debug_annotations", []))
        expect(len(args) == len(te.get("debug_annotations", [])), f"an annotation twice: {te}")
        kind = one(te, "type")
        if kind == "TYPE_SLICE_BEGIN":
            name = interned["name"].get(one(te, "name_iid"))
            cats = [interned["cat"].get(c) for c in te.get("category_iids", [])]
            expect(name is not None and len(cats) == 1 and None not in cats,
                   f"name or category not interned: {te}")
            if "source_location_iid" in te:
                loc = interned["loc"].get(one(te, "source_location_iid"))
                expect(loc, f"source location not interned: {te}")
                if loc:
                    args["file"], args["line"] = loc[0], str(loc[1])
            args["event"] = cats[0] if cats else None
            args["name"] = name
            args["thread"] = str(key[1]) if key else None
            stacks.setdefault(key, []).append(name)
            out.setdefault(key, []).append(("B", ts, name, args["event"], args))
        else:
            expect(kind == "TYPE_SLICE_END" and "name_iid" not in te, f"event {te}")
            expect(stacks.get(key), f"an end without a begin on {key}")
            if stacks.get(key):
                stacks[key].pop()
            out.setdefault(key, []).append(("E", ts, None, None, args))
    for key, st in stacks.items():
        expect(not st, f"slices left open on {key}: {st}")
    return out


def chrome(path):
    d = json.load(open(path, encoding="utf-8"), parse_float=decimal.Decimal)
    out = {}
    for e in d["traceEvents"]:
        if e["ph"] == "M":
            if e["name"] == "thread_name":
                out.setdefault((e["pid"], e["tid"]), [])
            continue
        ts = int(decimal.Decimal(e["ts"]) * 1000)
        out.setdefault((e["pid"], e["tid"]), []).append(
            (e["ph"], ts, e.get("name"), e.get("cat"), e["args"]))
    return out


def counts(spec):
    want = {}
    for item in filter(None, spec.split(",")):
        k, n = item.rsplit("=", 1)
        want[k] = int(n)
    return want


got, want = perfetto(sys.argv[1]), chrome(sys.argv[2])
expect(sorted(got) == sorted(want), f"threads {sorted(got)}, chrome's {sorted(want)}")
for key in want:
    g, w = got.get(key, []), want[key]
    expect(len(g) == len(w), f"{key}: {len(g)} events, chrome's {len(w)}")
    for i, (a, b) in enumerate(zip(g, w)):
        if a != b:
            expect(False, f"{key} event {i}: {a}, chrome's {b}")
            break
if len(sys.argv) > 3:
    names, inc = {}, {}
    for evs in got.values():
        opened = []
        for ph, _, name, _, args in evs:
            if ph == "B":
                opened.append(name)
                names[name] = names.get(name, 0) + 1
            else:
                name = opened.pop()
                if args.get("complete") == "false":
                    inc[name] = inc.get(name, 0) + 1
    spec = sys.argv[3]
    want_names = counts(",".join(i for i in spec.split(",") if not i.startswith("incomplete:")))
    want_inc = counts(",".join(i[11:] for i in spec.split(",") if i.startswith("incomplete:")))
    for k, n in want_names.items():
        expect(names.get(k, 0) == n, f"{names.get(k, 0)} slices {k}, want {n}")
    expect(inc == want_inc, f"closed by repair {inc}, want {want_inc}")
sys.exit(0 if ok else 1)
