// run.js: a run's page (/runs/{id}): its summary, review and certificate,
// and the replay player; a playing run is followed live. A run whose game
// hides its future (its seed would reveal the pieces to come) shows only
// its newest state while it plays, as its player sees it: the server
// refuses its steps until it is over.
import { accountLink, api, ApiError, checkCertificate, el, fill, games, problem, title, when } from './common.js';
import { createPlayer, playerUi } from './player.js';
import { plot } from './plot.js';
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
    el('dl', { class: 'summary', 'data-testid': 'summary' }, rows.map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])));
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
  fill(root, summary(run, g), review(run), certificate(run), download(run));
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
    await player.setNewest(first.moves, { follow: !run.over });
    if (!run.over) follow(run, g, player, null, note);
    else plots(run, document.getElementById('plots'), u.root).catch((err) => problem(document.getElementById('plots'), err));
  } catch (err) {
    problem(u.stage, err);
  }
}

main();
