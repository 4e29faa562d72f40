// tetromino.js: draws a step of a tetromino game (Stackfall, and any
// ruleset whose answer holds a 10 x 20 board as board_text or as rows):
// the board, the current piece, hold and preview, the piece a move placed
// and the rows it cleared. Everything drawn comes from the step as the
// server answered it (the game's own JSON and the marks the engine
// computed for the move); nothing here knows the rules. Piece icons come
// from the game's rules document (GET /api/games/{game}/rules), when it
// lists shapes. The match page draws every seat with the same board() and
// pieceIcon().
import { el, fill } from './common.js';

const ROWS = 20;
const COLS = 10;

// The part of a step's view that describes the board: the view itself, or
// its "state" member for a game that answers {state, legalActions}.
export function boardView(view) {
  return view && view.state && typeof view.state === 'object' && !('board' in view) && !('board_text' in view)
    ? view.state : view;
}

// The board as 20 strings of 10 cells, top row first; '.' is empty and any
// other character names what fills the cell (a piece letter, a colour id).
// letters maps a game's numeric colour ids to piece letters, when its rules
// document lists them.
export function cells(view, letters = null) {
  const v = boardView(view);
  if (typeof v.board_text === 'string') return v.board_text.split('\n');
  // Rows already as strings (ActionBlocks' seats).
  if (Array.isArray(v.board) && v.board.length && v.board.every((row) => typeof row === 'string')) return v.board;
  if (Array.isArray(v.board) && v.board.every(Array.isArray)) {
    return v.board.map((row) => row.map((c) => (c === null || c === 0 || c === '.' ? '.'
      : letters && letters[c] ? letters[c] : String(c).charAt(0))).join(''));
  }
  return null;
}

export function accepts(view) {
  const c = cells(view);
  return c !== null && c.length === ROWS && c.every((r) => r.length === COLS);
}

// A piece as a small icon (its shape from the rules' shapes, else its
// letter); label names it for a screen reader.
export function pieceIcon(shapes, letter, label) {
  const box = el('div', { class: 'piece', role: 'img', 'aria-label': `${label}: ${letter ?? 'none'}`,
    'data-piece': letter ?? '' });
  if (!letter) {
    box.append(el('span', { class: 'none' }, '-'));
    return box;
  }
  const shape = shapes && shapes[letter] && shapes[letter][0] ? shapes[letter][0].shape : null;
  if (!shape) {
    box.append(el('span', { class: `letter p-${letter}` }, letter));
    return box;
  }
  const grid = el('div', { class: `mini w${shape[0].length}` });
  for (const row of shape) {
    for (const ch of row) grid.append(el('span', { class: ch === '#' ? `c p-${letter}` : 'c' }));
  }
  box.append(grid);
  return box;
}

// An empty 10 x 20 board: node, and paint(rows, marked, cleared) that
// fills it (rows as cells() gives them; marked: the indices r * 10 + c of
// cells to outline; cleared: rows to flash). Every cell carries data-r,
// data-c and data-v, its character.
export function board() {
  const node = el('div', { class: 'tboard', role: 'img', 'data-testid': 'board', 'data-frame': 'state' });
  const cellNodes = [];
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      const n = el('div', { class: 'cell', 'data-r': r, 'data-c': c, 'data-v': '.' });
      cellNodes.push(n);
      node.append(n);
    }
  }
  function paint(rows, marked = new Set(), cleared = new Set()) {
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        const v = rows[r][c];
        const n = cellNodes[r * COLS + c];
        let cls = v === '.' ? 'cell' : `cell f p-${v}`;
        if (marked.has(r * COLS + c)) cls += ' hl';
        if (cleared.has(r)) cls += ' clr';
        n.className = cls;
        n.dataset.v = v;
      }
    }
  }
  return { node, paint };
}

export function create(container, { shapes, letters = null }) {
  const { node: grid, paint } = board();
  const side = el('div', { class: 'side' });
  const text = el('pre', { class: 'board-text', 'data-testid': 'board-text' });
  fill(container,
    el('div', { class: 'tstage' }, grid, side),
    el('details', { class: 'as-text' }, el('summary', {}, 'The board as text'), text));

  let landingTimer = null;

  function draw(step, prev, opts = {}) {
    const v = boardView(step.view);
    const rows = cells(v, letters);
    const m = step.marks || null;
    const kept = new Set((m && m.kept ? m.kept : []).map(([row, col]) => (ROWS - row) * COLS + col));
    clearTimeout(landingTimer);
    grid.dataset.step = step.step;
    grid.dataset.cells = rows.join('');
    const filled = rows.join('').replace(/\./g, '').length;
    grid.setAttribute('aria-label', `Board at step ${step.step}: ${filled} filled cells`
      + (m ? `; the ${m.piece} landed on rows ${[...new Set(m.landed.map((x) => x[0]))].join(', ')}` : ''));
    text.textContent = rows.join('\n');
    // A clear is shown as it happened, when the previous step is at hand:
    // the piece landed on the board before, the full rows marked, then the
    // board after.
    const prevRows = prev ? cells(prev.view, letters) : null;
    if (opts.animate && m && m.cleared && m.cleared.length && prevRows) {
      const landed = prevRows.map((r) => r.split(''));
      for (const [row, col] of m.landed) landed[ROWS - row][col] = m.piece;
      grid.dataset.frame = 'landing';
      paint(landed.map((r) => r.join('')), new Set(m.landed.map(([row, col]) => (ROWS - row) * COLS + col)),
        new Set(m.cleared.map((row) => ROWS - row)));
      landingTimer = setTimeout(() => {
        paint(rows, kept, new Set());
        grid.dataset.frame = 'state';
      }, opts.animate);
    } else {
      paint(rows, kept, new Set());
      grid.dataset.frame = 'state';
    }
    const next = Array.isArray(v.next) ? v.next : v.next ? [v.next] : [];
    const figures = [['Score', v.score], ['Lines', v.lines], ['Level', v.level], ['Pieces', v.pieces],
      ['Combo', v.combo], ['Back-to-back', v.back_to_back === undefined ? undefined : v.back_to_back ? 'yes' : 'no'],
      ['Status', v.status + (v.end_reason ? ` (${v.end_reason.replace(/_/g, ' ')})` : '')]]
      .filter(([, x]) => x !== undefined && x !== null);
    fill(side,
      'hold' in v ? el('div', { class: 'slot' }, el('h3', {}, 'Hold'),
        pieceIcon(shapes, v.hold, 'Held piece')) : null,
      el('div', { class: 'slot' }, el('h3', {}, 'Current'), pieceIcon(shapes, v.current, 'Current piece')),
      next.length ? el('div', { class: 'slot' }, el('h3', {}, 'Next'),
        el('div', { class: 'queue' }, next.map((p, i) => pieceIcon(shapes, p, `Next piece ${i + 1}`)))) : null,
      el('dl', { class: 'figures' }, figures.map(([k, x]) => [el('dt', {}, k), el('dd', {}, x)])));
  }

  function describe(step) {
    const mv = step.move;
    if (!mv) return 'The start of the run.';
    const m = step.marks;
    if (typeof mv === 'string') {
      // An action id (Stackcraft's "r1x4"): the marks say what it placed.
      const n = m && m.cleared ? m.cleared.length : 0;
      return `${m ? `Placed ${m.piece}` : 'Played'} as ${mv}` + (n ? `: cleared ${n} ${n === 1 ? 'line' : 'lines'}.` : '.');
    }
    if (mv.type === 'place') {
      const n = m && m.cleared ? m.cleared.length : 0;
      const what = m ? `Placed ${m.piece}` : 'Placed the piece';
      return `${what} at rotation ${mv.rotation}, column ${mv.column}`
        + (n ? `: cleared ${n} ${n === 1 ? 'line' : 'lines'}.` : '.');
    }
    if (mv.type === 'hold') return 'Held the current piece.';
    if (mv.type === 'resign') return 'Resigned.';
    if (mv.type === 'abandon') return 'Abandoned: the account started a new game.';
    return `Move: ${JSON.stringify(mv)}`;
  }

  return { draw, describe };
}
