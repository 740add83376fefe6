// html-paint.js - the time to first paint of a `dsprof html` page in headless
// Chromium (Debian's, driven by playwright-core), for `make bench`:
//   node html-paint.js PLAYWRIGHT PAGE LOADS
// prints the medians over LOADS fresh loads, in ms from navigation start: the
// first contentful paint, and the end of the load event (the page's script,
// which runs before it, done).
'use strict';
const [pw, page, loads] = process.argv.slice(2);
const { chromium } = require(require('path').resolve(pw));
const median = v => v.slice().sort((a, b) => a - b)[v.length >> 1];
(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
                                          args: ['--no-sandbox', '--disable-gpu'] });
  const fcp = [], load = [];
  for (let i = 0; i < (+loads || 5); i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    await p.goto('file://' + require('path').resolve(page), { waitUntil: 'load', timeout: 300000 });
    const [f, l] = await p.evaluate(() => new Promise(done => {
      const get = () => {
        const e = performance.getEntriesByName('first-contentful-paint')[0];
        if (!e) return setTimeout(get, 20);
        done([e.startTime, performance.getEntriesByType('navigation')[0].loadEventEnd]);
      };
      get();
    }));
    fcp.push(f); load.push(l);
    await ctx.close();
  }
  await browser.close();
  console.log(median(fcp).toFixed(0), median(load).toFixed(0));
})().catch(e => { console.error('html-paint.js: ' + e.message); process.exit(1); });
