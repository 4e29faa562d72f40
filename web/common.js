// common.js: what every page shares: fetching the JSON routes, building
// DOM nodes (text always goes in as text, never as HTML: reviews and
// account names are other people's words), and formatting.

export class ApiError extends Error {
  constructor(status, body) {
    const e = body && body.error ? body.error : null;
    super(e ? e.message : `HTTP ${status}`);
    this.status = status;
    this.code = e ? e.code : null;
    this.body = body;
  }
}

// GET (or POST with a JSON body) one route of this server; the parsed
// answer, or an ApiError.
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
  const r = await fetch(path, init);
  let data = null;
  try {
    data = await r.json();
  } catch (_) {
    data = null;
  }
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

let gamesPromise = null;

// The games on the table, once per page.
export function games() {
  if (!gamesPromise) gamesPromise = api('/api/games').then((d) => d.games);
  return gamesPromise;
}

// el('a', {href: '/x', class: 'y'}, 'text', child, ...): attributes are set
// with setAttribute, children are nodes or text.
export function el(tag, attrs, ...children) {
  const svg = ['svg', 'line', 'defs', 'marker', 'path', 'circle', 'g'].includes(tag);
  const node = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag)
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// Replaces what node holds.
export function fill(node, ...children) {
  node.replaceChildren();
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function when(iso) {
  if (!iso) return '-';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
}

// An account's name as a link to its page, or "anonymous" for none.
export function accountLink(name) {
  return name ? el('a', { href: `/accounts/${encodeURIComponent(name)}`, class: 'account' }, name) : 'anonymous';
}

export function title(s) {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

// A message in place of content that could not load.
export function problem(node, err) {
  fill(node, el('p', { class: 'problem', role: 'status' }, err instanceof ApiError || err instanceof Error
    ? err.message : String(err)));
}

// Fills body with what the server says of a signed result certificate:
// it posts {replay, certificate} to the verify route at path (the check is
// the server's, on the replay itself), and shows facts(answer), a list of
// [label, value], when it holds. body.dataset.state: none (no
// certificate: noneText says why), checking, valid or invalid.
export function checkCertificate(body, path, replay, certificate, facts, noneText) {
  if (!certificate) {
    body.dataset.state = 'none';
    fill(body, el('p', {}, noneText));
    return;
  }
  body.dataset.state = 'checking';
  fill(body, el('p', {}, 'Checking the signed result certificate against this replay...'));
  api(path, { replay, certificate }).then((d) => {
    body.dataset.state = 'valid';
    fill(body, el('p', { class: 'good' }, 'Valid: signed by this server and naming this very replay.'),
      el('dl', { class: 'summary' }, facts(d).map(([k, v]) => [el('dt', {}, k), el('dd', {}, el('code', {}, v ?? '-'))])),
      el('p', {}, 'Public keys: ', el('a', { href: '/api/v1/keys' }, '/api/v1/keys'), '.'));
  }).catch((err) => {
    body.dataset.state = 'invalid';
    fill(body, el('p', { class: 'bad' }, `Does not verify: ${err.message}`));
  });
}
