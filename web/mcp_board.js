// mcp_board.js: the inline board that hosts rendering MCP Apps show beside
// a play tool's result (docs/mcp.md, "An inline board"). It is not served
// as a page: web/inline.py folds it, the modules it imports and app.css
// into one HTML document, which the MCP endpoint answers as the resource
// ui://arcaded/board. The host runs it in a sandboxed frame and speaks
// JSON-RPC with it over postMessage: ui/initialize, then the tool's
// arguments and its result as notifications. It draws that result with the
// pages' own renderers: a run's board (the tetromino well, Duskcourt's
// court, else the board as text) and its figures; a match's seats side by
// side. Everything drawn is in the result; the frame reads nothing else
// and loads nothing (its policy allows no connection at all).
import { el, fill } from './common.js';
import { accepts as isCourt, create as courtView } from './duskcourt.js';
import { ODD_SHAPES, plural, seatCard, words } from './seats.js';
import { board, cells, pieceIcon } from './tetromino.js';

// The MCP Apps revision this view speaks (SEP-1865, stable 2026-01-26).
const PROTOCOL = '2026-01-26';
const root = document.getElementById('app');
const waiting = new Map();
let nextId = 1;
let drawn = 0;

function send(msg) {
  window.parent.postMessage({ jsonrpc: '2.0', ...msg }, '*');
}

function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

// A state's figures: its members that are a number, a word or a list of
// them (the next pieces), in the order the answer gives them; boards and
// nested objects are drawn elsewhere or left to the text.
const NOT_FIGURES = new Set(['board', 'board_text', 'items_text', 'well', 'dealt', 'buffer']);

function figureValue(v) {
  if (v === null) return '-';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.length ? v.join(' ') : '-';
  return String(v);
}

function figures(state) {
  const rows = Object.entries(state || {}).filter(([k, v]) => !NOT_FIGURES.has(k)
    && (v === null || ['number', 'string', 'boolean'].includes(typeof v)
      || (Array.isArray(v) && v.every((x) => ['number', 'string'].includes(typeof x)))));
  return el('dl', { class: 'figures', 'data-testid': 'figures' },
    rows.map(([k, v]) => [el('dt', {}, words(k)), el('dd', { 'data-key': k }, figureValue(v))]));
}

// A tetromino well (any game whose state cells() reads as 20 rows of 10),
// its pieces beside it.
function well(state, rows) {
  const b = board();
  b.paint(rows);
  b.node.dataset.cells = rows.join('');
  b.node.setAttribute('aria-label', `The board: ${rows.join('').replace(/[.]/g, '').length} filled cells`);
  const next = Array.isArray(state.next) ? state.next : state.next ? [state.next] : [];
  const shapes = ODD_SHAPES;
  return el('div', { class: 'tstage' }, b.node, el('div', { class: 'side' },
    'hold' in state ? el('div', { class: 'slot' }, el('h3', {}, 'Hold'), pieceIcon(shapes, state.hold, 'Held piece')) : null,
    state.current ? el('div', { class: 'slot' }, el('h3', {}, 'Current'),
      pieceIcon(shapes, state.current, 'Current piece')) : null,
    next.length ? el('div', { class: 'slot' }, el('h3', {}, 'Next'),
      el('div', { class: 'queue' }, next.map((p, i) => pieceIcon(shapes, p, `Next piece ${i + 1}`)))) : null,
    figures(state)));
}

function drawRun(sc) {
  const state = sc.state || null;
  const stage = el('div', { class: 'stage', 'data-testid': 'stage' });
  const parts = [el('h1', {}, `${sc.game} `, el('span', { class: 'who' }, sc.runId ? `run ${sc.runId}` : 'run')),
    el('p', { class: 'status', 'data-testid': 'status' }, `Status: ${sc.status || '-'}`)];
  if (sc.error) parts.push(el('p', { class: 'problem', role: 'status' }, `Refused: ${sc.error.message || sc.error.code}`));
  parts.push(stage);
  fill(root, parts);
  const rows = state ? cells(state) : null;
  if (state && isCourt({ state })) {
    stage.dataset.view = 'court';
    courtView(stage, { legend: false }).draw({ step: 0, view: { state, legalActions: sc.legalActions || [] } }, null);
  } else if (rows && rows.length === 20 && rows.every((r) => r.length === 10)) {
    stage.dataset.view = 'well';
    fill(stage, well(state, rows));
  } else {
    stage.dataset.view = 'text';
    fill(stage, el('pre', { class: 'board-text', 'data-testid': 'board-text' }, sc.boardText || ''),
      state ? figures(state) : null);
  }
  if (sc.final) root.append(el('h2', {}, 'Final'), figures(sc.final));
  if (Array.isArray(sc.legalActions) && stage.dataset.view !== 'court') {
    root.append(el('p', { class: 'legal' }, `${plural(sc.legalActions.length, 'legal action', 'legal actions')}`));
  }
}

// A match's answer: the match itself, a move's (the mover's own seat
// under state), or a refusal that carries the match.
function drawMatch(sc) {
  const m = Array.isArray(sc.seats) ? sc : sc.match && Array.isArray(sc.match.seats) ? sc.match
    : { ...sc, ...(sc.state || {}), seats: sc.state && sc.state.seat ? [sc.state.seat] : [] };
  const names = [];
  m.seats.forEach((s) => { names[s.seat] = s.account; });
  const head = [el('h1', {}, `${m.rules || 'versus'} `, el('span', { class: 'who' }, `match ${sc.match_id || m.match_id}`)),
    el('p', { class: 'status', 'data-testid': 'status' }, `Status: ${m.status || '-'}`
      + (m.players ? `, ${m.joined} of ${m.players} seats taken` : '') + `, turn ${m.turn ?? '-'}`
      + (m.end ? ` (${words(typeof m.end === 'string' ? m.end : JSON.stringify(m.end))})` : ''))];
  if (sc.move) {
    head.push(el('p', { class: 'did' }, `Move for turn ${sc.turn}: ${sc.move} (`
      + `${sc.resolved ? 'the turn has resolved' : 'waiting for the other seats'})`));
  }
  if (sc.error) head.push(el('p', { class: 'problem', role: 'status' }, `Refused: ${sc.error.message || sc.error.code}`));
  const played = m.seats.filter((s) => cells(s) !== null);
  const last = m.last_turn && Array.isArray(m.last_turn.players) ? m.last_turn : null;
  const cards = played.map((s) => {
    const card = seatCard(s.seat, names, ODD_SHAPES);
    const e = last ? last.players.find((p) => p.seat === s.seat) : null;
    // ActionBlocks' seat holds its falling piece, not a current letter.
    card.draw({ ...s, current: s.current ?? (s.piece ? s.piece.letter : null) },
      e && Array.isArray(e.risen) ? e : null, m.turn, last ? last.hits : null);
    return card.node;
  });
  fill(root, head, cards.length ? el('div', { class: 'seats', 'data-testid': 'seats' }, cards)
    : el('ul', { class: 'lobby' }, m.seats.map((s) => el('li', {}, `seat ${s.seat} ${s.account || '(free)'}`))));
}

function draw(result) {
  const sc = result && result.structuredContent;
  if (sc && (sc.match_id || Array.isArray(sc.seats) || sc.match)) {
    root.dataset.kind = 'match';
    drawMatch(sc);
  } else if (sc && sc.game) {
    root.dataset.kind = 'run';
    drawRun(sc);
  } else {
    root.dataset.kind = 'text';
    const text = (result && result.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    fill(root, el('pre', { class: 'board-text' }, text));
  }
  root.dataset.drawn = String(++drawn);
  root.removeAttribute('aria-busy');
}

window.addEventListener('message', (ev) => {
  const m = ev.data;
  if (ev.source !== window.parent || !m || m.jsonrpc !== '2.0') return;
  if (m.method === undefined) {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (w) (m.error ? w.reject(new Error(m.error.message)) : w.resolve(m.result));
  } else if (m.method === 'ui/notifications/tool-result') {
    draw(m.params);
  } else if (m.method === 'ui/notifications/tool-cancelled') {
    fill(root, el('p', { role: 'status' }, `The call was cancelled${m.params && m.params.reason ? `: ${m.params.reason}` : '.'}`));
  } else if (m.id !== undefined) {
    // Requests of the host: teardown and ping need nothing from us.
    if (m.method === 'ui/resource-teardown' || m.method === 'ping') send({ id: m.id, result: {} });
    else send({ id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
  }
});

// The size the host should give the frame, whenever it changes (once the
// host has answered: nothing is sent before initialized).
function followSize() {
  let size = '';
  new ResizeObserver(() => {
    const r = document.documentElement.getBoundingClientRect();
    const width = Math.ceil(r.width);
    const height = Math.ceil(r.height);
    if (`${width}x${height}` === size) return;
    size = `${width}x${height}`;
    send({ method: 'ui/notifications/size-changed', params: { width, height } });
  }).observe(document.documentElement);
}

request('ui/initialize', { appInfo: { name: 'arcaded-board', version: '1' },
  appCapabilities: { availableDisplayModes: ['inline'] }, protocolVersion: PROTOCOL })
  .then((r) => {
    root.dataset.host = r && r.hostInfo ? r.hostInfo.name : '';
    send({ method: 'ui/notifications/initialized', params: {} });
    followSize();
  })
  .catch((err) => fill(root, el('p', { class: 'problem' }, `The host refused to start the view: ${err.message}`)));
