// account.js: an account's page (/accounts/{name}): at the top, where it
// stands in each game it has played (the rank of its best run on the game's
// leaderboard) and its win-loss-draw record in versus; then for each game,
// its scores over time (a plot), its best run on each seed and its runs
// newest first (paged); then its versus matches and its rating over time.
// Everything comes from GET /api/v1/accounts/{name}, its runs and matches
// routes and the leaderboards: public data only.
import { accountLink, api, ApiError, el, fill, games, problem, title, when } from './common.js';
import { plot } from './plot.js';
import { rankText, standing, topShare } from './rank.js';

const name = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
const PLOT_RUNS = 100; // the newest runs a game's plot draws: one page of the route
const MATCH_PAGES = 10; // the record counts the newest 1,000 matches at most

function runLink(id) {
  return el('a', { href: `/runs/${id}` }, id);
}

function seedLink(game, seed) {
  return seed === null ? 'withheld'
    : el('a', { href: `/?${encodeURIComponent(`${game}.seed`)}=${seed}#${game}`, title: `Every run on seed ${seed}` }, seed);
}

function table(id, caption, head, body) {
  return el('div', { class: 'table-wrap', role: 'region', tabindex: 0, 'aria-labelledby': `${id}-caption` },
    el('table', { class: 'board', id },
      el('caption', { id: `${id}-caption` }, caption),
      el('thead', {}, el('tr', {}, head.map((h) => el('th', { scope: 'col' }, h)))), body));
}

function ended(r) {
  if (!r.over) return r.status;
  return r.endReason ? `${r.status} (${r.endReason.replace(/_/g, ' ')})` : r.status;
}

// One game's runs, newest first, a page at a time ("More runs").
function runsTable(g, first) {
  const body = el('tbody', {});
  const more = el('div', { class: 'more' });
  const add = (d) => {
    for (const r of d.runs) {
      body.append(el('tr', { 'data-testid': 'run-row' },
        el('td', {}, runLink(r.runId)), el('td', { class: 'num' }, seedLink(g.name, r.seed)),
        el('td', { class: 'num' }, r.score), g.boardFields.map((f) => el('td', { class: 'num' }, r[f] ?? '-')),
        el('td', {}, ended(r)), el('td', {}, when(r.createdAt)), el('td', {}, when(r.endedAt))));
    }
    fill(more);
    if (d.next) {
      const b = el('button', { type: 'button' }, 'More runs');
      b.addEventListener('click', () => {
        api(`/api/v1/accounts/${encodeURIComponent(name)}/runs?game=${g.name}&limit=20&before=${d.next}`)
          .then(add).catch((err) => problem(more, err));
      });
      more.append(b);
    }
  };
  add({ runs: first.runs.slice(0, 20), next: first.runs.length > 20 ? null : first.next });
  // The first 20 of the plot's page are shown; the rest come with "More runs".
  if (first.runs.length > 20) {
    const rest = { runs: first.runs.slice(20), next: first.next };
    const b = el('button', { type: 'button' }, 'More runs');
    b.addEventListener('click', () => add(rest));
    more.append(b);
  }
  return [table(`${g.name}-runs`, `${title(g.name)}: the account's runs, newest first`,
    ['Run', 'Seed', 'Score', ...g.boardFields.map(title), 'Status', 'Started', 'Ended'], body), more];
}

function bestTable(g, info) {
  const body = el('tbody', {}, info.bestPerSeed.map((b) => el('tr', { 'data-testid': 'best-row' },
    el('td', { class: 'num' }, seedLink(g.name, b.seed)), el('td', {}, runLink(b.runId)),
    el('td', { class: 'num' }, b.score), g.boardFields.map((f) => el('td', { class: 'num' }, b[f] ?? '-')),
    el('td', { class: 'num' }, b.runs), el('td', {}, when(b.endedAt)))));
  if (!info.bestPerSeed.length) body.append(el('tr', {}, el('td', { colspan: 5 + g.boardFields.length }, 'No ranked run yet.')));
  return table(`${g.name}-best`, `${title(g.name)}: the best run on each seed, best first`
    + (info.moreSeeds ? ' (the first 20 seeds)' : ''),
    ['Seed', 'Run', 'Score', ...g.boardFields.map(title), 'Runs', 'Ended'], body);
}

// Scores of the ended runs in the order they ended (then by id): run 1 is
// the oldest of those read. The order, not the clock, is the axis: a bot
// ends many runs a second, which times to the second would pile up.
export function endedInOrder(runs) {
  return runs.filter((r) => r.over && r.endedAt).map((r) => [Date.parse(r.endedAt), r.score, r.runId])
    .sort((a, b) => a[0] - b[0] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
}

function scoresPlot(g, runs) {
  const done = endedInOrder(runs);
  if (!done.length) return el('p', {}, 'No ended run to plot yet.');
  return plot({
    id: `${g.name}-scores`, caption: `${title(g.name)}: the score of each ended run (of the newest ${PLOT_RUNS}), `
      + `in the order they ended, from ${when(new Date(done[0][0]).toISOString())} to ${when(new Date(done[done.length - 1][0]).toISOString())}`,
    describe: `Scores of ${done.length} ended ${title(g.name)} runs in the order they ended, from ${done[0][1]} to `
      + `${done[done.length - 1][1]}; best ${Math.max(...done.map((d) => d[1]))}.`,
    x: done.map((_, i) => i + 1), xLabel: 'Run (in the order they ended)', yLabel: 'Score',
    series: [{ label: 'Score', values: done.map((d) => d[1]) }],
  }).node;
}

async function gameSection(g, info) {
  const first = await api(`/api/v1/accounts/${encodeURIComponent(name)}/runs?game=${g.name}&limit=${PLOT_RUNS}`);
  return el('section', { class: 'game', id: g.name, 'aria-labelledby': `${g.name}-title` },
    el('h2', { id: `${g.name}-title` }, title(g.name)),
    el('p', { class: 'meta' }, `${info.runs} ${info.runs === 1 ? 'run' : 'runs'}.`),
    scoresPlot(g, first.runs), el('h3', {}, 'Best per seed'), bestTable(g, info), el('h3', {}, 'Runs'),
    runsTable(g, first));
}

// The account's matches, newest first, 100 a page, at most MATCH_PAGES
// pages: {matches, more (pages were left unread)}.
async function allMatches() {
  const out = { matches: [], more: false };
  let before = null;
  for (let i = 0; i < MATCH_PAGES; i++) {
    const d = await api(`/api/v1/accounts/${encodeURIComponent(name)}/matches?limit=100`
      + (before ? `&before=${encodeURIComponent(before)}` : ''));
    out.matches.push(...d.matches);
    before = d.next;
    if (!before) return out;
  }
  out.more = true;
  return out;
}

// Wins, losses and draws over the finished matches: place 1 alone (the
// last one standing) is a win, place 1 shared (all out together, or still
// in at the turn cap) a draw, any other place a loss.
export function record(matches) {
  const r = { won: 0, lost: 0, drawn: 0 };
  for (const m of matches) {
    if (m.status !== 'finished' || m.place === null) continue;
    if (m.place > 1) r.lost++;
    else if (m.end === 'last_standing') r.won++;
    else r.drawn++;
  }
  return r;
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// Where the account stands: each game's best rank on its leaderboard (the
// board of every seed, as the home page shows it), and its versus record.
function glance(played, ranks, all) {
  const rows = played.map((x, i) => {
    const s = ranks[i];
    return el('tr', { 'data-testid': 'standing-row', 'data-game': x.game, 'data-rank': s.rank ?? '',
      'data-total': s.total, 'data-complete': String(s.complete) },
    el('td', {}, el('a', { href: `#${x.game}` }, title(x.game))), el('td', { class: 'num' }, x.runs),
    el('td', {}, rankText(s) ?? 'not on the leaderboard'), el('td', { class: 'num' }, topShare(s) ?? '-'),
    el('td', {}, s.entry ? [el('a', { href: `/runs/${s.entry.runId}` }, s.entry.runId), `, score ${s.entry.score}`]
      : '-'));
  });
  const r = record(all.matches);
  const n = r.won + r.lost + r.drawn;
  return [
    rows.length ? table('standing', 'Where the account stands: the rank of its best run on each game\'s leaderboard',
      ['Game', 'Runs', 'Best rank', 'Share', 'Best run'], el('tbody', {}, rows)) : null,
    el('p', { class: 'record', 'data-testid': 'record', 'data-won': r.won, 'data-lost': r.lost, 'data-drawn': r.drawn },
      el('strong', {}, `Versus: ${r.won}-${r.lost}-${r.drawn}`),
      n ? ` (won-lost-drawn) over ${plural(n, 'finished match', 'finished matches')}`
        + `${all.more ? ', the newest read' : ''}.` : ': no finished match yet.'),
  ];
}

// The matches, newest first, paged; the rating over the rated matches.
async function versus(page, all) {
  const d = { matches: all.matches.slice(0, 100), next: all.matches.length > 100 || all.more };
  const s = el('section', { class: 'game', id: 'versus', 'aria-labelledby': 'versus-title' },
    el('h2', { id: 'versus-title' }, 'Versus'),
    el('p', { class: 'meta' }, page.rating ? `Rating ${page.rating.rating.toFixed(1)} (RD ${page.rating.rd.toFixed(1)}) after `
      + `${page.rating.matches} rated ${page.rating.matches === 1 ? 'match' : 'matches'}.` : 'No rated match yet.'));
  // The rated matches over, oldest first (the list is newest first).
  const rated = d.matches.filter((m) => typeof m.rating_after === 'number' && m.finished_at).reverse();
  if (rated.length) {
    // The rating before the first rated match (0), then after each one.
    const y = [rated[0].rating_before, ...rated.map((m) => m.rating_after)];
    s.append(plot({ id: 'rating', caption: `Glicko-2 rating before its first rated match (0), then after each, to `
      + `${when(rated[rated.length - 1].finished_at)}`,
      describe: `Rating over ${rated.length} rated matches, from ${y[0].toFixed(1)} to ${y[y.length - 1].toFixed(1)}.`,
      x: y.map((_, i) => i), xLabel: 'Rated matches played', yLabel: 'Rating', series: [{ label: 'Rating', values: y }] }).node);
  }
  const body = el('tbody', {}, d.matches.map((m) => el('tr', { 'data-testid': 'match-row' },
    el('td', {}, el('a', { href: `/matches/${m.match_id}` }, m.match_id)), el('td', {}, m.status),
    el('td', { class: 'wrap' }, m.seats.map((x, i) => [i ? ', ' : '', accountLink(x)])),
    el('td', { class: 'num' }, m.place ?? '-'), el('td', { class: 'num' }, m.score ?? '-'),
    el('td', { class: 'num' }, typeof m.rating_after === 'number'
      ? `${m.rating_before.toFixed(1)} to ${m.rating_after.toFixed(1)}` : '-'),
    el('td', {}, when(m.created_at)))));
  if (!d.matches.length) body.append(el('tr', {}, el('td', { colspan: 7 }, 'No match yet.')));
  s.append(table('matches', 'The account\'s versus matches, newest first' + (d.next ? ' (the newest 100)' : ''),
    ['Match', 'Status', 'Seats', 'Place', 'Score', 'Rating', 'Created'], body));
  return s;
}

async function main() {
  const root = document.getElementById('account');
  try {
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(name)) throw new ApiError(404, { error: { message: 'no account has this name' } });
    const page = await api(`/api/v1/accounts/${encodeURIComponent(name)}`);
    const list = await games();
    document.title = `${page.name} - arcaded`;
    document.getElementById('title').textContent = page.name;
    const link = document.getElementById('json-link');
    link.href = `/api/v1/accounts/${encodeURIComponent(page.name)}`;
    link.textContent = link.getAttribute('href');
    const played = page.games.filter((x) => x.runs > 0);
    const [ranks, all] = await Promise.all([
      Promise.all(played.map((x) => standing(x.game, null, (e) => e.account === page.name))), allMatches()]);
    const sections = [];
    for (const info of played) {
      const g = list.find((x) => x.name === info.game);
      if (g) sections.push(await gameSection(g, info));
    }
    fill(root, el('p', { class: 'lead' }, `Account since ${when(page.createdAt)}. `,
      played.length ? `Runs: ${played.map((x) => `${title(x.game)} ${x.runs}`).join(', ')}.` : 'No run yet.'),
    played.length ? el('nav', { 'aria-label': 'Games', class: 'toc' }, el('ul', {},
      played.map((x) => el('li', {}, el('a', { href: `#${x.game}` }, title(x.game)))),
      el('li', {}, el('a', { href: '#versus' }, 'Versus')))) : null,
    glance(played, ranks, all), sections, await versus(page, all));
  } catch (err) {
    problem(root, err);
    if (err instanceof ApiError && err.status === 404) document.getElementById('title').textContent = 'No such account';
  }
  root.removeAttribute('aria-busy');
}

main();
