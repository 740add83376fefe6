#!/usr/bin/env python3
"""compare.py - check dsprof's counts against gcov's (the lua test case, and
scripts/real.sh for gawk and jq).

    compare.py SRCDIR ANNOTATE_DIR LINES_FILE LCOV_FILE GCOV_DIR

SRCDIR        the directory the program was compiled in: the sources (under the
              names the profiles use) and gcc's UNIT.gcno files
ANNOTATE_DIR  output of `dsprof annotate -o ANNOTATE_DIR` (FILE.bb listings)
LINES_FILE    output of `dsprof lines`
LCOV_FILE     output of `dsprof export --format lcov` (FN/FNDA: every
              function's entry count)
GCOV_DIR      for every UNIT.gcda: UNIT.json (`gcov --json-format --stdout`) and
              UNIT.debug (`gcov -D`, gcov's solved count of every block)

Both profiles must come from ONE run of ONE binary built with the plugin AND with
--coverage: the dsprof pass runs first (right after the CFG is built), gcov's
instrumentation later on the same CFG, and the run is the same run (test.sh
explains this for Lua).  With D(L) = dsprof annotate's count of line L (the largest count of the blocks
holding L; blank if none) and gcov's block graph (.gcno: the lines of every
block; gcov -D: the count of every block):

  (i)   for every function either tool reports, dsprof's entry count (FNDA of
        `dsprof export --format lcov`) == gcov's function execution count;
        and D of every definition line == the largest of the counts of the
        functions defined on it;
  (ii)  D(L) == the largest count of the gcov blocks that hold L, for every line
        either tool has a block on (so also: executed in one <=> in the other);
  (iii) every block `dsprof lines` lists on L has the count of a gcov block that
        holds L (a distinct gcov block for each dsprof block).

A function defined in a header (a static inline function, or a function a
macro names, like gawk's interpret.h included twice by eval.c to define
r_interpret and h_interpret on the same line) is a function of every unit that
defines it, with its own blocks and counts in each.  The two tools report such
a function alike once it is read the same way:
  - gcov's JSON of each unit lists the unit's copy with that copy's count; the
    entry count of (i) is the sum over the units of the copies with the same
    file, line and name, as `dsprof export --format lcov` sums the entry
    blocks of the copies (dsprof profiles keep each unit's counters apart);
  - `dsprof annotate` shows for a line the largest count of all the blocks, of
    every unit, that hold it, so D(L) is compared with the largest count of
    the gcov blocks holding L in any unit (ii), and D of a definition line with
    the largest count of any copy of any function defined on it (i);
  - `dsprof lines` lists every unit's blocks, each is matched with a distinct
    gcov block of any unit holding the line (iii).
gcov's own per-line counts (JSON "lines", summed over units) are not compared
(see test.sh).

Accepted differences, each only under a condition checked in gcov's own data:
  LABELFWD   (ii), (iii) on a line starting with a label (case X:, default:,
             name:, Lua's vmcase(OP)), where D(L) or a dsprof block of L is
             the count of the block a gcov block holding only L forwards to
             (its single arc) and that block is entered from elsewhere too:
             after dsprof's pass, GCC moved the label's line into a block of
             its own, before the label's code, and sent the jumps to the label
             past it (lstrlib.c's `init:' in match; with -Wformat-overflow or
             -Wformat-truncation, the warnings' pass did it to luaV_execute's
             `startfunc:').  gcov's block of the line then counts only the way
             in that falls through to the label; dsprof counts the label's
             block, which every jump to the label enters too.
  FORKED     (ii) D(L) < gcov's: calls on lines up to L in the same function
             returned more often than they were made (fork: once in the parent
             and once in the child), at least gcov's - D(L) times.  gcov counts
             the block after the call in both processes; a forked child's
             dsprof counts start from zero at the fork (docs/contract.md §4.5), so the rest
             of the basic block that called fork, entered before the fork,
             counts once, in the parent.
  EXECRET    (ii), (iii) D(L) or a dsprof block of L < gcov's, on a line after
             a call of execl, execlp, execle, execv, execvp or execve (GCC's
             exec built-ins) in the same function, by at most how often that
             call was made.  GCC takes a call of a built-in function that
             cannot throw for one that returns (fork is the one exception): it
             gives its block no fake arc to the exit and does not end the block
             after it.  gcov dumps its counters before the exec, and when the
             exec succeeds, gcov's solver, which knows no other way out of the
             block, sends the flow through the code after the call (gawk:
             _exit (127) after execl ("/bin/sh") in a forked child counted once
             per child); dsprof counts that code when it runs (here never).
             Checked: the block of the call holds a line calling one of these
             functions and has no fake arc.
  INLINED    (i), (ii), (iii) a function declared always_inline that GCC
             inlined into its callers before gcov's instrumentation (at -O0
             too), so no .gcno has a function of that name: dsprof's pass ran
             before the inlining, so the function has its own counters, which
             every inlined copy increments; gcov has its lines only in the
             blocks of the callers, one copy per call site.  dsprof's entry
             count must equal how often gcov's copies entered the first line of
             the body, and on every line of the function D(L) (for a line
             `dsprof lines` lists, the sum of its blocks) must equal how often
             gcov's copies entered L: the sum of the counts of the gcov blocks
             holding L, leaving out a block that only goes on with L after a
             call (gawk's regex: re_set_fastmap, inlined at 7 call sites).
             The definition line itself has no gcov block: D of it must be the
             entry count.
  FAKEENTRY  (i) gcov's function count includes the fake entry arcs it adds for
             the targets of computed gotos (gcno: fake arcs out of the entry
             block); dsprof's entry count == gcov's count of the real entry arc's
             destination block (summed over the copies).
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
                    # (the count column is 9 wide, the whole listing's wider
                    # when a count has more digits)
                    m = re.match(r'^( {9,}| *#####| *\d+):\s*(\d+):', text)
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

def parse_lcov(path):
    """{(file, line, name): entry count} from the FN/FNDA records of an lcov
    tracefile (`dsprof export --format lcov`)."""
    out, fn, lines = {}, None, {}
    with open(path) as fh:
        for n, text in enumerate(fh, 1):
            text = text.rstrip('\n')
            if text.startswith('SF:'):
                fn, lines = os.path.basename(text[3:]), {}
            elif text.startswith('FN:'):
                line, name = text[3:].split(',', 1)
                lines.setdefault(name, []).append(int(line))
            elif text.startswith('FNDA:'):
                cnt, name = text[5:].split(',', 1)
                if fn is None or name not in lines or not lines[name]:
                    raise SystemExit('%s:%d: FNDA without its FN: %r' % (path, n, text[:60]))
                key = (fn, lines[name].pop(0), name)
                if key in out:
                    raise SystemExit('%s:%d: %s:%d: function %s listed twice' % ((path, n) + key))
                out[key] = int(cnt)
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

# An always_inline function (glibc's and gnulib's __always_inline, or the
# attribute itself).
ALWAYS_INLINE = re.compile(r'\b(?:__)?always_inline(?:__)?\b')

# A call of one of GCC's exec built-ins (BUILT_IN_EXECL ... EXECVE).
EXEC = re.compile(r'\bexec(?:l|lp|le|v|vp|ve)\s*\(')

# A line that starts with a label: `case X:`, `default:`, `name:`, Lua's
# `vmcase(OP)` (ljumptab.h: #define vmcase(l) L_##l:).
LABEL = re.compile(r"""^\s*\}?\s*
    (?:(?:case\s+(?:'(?:\\.|[^'])*'|[^:'])+|default|[A-Za-z_]\w*)\s*:(?!:)
       |vmcase\(\w+\))""", re.X)

def main():
    if len(sys.argv) != 6:
        raise SystemExit('usage: compare.py SRCDIR ANNOTATE_DIR LINES_FILE LCOV_FILE GCOV_DIR')
    srcdir, anndir, linesf, lcovf, gcovdir = sys.argv[1:6]
    ann = parse_annotate(anndir)
    leaders = parse_lines(linesf)
    dfuncs = parse_lcov(lcovf)
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
    # Per gcov function (unit, file, start line, name): its call sites, each as
    # (file, line, block) of the call, the call's line being the last of its
    # block (gcov ends a block after a call), and a count.
    calls = collections.defaultdict(list)  # calls that did not return: (.., shortfall)
    twice = collections.defaultdict(list)  # calls that returned more often than made: (.., excess)
    execs = collections.defaultdict(list)  # calls of exec built-ins: (.., calls)
    holds = collections.defaultdict(dict)  # (file, line) -> {function: the last of its blocks holding it}
    # (file, line) -> the sum of the counts of the gcov blocks holding it that do
    # not just go on with a line after a call (the block after a call block
    # holding the same line, entered only from it): how often code on it was
    # entered, whichever function it was inlined into (see INLINED)
    ENTERED = collections.Counter()
    gnames = set()                       # (file, name) of every function of a .gcno
    # (file, start, name) -> one (count, count of the real entry arc's block
    # or None, fake entry arcs?) for each unit that defines the function
    copies = collections.defaultdict(list)
    lineless = collections.defaultdict(list)  # (file, start) -> counts of gcov blocks without a line
    # (file, line) -> counts of the blocks a gcov block holding only that line
    # forwards to, when they are entered from elsewhere too (see LABELFWD)
    forwarded = collections.defaultdict(list)
    units = sorted(f[:-5] for f in os.listdir(gcovdir) if f.endswith('.json'))
    if not units:
        raise SystemExit('no gcov output in %s' % gcovdir)
    for unit in units:
        lines, funcs = parse_gcov_json(os.path.join(gcovdir, unit + '.json'))
        for k, v in lines.items():
            G[k] = G.get(k, 0) + v
        gfuncs += funcs
        entry = {}                       # (file, start, name) -> (count of the first block, fake entry arcs?)
        counts = parse_gcov_debug(os.path.join(gcovdir, unit + '.debug'))
        for fn in parse_gcno(os.path.join(srcdir, unit + '.gcno')):
            gnames.add((fn['source'], fn['name']))
            if fn['artificial']:
                continue
            bc = counts.get((fn['source'], fn['name']))
            if bc is None:
                raise SystemExit('%s: no gcov -D counts for %s' % (unit, fn['name']))
            fid = (unit, fn['source'], fn['start'], fn['name'])
            for b, locs in fn['lines'].items():
                for loc in set(locs):
                    M[loc] = max(M.get(loc, 0), bc[b])
                    ALL[loc].append(bc[b])
                    holds[loc][fid] = max(holds[loc].get(fid, b), b)
            for b, c in bc.items():
                # Blocks 0 and 1 are gcov's entry and exit.
                if b > 1 and not fn['lines'].get(b):
                    lineless[(fn['source'], fn['start'])].append(c)
            npred = collections.Counter(d for arcs in fn['arcs'].values() for d, _ in arcs)
            after_call = {}              # block -> the call block it goes on from
            for b, arcs in fn['arcs'].items():
                if any(f & ARC_FAKE for _, f in arcs):
                    for d, f in arcs:
                        if f & ARC_FALLTHROUGH and npred[d] == 1:
                            after_call[d] = b
            for b, locs in fn['lines'].items():
                arcs = fn['arcs'].get(b, [])
                if len(set(locs)) == 1 and len(arcs) == 1 and not arcs[0][1] & ARC_FAKE \
                        and npred[arcs[0][0]] > 1 and locs[0] not in fn['lines'].get(arcs[0][0], []):
                    forwarded[locs[0]].append(bc[arcs[0][0]])
            for b, locs in fn['lines'].items():
                prev = set(fn['lines'].get(after_call.get(b), []))
                for loc in set(locs) - prev:
                    ENTERED[loc] += bc[b]
            for b, arcs in fn['arcs'].items():
                # A call site: a block with a fake arc to the exit (a call that
                # might not return) and a fall-through arc to the block after
                # the call; what the latter lacks did not return.
                # The latter has more than the call block when the call returned
                # more often than it was made (fork).
                # GCC gives a call of a built-in function that cannot throw, but
                # fork, no fake arc and does not end its block: gcov takes a
                # call of execl, execv ... for one that returns (see EXECRET).
                if b and not any(f & ARC_FAKE for _, f in arcs):
                    for loc in fn['lines'].get(b, []):
                        if EXEC.search(source_line(*loc)):
                            execs[fid].append(loc + (b, bc[b]))
                            break
                where = fn['lines'].get(b, [(fn['source'], fn['start'])])[-1]
                if b == 0 or not any(f & ARC_FAKE for _, f in arcs):
                    continue
                for d, f in arcs:
                    if f & ARC_FALLTHROUGH and npred[d] == 1 and bc[b] != bc[d]:
                        if bc[b] > bc[d]:
                            calls[fid].append(where + (b, bc[b] - bc[d]))
                        else:
                            twice[fid].append(where + (b, bc[d] - bc[b]))
            real = [d for d, f in fn['arcs'].get(0, []) if not f & ARC_FAKE]
            fake = any(f & ARC_FAKE for _, f in fn['arcs'].get(0, []))
            if len(real) == 1 and npred[real[0]] == 1:
                entry[(fn['source'], fn['start'], fn['name'])] = (bc[real[0]], fake)
        for fn, start, name, cnt, end in funcs:
            first, fake = entry.get((fn, start, name), (None, False))
            copies[(fn, start, name)].append((cnt, first, fake))

    franges = collections.defaultdict(list)
    for fn, start, name, cnt, end in gfuncs:
        franges[fn].append((start, end))

    def body_end(fn, start):
        """The line of the brace that closes the body of the function defined
        on line START (comments, strings and character constants skipped)."""
        depth, l, comment = 0, start, False
        while True:
            text = source_line(fn, l)
            if not text and l > len(sources.get(fn, [])):
                return None
            i = 0
            while i < len(text):
                if comment:
                    j = text.find('*/', i)
                    if j < 0:
                        break
                    comment, i = False, j + 2
                    continue
                ch = text[i]
                if text.startswith('/*', i):
                    comment, i = True, i + 2
                    continue
                if text.startswith('//', i):
                    break
                if ch in '"\'':
                    j = i + 1
                    while j < len(text) and text[j] != ch:
                        j += 2 if text[j] == '\\' else 1
                    i = j + 1
                    continue
                if ch == '{':
                    depth += 1
                elif ch == '}':
                    depth -= 1
                    if depth == 0:
                        return l
                i += 1
            l += 1

    # Functions GCC inlined before gcov instrumented: dsprof counts them, gcov
    # has no function of that name in any .gcno and their lines only in the
    # blocks of their callers (always_inline; see INLINED).
    inlined = {}                         # (file, start, name) -> last line of the body
    for (fn, start, name) in dfuncs:
        if (fn, start, name) in copies or (fn, name) in gnames:
            continue
        head = ' '.join(source_line(fn, l) for l in range(max(start - 2, 1), start + 1))
        if not ALWAYS_INLINE.search(head):
            continue
        end = body_end(fn, start)
        if end:
            inlined[(fn, start, name)] = end

    def inlined_at(fn, l):
        """The inlined function whose definition holds line L, or None."""
        for (f, start, name), end in inlined.items():
            if f == fn and start <= l <= end:
                return (f, start, name)
        return None

    def function_of(fn, l):
        """(file, start line) of the innermost function holding line L."""
        best = None
        for start, end in franges.get(fn, []):
            if start <= l <= end and (best is None or start > best):
                best = start
        return None if best is None else (fn, best)

    def before(sites, fn, l):
        """The sum of the counts of SITES (calls, twice or execs) before line L
        of FN in the functions holding L: on lines up to L of the same file, or,
        for a call in another file (a parser's action: bison's #line), in blocks
        numbered up to the last block holding L."""
        n = 0
        for fid, last in holds.get((fn, l), {}).items():
            n += sum(c for cf, cl, b, c in sites.get(fid, [])
                     if (cl <= l if cf == fn else b <= last))
        return n

    def noret_before(fn, l):
        """How often calls before line L in its functions did not return."""
        return before(calls, fn, l)

    bad = []
    why = collections.Counter()
    verbose = os.environ.get('COMPARE_VERBOSE')

    def note(where, kind):
        if verbose:
            print('accepted %s: %s' % (kind, where))

    def forked_before(fn, l):
        """How often calls before line L in its functions returned more often
        than they were made (fork)."""
        return before(twice, fn, l)

    def execs_before(fn, l):
        """How often exec built-ins were called before line L in its functions."""
        return before(execs, fn, l)

    # (i) entry counts, function by function: a function defined in a header is
    # one function for both tools, its count the sum over the units' copies
    # (gcov's JSON lists each copy, dsprof's lcov export sums them).
    nfun = 0
    for key in sorted(copies):
        fn, start, name = key
        cnt = sum(c for c, _, _ in copies[key])
        d = dfuncs.get(key)
        if d is None:
            bad.append('%s:%d: function %s: not in dsprof\'s lcov export (gcov %d)'
                       % (fn, start, name, cnt))
            continue
        nfun += 1
        if d == cnt:
            continue
        if all(first is not None for _, first, _ in copies[key]) and \
                any(fake for _, _, fake in copies[key]) and \
                d == sum(first for _, first, _ in copies[key]):
            why['FAKEENTRY'] += 1
            note('%s:%d: function %s: dsprof %d, gcov %d' % (fn, start, name, d, cnt), 'FAKEENTRY')
            continue
        bad.append('%s:%d: function %s: dsprof entry count %d, gcov %d%s'
                   % (fn, start, name, d, cnt,
                      ' (the sum over %d units)' % len(copies[key]) if len(copies[key]) > 1 else ''))
    for (fn, start, name), d in sorted(dfuncs.items()):
        if (fn, start, name) in inlined:
            first = min((l for (f, l) in ENTERED if f == fn and start < l <= inlined[(fn, start, name)]),
                        default=None)
            nfun += 1
            if first is not None and d == ENTERED[(fn, first)]:
                why['INLINED'] += 1
                note('%s:%d: function %s: dsprof %d, gcov\'s inlined copies of line %d: %d'
                     % (fn, start, name, d, first, ENTERED[(fn, first)]), 'INLINED')
                continue
            bad.append('%s:%d: function %s (inlined): dsprof entry count %d, gcov\'s inlined'
                       ' copies of its first line %s: %s' % (fn, start, name, d, first,
                       ENTERED[(fn, first)] if first else 'none'))
            continue
        if (fn, start, name) not in copies:
            bad.append('%s:%d: function %s: dsprof entry count %d, gcov has no such function'
                       % (fn, start, name, d))

    # ... and line by line: the listing shows on a definition line the largest
    # count of the blocks holding it, of every unit: the largest count of the
    # copies of the functions defined on that line.
    bydef = collections.defaultdict(list)
    for (fn, start, name), cs in copies.items():
        bydef[(fn, start)] += [(name, c) for c in cs]
    for (fn, start), cs in sorted(bydef.items()):
        if fn not in ann:
            bad.append('%s:%d: function %s: no dsprof listing for %s'
                       % (fn, start, cs[0][0], fn))
            continue
        names = '/'.join(sorted({name for name, _ in cs}))
        cnt = max(c for _, (c, _, _) in cs)
        d = D(fn, start)
        if d == cnt:
            continue
        if all(first is not None for _, (_, first, _) in cs) and \
                any(fake for _, (_, _, fake) in cs) and \
                d == max(first for _, (_, first, _) in cs):
            why['FAKEENTRY'] += 1
            note('%s:%d: function %s: dsprof %s, gcov %d' % (fn, start, names, d, cnt), 'FAKEENTRY')
            continue
        if d is not None and d > cnt and cnt in leaders.get((fn, start), []):
            why['ONELINE'] += 1
            note('%s:%d: function %s: dsprof %s (blocks %s), gcov %d'
                 % (fn, start, names, d, leaders[(fn, start)], cnt), 'ONELINE')
            continue
        bad.append('%s:%d: function %s: dsprof shows %s on the definition line, gcov\'s'
                   ' largest entry count %d' % (fn, start, names, 'blank' if d is None else d, cnt))

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
        if LABEL.match(text) and d in forwarded.get((fn, l), []):
            why['LABELFWD'] += 1
            note(where, 'LABELFWD')
            continue
        inl = inlined_at(fn, l)
        if inl and d is not None and \
                (d == dfuncs[inl] and mx is None if l == inl[1] else d == ENTERED[(fn, l)]):
            why['INLINED'] += 1
            note(where + ('   [the function\'s entry count: %d]' % dfuncs[inl] if l == inl[1] else
                          '   [entered in the inlined copies: %d]' % ENTERED[(fn, l)]), 'INLINED')
            continue
        if d is None:
            bad.append(where + '   [no dsprof block]')
            continue
        if mx is None:
            bad.append(where + '   [no gcov block]')
            continue
        noret = noret_before(fn, l)
        forked = forked_before(fn, l)
        if d < mx and forked >= mx - d:
            why['FORKED'] += 1
            note(where, 'FORKED (%d)' % forked)
            continue
        nexec = execs_before(fn, l)
        if d < mx and nexec >= mx - d:
            why['EXECRET'] += 1
            note(where, 'EXECRET (%d)' % nexec)
            continue
        bad.append(where + '   [%s; calls that did not return before it: %d, that returned twice: %d]'
                   % ('executed in one only' if (d > 0) != (mx > 0) else 'counts differ', noret, forked))

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
        fwd = list(forwarded.get((fn, l), []))
        if LABEL.match(text) and all(c in fwd and fwd.remove(c) is None for c in missing):
            why['LABELFWD'] += 1
            note('%s:%d: blocks %s, gcov blocks %s, forwarded to %s'
                 % (fn, l, cs, sorted(ALL.get((fn, l), [])), forwarded[(fn, l)]), 'LABELFWD')
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
        inl = inlined_at(fn, l)
        if inl and l > inl[1] and sum(cs) == ENTERED[(fn, l)]:
            why['INLINED'] += 1
            note('%s:%d: blocks %s, gcov blocks %s' % (fn, l, cs, sorted(ALL.get((fn, l), []))),
                 'INLINED')
            continue
        nexec = execs_before(fn, l)
        if nexec:
            # Each missing count against a distinct gcov block of L left over,
            # larger by no more than the exec calls before L.
            left, ok = sorted(pool), True
            for c in sorted(missing):
                g = next((g for g in left if c < g <= c + nexec), None)
                if g is None:
                    ok = False
                    break
                left.remove(g)
            if ok:
                why['EXECRET'] += 1
                note('%s:%d: blocks %s, gcov blocks %s, exec calls before it %d'
                     % (fn, l, cs, sorted(ALL.get((fn, l), [])), nexec), 'EXECRET')
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
