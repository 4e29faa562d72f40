// compare.js: two runs side by side (/compare?runs=A,B): both boards
// stepped together by one player (step k shows each run after its k-th
// move, or at its end once it has none left), their scores and boards on
// one plot each, and the first step where their moves part marked. Runs of
// different games or seeds are refused with a message: the point is two
// bots on the same pieces or courts.
import { accountLink, api, ApiError, el, fill, games, problem, title } from './common.js';
import { createPlayer, playerUi } from './player.js';
import { plot } from './plot.js';
import * as duskcourt from './duskcourt.js';
import { allSteps, figuresOf, renderer } from './steps.js';

const ID = /^[1-9]\d{0,15}$/;

function refuse(root, msg) {
  fill(root, el('p', { class: 'problem', role: 'status', 'data-testid': 'refusal' }, msg),
    el('p', {}, 'Open two runs of the same game on the same seed: a leaderboard filtered by seed lists them.'));
}

// The first step whose move differs between the two runs (a run that has
// ended differs from one that moves on): null when they are the same.
export function parting(a, b) {
  const n = Math.max(a.length, b.length);
  for (let k = 1; k < n; k++) {
    if (k >= a.length || k >= b.length) return k;
    if (JSON.stringify(a[k].move) !== JSON.stringify(b[k].move)) return k;
  }
  return null;
}

function side(run, letter) {
  const stage = el('div', { class: 'stage', 'data-testid': `side-${letter}` });
  return {
    stage,
    node: el('section', { class: 'side-run', 'aria-labelledby': `run-${letter}-title` },
      el('h3', { id: `run-${letter}-title` }, `${letter}: run `, el('a', { href: `/runs/${run.runId}` }, run.runId), ', ',
        accountLink(run.account), `, score ${run.score}`), stage),
  };
}

async function main() {
  const root = document.getElementById('compare');
  const ids = (new URLSearchParams(location.search).get('runs') || '').split(',').map((s) => s.trim());
  try {
    if (ids.length !== 2 || !ids.every((x) => ID.test(x))) {
      refuse(root, 'Name two runs: /compare?runs=A,B, each a run id.');
      return;
    }
    const [a, b] = await Promise.all(ids.map((id) => api(`/api/runs/${id}`).catch((err) => {
      if (err instanceof ApiError && err.status === 404) throw new Error(`There is no run ${id}.`);
      throw err;
    })));
    if (a.game !== b.game) {
      refuse(root, `These runs are of different games (${title(a.game)} and ${title(b.game)}): only runs of one game on one seed compare.`);
      return;
    }
    if (!a.replay || !b.replay) {
      refuse(root, `Run ${a.replay ? b.runId : a.runId} is still playing a game whose seed tells its future: it can be compared once it is over.`);
      return;
    }
    if (a.replay.seed !== b.replay.seed) {
      refuse(root, `These runs are on different seeds (${a.replay.seed} and ${b.replay.seed}): only runs on the same seed compare.`);
      return;
    }
    const g = (await games()).find((x) => x.name === a.game);
    document.title = `${title(a.game)} runs ${a.runId} and ${b.runId} - arcaded`;
    document.getElementById('title').textContent = `${title(a.game)}: runs ${a.runId} and ${b.runId}`;
    const [sa, sb] = await Promise.all([allSteps(a), allSteps(b)]);
    const part = parting(sa, sb);
    const n = Math.max(sa.length, sb.length);
    fill(root, el('p', { class: 'lead', 'data-testid': 'parting', 'data-step': part ?? '' },
      `Both on seed ${a.replay.seed}${g && g.seedless ? '' : ''}: ${sa.length - 1} and ${sb.length - 1} moves. `,
      part === null ? 'They made the same moves throughout.' : `They part at step ${part}: the first move that differs.`));
    const watch = document.getElementById('watch');
    watch.hidden = false;
    const u = playerUi(document.getElementById('player'), { label: 'Step', key: 'step' });
    const A = side(a, 'A');
    const B = side(b, 'B');
    fill(u.stage, el('div', { class: 'pair' }, A.node, B.node));
    const ra = await renderer(A.stage, a.game, sa[0].view, { legend: false });
    const rb = await renderer(B.stage, b.game, sb[0].view, { legend: false });
    if (duskcourt.accepts(sa[0].view)) u.stage.append(duskcourt.legend());
    const at = (list, k) => list[Math.min(k, list.length - 1)];
    const both = {
      draw(s, prev, o) {
        ra.draw(s.a, prev && prev.a !== s.a ? prev.a : null, o);
        rb.draw(s.b, prev && prev.b !== s.b ? prev.b : null, o);
      },
      describe(s, prev) {
        const da = s.step < sa.length ? ra.describe(s.a, prev ? prev.a : null) : 'over.';
        const db = s.step < sb.length ? rb.describe(s.b, prev ? prev.b : null) : 'over.';
        return `A: ${da} B: ${db}${part === s.step ? ' (the runs part here)' : ''}`;
      },
    };
    const player = createPlayer(u, both, { key: 'step', label: 'Step',
      load: async (from, count) => Array.from({ length: Math.max(0, Math.min(count, n - from)) }, (_, i) => {
        const k = from + i;
        return { step: k, a: at(sa, k), b: at(sb, k) };
      }) });
    await player.setNewest(n - 1, { follow: false });
    // Both curves on one plot: the score, then the board (height and holes,
    // or idols left), the step shown and the parting marked.
    const fa = sa.map((s) => figuresOf(s.view));
    const fb = sb.map((s) => figuresOf(s.view));
    const x = Array.from({ length: n }, (_, k) => k);
    const val = (f, key) => x.map((k) => (k < f.length && typeof f[k][key] === 'number' ? f[k][key] : null));
    const keys = [['score', 'Score']];
    if ('height' in fa[0]) keys.push(['height', 'Height'], ['holes', 'Holes']);
    else if ('idols' in fa[0]) keys.push(['idols', 'Idols left']);
    const shown = () => Number(u.root.dataset.step || 0);
    const made = keys.filter(([k]) => typeof fa[0][k] === 'number').map(([k, label]) => plot({
      id: `plot-${k}`, caption: `${label} at each step, A and B${part === null ? '' : `; dashed: step ${part}, where they part`}`,
      x, xLabel: 'Step', yLabel: label, mark: shown(), fixed: part,
      series: [{ label: `A (${a.runId})`, values: val(fa, k) }, { label: `B (${b.runId})`, values: val(fb, k) }],
      describe: `${label} of both runs over ${n} steps: A ends at ${val(fa, k)[sa.length - 1]}, B at ${val(fb, k)[sb.length - 1]}.`,
    }));
    const plots = document.getElementById('plots');
    fill(plots, el('h2', { id: 'plots-title' }, 'Both runs on one plot'), made.map((m) => m.node));
    plots.hidden = false;
    new MutationObserver(() => made.forEach((m) => m.setMark(shown())))
      .observe(u.root, { attributes: true, attributeFilter: ['data-step'] });
  } catch (err) {
    problem(root, err);
  } finally {
    root.removeAttribute('aria-busy');
  }
}

main();
