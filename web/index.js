// index.js: the home page: every game on the table with its leaderboard
// (filtered by seed when asked: ?<game>.seed=N, which the form and the
// seed links set) and its newest reviews; versus ratings and a match
// opened by its id.
import { accountLink, api, el, fill, games, problem, title, when } from './common.js';
import { plot } from './plot.js';

const params = new URLSearchParams(location.search);

function runLink(id) {
  return el('a', { href: `/runs/${id}` }, id);
}

async function board(g, section, seed, after) {
  const body = section.querySelector('tbody');
  const more = section.querySelector('.more');
  const q = new URLSearchParams({ limit: '20' });
  if (seed !== null) q.set('seed', seed);
  if (after) q.set('after', after);
  const d = await api(`/api/games/${g.name}/leaderboard?${q}`);
  if (!after) body.replaceChildren();
  for (const e of d.entries) {
    body.append(el('tr', {},
      el('td', { class: 'num' }, e.rank),
      el('td', {}, runLink(e.runId)),
      el('td', {}, accountLink(e.account)),
      el('td', { class: 'num' }, e.score),
      g.boardFields.map((f) => el('td', { class: 'num' }, e[f] ?? '-')),
      el('td', { class: 'num' }, el('a', {
        href: `/?${encodeURIComponent(g.name + '.seed')}=${e.seed}#${g.name}`,
        title: `Every run on seed ${e.seed}`,
      }, e.seed)),
      el('td', {}, when(e.endedAt))));
  }
  if (!body.children.length) {
    body.append(el('tr', {}, el('td', { colspan: 6 + g.boardFields.length },
      seed !== null ? `No ended run on seed ${seed} yet.` : 'No ended run yet.')));
  }
  fill(more);
  if (d.next) {
    more.append(el('button', { type: 'button' }, 'More runs'));
    more.firstChild.addEventListener('click', () => {
      board(g, section, seed, d.next).catch((err) => problem(more, err));
    });
  }
}

// The spread of the scores on one seed: the best 100 runs (one page of the
// route), in at most 10 bins of equal width, as bars.
export function bins(scores) {
  const lo = Math.min(...scores);
  const hi = Math.max(...scores);
  const width = Math.max(1, Math.ceil((hi - lo + 1) / 10));
  const n = Math.floor((hi - lo) / width) + 1;
  const counts = Array(n).fill(0);
  for (const s of scores) counts[Math.floor((s - lo) / width)]++;
  return { x: counts.map((_, i) => lo + i * width), counts, width };
}

async function distribution(g, node, seed) {
  const d = await api(`/api/games/${g.name}/leaderboard?seed=${seed}&limit=100`);
  if (!d.entries.length) return;
  const b = bins(d.entries.map((e) => e.score));
  fill(node, plot({
    id: `${g.name}-spread`, bars: true, x: b.x, xLabel: b.width > 1 ? `Score (bins of ${b.width}, from)` : 'Score',
    yLabel: 'Runs', series: [{ label: 'Runs', values: b.counts }],
    caption: `${title(g.name)}: how the scores of the ${d.entries.length} best runs on seed ${seed} spread`,
    describe: `Scores on seed ${seed}: ${d.entries.length} runs from ${Math.min(...d.entries.map((e) => e.score))} `
      + `to ${Math.max(...d.entries.map((e) => e.score))}.`,
  }).node);
}

async function reviews(g, node) {
  const d = await api(`/api/games/${g.name}/reviews?limit=5`);
  const avg = d.averageRating === null ? 'no rating yet'
    : `average ${d.averageRating.toFixed(1)} out of 10 over ${d.count}`;
  fill(node, el('h3', {}, 'Recent reviews'), el('p', {}, `Reviews: ${avg}.`));
  if (!d.reviews.length) return;
  node.append(el('ul', { class: 'reviews' }, d.reviews.map((r) => el('li', {},
    el('p', { class: 'rating' }, `${r.rating}/10`, ' ', el('span', { class: 'who' },
      accountLink(r.account), `, ${when(r.createdAt)}, run `, runLink(r.runId))),
    el('blockquote', {}, r.text)))));
}

function section(g) {
  const key = `${g.name}.seed`;
  const raw = params.get(key);
  const seed = raw !== null && /^\d+$/.test(raw) ? raw : null;
  const head = el('tr', {}, ['Rank', 'Run', 'Account', 'Score', ...g.boardFields.map(title),
    'Seed', 'Ended'].map((h) => el('th', { scope: 'col' }, h)));
  const s = el('section', { id: g.name, class: 'game', 'aria-labelledby': `${g.name}-title` },
    el('h2', { id: `${g.name}-title` }, title(g.name)),
    el('p', { class: 'meta' }, `Rules ${g.rules}. `,
      el('a', { href: `/api/games/${g.name}/rules` }, 'The rules as JSON'), '.'),
    el('form', { class: 'seed', method: 'get', action: `/#${g.name}` },
      el('label', { for: `${g.name}-seed` }, 'Runs on seed'),
      el('input', { id: `${g.name}-seed`, name: key, inputmode: 'numeric', pattern: '[0-9]+',
        value: seed ?? '', placeholder: 'any seed', size: 16 }),
      el('button', { type: 'submit' }, 'Filter'),
      seed !== null ? el('a', { href: `/#${g.name}` }, 'Show all') : null),
    el('h3', {}, seed !== null ? `Leaderboard on seed ${seed}` : 'Leaderboard'),
    el('div', { class: 'table-wrap', role: 'region', tabindex: 0, 'aria-labelledby': `${g.name}-caption` },
      el('table', { class: 'board' },
      el('caption', { id: `${g.name}-caption` }, seed !== null ? `${title(g.name)}: every ended run on seed ${seed}, best first`
        : `${title(g.name)}: every ended run, on any seed, best first (abandoned runs are not ranked)`),
      el('thead', {}, head), el('tbody', {}))),
    el('div', { class: 'more' }),
    el('div', { class: 'spread' }),
    el('div', { class: 'reviews-box' }));
  board(g, s, seed, null).catch((err) => problem(s.querySelector('.more'), err));
  if (seed !== null) distribution(g, s.querySelector('.spread'), seed).catch((err) => problem(s.querySelector('.spread'), err));
  reviews(g, s.querySelector('.reviews-box')).catch((err) => problem(s.querySelector('.reviews-box'), err));
  return s;
}

// The matches in a status (lobby or playing), newest first, into a table.
function openMatches(status, body) {
  const cols = 7;
  api(`/api/matches/open?status=${status}&limit=20`).then((d) => {
    body.replaceChildren(...d.matches.map((m) => el('tr', { 'data-testid': `open-${status}` },
      el('td', {}, el('a', { href: `/matches/${m.match_id}` }, m.match_id)),
      el('td', {}, m.seats.map((s, i) => [i ? ', ' : '', accountLink(s)])),
      el('td', { class: 'num' }, status === 'lobby' ? `${m.joined} of ${m.players}` : m.players),
      el('td', { class: 'num' }, m.turn),
      // Only the queue's matches may be rated (docs/rules/versus.md, "Ratings"): a queue
      // match still ends unrated when aborted or over the pair cap, so it says "queue".
      el('td', {}, m.queue ? 'queue (rated)' : 'created (unrated)'), el('td', {}, m.items ? 'on' : 'off'),
      el('td', {}, when(status === 'lobby' ? m.created_at : m.started_at)))));
    if (!d.matches.length) {
      body.append(el('tr', {}, el('td', { colspan: cols },
        status === 'lobby' ? 'No match is waiting for players.' : 'No match is being played.')));
    }
  }).catch((err) => problem(body.closest('.table-wrap'), err));
}

function matchTable(status, caption) {
  const body = el('tbody', {});
  const t = el('div', { class: 'table-wrap', role: 'region', tabindex: 0, 'aria-labelledby': `${status}-caption` },
    el('table', { class: 'board', id: `open-${status}` },
      el('caption', { id: `${status}-caption` }, caption),
      el('thead', {}, el('tr', {}, ['Match', 'Seats', status === 'lobby' ? 'Seats taken' : 'Players', 'Turn', 'Made by', 'Items',
        status === 'lobby' ? 'Created' : 'Started'].map((h) => el('th', { scope: 'col' }, h)))),
      body));
  openMatches(status, body);
  return t;
}

// Versus: the open lobbies and the matches being played, the ratings, and
// a match opened by its id.
function versus() {
  const body = el('tbody', {});
  const s = el('section', { id: 'versus', class: 'game', 'aria-labelledby': 'versus-title' },
    el('h2', { id: 'versus-title' }, 'Versus'),
    el('p', { class: 'meta' }, '2 to 8 bots side by side on the same pieces, sending each other garbage. '
      + 'A match\'s page shows every board turn by turn, and follows a match that is playing.'),
    el('form', { class: 'seed', id: 'match-form' },
      el('label', { for: 'match-id' }, 'Match id'),
      el('input', { id: 'match-id', name: 'match', inputmode: 'numeric', pattern: '[1-9][0-9]{0,15}', size: 18,
        required: true, placeholder: 'its decimal id' }),
      el('button', { type: 'submit' }, 'Open the match')),
    el('h3', {}, 'Being played'),
    matchTable('playing', 'Matches being played, newest first: open one to follow it turn by turn'),
    el('h3', {}, 'Waiting for players'),
    matchTable('lobby', 'Matches in their lobby, newest first: each starts when its last seat is taken'),
    el('h3', {}, 'Ratings'),
    el('div', { class: 'table-wrap', role: 'region', tabindex: 0, 'aria-labelledby': 'ratings-caption' },
      el('table', { class: 'board' },
        el('caption', { id: 'ratings-caption' }, 'Glicko-2 ratings from rated matches, best first'),
        el('thead', {}, el('tr', {}, ['Rank', 'Account', 'Rating', 'RD', 'Matches'].map((h) =>
          el('th', { scope: 'col' }, h)))),
        body)));
  s.querySelector('form').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = s.querySelector('#match-id').value.trim();
    if (/^[1-9]\d{0,15}$/.test(id)) location.href = `/matches/${id}`;
  });
  api('/api/matches/ratings?limit=20').then((d) => {
    body.replaceChildren(...d.ratings.map((r) => el('tr', {},
      el('td', { class: 'num' }, r.rank), el('td', {}, accountLink(r.account)), el('td', { class: 'num' }, r.rating.toFixed(1)),
      el('td', { class: 'num' }, r.rd.toFixed(1)), el('td', { class: 'num' }, r.matches))));
    if (!d.ratings.length) body.append(el('tr', {}, el('td', { colspan: 5 }, 'No rated match has ended yet.')));
  }).catch((err) => problem(body.closest('.table-wrap'), err));
  return s;
}

async function main() {
  const root = document.getElementById('games');
  try {
    const list = await games();
    fill(root, el('nav', { 'aria-label': 'Games', class: 'toc' },
      el('ul', {}, list.map((g) => el('li', {}, el('a', { href: `#${g.name}` }, title(g.name)))),
        el('li', {}, el('a', { href: '#versus' }, 'Versus')))),
    list.map(section), versus());
    // The sections are built here: an address naming one (/#versus) is
    // honoured once they exist.
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target) target.scrollIntoView();
  } catch (err) {
    problem(root, err);
  }
  root.removeAttribute('aria-busy');
}

main();
