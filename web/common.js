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

export function title(s) {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

// A message in place of content that could not load.
export function problem(node, err) {
  fill(node, el('p', { class: 'problem', role: 'status' }, err instanceof ApiError || err instanceof Error
    ? err.message : String(err)));
}
