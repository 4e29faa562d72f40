// index.js: the home page: every game on the table with its leaderboard
// (filtered by seed when asked: ?<game>.seed=N, which the form and the
// seed links set) and its newest reviews.
import { api, el, fill, games, problem, title, when } from './common.js';

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
      el('td', {}, e.account ?? 'anonymous'),
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

async function reviews(g, node) {
  const d = await api(`/api/games/${g.name}/reviews?limit=5`);
  const avg = d.averageRating === null ? 'no rating yet'
    : `average ${d.averageRating.toFixed(1)} out of 10 over ${d.count}`;
  fill(node, el('h3', {}, 'Recent reviews'), el('p', {}, `Reviews: ${avg}.`));
  if (!d.reviews.length) return;
  node.append(el('ul', { class: 'reviews' }, d.reviews.map((r) => el('li', {},
    el('p', { class: 'rating' }, `${r.rating}/10`, ' ', el('span', { class: 'who' },
      `${r.account ?? 'anonymous'}, ${when(r.createdAt)}, run `, runLink(r.runId))),
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
        value: seed ?? '', placeholder: 'any chosen by the server', size: 16 }),
      el('button', { type: 'submit' }, 'Filter'),
      seed !== null ? el('a', { href: `/#${g.name}` }, 'Show all') : null),
    el('h3', {}, seed !== null ? `Leaderboard on seed ${seed}` : 'Leaderboard'),
    el('div', { class: 'table-wrap', role: 'region', tabindex: 0, 'aria-labelledby': `${g.name}-caption` },
      el('table', { class: 'board' },
      el('caption', { id: `${g.name}-caption` }, seed !== null ? `${title(g.name)}: every ended run on seed ${seed}, best first`
        : `${title(g.name)}: ended runs on seeds the server chose, best first`),
      el('thead', {}, head), el('tbody', {}))),
    el('div', { class: 'more' }),
    el('div', { class: 'reviews-box' }));
  board(g, s, seed, null).catch((err) => problem(s.querySelector('.more'), err));
  reviews(g, s.querySelector('.reviews-box')).catch((err) => problem(s.querySelector('.reviews-box'), err));
  return s;
}

async function main() {
  const root = document.getElementById('games');
  try {
    const list = await games();
    fill(root, el('nav', { 'aria-label': 'Games', class: 'toc' },
      el('ul', {}, list.map((g) => el('li', {}, el('a', { href: `#${g.name}` }, title(g.name)))))),
    list.map(section));
  } catch (err) {
    problem(root, err);
  }
  root.removeAttribute('aria-busy');
}

main();
