// run.js: a run's page (/runs/{id}): its result first (how it ended, its
// rank on its seed and a link to compare it with the best run there), its
// review, certificate and summary beside the replay player, which opens on
// the last step (or the one the address names); a playing run is followed
// live. A run whose game hides its future (its seed would reveal the pieces
// to come) shows only its newest state while it plays, as its player sees
// it: the server refuses its steps until it is over.
import { accountLink, api, ApiError, checkCertificate, el, fill, games, problem, title, when } from './common.js';
import { createPlayer, playerUi } from './player.js';
import { plot } from './plot.js';
import { rankText, standing, topShare } from './rank.js';
import { allSteps, figuresOf, renderer } from './steps.js';

const POLL_MS = 1000;
const runId = location.pathname.split('/').filter(Boolean)[1] || '';

function summary(run, g) {
  const rows = [
    ['Game', title(run.game)], ['Status', run.status + (run.end_reason ? ` (${run.end_reason.replace(/_/g, ' ')})` : '')],
    ['Score', run.score], ...g.boardFields.map((f) => [title(f), run[f] ?? '-']), ['Moves', run.moves],
    ['Account', accountLink(run.account)],
    ['Seed', g.seedless ? 'none: the game has no seed'
      : run.replay ? `${run.replay.seed}${run.seedChosenByClient ? ' (chosen by the client)' : ' (chosen by the server)'}`
      : 'withheld while the run plays'],
    ['Started', when(run.createdAt)], ['Ended', when(run.endedAt)], ['Finished', when(run.finishedAt)],
  ];
  return el('section', { 'aria-labelledby': 'summary-title' }, el('h2', { id: 'summary-title' }, 'Summary'),
    el('dl', { class: 'summary pairs', 'data-testid': 'summary' }, rows.map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])));
}

// How the run stands: over or playing, its score, figures and moves.
function outcome(run, g) {
  const how = run.over ? `Over${run.end_reason ? ` (${run.end_reason.replace(/_/g, ' ')})` : ''}` : 'Playing';
  const figures = g.boardFields.map((f) => `, ${f} ${run[f] ?? '-'}`).join('');
  return el('p', { class: 'verdict', 'data-testid': 'outcome' }, el('strong', {}, how),
    `: score ${run.score}${figures}, ${run.moves} ${run.moves === 1 ? 'move' : 'moves'}.`);
}

// Where an ended run stands on its seed's leaderboard, and the best run
// there to compare it with (the next best when it is the best). Filled
// in once the board is read; data-rank and data-total say what it found.
function rankLine(run, g) {
  const p = el('p', { 'data-testid': 'rank' });
  const seed = run.replay ? run.replay.seed : null;
  if (!run.over || seed === null) {
    p.dataset.state = 'none';
    p.textContent = run.over ? 'Not ranked: its seed is withheld.' : 'Ranked once it ends.';
    return p;
  }
  if (run.end_reason === 'abandoned') {
    p.dataset.state = 'none';
    p.textContent = 'Not ranked: abandoned runs are left off the leaderboard.';
    return p;
  }
  const where = g.seedless ? 'on its leaderboard' : 'on this seed';
  const board = el('a', { href: `/?${encodeURIComponent(`${run.game}.seed`)}=${seed}#${run.game}` },
    g.seedless ? 'the leaderboard' : `every run on seed ${seed}`);
  p.dataset.state = 'reading';
  p.textContent = `Reading the leaderboard ${where}...`;
  standing(run.game, seed, (e) => e.runId === run.runId).then((s) => {
    const text = rankText(s);
    const share = topShare(s);
    p.dataset.state = 'done';
    p.dataset.rank = s.rank ?? '';
    p.dataset.total = String(s.total);
    p.dataset.complete = String(s.complete);
    const other = s.best && s.best.runId !== run.runId ? ['the best run', s.best]
      : s.runnerUp ? ['the next best run', s.runnerUp] : null;
    const head = s.rank !== null ? `Rank ${text} ${where}` : text ? `Ranked ${text} ${where}` : `Not on the leaderboard ${where}`;
    fill(p, el('strong', {}, head),
      share ? ` (${share})` : '', '. ', other ? [el('a', { href: `/compare?runs=${run.runId},${other[1].runId}`,
        'data-testid': 'compare-best', 'data-run': other[1].runId }, `Compare with ${other[0]} ${where}`),
      ` (run ${other[1].runId}, score ${other[1].score}); `] : 'No other run to compare with; ', board, '.');
  }).catch((err) => {
    p.dataset.state = 'error';
    p.textContent = `The leaderboard could not be read: ${err.message}`;
  });
  return p;
}

// The result at the top of the page.
function result(run, g) {
  return el('section', { id: 'result', 'data-testid': 'result', 'aria-labelledby': 'result-title' },
    el('h2', { id: 'result-title' }, 'Result'), outcome(run, g), rankLine(run, g));
}

function review(run) {
  const s = el('section', { 'aria-labelledby': 'review-title' }, el('h2', { id: 'review-title' }, 'Review'));
  if (!run.review) {
    s.append(el('p', {}, run.over ? 'Not reviewed: a run gets a review and a certificate when its player finishes it.'
      : 'The run is still playing.'));
    return s;
  }
  s.append(el('p', { class: 'rating' }, `${run.review.rating}/10, ${when(run.review.createdAt)}`),
    el('blockquote', {}, run.review.text));
  return s;
}

function certificate(run) {
  const body = el('div', { 'data-testid': 'certificate' });
  checkCertificate(body, `/api/games/${run.game}/replays/verify`, run.replay, run.certificate, (d) => {
    const c = d.certificate ? d.certificate.claims : {};
    return [['Replay hash', d.replayHash], ['Score claimed', c.score], ['Moves claimed', c.moves],
      ['Signed', c.iat ? when(c.iat) : '-']];
  }, 'No certificate: the run has not been finished with a review.');
  return el('section', { 'aria-labelledby': 'cert-title' }, el('h2', { id: 'cert-title' }, 'Certificate'), body);
}

function download(run) {
  if (!run.replay) return null;
  const b = el('button', { type: 'button' }, 'Download the replay and certificate');
  b.addEventListener('click', () => {
    const blob = new Blob([JSON.stringify({ replay: run.replay, certificate: run.certificate }, null, 1)],
      { type: 'application/json' });
    const a = el('a', { href: URL.createObjectURL(blob), download: `${run.game}-${run.runId}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  return el('p', {}, b, ' ', el('a', { href: '/verify' }, 'Verify a file'));
}

// A playing run, followed: every second its head; steps as they come when
// the game shows them, else the head alone as its player sees it.
function follow(run, g, player, draw, note) {
  let moves = run.moves;
  let busy = false;
  const timer = setInterval(async () => {
    if (busy || document.visibilityState === 'hidden') return;
    busy = true;
    try {
      const live = await api(`/api/games/${run.game}/runs/${run.runId}/live`);
      if (live.over) {
        clearInterval(timer);
        note.textContent = 'The run has ended; reloading its replay.';
        location.reload();
        return;
      }
      if (live.moves !== moves) {
        moves = live.moves;
        if (player) await player.setNewest(moves, { follow: true });
        else draw(live);
        const fresh = await api(`/api/runs/${run.runId}`);
        const old = document.querySelector('[data-testid=summary]').closest('section');
        old.replaceWith(summary(fresh, g));
        document.querySelector('[data-testid=outcome]').replaceWith(outcome(fresh, g));
      }
      note.dataset.moves = String(moves);
    } catch (_) {
      // Try again at the next tick.
    } finally {
      busy = false;
    }
  }, POLL_MS);
}

// The plots under the player: the score, then height and holes (or idols
// left), over the steps, the step shown marked and following the player.
async function plots(run, root, player) {
  const steps = await allSteps(run);
  const f = steps.map((s) => figuresOf(s.view));
  const x = steps.map((s) => s.step);
  const specs = [];
  if (f.every((v) => typeof v.score === 'number')) {
    specs.push({ id: 'plot-score', caption: 'Score at each step', yLabel: 'Score',
      series: [{ label: 'Score', values: f.map((v) => v.score) }] });
  }
  if (f.every((v) => 'height' in v)) {
    specs.push({ id: 'plot-board', caption: 'The board at each step: its height (rows) and its holes', yLabel: 'Cells',
      series: [{ label: 'Height', values: f.map((v) => v.height) }, { label: 'Holes', values: f.map((v) => v.holes) }] });
  } else if (f.every((v) => 'idols' in v)) {
    specs.push({ id: 'plot-board', caption: 'Idols left on the court at each step', yLabel: 'Idols',
      series: [{ label: 'Idols', values: f.map((v) => v.idols) }] });
  }
  if (!specs.length) return;
  const at = () => Number(player.dataset.step || 0);
  const made = specs.map((s) => plot({ ...s, x, xLabel: 'Step', mark: at(),
    describe: `${s.caption} over ${steps.length} steps: ${s.series.map((se) => `${se.label.toLowerCase()} from `
      + `${se.values[0]} to ${se.values[se.values.length - 1]}, at most ${Math.max(...se.values)}`).join('; ')}.` }));
  made.forEach((m) => m.setMark(at()));
  fill(root, el('h2', { id: 'plots-title' }, 'Over the run'), made.map((m) => m.node));
  root.hidden = false;
  new MutationObserver(() => made.forEach((m) => m.setMark(at())))
    .observe(player, { attributes: true, attributeFilter: ['data-step'] });
}

async function main() {
  const root = document.getElementById('run');
  const watch = document.getElementById('watch');
  const note = document.getElementById('live-note');
  let run;
  let g;
  try {
    if (!/^[1-9]\d{0,15}$/.test(runId)) throw new ApiError(404, { error: { message: 'no such run' } });
    run = await api(`/api/runs/${runId}`);
    g = (await games()).find((x) => x.name === run.game);
    if (!g) throw new Error(`this server does not serve ${run.game} any more`);
  } catch (err) {
    problem(root, err);
    root.removeAttribute('aria-busy');
    document.getElementById('title').textContent = 'No such run';
    return;
  }
  document.title = `${title(run.game)} run ${run.runId} - arcaded`;
  document.getElementById('title').textContent = `${title(run.game)} run ${run.runId}`;
  document.getElementById('json-link').href = `/api/games/${run.game}/runs/${run.runId}`;
  document.getElementById('json-link').textContent = `/api/games/${run.game}/runs/${run.runId}`;
  fill(root, result(run, g));
  fill(document.getElementById('details'), review(run), certificate(run), summary(run, g), download(run));
  root.removeAttribute('aria-busy');
  watch.hidden = false;
  const u = playerUi(document.getElementById('player'), { label: 'Step', key: 'step' });
  if (!run.over) {
    note.hidden = false;
    note.dataset.moves = String(run.moves);
    fill(note, el('strong', {}, 'Live'), ': the run is playing; this page follows it every second.');
  }
  try {
    if (!run.over && g.hidesFuture) {
      // Only the head, as the player sees it.
      document.getElementById('watch-title').textContent = 'Now';
      u.controls.hidden = true;
      u.root.querySelector('.scrub').hidden = true;
      u.root.querySelector('.keys').hidden = true;
      const live = await api(`/api/games/${run.game}/runs/${run.runId}/live`);
      const r = await renderer(u.stage, run.game, live.view);
      const draw = (l) => {
        r.draw({ step: l.moves, move: null, view: l.view, marks: null }, null, {});
        u.root.dataset.step = String(l.moves);
        u.caption.textContent = `After ${l.moves} ${l.moves === 1 ? 'move' : 'moves'}: score ${l.score}.`;
      };
      draw(live);
      follow(run, g, null, draw, note);
      return;
    }
    const first = await api(`/api/games/${run.game}/runs/${run.runId}/steps?from=0&count=1`);
    const r = await renderer(u.stage, run.game, first.steps[0].view);
    const player = createPlayer(u, r, { key: 'step', label: 'Step',
      load: (from, count) => api(`/api/games/${run.game}/runs/${run.runId}/steps?from=${from}&count=${count}`)
        .then((d) => d.steps) });
    // Playing or over, the page opens on the newest step: the run's end,
    // or where it is now.
    await player.setNewest(first.moves, { follow: !run.over, openAtNewest: true });
    if (!run.over) follow(run, g, player, null, note);
    else plots(run, document.getElementById('plots'), u.root).catch((err) => problem(document.getElementById('plots'), err));
  } catch (err) {
    problem(u.stage, err);
  }
}

main();
