#!/usr/bin/env python3
"""compare.py - check dsprof's counts against gcov's (the lua test case).

    compare.py SRCDIR ANNOTATE_DIR LINES_FILE GCOV_DIR

SRCDIR        the directory the program was compiled in: the sources (under the
              names the profiles use) and gcc's UNIT.gcno files
ANNOTATE_DIR  output of `dsprof annotate -o ANNOTATE_DIR` (FILE.bb listings)
LINES_FILE    output of `dsprof lines`
GCOV_DIR      for every UNIT.gcda: UNIT.json (`gcov --json-format --stdout`) and
              UNIT.debug (`gcov -D`, gcov's solved count of every block)

Both profiles must come from ONE run of ONE binary built with the plugin AND with
--coverage: the dsprof pass runs first (right after the CFG is built), gcov's
instrumentation later on the same CFG, and the run is the same run.  See the top
of test.sh for the rules and why each accepted difference is sound; in short,
with D(L) = dsprof annotate's count of line L (the largest count of the blocks
holding L; blank if none) and gcov's block graph (.gcno: the lines of every
block; gcov -D: the count of every block):

  (i)   for every function gcov reports, dsprof's entry count (D of the
        definition line) == gcov's function execution count;
  (ii)  D(L) == the largest count of the gcov blocks that hold L, for every line
        either tool has a block on (so also: executed in one <=> in the other);
  (iii) every block `dsprof lines` lists on L has the count of a gcov block that
        holds L (a distinct gcov block for each dsprof block).

Accepted differences, each only under a condition checked in gcov's own data:
  LABEL      (ii), (iii) on a line that holds only labels (case X:, default:,
             name:, Lua's vmcase(OP)): gcov charges label statements to the
             label's block, dsprof does not give labels a location.
  NORET      (ii) D(L) > gcov's: calls on lines up to L in the same function did
             not return (longjmp, exit) at least D(L) - gcov's times.  gcov ends
             a block after every call; dsprof's blocks are GCC's basic blocks,
             counted when entered.
  FAKEENTRY  (i) gcov's function count includes the fake entry arcs it adds for
             the targets of computed gotos (gcno: fake arcs out of the entry
             block); dsprof's entry count == gcov's count of the real entry arc's
             destination block.
  ONELINE    (i) the definition line holds other code too, so D of it is the
             largest of several blocks: gcov's count must be the count of one of
             the blocks `dsprof lines` lists on that line.
  JUMPLOC    (iii) a block that only holds a jump GCC folded into the CFG (the
             back jump of `for (;;)`, the jump over an else) has the jump's
             location in dsprof; gcov gives a block a jump's location only if no
             other block holds that same location (often the `switch` or `if`
             the construct starts with), so its block has no line: the dsprof
             block's count must be that of a distinct line-less gcov block of
             the same function.

Prints a summary and every unexplained difference; exits 1 if there is any.
COMPARE_VERBOSE=1 also lists the accepted differences.
"""
import collections
import json
import os
import re
import sys

def parse_annotate(d):
    """{file: {line: count or None}} from every *.bb under D."""
    out = {}
    for root, _, files in os.walk(d):
        for f in files:
            if not f.endswith('.bb'):
                continue
            path = os.path.join(root, f)
            name = os.path.relpath(path, d)[:-3]
            counts = {}
            with open(path, errors='replace') as fh:
                for n, text in enumerate(fh, 1):
                    m = re.match(r'^(.{9}):\s*(\d+):', text)
                    if not m:
                        raise SystemExit('%s:%d: not a listing line: %r' % (path, n, text[:60]))
                    col, line = m.group(1).strip(), int(m.group(2))
                    if col == '':
                        counts[line] = None
                    elif col == '#####':
                        counts[line] = 0
                    elif col.isdigit():
                        counts[line] = int(col)
                    else:
                        raise SystemExit('%s:%d: bad count column %r' % (path, n, col))
            out[os.path.basename(name)] = counts
    return out

def parse_lines(path):
    """{(file, line): [counts of the blocks whose line is LINE]}"""
    out = collections.defaultdict(list)
    with open(path) as fh:
        for n, text in enumerate(fh, 1):
            m = re.match(r'^(.*):(\d+): (\d+)$', text.rstrip('\n'))
            if not m:
                raise SystemExit('%s:%d: not a `dsprof lines` line: %r' % (path, n, text[:60]))
            out[(os.path.basename(m.group(1)), int(m.group(2)))].append(int(m.group(3)))
    return out

def parse_gcov_json(path):
    lines, funcs = {}, []
    with open(path) as fh:
        for doc in fh:
            if not doc.strip():
                continue
            j = json.loads(doc)
            for f in j['files']:
                fn = os.path.basename(f['file'])
                for l in f['lines']:
                    key = (fn, l['line_number'])
                    lines[key] = lines.get(key, 0) + l['count']
                for fu in f['functions']:
                    funcs.append((fn, fu['start_line'], fu['name'], fu['execution_count'], fu['end_line']))
    return lines, funcs

GCOV_TAG_FUNCTION, GCOV_TAG_BLOCKS, GCOV_TAG_ARCS, GCOV_TAG_LINES = \
    0x01000000, 0x01410000, 0x01430000, 0x01450000
ARC_FAKE, ARC_FALLTHROUGH = 2, 4

def parse_gcno(path):
    """The functions of a GCC 12 .gcno file: name, source, start and end line,
    artificial flag, and per block (by id) the (file, line)s it holds and its
    arcs (dest, flags).  Record lengths are in bytes, strings a 32-bit byte
    length then the bytes (NUL included), no padding."""
    import struct
    data = open(path, 'rb').read()
    pos = 0
    def u32():
        nonlocal pos
        v = struct.unpack_from('<I', data, pos)[0]
        pos += 4
        return v
    def string():
        nonlocal pos
        n = u32()
        s = data[pos:pos + n].split(b'\0', 1)[0].decode(errors='replace')
        pos += n
        return s
    if data[:4] != b'oncg':
        raise SystemExit('%s: not a little-endian .gcno file' % path)
    pos = 12
    u32()           # checksum
    string()        # compilation directory
    u32()           # has_unexecuted_blocks
    funcs, fn = [], None
    while pos + 8 <= len(data):
        tag, length = u32(), u32()
        end = pos + length
        if tag == GCOV_TAG_FUNCTION:
            ident, _, _ = u32(), u32(), u32()
            name = string()
            artificial = u32()
            source = string()
            start_line, _, end_line, _ = u32(), u32(), u32(), u32()
            fn = dict(name=name, source=os.path.basename(source), start=start_line,
                      end=end_line, artificial=artificial, lines={}, arcs={})
            funcs.append(fn)
        elif tag == GCOV_TAG_BLOCKS:
            fn['nblocks'] = u32()
        elif tag == GCOV_TAG_ARCS:
            src = u32()
            while pos < end:
                dst, flags = u32(), u32()
                fn['arcs'].setdefault(src, []).append((dst, flags))
        elif tag == GCOV_TAG_LINES:
            blk = u32()
            cur = fn['source']
            while pos < end:
                ln = u32()
                if ln == 0:
                    f = string()
                    if not f:
                        break
                    cur = os.path.basename(f)
                else:
                    fn['lines'].setdefault(blk, []).append((cur, ln))
        pos = end
    return funcs

def parse_gcov_debug(path):
    """`gcov -D` dumps: {(source, function): {block id: count}}."""
    out, src, fn = {}, None, None
    with open(path, errors='replace') as fh:
        for text in fh:
            m = re.match(r'^source_info: (.*)$', text.rstrip())
            if m:
                src = os.path.basename(m.group(1))
                continue
            m = re.match(r'^\s+function_info: (\S+)', text)
            if m:
                fn = out.setdefault((src, m.group(1)), {})
                continue
            m = re.match(r'^\s+block_info id=(\d+), count=(-?\d+)', text)
            if m and fn is not None:
                fn[int(m.group(1))] = int(m.group(2))
    return out

# A line that holds only labels: `case X:`, `default:`, `name:`, Lua's
# `vmcase(OP)` (ljumptab.h: #define vmcase(l) L_##l:), optionally after a `}`
# and before a `{`, a comment, or a lua_assert (which expands to nothing).
LABEL = re.compile(r"""^\s*\}?\s*
    (?:(?:case\s+(?:'(?:\\.|[^'])*'|[^:'])+|default|[A-Za-z_]\w*)\s*:(?!:)\s*
       |vmcase\(\w+\)\s*)+
    \{?\s*(?:(?:lua_assert|api_check)\([^;]*\);\s*)?(?:/\*.*\*/|//.*)?\s*$""", re.X)

def main():
    srcdir, anndir, linesf, gcovdir = sys.argv[1:5]
    ann = parse_annotate(anndir)
    leaders = parse_lines(linesf)
    sources = {}

    def source_line(fn, l):
        if fn not in sources:
            try:
                with open(os.path.join(srcdir, fn), errors='replace') as fh:
                    sources[fn] = fh.read().split('\n')
            except OSError:
                sources[fn] = []
        s = sources[fn]
        return s[l - 1] if 0 < l <= len(s) else ''

    def D(fn, l):
        return ann.get(fn, {}).get(l)

    # gcov's view, unit by unit: line counts and function counts (JSON), and
    # its blocks: lines (.gcno), arcs (.gcno), counts (gcov -D).
    G, gfuncs = {}, []
    M = {}                               # (file, line) -> max count of a gcov block holding it
    ALL = collections.defaultdict(list)  # (file, line) -> counts of every gcov block holding it
    calls = collections.defaultdict(list)  # (file, function start) -> [(line, shortfall)]
    entry = {}                           # (file, start) -> (count of the first block, fake entry arcs?)
    lineless = collections.defaultdict(list)  # (file, start) -> counts of gcov blocks without a line
    units = sorted(f[:-5] for f in os.listdir(gcovdir) if f.endswith('.json'))
    if not units:
        raise SystemExit('no gcov output in %s' % gcovdir)
    for unit in units:
        lines, funcs = parse_gcov_json(os.path.join(gcovdir, unit + '.json'))
        for k, v in lines.items():
            G[k] = G.get(k, 0) + v
        gfuncs += funcs
        counts = parse_gcov_debug(os.path.join(gcovdir, unit + '.debug'))
        for fn in parse_gcno(os.path.join(srcdir, unit + '.gcno')):
            if fn['artificial']:
                continue
            bc = counts.get((fn['source'], fn['name']))
            if bc is None:
                raise SystemExit('%s: no gcov -D counts for %s' % (unit, fn['name']))
            for b, locs in fn['lines'].items():
                for loc in set(locs):
                    M[loc] = max(M.get(loc, 0), bc[b])
                    ALL[loc].append(bc[b])
            for b, c in bc.items():
                # Blocks 0 and 1 are gcov's entry and exit.
                if b > 1 and not fn['lines'].get(b):
                    lineless[(fn['source'], fn['start'])].append(c)
            npred = collections.Counter(d for arcs in fn['arcs'].values() for d, _ in arcs)
            for b, arcs in fn['arcs'].items():
                # A call site: a block with a fake arc to the exit (a call that
                # might not return) and a fall-through arc to the block after
                # the call; what the latter lacks did not return.
                if b == 0 or not any(f & ARC_FAKE for _, f in arcs):
                    continue
                for d, f in arcs:
                    if f & ARC_FALLTHROUGH and npred[d] == 1 and bc[b] > bc[d]:
                        line = max((l for _, l in fn['lines'].get(b, [])), default=fn['start'])
                        calls[(fn['source'], fn['start'])].append((line, bc[b] - bc[d]))
            real = [d for d, f in fn['arcs'].get(0, []) if not f & ARC_FAKE]
            fake = any(f & ARC_FAKE for _, f in fn['arcs'].get(0, []))
            if len(real) == 1 and npred[real[0]] == 1:
                entry[(fn['source'], fn['start'])] = (bc[real[0]], fake)

    franges = collections.defaultdict(list)
    for fn, start, name, cnt, end in gfuncs:
        franges[fn].append((start, end))

    def function_of(fn, l):
        """(file, start line) of the innermost function holding line L."""
        best = None
        for start, end in franges.get(fn, []):
            if start <= l <= end and (best is None or start > best):
                best = start
        return None if best is None else (fn, best)

    def noret_before(fn, l):
        """How often calls in the function of line L, on lines up to L, did not return."""
        f = function_of(fn, l)
        if not f:
            return 0
        return sum(n for cl, n in calls.get(f, []) if cl <= l)

    bad = []
    why = collections.Counter()
    verbose = os.environ.get('COMPARE_VERBOSE')

    def note(where, kind):
        if verbose:
            print('accepted %s: %s' % (kind, where))

    # (i) entry counts
    nfun = 0
    for fn, start, name, cnt, end in gfuncs:
        if fn not in ann:
            bad.append('%s:%d: function %s: no dsprof listing for %s' % (fn, start, name, fn))
            continue
        nfun += 1
        d = D(fn, start)
        if d == cnt:
            continue
        first, fake = entry.get((fn, start), (None, False))
        if fake and d == first:
            why['FAKEENTRY'] += 1
            note('%s:%d: function %s: dsprof %s, gcov %d' % (fn, start, name, d, cnt), 'FAKEENTRY')
            continue
        if d is not None and d > cnt and cnt in leaders.get((fn, start), []):
            why['ONELINE'] += 1
            note('%s:%d: function %s: dsprof %s (blocks %s), gcov %d'
                 % (fn, start, name, d, leaders[(fn, start)], cnt), 'ONELINE')
            continue
        bad.append('%s:%d: function %s: dsprof entry count %s, gcov %d'
                   % (fn, start, name, 'blank' if d is None else d, cnt))

    # (ii) executed or not, and (iii) the counts, line by line
    keys = set(M)
    for fn, m in ann.items():
        keys.update((fn, l) for l, c in m.items() if c is not None)
    nsame = nlisting = 0
    for fn, l in sorted(keys):
        d, mx, g = D(fn, l), M.get((fn, l)), G.get((fn, l))
        if mx is not None and mx > 0 and not g:
            nlisting += 1      # gcov's listing says ##### though a block on L ran
        text = source_line(fn, l)
        where = '%s:%d: dsprof %s, gcov block %s (gcov line %s): %s' % (
            fn, l, 'blank' if d is None else d, 'none' if mx is None else mx,
            'none' if g is None else g, text.strip())
        if d == mx:
            nsame += 1
            continue
        if LABEL.match(text):
            why['LABEL'] += 1
            note(where, 'LABEL')
            continue
        if d is None:
            bad.append(where + '   [no dsprof block]')
            continue
        if mx is None:
            bad.append(where + '   [no gcov block]')
            continue
        noret = noret_before(fn, l)
        if d > mx and noret >= d - mx:
            why['NORET'] += 1
            note(where, 'NORET (%d)' % noret)
            continue
        bad.append(where + '   [%s; calls that did not return before it: %d]'
                   % ('executed in one only' if (d > 0) != (mx > 0) else 'counts differ', noret))

    # (iv) block by block: every block `dsprof lines` lists on L has the count of
    # a gcov block that holds L (a distinct one for each).
    nblocks = 0
    jumps = {}      # function -> counts of its line-less gcov blocks not yet matched
    for (fn, l), cs in sorted(leaders.items()):
        text = source_line(fn, l)
        d = D(fn, l)
        if d is None or max(cs) > d:
            bad.append('%s:%d: `dsprof lines` has blocks %s, annotate shows %s: %s'
                       % (fn, l, cs, 'blank' if d is None else d, text.strip()))
            continue
        nblocks += len(cs)
        pool = list(ALL.get((fn, l), []))
        missing = []
        for c in cs:
            if c in pool:
                pool.remove(c)
            else:
                missing.append(c)
        if not missing:
            continue
        if LABEL.match(text):
            why['LABEL'] += 1
            note('%s:%d: blocks %s, gcov blocks %s' % (fn, l, cs, ALL.get((fn, l))), 'LABEL')
            continue
        spare = jumps.setdefault(function_of(fn, l), list(lineless.get(function_of(fn, l), [])))
        if all(c in spare for c in missing) and \
                all(missing.count(c) <= spare.count(c) for c in missing):
            for c in missing:
                spare.remove(c)
            why['JUMPLOC'] += 1
            note('%s:%d: blocks %s, gcov blocks %s, gcov blocks without a line %s'
                 % (fn, l, cs, sorted(ALL.get((fn, l), [])), missing), 'JUMPLOC')
            continue
        noret = noret_before(fn, l)
        bad.append('%s:%d: dsprof blocks %s, gcov blocks %s: no gcov block with count %s'
                   '   [calls that did not return before it: %d]: %s'
                   % (fn, l, cs, sorted(ALL.get((fn, l), [])), missing, noret, text.strip()))

    print('compared %d functions, %d lines (%d same count), %d blocks; accepted differences: %s'
          % (nfun, len(keys), nsame, nblocks,
             ', '.join('%s %d' % kv for kv in sorted(why.items())) or 'none'))
    print('(gcov listing shows ##### on %d lines where one of its blocks ran)' % nlisting)
    for b in bad:
        print('MISMATCH ' + b)
    return 1 if bad else 0

if __name__ == '__main__':
    sys.exit(main())
