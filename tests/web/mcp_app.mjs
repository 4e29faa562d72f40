// mcp_app.mjs: the inline board (ui://arcaded/board, docs/mcp.md) in
// Debian's chromium as a host that renders MCP Apps would show it, for
// tests/web/test_mcp_app.py. For each case of the plan a page plays the
// host: it puts the resource's HTML in a sandboxed frame (srcdoc, scripts
// allowed, an opaque origin), answers the view's ui/initialize, waits for
// ui/notifications/initialized, then sends the tool's arguments
// (ui/notifications/tool-input) and its result (ui/notifications/
// tool-result), as SEP-1865 orders them. It reports every message the view
// sent, what the view drew (read from inside the frame), the console's
// errors (a refused script or style among them) and a screenshot.
// usage: node mcp_app.mjs PLAN.json RESULT.json
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [planPath, resultPath] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
const out = { launch: null, cases: [] };
const save = () => fs.writeFileSync(resultPath, JSON.stringify(out, null, 1));

let browser;
try {
  browser = await chromium.launch({
    executablePath: plan.chromium,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-extensions'],
    timeout: 30000,
  });
  out.launch = { ok: true };
} catch (err) {
  out.launch = { ok: false, error: String(err) };
  save();
  process.exit(0);
}

// The host's side, run in the host page: one frame, the protocol's order.
function host({ html, toolName, args, result }) {
  window.hostLog = [];
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('title', 'arcaded board');
  frame.style.width = '760px';
  frame.style.height = '600px';
  frame.style.border = '1px solid #888';
  const post = (msg) => frame.contentWindow.postMessage({ jsonrpc: '2.0', ...msg }, '*');
  window.addEventListener('message', (ev) => {
    if (ev.source !== frame.contentWindow) return;
    const m = ev.data;
    window.hostLog.push(m);
    if (m.method === 'ui/initialize') {
      post({ id: m.id, result: { protocolVersion: m.params.protocolVersion, hostInfo: { name: 'arcaded-test-host', version: '1' },
        hostCapabilities: {}, hostContext: { displayMode: 'inline', theme: 'light',
          toolInfo: { tool: { name: toolName, inputSchema: { type: 'object' } } } } } });
    } else if (m.method === 'ui/notifications/initialized') {
      post({ method: 'ui/notifications/tool-input', params: { arguments: args } });
      post({ method: 'ui/notifications/tool-result', params: result });
      // A request the view must answer, as before a teardown.
      post({ id: 'ping-1', method: 'ping' });
    } else if (m.method === 'ui/notifications/size-changed') {
      frame.style.height = `${Math.min(Math.max(m.params.height, 200), 1400)}px`;
    }
  });
  frame.srcdoc = html;
  document.body.append(frame);
}

// What the view drew, read inside the frame.
function drawn() {
  const app = document.getElementById('app');
  const figures = {};
  const dl = app.querySelector('[data-testid="figures"]') || app.querySelector('dl.figures');
  if (dl) {
    for (const dd of dl.querySelectorAll('dd')) {
      const key = dd.dataset.key || dd.previousElementSibling.textContent;
      figures[key] = dd.textContent;
    }
  }
  const stage = app.querySelector('[data-testid="stage"]');
  const court = app.querySelector('.court');
  const seats = [...app.querySelectorAll('[data-testid="seat"]')].map((s) => ({
    seat: Number(s.dataset.seat),
    score: s.dataset.score,
    cells: s.querySelector('.tboard') ? [...s.querySelectorAll('.tboard .cell')].map((c) => c.dataset.v).join('') : null,
    name: s.querySelector('h3') ? s.querySelector('h3').textContent : null,
  }));
  const well = app.querySelector('.tboard');
  return {
    kind: app.dataset.kind || null,
    drawnTimes: app.dataset.drawn || null,
    host: app.dataset.host || null,
    view: stage ? stage.dataset.view : null,
    status: (app.querySelector('[data-testid="status"]') || {}).textContent || null,
    wellCells: well && !seats.length ? [...well.querySelectorAll('.cell')].map((c) => c.dataset.v).join('') : null,
    courtCells: court ? court.dataset.cells : null,
    text: (app.querySelector('pre.board-text') || {}).textContent ?? null,
    figures,
    seats,
    csp: (document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {}).content || null,
    external: [...document.querySelectorAll('[src], link[href]')].map((n) => n.outerHTML.slice(0, 120)),
  };
}

for (const c of plan.cases) {
  const page = await browser.newPage({ viewport: { width: 800, height: 700 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const entry = { name: c.name, ok: true };
  try {
    await page.setContent('<!doctype html><html><head><title>a host</title></head><body></body></html>');
    await page.evaluate(host, { html: plan.html, toolName: c.tool, args: c.args, result: c.result });
    await page.waitForFunction(() => window.hostLog && window.hostLog.some((m) => m.id === 'ping-1'), null,
      { timeout: 15000 });
    const frame = page.frames().find((f) => f !== page.mainFrame());
    await frame.waitForFunction(() => document.getElementById('app').dataset.drawn === '1', null, { timeout: 15000 });
    entry.drawn = await frame.evaluate(drawn);
    entry.log = await page.evaluate(() => window.hostLog);
    if (plan.out) {
      fs.mkdirSync(plan.out, { recursive: true });
      await page.locator('iframe').screenshot({ path: path.join(plan.out, `mcp-app-${c.name}.png`) });
    }
  } catch (err) {
    entry.ok = false;
    entry.error = String(err);
    try {
      entry.log = await page.evaluate(() => window.hostLog);
    } catch (_) {
      entry.log = null;
    }
  }
  entry.errors = errors;
  entry.requests = requests.filter((u) => !u.startsWith('data:') && u !== 'about:blank' && u !== 'about:srcdoc');
  out.cases.push(entry);
  await page.close();
}
await browser.close();
save();
