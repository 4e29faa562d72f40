// steps.js: what the run page and the compare page share about a run's
// steps: the renderer for its game (the tetromino board, the court, or the
// state as JSON), every step of a run, and the figures its plots draw.
import { api, el, fill } from './common.js';
import * as tetromino from './tetromino.js';
import * as duskcourt from './duskcourt.js';

// The renderer for the game of view: the tetromino board or the court, or
// the state as JSON for a game neither knows.
export async function renderer(stage, game, view, opts = {}) {
  if (tetromino.accepts(view)) {
    let shapes = null;
    let letters = null;
    try {
      const rules = await api(`/api/games/${game}/rules`);
      shapes = rules.pieces || null;
      // A board of colour ids names its pieces in the rules document.
      const colors = rules.colors;
      if (colors && typeof colors === 'object') {
        letters = Object.fromEntries(Object.entries(colors).map(([k, id]) => [id, k]));
      }
    } catch (_) {
      shapes = null;
    }
    return tetromino.create(stage, { shapes, letters });
  }
  if (duskcourt.accepts(view)) return duskcourt.create(stage, opts);
  const pre = el('pre', { class: 'raw', 'data-testid': 'board' });
  fill(stage, pre);
  return {
    draw(step) { pre.textContent = JSON.stringify(step.view, null, 1); pre.dataset.step = step.step; },
    describe(step) { return step.move ? `Move: ${JSON.stringify(step.move)}` : 'The start.'; },
  };
}

// What the plots of a run draw at each step: the score, and the board's
// height and holes (a tetromino game: the highest filled row, and the
// empty cells under a filled one in their column) or the idols left
// (Duskcourt). All of it read off the steps the server answered.
export function figuresOf(view) {
  const c = tetromino.accepts(view) ? tetromino.cells(view) : null;
  const v = tetromino.boardView(view) || {};
  const score = typeof v.score === 'number' ? v.score : typeof view.score === 'number' ? view.score : null;
  if (c) {
    const top = c.findIndex((row) => /[^.]/.test(row));
    let holes = 0;
    for (let col = 0; col < c[0].length; col++) {
      let seen = false;
      for (const row of c) {
        if (row[col] !== '.') seen = true;
        else if (seen) holes++;
      }
    }
    return { score, height: top < 0 ? 0 : c.length - top, holes };
  }
  if (duskcourt.accepts(view)) {
    return { score, idols: view.state.board.filter((x) => x !== null && x !== '#').length };
  }
  return { score };
}

// Every step of the run, 200 at a time (the route's page).
export async function allSteps(run) {
  const out = [];
  for (let from = 0; from <= run.moves; from += 200) {
    const d = await api(`/api/games/${run.game}/runs/${run.runId}/steps?from=${from}&count=200`);
    out.push(...d.steps);
    if (d.next === null) break;
  }
  return out;
}

