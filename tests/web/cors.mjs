// cors.mjs: a page of another origin calling POST /mcp from Debian's
// chromium, for tests/web/test_cors.py, which serves each origin's page on
// loopback (a page the browser made up itself would have no address, and
// chromium keeps such pages from loopback altogether). The page's script
// calls the daemon with fetch() and headers that need a preflight
// (Authorization, MCP-Protocol-Version), and reports what it could read.
// usage: node cors.mjs PLAN.json RESULT.json
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [planPath, resultPath] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
const out = { launch: null, calls: [] };
const save = () => fs.writeFileSync(resultPath, JSON.stringify(out, null, 1));

let ctx;
try {
  ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'arcaded-cors-')), {
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

for (const call of plan.calls) {
  const page = await ctx.newPage();
  await page.goto(call.origin + '/');
  const seen = await page.evaluate(async ({ url, key, body }) => {
    try {
      const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-11-25' };
      if (key) headers.Authorization = 'Bearer ' + key;
      const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      return { ok: true, status: r.status, body: await r.text(), requestId: r.headers.get('X-Request-Id'),
        retryAfter: r.headers.get('Retry-After') };
    } catch (err) {
      return { ok: false, error: String(err) };
    }
  }, { url: plan.url, key: call.key, body: call.body });
  out.calls.push({ name: call.name, origin: call.origin, ...seen });
  await page.close();
}
await ctx.close();
save();
