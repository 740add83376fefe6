// browser.js - the html-browser case's checks, in headless Chromium driven by
// playwright-core:  node browser.js PLAYWRIGHT MODE PAGE [ARGS...]
//
//   records PAGE   examples/expr's page: the icicle graph over the full width,
//                  a click zooms into a box and Escape back, the search says the
//                  matching frames' share of the time, the tooltip, sorting by a
//                  column heading, folding a section
//   counters PAGE LINES FUNCS BRANCHES   a counters-only page: the summary, the
//                  coverage (its totals those of `dsprof summary`) and source
//                  views first, no empty record views, never-run lines marked,
//                  branch counts on demand, a hottest line's link into the source
//   opcodes PAGE CSV   a page of op records: the opcode view, linked from the
//                  summary, holds the names and counts of the CSV of `dsprof
//                  report name --where event=op`, and sorts by Count
//   pairs PAGE CSV a page of op records: the opcode pairs view, linked from the
//                  summary, holds the pairs and counts of the CSV of `dsprof
//                  report prev:name name --where event=op`; its table sorts by
//                  a column both ways, its heading folds and unfolds it, the
//                  summary's link opens it folded
//   diff PAGE      a --diff page: the icicle boxes keep the SVG's change colours
//
// The expected figures come from the page as dsprof wrote it (the SVG's boxes
// and their tooltips' times), never from the script under test.  Exits 1 with
// a message on the first failure.
'use strict';
const [pw, mode, page, ...args] = process.argv.slice(2);
const { chromium } = require(require('path').resolve(pw));

function fail(msg) { throw new Error(msg); }

// The SVG's boxes as written: name, depth, times from the tooltips.
async function svgBoxes(p) {
  return p.$$eval('svg.flame g.box', gs => gs.map(g => {
    const r = g.querySelector('rect'), t = g.querySelector('title').textContent;
    const m = /from (\d+) ns to (\d+) ns/.exec(t);
    return { name: g.getAttribute('data-name'), depth: Math.round(+r.getAttribute('y') / 18),
             x: +r.getAttribute('x'), fill: r.getAttribute('fill'),
             cls: r.getAttribute('class'), ns: m ? +m[2] - +m[1] : null, tip: t };
  }));
}

// The icicle's boxes as shown: name, depth, pixel box.
async function shown(p) {
  return p.$$eval('#icicle .fb', ds => ds.map(d => {
    const r = d.getBoundingClientRect();
    return { text: d.textContent, top: d.offsetTop, left: r.left, width: r.width,
             hit: d.classList.contains('hit'), bg: d.style.background, cls: d.className };
  }));
}

function near(a, b, eps, what) {
  if (Math.abs(a - b) > eps) fail(`${what}: ${a}, expected ${b}`);
}

async function records(p) {
  const svg = await svgBoxes(p);
  if (svg.length !== 7) fail(`${svg.length} boxes in the SVG, expected 7`);
  if (await p.$('#opcodes')) fail('an opcode view without op records');
  if (await p.$('#pairs')) fail('an opcode pairs view without op records');
  if (await p.$eval('svg.flame', s => getComputedStyle(s).display) !== 'none')
    fail('the static SVG is still shown beside the icicle graph');
  const icw = await p.$eval('#icicle', d => d.getBoundingClientRect().width);
  const bodyw = await p.$eval('#flame', d => d.getBoundingClientRect().width);
  near(icw, bodyw, 3, 'icicle width against its section');
  if (icw < 1000) fail(`icicle ${icw} px wide in a 1280 px window`);
  let boxes = await shown(p);
  if (boxes.length !== 7) fail(`${boxes.length} boxes shown, expected 7`);
  const top = boxes.filter(b => b.top === 0);
  near(top.reduce((s, b) => s + b.width, 0), icw - 2, 3, 'top row width');
  // Labels: whole names where they fit.
  const isz = boxes.find(b => b.text === 'iszero');
  if (!isz) fail('no box labelled iszero: ' + boxes.map(b => b.text).join(','));

  // Zoom into the value record below iszero: it takes the full width, the
  // other top-level record leaves, its ancestor stays above it.
  const target = await p.$$('#icicle .fb');
  let below = null;
  for (const d of target)
    if (await d.evaluate(e => e.offsetTop === 18 && e.textContent === 'value')) below = d;
  if (!below) fail('no value box at depth 1');
  const before = boxes.filter(b => b.top === 36), zw = await below.evaluate(
    e => e.getBoundingClientRect().width);
  await below.click();
  boxes = await shown(p);
  const z = boxes.find(b => b.top === 18);
  near(z.width, icw - 2, 3, 'zoomed box width');
  if (boxes.length !== 6) fail(`${boxes.length} boxes after the zoom, expected 6`);
  if (boxes.filter(b => b.top === 0).length !== 1) fail('zoomed: not one box above');
  const deep = boxes.filter(b => b.top === 36);
  if (deep.length !== 2 || before.length !== 2)
    fail('zoomed: not the two children: ' + JSON.stringify(deep));
  for (let i = 0; i < 2; i++)
    near(deep[i].width, before[i].width * (icw - 2) / zw, 2, 'a zoomed child\'s width');
  await p.keyboard.press('Escape');
  if ((await shown(p)).length !== 7) fail('Escape does not zoom back out');
  await below.click().catch(() => {});
  await p.click('#reset');
  if ((await shown(p)).length !== 7) fail('Reset zoom does not zoom back out');

  // Search: the share of the time of the matching frames, from the SVG's times.
  const topns = svg.filter(b => b.depth === 0).reduce((s, b) => s + b.ns, 0);
  const expect = {
    iszero: [1, svg.filter(b => b.name === 'iszero')[0].ns / topns],
    // value: the top-level one and the outermost below iszero hold all its time
    value: [6, svg.filter(b => b.name === 'value' && b.depth <= 1)
                  .reduce((s, b) => s + b.ns, 0) / topns],
  };
  for (const [q, [n, share]] of Object.entries(expect)) {
    await p.fill('#find', q);
    const said = await p.textContent('#match');
    const m = /^(\d+) frames? match, ([\d.]+)% of the time/.exec(said);
    if (!m) fail(`search ${q}: ${JSON.stringify(said)}`);
    if (+m[1] !== n) fail(`search ${q}: ${m[1]} frames, expected ${n}`);
    near(+m[2], 100 * share, 0.51, `search ${q}: share`);
    const hits = (await shown(p)).filter(b => b.hit);
    if (hits.length !== n) fail(`search ${q}: ${hits.length} boxes highlighted`);
  }
  await p.fill('#find', '');
  if ((await shown(p)).some(b => b.hit)) fail('an empty search leaves highlights');

  // The tooltip: the box's tooltip text, then Total, Self, Count.
  const iszBox = (await p.$$('#icicle .fb'))[0];
  await p.hover('#icicle .fb >> text=iszero');
  const tip = await p.$eval('.tip', t => [getComputedStyle(t).display, t.textContent]);
  if (tip[0] === 'none') fail('hovering shows no tooltip');
  const it = svg.find(b => b.name === 'iszero');
  if (!tip[1].startsWith(it.tip)) fail('tooltip: ' + JSON.stringify(tip[1]));
  if (!/\nTotal: [\d.]+ [mun]?s \([\d.]+% of all\)\nSelf: [\d.]+ [mun]?s\nCount: 1$/.test(tip[1]))
    fail('tooltip figures: ' + JSON.stringify(tip[1]));
  void iszBox;

  // Sort the report's table by Count, largest first, then smallest first.
  const countCol = await p.$$eval('#tables table thead th', ths =>
    ths.findIndex(t => t.textContent.trim() === 'Count'));
  if (countCol < 0) fail('no Count column in the report');
  const th = (await p.$$('#tables table thead th'))[countCol];
  // A value cell's own text: a busy machine can add a clamp note after it.
  const names = () => p.$$eval('#tables table tbody tr', rs =>
    rs.map(r => Array.from(r.cells[r.cells.length - 1].childNodes)
      .filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim()));
  await th.click();
  if ((await names()).join() !== 'value,iszero') fail('sorted by Count: ' + await names());
  await th.click();
  if ((await names()).join() !== 'iszero,value') fail('sorted back: ' + await names());
  // The hottest lines by Count, smallest first after two clicks.
  const lth = await p.$('#lines table thead th');
  await lth.click(); await lth.click();
  const counts = await p.$$eval('#lines table tbody tr', rs => rs.map(r => +r.cells[0].textContent));
  for (let i = 1; i < counts.length; i++)
    if (counts[i] < counts[i - 1]) fail('hottest lines not sorted: ' + counts);

  // Fold and unfold the call graph.
  const vis = () => p.$eval('#callgraph table', t => t.getBoundingClientRect().height > 0);
  if (!await vis()) fail('the call graph starts folded');
  await p.click('#callgraph > h2');
  if (await vis()) fail('a click on its heading does not fold the call graph');
  await p.click('#callgraph > h2');
  if (!await vis()) fail('a second click does not unfold it');
}

async function counters(p, lines, funcs, branches) {
  const ids = await p.$$eval('body > section', ss => ss.map(s => s.id));
  if (ids.slice(0, 3).join() !== 'overview,coverage,source')
    fail('sections: ' + ids.join());
  for (const gone of ['flame', 'tables', 'callgraph', 'opcodes', 'pairs'])
    if (ids.includes(gone)) fail(`a counters-only page has the empty ${gone} view`);
  const over = await p.textContent('#overview');
  if (!over.includes('No profile records') || !over.includes(`lines ${lines}`))
    fail('summary: ' + over);
  const links = await p.$$eval('#overview a', as => as.map(a => a.getAttribute('href')));
  if (links.join() !== '#coverage,#source,#lines') fail('summary links: ' + links);
  const total = await p.$$eval('#coverage tfoot td', ts => ts.map(t => t.textContent));
  if (total[1] !== lines || total[2] !== funcs || total[4] !== branches)
    fail(`coverage total ${total}, expected lines ${lines}, functions ${funcs}, ` +
         `branches ${branches}`);
  // The source view: never-run lines marked and visible, branches on demand.
  const never = await p.$$eval('#source tr.never', rs => rs.map(r =>
    [r.cells[3].textContent, getComputedStyle(r.cells[0]).backgroundColor,
     r.getBoundingClientRect().height]));
  if (never.length !== 1 || !never[0][0].includes('never (int x)'))
    fail('never-run lines: ' + JSON.stringify(never));
  if (never[0][2] === 0 || /rgba\(0, 0, 0, 0\)|transparent/.test(never[0][1]))
    fail('the never-run line is not shown marked: ' + JSON.stringify(never));
  const brShown = () => p.$eval('#source tbody td.br', t => getComputedStyle(t).display !== 'none');
  if (await brShown()) fail('branch counts shown before they are asked for');
  await p.check('#branches');
  if (!await brShown()) fail('the checkbox does not show the branch counts');
  const br7 = await p.$eval('#source tr[id$="-7"] td.br', t => t.textContent.trim());
  if (br7 !== '1 0') fail(`branches of line 7: ${JSON.stringify(br7)}, expected "1 0"`);
  // A hottest line links to its line in the source view.
  const a = await p.$('#lines tbody a');
  const href = await a.getAttribute('href');
  await p.evaluate(() => { document.getElementById('source').classList.add('folded'); });
  await a.click();
  const row = await p.$eval(href, r => [r.getBoundingClientRect().top,
                                        r.getBoundingClientRect().height, innerHeight]);
  if (row[1] === 0 || row[0] < 0 || row[0] > row[2])
    fail(`the link ${href} does not show its line: ${row}`);
}

async function opcodes(p, csvfile) {
  // NAME -> COUNT of `dsprof report name --where event=op --format csv`.
  const want = {};
  for (const line of require('fs').readFileSync(csvfile, 'utf8').trim().split('\n').slice(1)) {
    const f = line.split(',');
    want[f[1]] = +f[8];
  }
  const links = await p.$$eval('#overview a', as => as.map(a => a.getAttribute('href')));
  if (!links.includes('#opcodes')) fail('no link to the opcodes: ' + links);
  const th = await p.$$('#opcodes thead th');
  const col = await p.$$eval('#opcodes thead th', ts => ts.findIndex(t => t.textContent === 'Count'));
  await th[col].click();
  const rows = await p.$$eval('#opcodes tbody tr', (rs, col) => rs.map(r =>
    [r.cells[r.cells.length - 1].textContent, +r.cells[col].textContent]), col);
  const got = {};
  for (const [n, c] of rows) got[n] = c;
  if (JSON.stringify(Object.entries(got).sort()) !== JSON.stringify(Object.entries(want).sort()))
    fail(`opcodes ${JSON.stringify(got)}, the report's ${JSON.stringify(want)}`);
  for (let i = 1; i < rows.length; i++)
    if (rows[i][1] > rows[i - 1][1]) fail('opcodes not sorted by Count: ' + JSON.stringify(rows));
}

// The pairs table's rows as shown: [count, prev, name].
async function pairRows(p) {
  return p.$$eval('#pairs table.seqs:first-of-type tbody tr', rs => rs.map(r =>
    [+r.cells[0].textContent, r.cells[2].textContent, r.cells[3].textContent]));
}

function sorted(rows, i, down, what) {
  for (let k = 1; k < rows.length; k++) {
    const a = rows[k - 1][i], b = rows[k][i];
    if (down ? a < b : a > b) fail(`${what}: not sorted: ${JSON.stringify(rows)}`);
  }
}

async function pairs(p, csvfile) {
  // PREV NAME -> COUNT of `dsprof report prev:name name --where event=op
  // --format csv`, its pairs: the rows of level 2 with an opcode before.
  const want = {};
  for (const line of require('fs').readFileSync(csvfile, 'utf8').trim().split('\n').slice(1)) {
    const f = line.split(',');
    if (f[0] === '2' && f[1] !== '') want[f[1] + ' ' + f[2]] = +f[9];
  }
  const links = await p.$$eval('#overview a', as => as.map(a => a.getAttribute('href')));
  if (!links.includes('#pairs')) fail('no link to the opcode pairs: ' + links);
  const heads = await p.$$('#pairs table.seqs:first-of-type thead th');
  const col = n => p.$$eval('#pairs table.seqs:first-of-type thead th',
                            (ts, n) => ts.findIndex(t => t.textContent === n), n);
  // By the opcode after, largest first; then by Count both ways.
  await heads[await col('name')].click();
  sorted(await pairRows(p), 2, true, 'pairs by name');
  await heads[await col('Count')].click();
  let rows = await pairRows(p);
  sorted(rows, 0, true, 'pairs by Count');
  const got = {};
  for (const [c, a, b] of rows) got[a + ' ' + b] = c;
  if (JSON.stringify(Object.entries(got).sort()) !== JSON.stringify(Object.entries(want).sort()))
    fail(`pairs ${JSON.stringify(got)}, the report's ${JSON.stringify(want)}`);
  await heads[await col('Count')].click();
  sorted(await pairRows(p), 0, false, 'pairs by Count, smallest first');
  // Its heading folds the view and unfolds it; the summary's link opens it.
  const visible = () => p.$eval('#pairs table.seqs', t => t.getBoundingClientRect().height > 0);
  if (!await visible()) fail('the pairs table is not shown');
  await p.click('#pairs > h2');
  if (await visible()) fail('the pairs view does not fold');
  await p.click('#pairs > h2');
  if (!await visible()) fail('the pairs view does not unfold');
  await p.click('#pairs > h2');
  await p.click('#overview a[href="#pairs"]');
  if (!await visible()) fail('the summary\'s link does not open the folded pairs view');
}

async function diff(p) {
  const svg = await svgBoxes(p), boxes = await shown(p);
  if (!svg.length || boxes.length !== svg.length)
    fail(`${boxes.length} boxes shown for ${svg.length} in the SVG`);
  const toRgb = async f => p.evaluate(c => { const d = document.createElement('div');
    d.style.background = c; document.body.appendChild(d);
    const v = getComputedStyle(d).backgroundColor; d.remove(); return v; }, f);
  const got = await p.$$eval('#icicle .fb', ds => ds.map(d => getComputedStyle(d).backgroundColor));
  const want = [];
  for (const b of svg) want.push(await toRgb(b.fill));
  if (got.slice().sort().join() !== want.slice().sort().join())
    fail(`icicle colours ${got}, the SVG's ${want}`);
  for (const b of boxes)
    if (!/ (same|grew|shrank|new)\b/.test(b.cls)) fail('a box without its change: ' + b.cls);
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
                                          args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    p.on('pageerror', e => errors.push(String(e)));
    p.setDefaultTimeout(60000);
    await p.goto('file://' + require('path').resolve(page));
    await ({ records, counters, opcodes, pairs, diff })[mode](p, ...args);
    if (errors.length) fail('script errors: ' + errors.join('; '));
    if (process.env.SHOT) await p.screenshot({ path: process.env.SHOT, fullPage: false });
  } finally {
    await browser.close();
  }
})().catch(e => { console.error('FAIL: ' + e.message); process.exit(1); });
