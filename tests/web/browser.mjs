// browser.mjs: the eyes and hands of tests/web/test_web.py. It drives
// Debian's chromium (never a downloaded browser) through playwright-core
// over the pages of a running arcaded, does what the plan asks and writes
// what it saw as JSON; test_web.py, which started the daemon and knows what
// every board should hold, judges it.
//
// usage: node browser.mjs PLAN.json RESULT.json
//
// The browser runs headless, without sandbox, GPU, background networking,
// component updates, sync or first-run pages, in a temporary profile: this
// machine has no network, and nothing here needs one. Every page is
// watched for console errors, uncaught exceptions and Content-Security-
// Policy violations; a match page's seats are read from their data
// attributes (readSeats); axe-core (injected through the DevTools protocol,
// which the pages' policy does not govern) scans the pages named in the
// plan. The opening task reads where a finished run's or match's page
// opens, and what is in view there, in a 1280 x 800 window.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [planPath, resultPath] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
const out = { launch: null, boards: [], keyboard: null, live: [], verify: [], index: null, pages: [], console: [],
  errors: [], match: null, matchLive: [], extra: [], timing: [], opening: [] };
const save = () => fs.writeFileSync(resultPath, JSON.stringify(out, null, 1));
const WAIT = 30000;

function note(task, err) {
  out.errors.push({ task, error: String(err && err.stack ? err.stack : err) });
}

let ctx;
let profile;
try {
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'arcaded-chromium-'));
  ctx = await chromium.launchPersistentContext(profile, {
    executablePath: plan.chromium,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-default-apps',
      '--disable-extensions'],
    viewport: { width: 1280, height: 900 },
    timeout: 30000,
  });
  out.launch = { ok: true, version: ctx.browser() ? ctx.browser().version() : 'persistent context' };
} catch (err) {
  out.launch = { ok: false, error: String(err) };
  save();
  process.exit(0);
}

const axeSource = fs.readFileSync(plan.axe, 'utf8');

// A page with every listener the checks need; label names it in the log.
async function open(label, url, width = 1280) {
  const page = await ctx.newPage();
  await page.setViewportSize({ width, height: 900 });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') out.console.push({ label, type: m.type(), text: m.text() });
  });
  page.on('pageerror', (e) => out.console.push({ label, type: 'pageerror', text: String(e) }));
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  if (url) await page.goto(plan.base + url, { waitUntil: 'load' });
  return page;
}

// Until the page has painted what it has: two animation frames, so that
// a layout changed by a resize or a late fetch is on screen before it is
// read (in place of a fixed sleep).
async function settle(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

// The board as drawn: [{r, c, i, v, hl}] for every cell, and the frame.
async function readBoard(page) {
  return page.evaluate(() => {
    const b = document.querySelector('[data-testid=board]');
    if (!b) return null;
    const cells = [...b.querySelectorAll('[data-v]')].map((n) => ({
      r: n.dataset.r === undefined ? null : Number(n.dataset.r),
      c: n.dataset.c === undefined ? null : Number(n.dataset.c),
      i: n.dataset.i === undefined ? null : Number(n.dataset.i),
      v: n.dataset.v,
      hl: n.classList.contains('hl'),
    }));
    const pieces = {};
    for (const p of document.querySelectorAll('[data-piece]')) pieces[p.getAttribute('aria-label').split(':')[0]] = p.dataset.piece;
    const arrow = document.querySelector('svg.arrow.on');
    return {
      step: b.dataset.step === undefined ? null : Number(b.dataset.step),
      frame: b.dataset.frame,
      cells,
      pieces,
      arrow: arrow ? { from: Number(arrow.dataset.from), to: Number(arrow.dataset.to) } : null,
      caption: (document.getElementById('caption') || {}).textContent || '',
      label: b.getAttribute('aria-label'),
      legend: [...document.querySelectorAll('[data-testid=legend] dt')].map((n) => n.textContent.trim()),
    };
  });
}

async function waitStep(page, k) {
  await page.waitForSelector(`[data-testid=board][data-step="${k}"][data-frame="state"]`, { timeout: WAIT });
  await page.waitForFunction((kk) => document.getElementById('player').dataset.step === String(kk)
    && !document.getElementById('player').hasAttribute('aria-busy'), k, { timeout: WAIT });
}

async function audit(page, name, width) {
  const entry = { name, width };
  try {
    await page.setViewportSize({ width, height: 900 });
    await settle(page);
    await page.evaluate(`${axeSource}\n;0`);
    const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    entry.axe = r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
    entry.overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    entry.csp = await page.evaluate(() => window.__csp);
    const file = path.join(plan.out, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    entry.screenshot = file;
  } catch (err) {
    note(`audit ${name}`, err);
  }
  out.pages.push(entry);
}

// What is drawn at each position of list (the page opened at the first),
// reached through the address (#key=N) by changing its hash; asked names
// the position each reading was made at.
async function visit(page, list, key, wait, read) {
  const seen = [];
  for (const k of list) {
    if (k !== list[0]) await page.evaluate(([kk, name]) => { location.hash = `#${name}=${kk}`; }, [k, key]);
    await wait(page, k);
    const got = await read(page);
    if (!got) throw new Error(`nothing is drawn at ${key} ${k}`);
    seen.push({ ...got, asked: k });
  }
  return seen;
}

// 1. Boards: every planned step of each run, reached through the address
// (#step=N) on load and then through hash changes.
for (const b of plan.boards) {
  try {
    const page = await open(`board ${b.run}`, `/runs/${b.run}#step=${b.steps[0]}`);
    for (const seen of await visit(page, b.steps, 'step', waitStep, readBoard)) out.boards.push({ ...seen, run: b.run });
    await page.close();
  } catch (err) {
    note(`boards ${b.run}`, err);
  }
  save();
}

// 2. The keyboard: the player's keys, the slider's own keys, the address.
if (plan.keyboard) {
  const k = plan.keyboard;
  const r = { log: [] };
  out.keyboard = r;
  try {
    // Opened without #step, a finished run shows its last step; Home goes
    // back to the start.
    const page = await open('keyboard', `/runs/${k.run}`);
    await waitStep(page, k.last);
    const at = () => page.evaluate(() => ({ step: Number(document.getElementById('player').dataset.step),
      hash: location.hash, link: document.getElementById('permalink').getAttribute('href'),
      playing: document.getElementById('player').dataset.playing, speed: document.getElementById('speed').value,
      pressed: document.getElementById('play').getAttribute('aria-pressed') }));
    const press = async (key, want, what) => {
      await page.keyboard.press(key);
      if (want !== null) await waitStep(page, want);
      r.log.push({ what, key, want, got: await at() });
    };
    r.opened = await at();
    await page.focus('#player');
    r.focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
    await press('Home', 0, 'home from the last step');
    await press('ArrowRight', 1, 'right');
    await press('ArrowRight', 2, 'right');
    await press('ArrowRight', 3, 'right');
    await press('ArrowLeft', 2, 'left');
    await press('PageDown', 12, 'page down');
    await press('PageUp', 2, 'page up');
    await press('End', k.last, 'end');
    await press('ArrowRight', k.last, 'right at the end');
    await press('Home', 0, 'home');
    await press('ArrowLeft', 0, 'left at the start');
    await press(']', null, 'faster');
    await press(']', null, 'faster');
    await press('[', null, 'slower');
    await press(']', null, 'faster');
    await press(']', null, 'faster');
    await press(' ', null, 'play');
    await page.waitForFunction(() => Number(document.getElementById('player').dataset.step) >= 3, null,
      { timeout: WAIT });
    await press(' ', null, 'pause');
    const paused = (await at()).step;
    await page.waitForTimeout(600);
    r.pausedStays = (await at()).step === paused;
    // Tab moves through the controls; Enter on "Step forward" steps.
    await page.focus('#back');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    r.tabbedTo = await page.evaluate(() => document.activeElement.id);
    const before = (await at()).step;
    await page.keyboard.press('Enter');
    await waitStep(page, before + 1);
    r.enterOnForward = { before, after: (await at()).step };
    // The slider takes its own arrows.
    await page.focus('#slider');
    const s0 = (await at()).step;
    await page.keyboard.press('ArrowRight');
    await waitStep(page, s0 + 1);
    r.slider = { before: s0, after: (await at()).step };
    await page.close();
  } catch (err) {
    note('keyboard', err);
  }
  save();
}

// 3. Live: a playing run's page, a move played meanwhile, the page moving on.
for (const l of plan.live) {
  const r = { run: l.run, game: l.game, hidden: l.hidden };
  out.live.push(r);
  try {
    const page = await open(`live ${l.run}`, `/runs/${l.run}`);
    await page.waitForSelector('#live-note:not([hidden])', { timeout: WAIT });
    await page.waitForSelector('[data-testid=board][data-frame="state"]', { timeout: WAIT });
    r.before = await readBoard(page);
    r.beforeTotal = await page.evaluate(() => document.getElementById('player').dataset.total || null);
    r.controlsHidden = await page.evaluate(() => document.getElementById('controls').hidden);
    const res = await fetch(`${plan.base}/api/games/${l.game}/action`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ stateToken: l.token, ...l.request }),
    });
    const answer = await res.json();
    r.status = res.status;
    r.newToken = answer.stateToken;
    delete answer.stateToken;
    r.answer = answer;
    await page.waitForFunction((m) => document.getElementById('live-note').dataset.moves === String(m), l.moves + 1,
      { timeout: WAIT });
    await page.waitForSelector(`[data-testid=board][data-step="${l.moves + 1}"][data-frame="state"]`, { timeout: WAIT });
    r.after = await readBoard(page);
    r.afterTotal = await page.evaluate(() => document.getElementById('player').dataset.total || null);
    r.summary = await page.evaluate(() => [...document.querySelectorAll('[data-testid=summary] dt')]
      .map((dt) => [dt.textContent, dt.nextElementSibling.textContent]));
    r.html = await page.content();
    await audit(page, `live-${l.game}`, 1280);
    await page.close();
  } catch (err) {
    note(`live ${l.run}`, err);
  }
  save();
}

// 4. /verify: files set on the input as a person would drop them.
for (const v of plan.verify) {
  const r = { name: v.name };
  out.verify.push(r);
  try {
    const page = await open(`verify ${v.name}`, '/verify');
    if (v.cert) {
      await page.setInputFiles('#cert-file', { name: 'certificate.txt', mimeType: 'text/plain',
        buffer: Buffer.from(`${v.cert}\n`) });
      await page.waitForFunction(() => document.getElementById('cert-text').value.startsWith('v4.public.'), null,
        { timeout: WAIT });
    }
    await page.setInputFiles('#replay-file', { name: `${v.name}.json`, mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(v.file)) });
    await page.waitForSelector('#result[data-state]:not([data-state="checking"])', { timeout: WAIT });
    r.state = await page.evaluate(() => document.getElementById('result').dataset.state);
    r.text = await page.evaluate(() => document.getElementById('result-body').textContent);
    if (v.audit) await audit(page, `verify-${v.name}`, 360);
    if (v.audit) await audit(page, `verify-${v.name}`, 1280);
    await page.close();
  } catch (err) {
    note(`verify ${v.name}`, err);
  }
  save();
}

// 5. The home page: the leaderboards, and the seed filter typed in.
if (plan.index) {
  const r = {};
  out.index = r;
  try {
    const page = await open('index', '/');
    const rows = () => page.evaluate((g) => [...document.querySelectorAll(`#${g} tbody tr`)]
      .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)), plan.index.game);
    await page.waitForSelector(`#${plan.index.game} tbody tr`, { timeout: WAIT });
    await page.waitForFunction((g) => !document.querySelector(`#${g} .reviews-box`).textContent.includes('Loading')
      && document.querySelector(`#${g} .reviews-box h3`), plan.index.game, { timeout: WAIT });
    r.unfiltered = await rows();
    // The account links of the board, and the open matches beside what the
    // route answers at the same moment (issue 30).
    await page.waitForFunction(() => ['lobby', 'playing'].every((s) => document.querySelector(`#open-${s} tbody tr`))
      && document.querySelector('#ratings-caption ~ tbody a.account'), null, { timeout: WAIT });
    r.accountLinks = await page.evaluate(() => [...document.querySelectorAll('a.account')]
      .map((a) => [a.textContent, a.getAttribute('href')]));
    r.open = await page.evaluate(async () => {
      const o = {};
      for (const s of ['lobby', 'playing']) {
        const d = await (await fetch(`/api/matches/open?status=${s}&limit=20`)).json();
        o[s] = { api: d.matches.map((m) => [m.match_id, m.seats.join(', ')]),
          drawn: [...document.querySelectorAll(`#open-${s} tbody tr[data-testid]`)].map((tr) => [
            tr.cells[0].textContent, tr.cells[1].textContent, tr.querySelector('a').getAttribute('href')]),
          empty: document.querySelector(`#open-${s} tbody`).textContent };
      }
      return o;
    });
    r.reviews = await page.evaluate((g) => document.querySelector(`#${g} .reviews-box`).textContent, plan.index.game);
    await page.focus(`#${plan.index.game}-seed`);
    await page.keyboard.type(String(plan.index.seed));
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.search.includes('seed='), { timeout: WAIT });
    await page.waitForFunction((g) => document.querySelector(`#${g} h3`).textContent.includes('seed'),
      plan.index.game, { timeout: WAIT });
    await page.waitForSelector(`#${plan.index.game} tbody tr`, { timeout: WAIT });
    await page.waitForTimeout(300);
    r.url = page.url();
    r.filtered = await rows();
    r.runLinks = await page.evaluate((g) => [...document.querySelectorAll(`#${g} tbody a[href^="/runs/"]`)]
      .map((a) => a.getAttribute('href')), plan.index.game);
    // A match opened by its id from the Versus section.
    if (plan.index.match) {
      await page.goto(`${plan.base}/`);
      await page.waitForSelector('#versus tbody tr', { timeout: WAIT });
      await page.focus('#match-id');
      await page.keyboard.type(plan.index.match);
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname.startsWith('/matches/'), { timeout: WAIT });
      await page.waitForSelector('[data-testid=seat]', { timeout: WAIT });
      r.matchUrl = new URL(page.url()).pathname;
    }
    await page.close();
  } catch (err) {
    note('index', err);
  }
  save();
}

// A match's seats as drawn: each seat's board (20 strings, top row first),
// its meter, pieces, place, out state and figures from data attributes.
async function readSeats(page) {
  return page.evaluate(() => ({
    turn: Number(document.getElementById('stage').dataset.turn),
    step: Number(document.getElementById('player').dataset.step),
    caption: document.getElementById('caption').textContent,
    seats: [...document.querySelectorAll('[data-testid=seat]')].map((n) => {
      const rows = Array.from({ length: 20 }, () => Array(10).fill('?'));
      for (const c of n.querySelectorAll('.tboard [data-v]')) rows[Number(c.dataset.r)][Number(c.dataset.c)] = c.dataset.v;
      const meter = n.querySelector('[data-testid=meter]');
      const piece = (slot) => n.querySelector(`[data-slot=${slot}] [data-piece]`).dataset.piece;
      return {
        seat: Number(n.dataset.seat), rows: rows.map((r) => r.join('')), boardTurn: n.querySelector('.tboard').dataset.step,
        pending: meter.dataset.pending, meterOn: meter.querySelectorAll('.m.on').length, place: n.dataset.place,
        out: n.dataset.out, score: n.dataset.score, sent: n.dataset.sent, received: n.dataset.received,
        current: piece('current'), hold: piece('hold'), state: n.querySelector('.seat-state').textContent,
        did: n.querySelector('.did').textContent,
      };
    }),
  }));
}

async function waitTurn(page, k) {
  // The stage exists only once the page has read the match (the player's
  // controls are built then): until that, keep waiting.
  await page.waitForFunction((kk) => document.getElementById('stage')?.dataset.turn === String(kk)
    && document.getElementById('player').dataset.step === String(kk)
    && !document.getElementById('player').hasAttribute('aria-busy'), k, { timeout: WAIT });
}

// 6. A match: every turn through the address, the keys, the result.
if (plan.match) {
  const m = plan.match;
  const r = { turns: [], log: [] };
  out.match = r;
  try {
    const page = await open(`match ${m.id}`, `/matches/${m.id}#turn=${m.turns[0]}`);
    r.turns = await visit(page, m.turns, 'turn', waitTurn, readSeats);
    // The keys, from the start.
    await page.evaluate(() => { location.hash = '#turn=0'; });
    await waitTurn(page, 0);
    await page.focus('#player');
    const at = () => page.evaluate(() => ({ step: Number(document.getElementById('player').dataset.step),
      hash: location.hash, link: document.getElementById('permalink').getAttribute('href') }));
    for (const [key, want] of [['ArrowRight', 1], ['ArrowRight', 2], ['ArrowLeft', 1], ['PageDown', 11],
      ['PageUp', 1], ['End', m.last], ['Home', 0]]) {
      await page.keyboard.press(key);
      await waitTurn(page, want);
      r.log.push({ key, want, got: await at() });
    }
    r.places = await page.evaluate(() => [...document.querySelectorAll('[data-testid=place-row]')]
      .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    await page.waitForSelector('[data-testid=certificate]:not([data-state=checking])', { timeout: WAIT });
    r.certificate = await page.evaluate(() => document.querySelector('[data-testid=certificate]').dataset.state);
    await page.close();
    // The rated match's result: the rating changes.
    const rated = await open(`match ${m.rated}`, `/matches/${m.rated}`);
    await rated.waitForSelector('[data-testid=rating]', { timeout: WAIT });
    r.ratings = await rated.evaluate(() => [...document.querySelectorAll('[data-testid=place-row]')]
      .map((tr) => ({ seat: Number(tr.dataset.seat), text: tr.querySelector('[data-testid=rating]').textContent })));
    await rated.close();
  } catch (err) {
    note('match', err);
  }
  save();
}

// 7. Matches followed live: a playing one moves on when the browser's side
// plays the next turn; a lobby starts when it takes the last seat.
for (const l of plan.matchLive) {
  const r = { name: l.name };
  out.matchLive.push(r);
  try {
    const page = await open(`match live ${l.name}`, `/matches/${l.id}`);
    await page.waitForSelector('#live-note:not([hidden])', { timeout: WAIT });
    if (l.turn >= 0) {
      await waitTurn(page, l.turn);
      r.before = await readSeats(page);
    }
    r.note = await page.evaluate(() => document.getElementById('live-note').dataset.status);
    r.statuses = [];
    for (const mv of l.moves || []) {
      const res = await fetch(`${plan.base}/api/matches/${l.id}/move`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', ...mv.headers }, body: JSON.stringify(mv.body) });
      r.statuses.push(res.status);
    }
    for (const h of l.joins || []) {
      const res = await fetch(`${plan.base}/api/matches/${l.id}/join`, { method: 'POST', headers: h });
      r.statuses.push(res.status);
    }
    await waitTurn(page, l.turn + 1);
    r.after = await readSeats(page);
    r.answer = await (await fetch(`${plan.base}/api/matches/${l.id}`)).json();
    r.afterNote = await page.evaluate(() => ({ status: document.getElementById('live-note').dataset.status,
      turn: document.getElementById('live-note').dataset.turn }));
    await audit(page, `match-live-${l.name}`, 360);
    await audit(page, `match-live-${l.name}`, 1280);
    await page.close();
  } catch (err) {
    note(`match live ${l.name}`, err);
  }
  save();
}

// What the pages of issue 30 show: every plot's numbers as the page holds
// them (node.plot) and as the library holds them (uPlot's data), the
// refusal, where two runs part, the rows of the tables, each board's step.
async function readExtra(page) {
  return page.evaluate(() => {
    const one = (sel) => document.querySelector(sel);
    return {
      plots: Object.fromEntries([...document.querySelectorAll('[data-plot]')].map((n) => [n.dataset.plot, {
        x: n.plot.x, series: n.plot.series, mark: n.plot.mark, fixed: n.plot.fixed,
        library: n.uplot ? n.uplot.data.map((a) => Array.from(a)) : null, width: n.uplot ? n.uplot.width : 0 }])),
      refusal: one('[data-testid=refusal]') ? one('[data-testid=refusal]').textContent : null,
      parting: one('[data-testid=parting]') ? one('[data-testid=parting]').dataset.step : null,
      rows: Object.fromEntries(['best-row', 'run-row', 'match-row'].map((k) => [k,
        [...document.querySelectorAll(`[data-testid=${k}]`)].map((tr) => [...tr.cells].map((c) => c.textContent))])),
      boards: [...document.querySelectorAll('[data-testid=board]')].map((b) => b.dataset.step ?? null),
      step: one('#player') ? one('#player').dataset.step ?? null : null,
      title: one('h1') ? one('h1').textContent : '',
      links: [...document.querySelectorAll('a.account')].map((a) => [a.textContent, a.getAttribute('href')]),
    };
  });
}

// 8a. The account page, the compare page, a leaderboard on one seed and a
// run page's plots: read back, then moved through their steps (the mark
// must follow the player).
for (const x of plan.extra || []) {
  const r = { name: x.name, at: [] };
  out.extra.push(r);
  try {
    const page = await open(`extra ${x.name}`, x.path);
    await page.waitForSelector(x.wait, { timeout: WAIT });
    await settle(page);
    r.first = await readExtra(page);
    for (const k of x.steps || []) {
      await page.evaluate((kk) => { location.hash = `#step=${kk}`; }, k);
      await page.waitForFunction((kk) => document.getElementById('player').dataset.step === String(kk)
        && [...document.querySelectorAll('[data-plot]')].every((n) => n.plot.mark === kk), k, { timeout: WAIT });
      r.at.push({ asked: k, ...(await readExtra(page)) });
    }
    if (x.keys) {
      await page.focus('#player');
      for (const key of x.keys) {
        const before = await page.evaluate(() => document.getElementById('player').dataset.step);
        await page.keyboard.press(key);
        await page.waitForFunction((b) => document.getElementById('player').dataset.step !== b, before, { timeout: WAIT });
        await settle(page);
        r.at.push({ key, ...(await readExtra(page)) });
      }
    }
    await page.close();
  } catch (err) {
    note(`extra ${x.name}`, err);
  }
  save();
}

// Where a node is in the window: [left, top, right, bottom], rounded, or
// null for none.
async function boxes(page, selectors) {
  return page.evaluate((sels) => Object.fromEntries(sels.map((sel) => {
    const n = document.querySelector(sel);
    if (!n) return [sel, null];
    const b = n.getBoundingClientRect();
    return [sel, [b.left, b.top, b.right, b.bottom].map(Math.round)];
  })), selectors);
}

// 8c. The opening of a finished run, a finished match and an account's
// page in a 1280 x 800 window, as a person lands on them: what is drawn,
// what is in view with no scroll, the rank and record the pages give.
for (const o of plan.opening || []) {
  const r = { name: o.name, kind: o.kind };
  out.opening.push(r);
  try {
    const page = await open(`opening ${o.name}`, null);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(plan.base + o.path, { waitUntil: 'load' });
    if (o.kind === 'run') {
      await page.waitForSelector('[data-testid=rank][data-state=done], [data-testid=rank][data-state=none]',
        { timeout: WAIT });
      await page.waitForSelector('[data-testid=certificate]:not([data-state=checking])', { timeout: WAIT });
      await page.waitForFunction(() => document.getElementById('player').dataset.step
        && !document.getElementById('player').hasAttribute('aria-busy'), null, { timeout: WAIT });
      await settle(page);
      r.board = await readBoard(page);
      r.rank = await page.evaluate(() => {
        const p = document.querySelector('[data-testid=rank]');
        const a = document.querySelector('[data-testid=compare-best]');
        return { ...p.dataset, text: p.textContent, compare: a ? a.getAttribute('href') : null };
      });
      r.outcome = await page.evaluate(() => document.querySelector('[data-testid=outcome]').textContent);
      r.boxes = await boxes(page, ['[data-testid=board]', '#result', '#details', '[data-testid=certificate]',
        '[data-testid=summary]', '#review-title', '#controls']);
    } else if (o.kind === 'match') {
      await page.waitForSelector('[data-testid=certificate]:not([data-state=checking])', { timeout: WAIT });
      await waitTurn(page, o.last);
      await settle(page);
      r.seats = await readSeats(page);
      r.boxes = await boxes(page, ['#result', '#places', '[data-testid=certificate]', '[data-testid=seats]']);
      r.ratings = await page.evaluate(() => [...document.querySelectorAll('[data-testid=rating]')].map((n) => n.textContent));
    } else {
      await page.waitForSelector('[data-testid=record]', { timeout: WAIT });
      await settle(page);
      r.standing = await page.evaluate(() => [...document.querySelectorAll('[data-testid=standing-row]')].map((tr) => ({
        ...tr.dataset, cells: [...tr.cells].map((c) => c.textContent) })));
      r.record = await page.evaluate(() => ({ ...document.querySelector('[data-testid=record]').dataset,
        text: document.querySelector('[data-testid=record]').textContent }));
      r.tables = await page.evaluate(() => [...document.querySelectorAll('.table-wrap')].map((w) => ({
        table: w.querySelector('table').id, scroll: w.scrollWidth, client: w.clientWidth })));
    }
    r.scrollY = await page.evaluate(() => window.scrollY);
    r.hash = await page.evaluate(() => location.hash);
    r.step = await page.evaluate(() => (document.getElementById('player') || { dataset: {} }).dataset.step ?? null);
    r.width = await page.evaluate(() => document.documentElement.scrollWidth);
    r.viewport = page.viewportSize();
    await page.screenshot({ path: path.join(plan.out, `opening-${o.name}-1280x800.png`) });
    await page.close();
  } catch (err) {
    note(`opening ${o.name}`, err);
  }
  save();
}

// 8b. Weight and load time of the pages, each in a fresh context (nothing
// cached): the bytes transferred (gzip) for the page and every file it
// loads, and the time from navigation until ready (its plots drawn).
let timingBrowser = null;
for (const x of plan.timing || []) {
  const r = { name: x.name, runs: [] };
  out.timing.push(r);
  try {
    if (!timingBrowser) {
      timingBrowser = await chromium.launch({ executablePath: plan.chromium, headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    }
    for (let i = 0; i < (plan.timingRuns || 1); i++) {
      const c = await timingBrowser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await c.newPage();
      const t0 = Date.now();
      await page.goto(plan.base + x.path, { waitUntil: 'load' });
      await page.waitForSelector(x.wait, { timeout: WAIT });
      const ms = Date.now() - t0;
      const bytes = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const res = performance.getEntriesByType('resource');
        const files = res.filter((e) => e.name.includes('/static/'));
        return { page: nav.transferSize, files: files.reduce((s, e) => s + e.transferSize, 0),
          filesDecoded: files.reduce((s, e) => s + e.decodedBodySize, 0), nfiles: files.length,
          json: res.filter((e) => e.name.includes('/api/')).reduce((s, e) => s + e.transferSize, 0),
          load: nav.loadEventEnd - nav.startTime };
      });
      r.runs.push({ ms, ...bytes });
      await c.close();
    }
  } catch (err) {
    note(`timing ${x.name}`, err);
  }
  save();
}
if (timingBrowser) await timingBrowser.close();

// 8. Every named page at 360 and 1280 px: axe, overflow, screenshots.
for (const p of plan.pages) {
  for (const width of [360, 1280]) {
    try {
      const page = await open(`page ${p.name} ${width}`, p.path, width);
      if (p.wait) await page.waitForSelector(p.wait, { timeout: WAIT });
      await settle(page);
      await audit(page, p.name, width);
      if (p.element && width === 1280) {
        const file = path.join(plan.out, `${p.name}-player.png`);
        await page.locator(p.element).screenshot({ path: file });
      }
      await page.close();
    } catch (err) {
      note(`page ${p.name} ${width}`, err);
    }
  }
  save();
}

await ctx.close();
fs.rmSync(profile, { recursive: true, force: true });
save();
