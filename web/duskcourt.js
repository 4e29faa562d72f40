// duskcourt.js: draws a step of Duskcourt: the court (row 0 at the bottom,
// as the rules number it), idols and boulders, the capture that led to the
// step as an arrow, and the run's figures (lives, rung, score). All of it
// is the step as the server answered it; nothing here knows the rules.
import { el, fill } from './common.js';

const NAMES = { K: 'jackal', Q: 'scorpion', R: 'cobra', B: 'vulture', N: 'camel', P: 'beetle' };

// What each letter takes on (docs/rules/duskcourt.md, "The idols and their
// reach"), for the legend beside the court. The page only shows it: the
// legal captures of every step come from the server.
const REACH = [
  ['K', 'any of the 8 squares touching its own'],
  ['Q', 'any distance along the 4 straight lines and the 4 diagonals'],
  ['R', 'any distance along its row and its column'],
  ['B', 'any distance along the 4 diagonals'],
  ['N', 'a (2, 1) leap in any direction, whatever stands between'],
  ['P', 'one row up and one column to either side (nothing from the top row)'],
];

let legends = 0;

export function legend() {
  const id = `legend-title-${++legends}`;
  return el('section', { class: 'legend', 'aria-labelledby': id, 'data-testid': 'legend' },
    el('h3', { id }, 'Idols and their reach'),
    el('dl', {}, REACH.map(([k, reach]) => [
      el('dt', {}, el('span', { class: 'letter' }, k), ` ${NAMES[k]}`),
      el('dd', {}, reach)])),
    el('p', {}, 'Scorpion, cobra and vulture run to the first square that is not empty: they take the idol there; '
      + 'a boulder (\u25A0) blocks the line and is never taken.'));
}

export function accepts(view) {
  return view && view.state && Array.isArray(view.state.board) && Number.isInteger(view.state.size);
}

export function cellsOf(view) {
  return view.state.board.map((c) => (c === null ? '.' : c));
}

function square(i, size) {
  const row = Math.floor(i / size);
  const col = i % size;
  return { x: col + 0.5, y: size - 1 - row + 0.5 };
}

// opts.legend false: no legend under the court (a page with two courts
// shows one for both).
export function create(container, opts = {}) {
  const court = el('div', { class: 'court', role: 'img', 'data-testid': 'board', 'data-frame': 'state' });
  const wrap = el('div', { class: 'court-wrap' }, court);
  const side = el('div', { class: 'side' });
  fill(container, el('div', { class: 'dstage' }, wrap, side), opts.legend === false ? null : legend());
  let size = 0;
  let nodes = [];
  let arrow = null;

  function build(n) {
    size = n;
    court.replaceChildren();
    court.className = `court s${n}`;
    nodes = [];
    // Top row first on screen: row size-1 down to row 0.
    for (let row = n - 1; row >= 0; row--) {
      for (let col = 0; col < n; col++) {
        const i = row * n + col;
        const cell = el('div', { class: `sq ${(row + col) % 2 ? 'light' : 'dark'}`, 'data-i': i, 'data-v': '.' },
          el('span', { class: 'idx', 'aria-hidden': 'true' }, i), el('span', { class: 'idol' }));
        nodes[i] = cell;
        court.append(cell);
      }
    }
    arrow = el('svg', { class: 'arrow', viewBox: `0 0 ${n} ${n}`, 'aria-hidden': 'true', focusable: 'false' },
      el('defs', {}, el('marker', { id: 'head', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 4,
        markerHeight: 4, orient: 'auto-start-reverse' }, el('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'head' }))),
      el('line', { x1: 0, y1: 0, x2: 0, y2: 0, 'marker-end': 'url(#head)', class: 'shaft' }));
    wrap.append(arrow);
  }

  function draw(step, prev) {
    const s = step.view.state;
    if (s.size !== size) {
      if (arrow) arrow.remove();
      build(s.size);
    }
    const cells = cellsOf(step.view);
    const mv = step.move;
    const capture = mv && mv.type === 'capture' ? mv : null;
    court.dataset.step = step.step;
    court.dataset.cells = cells.join(',');
    court.dataset.frame = 'state';
    const taken = capture && prev && prev.view.state.board ? prev.view.state.board[capture.to] : null;
    const idols = [];
    cells.forEach((v, i) => {
      const n = nodes[i];
      n.dataset.v = v;
      let cls = `sq ${(Math.floor(i / size) + (i % size)) % 2 ? 'light' : 'dark'}`;
      if (v === '#') cls += ' boulder';
      else if (v !== '.') cls += ' has';
      if (capture && i === capture.to) cls += ' to';
      if (capture && i === capture.from) cls += ' from';
      n.className = cls;
      const label = v === '.' ? '' : v === '#' ? 'boulder' : NAMES[v] || v;
      n.lastChild.textContent = v === '.' ? '' : v === '#' ? '\u25A0' : v;
      n.title = label ? `${label} on ${i}` : `${i}, empty`;
      if (v !== '.' && v !== '#') idols.push(`${NAMES[v] || v} on ${i}`);
    });
    court.setAttribute('aria-label', `Court at step ${step.step}, ${s.size} by ${s.size}: `
      + (idols.length ? idols.join(', ') : 'no idol') + (s.boulders.length ? `; boulders on ${s.boulders.join(', ')}` : '')
      + (capture ? `; ${capture.from} took ${capture.to}` : ''));
    const line = arrow.querySelector('line');
    if (capture) {
      const a = square(capture.from, s.size);
      const b = square(capture.to, s.size);
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const len = Math.hypot(dx, dy) || 1;
      line.setAttribute('x1', a.x + (dx / len) * 0.2);
      line.setAttribute('y1', a.y + (dy / len) * 0.2);
      line.setAttribute('x2', b.x - (dx / len) * 0.25);
      line.setAttribute('y2', b.y - (dy / len) * 0.25);
      arrow.classList.add('on');
      arrow.dataset.from = capture.from;
      arrow.dataset.to = capture.to;
      arrow.dataset.taken = taken ?? '';
    } else {
      arrow.classList.remove('on');
      delete arrow.dataset.from;
      delete arrow.dataset.to;
    }
    const hearts = '\u2665'.repeat(Math.max(0, s.lives)) + '\u2661'.repeat(Math.max(0, 3 - s.lives));
    const award = s.lastAward ? `${s.lastAward.total} (capture ${s.lastAward.capture}, clear ${s.lastAward.clear}, `
      + `streak ${s.lastAward.streak}, clean ${s.lastAward.clean})` : '-';
    fill(side, el('dl', { class: 'figures' }, [
      ['Phase', s.phase], ['Rung', s.rung],
      ['Lives', el('span', { 'aria-label': `${s.lives} of 3` }, hearts)],
      ['Score', s.score], ['Streak', s.streak], ['Captures', `${s.captures} (paid to ${s.paidDepth})`],
      ['Reset', s.resetUsed ? 'used' : 'unused'], ['Jackal last', s.kingSurvives ? 'yes' : 'no'],
      ['Last court', s.lastResult ?? '-'], ['Last award', award], ['Courts dealt', s.courtsDealt], ['Seed', s.seed],
    ].map(([k, x]) => [el('dt', {}, k), el('dd', {}, x)])),
    el('p', { class: 'legal' }, `${step.view.legalActions.length} legal ${step.view.legalActions.length === 1 ? 'action' : 'actions'}`));
  }

  function describe(step, prev) {
    const mv = step.move;
    if (!mv) return 'The first court is dealt.';
    if (mv.type === 'capture') {
      const board = prev ? prev.view.state.board : null;
      const who = board ? NAMES[board[mv.from]] || board[mv.from] : 'the idol';
      const whom = board ? NAMES[board[mv.to]] || board[mv.to] : 'the idol';
      const s = step.view.state;
      const tail = s.phase === 'break' ? (s.lastResult === 'clear' ? ' The court is clear.' : ' Stuck: a life is lost.')
        : s.phase === 'done' ? ' The run is over.' : '';
      return `The ${who} on ${mv.from} takes the ${whom} on ${mv.to}.${tail}`;
    }
    if (mv.type === 'reset') return 'Reset: the court is back as it was dealt.';
    if (mv.type === 'next') return `A new court at rung ${step.view.state.rung}.`;
    if (mv.type === 'endRun') return 'The run ends here.';
    return `Move: ${JSON.stringify(mv)}`;
  }

  return { draw, describe };
}
