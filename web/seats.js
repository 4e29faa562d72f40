// seats.js: a versus match's seat drawn as a card: its board (grey garbage
// rows included) with its garbage meter, its current and held pieces, its
// figures, place and out state, what it did in the turn drawn, its items.
// The match page draws every seat of every turn with it, and the inline
// board of MCP hosts (mcp_board.js) the seats of a match tool's result.
// Everything comes from the seat as the server answered it.
import { accountLink, el, fill } from './common.js';
import { board, cells, pieceIcon } from './tetromino.js';

const ROWS = 20;
export const words = (s) => (s ? s.replace(/_/g, ' ') : s);
export const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// What a seat did in the turn drawn, from the turn's events.
function deed(e, names) {
  if (!e) return '';
  const out = e.eliminated ? ` Out: ${words(e.end_reason)}.` : '';
  if (e.action === 'none') return 'Out before this turn.';
  if (e.action === 'resigned') return `Resigned.${out}`;
  if (e.action === 'timed_out') return `Missed a third turn in a row.${out}`;
  if (e.action === 'no_room') return `Missed the turn, and its piece had no room to drop.${out}`;
  const parts = [e.action === 'dropped' ? `Missed the turn: its ${e.piece} dropped at column ${e.column}`
    : `Placed ${e.piece}${e.held ? ' from hold' : ''} at rotation ${e.rotation}, column ${e.column}`];
  if (e.lines) parts.push(`cleared ${plural(e.lines, 'line', 'lines')}`);
  if (e.cancelled) parts.push(`cancelled ${e.cancelled} queued`);
  if (e.sent) parts.push(`sent ${e.sent} to ${names[e.target] ?? `seat ${e.target}`}${e.lost ? ' (lost: queue full)' : ''}`);
  const risen = e.risen.reduce((n, b) => n + b.lines, 0);
  if (risen) parts.push(`took ${plural(risen, 'garbage line', 'garbage lines')}`);
  if (e.received) parts.push(`${e.received} more queued for it`);
  return `${parts.join(', ')}.${out}`;
}

// Transformation's odd shapes (docs/rules/versus.md, Odd shapes) at rotation
// 0, top row first, in the form the Stackfall rules give the tetrominoes, so
// pieceIcon() draws a transformed current or held piece by its letter.
export const ODD_SHAPES = {
  D: [{ shape: ['#'] }],
  C: [{ shape: ['#.', '##'] }],
  U: [{ shape: ['#.#', '###'] }],
  X: [{ shape: ['.#.', '###', '.#.'] }],
  W: [{ shape: ['#..', '##.', '.##'] }],
};

// A match with items (docs/rules/versus.md, Items): the letter on a cell of
// items_text, and the item it names.
const ITEMS = { a: 'add_line', c: 'clear_line', n: 'nuke', s: 'swap', b: 'blind', t: 'transform' };

// Items on the board's cells (their letter in the cell), or none.
function paintItems(boardNode, s) {
  const rows = typeof s.items_text === 'string' ? s.items_text.split('\n') : null;
  boardNode.querySelectorAll('.cell').forEach((n) => {
    const it = rows ? rows[Number(n.dataset.r)][Number(n.dataset.c)] : '.';
    n.textContent = it === '.' ? '' : it;
    if (it === '.') delete n.dataset.item;
    else n.dataset.item = ITEMS[it] || it;
  });
}

// One seat's card, built once and drawn again at every turn.
export function seatCard(i, names, shapes) {
  const id = `seat-${i}`;
  const b = board();
  const meterCells = Array.from({ length: ROWS }, () => el('span', { class: 'm' }));
  const meter = el('div', { class: 'meter', role: 'img', 'data-testid': 'meter' }, meterCells);
  const state = el('p', { class: 'seat-state' });
  const pieces = el('div', { class: 'seat-pieces' });
  const figures = el('dl', { class: 'figures' });
  const did = el('p', { class: 'did' });
  const inventory = el('p', { class: 'inventory', 'data-testid': 'inventory' });
  const hit = el('p', { class: 'hit', 'data-testid': 'hit', role: 'status' });
  const node = el('section', { class: 'seat', 'data-testid': 'seat', 'data-seat': i, 'aria-labelledby': `${id}-name` },
    el('h3', { id: `${id}-name` }, accountLink(names[i]), el('span', { class: 'who' }, ` seat ${i}`)), state,
    el('div', { class: 'seat-play' }, meter, b.node), pieces, figures, did, inventory, hit);

  function draw(s, e, turn, hits) {
    const rows = cells(s);
    const text = rows.join('');
    b.paint(rows);
    paintItems(b.node, s);
    // Inventories are public; a hit names its target and item, never the user.
    inventory.textContent = Array.isArray(s.inventory)
      ? `Items: ${s.inventory.length ? s.inventory.map(words).join(', ') : 'none'}${s.blind ? `; blind ${plural(s.blind, 'turn', 'turns')}` : ''}`
      : '';
    const mine = (hits || []).filter((h) => h.target === i);
    hit.textContent = mine.length ? `Hit by ${mine.map((h) => words(h.item)).join(', ')}` : '';
    b.node.dataset.step = String(turn);
    b.node.setAttribute('aria-label', `${names[i]}'s board after turn ${turn}: `
      + `${plural(text.replace(/[.]/g, '').length, 'filled cell', 'filled cells')}, `
      + `${plural(text.replace(/[^G]/g, '').length, 'garbage cell', 'garbage cells')}`);
    meterCells.forEach((m, k) => { m.className = ROWS - 1 - k < s.pending ? 'm on' : 'm'; });
    meter.dataset.pending = String(s.pending);
    meter.setAttribute('aria-label', `Garbage queued: ${plural(s.pending, 'line', 'lines')}`);
    node.classList.toggle('out', !s.alive);
    node.classList.toggle('first', s.place === 1);
    Object.assign(node.dataset, { out: String(!s.alive), place: s.place ?? '', pending: String(s.pending),
      score: String(s.score), sent: String(s.lines_sent), received: String(s.lines_received) });
    state.textContent = s.alive ? (s.place ? `Place ${s.place}, still in` : 'Playing')
      : `Out (${words(s.end_reason)}): place ${s.place}`;
    fill(pieces,
      el('div', { class: 'slot', 'data-slot': 'current' }, el('h4', {}, 'Current'),
        pieceIcon(shapes, s.current, `${names[i]}'s current piece`)),
      el('div', { class: 'slot', 'data-slot': 'hold' }, el('h4', {}, 'Hold'),
        pieceIcon(shapes, s.hold, `${names[i]}'s held piece`)));
    fill(figures, [['Score', s.score], ['Lines', s.lines], ['Level', s.level], ['Combo', s.combo < 0 ? '-' : s.combo],
      ['Sent', s.lines_sent], ['Received', s.lines_received], ['Queued', s.pending], ['Missed', s.missed]]
      .map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
    did.textContent = deed(e, names);
  }
  return { node, draw };
}
