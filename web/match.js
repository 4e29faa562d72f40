// match.js: a versus match's page (/matches/{id}): every seat's board side
// by side, each with its garbage meter, pieces, figures, place and out
// state, turn by turn through the replay player (#turn=N); once it is over,
// the places, the rating changes and the certificate at the top, and the
// player on its last turn. A match in the lobby
// or playing is followed with long polls (.../wait?after=T), paused while
// the tab is hidden. What is drawn is the server's: the turns route replays
// the stored turns on the engine and answers each turn as a spectator saw
// it, so nothing here knows the rules.
import { accountLink, api, ApiError, checkCertificate, el, fill, problem, when } from './common.js';
import { createPlayer, playerUi } from './player.js';
import { ODD_SHAPES, plural, seatCard, words } from './seats.js';

const RETRY_MS = 2000;
const matchId = location.pathname.split('/').filter(Boolean)[1] || '';

// The renderer the player draws with: every seat side by side.
function renderer(stage, names, shapes) {
  const cards = names.map((_, i) => seatCard(i, names, shapes));
  fill(stage, el('div', { class: 'seats', 'data-testid': 'seats' }, cards.map((c) => c.node)));
  return {
    draw(entry) {
      const v = entry.view;
      v.seats.forEach((s, i) => cards[i].draw(s, v.last_turn ? v.last_turn.players[i] : null, entry.turn,
        v.last_turn ? v.last_turn.hits : null));
      stage.dataset.turn = String(entry.turn);
    },
    describe(entry) {
      if (!entry.moves) return 'The start: every board empty, every player on the same first piece.';
      const moves = entry.moves.map((m, i) => `${names[i]} ${m === null ? 'out' : m}`).join('; ');
      return `${moves}.${entry.view.end ? ` The match is over (${words(entry.view.end)}).` : ''}`;
    },
  };
}

function summary(m) {
  const status = m.status === 'lobby' ? `in the lobby, ${m.joined} of ${m.players} seats taken`
    : m.status === 'playing' ? 'playing' : `finished (${words(m.end)})`;
  const rows = [
    ['Status', status], ['Players', m.seats.map((s, i) => [i ? ', ' : '', accountLink(s.account)])], ['Turns resolved', m.turn],
    ['Turn length', `${m.turn_seconds} s`], ['Turn cap', m.turn_cap], ['Rated', m.rated ? 'yes (Glicko-2)' : 'no'],
    ['Seed', m.seed !== null ? `${m.seed} (chosen by ${m.seed_chosen ? 'its creator' : 'the server'})`
      : 'withheld until the match is over'],
    ['Created', when(m.created_at)], ['Started', when(m.started_at)], ['Finished', when(m.finished_at)],
  ];
  return el('section', { 'aria-labelledby': 'summary-title' }, el('h2', { id: 'summary-title' }, 'Summary'),
    el('dl', { class: 'summary', 'data-testid': 'summary' }, rows.map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])));
}

function places(m) {
  const rated = m.rated && m.seats.some((s) => typeof s.rating_after === 'number');
  const head = ['Place', 'Player', 'Score', 'Lines', 'Sent', 'Received', 'Out', ...(rated ? ['Rating'] : [])];
  const rows = [...m.seats].sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat).map((s) => {
    const d = rated ? s.rating_after - s.rating_before : 0;
    return el('tr', { 'data-testid': 'place-row', 'data-seat': s.seat },
      el('td', { class: 'num' }, s.place ?? '-'), el('td', {}, accountLink(s.account)),
      [s.score, s.lines, s.lines_sent, s.lines_received].map((x) => el('td', { class: 'num' }, x)),
      el('td', {}, s.alive ? '-' : words(s.end_reason)),
      rated ? el('td', { class: 'num', 'data-testid': 'rating' },
        `${s.rating_before.toFixed(1)} to ${s.rating_after.toFixed(1)} (${d >= 0 ? '+' : ''}${d.toFixed(1)})`) : null);
  });
  return el('div', { class: 'table-wrap', role: 'region', tabindex: 0, 'aria-labelledby': 'places-caption' },
    el('table', { class: 'board' },
      el('caption', { id: 'places-caption' }, `Places at the end (${words(m.end)}, after ${plural(m.turn, 'turn', 'turns')})`
        + (rated ? ', with each rating before and after' : '')),
      el('thead', {}, el('tr', {}, head.map((h) => el('th', { scope: 'col', class: ['Player', 'Out'].includes(h) ? null
        : 'num' }, h)))),
      el('tbody', {}, rows)));
}

async function result(m) {
  const box = document.getElementById('result');
  const cert = document.getElementById('certificate');
  fill(document.getElementById('places'), places(m),
    el('p', {}, 'The replay and its certificate: ', el('a', { href: `/api/matches/${m.match_id}/replay` },
      `/api/matches/${m.match_id}/replay`), '.'));
  box.hidden = false;
  try {
    const r = await api(`/api/matches/${m.match_id}/replay`);
    checkCertificate(cert, '/api/matches/replays/verify', r.replay, r.certificate, (d) => {
      const c = d.certificate ? d.certificate.claims : {};
      return [['Replay hash', d.replay_hash], ['Places claimed', (c.places || []).join(', ')],
        ['Turns claimed', c.turns], ['End claimed', c.end], ['Signed', c.iat ? when(c.iat) : '-']];
    }, 'No certificate: the match ended without one.');
  } catch (err) {
    cert.dataset.state = 'error';
    problem(cert, err);
  }
}

function visible() {
  return new Promise((resolve) => {
    if (document.visibilityState !== 'hidden') {
      resolve();
      return;
    }
    const on = () => {
      if (document.visibilityState === 'hidden') return;
      document.removeEventListener('visibilitychange', on);
      resolve();
    };
    document.addEventListener('visibilitychange', on);
  });
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

async function main() {
  const root = document.getElementById('match');
  const note = document.getElementById('live-note');
  let m;
  try {
    if (!/^[1-9]\d{0,15}$/.test(matchId)) throw new ApiError(404, { error: { message: 'no such match' } });
    m = await api(`/api/matches/${matchId}`);
  } catch (err) {
    problem(root, err);
    root.removeAttribute('aria-busy');
    document.getElementById('title').textContent = 'No such match';
    return;
  }
  document.title = `Match ${m.match_id} - arcaded`;
  document.getElementById('title').textContent = `Match ${m.match_id}`;
  const link = document.getElementById('json-link');
  link.href = `/api/matches/${m.match_id}`;
  link.textContent = `/api/matches/${m.match_id}`;
  let shapes = null;
  try {
    shapes = (await api('/api/games/stackfall/rules')).pieces || null;
  } catch (_) {
    shapes = null;
  }
  shapes = { ...(shapes || {}), ...ODD_SHAPES };
  let player = null;
  // A match seen before its end is followed to its last turn; a finished
  // one opens on its last turn, under its result (or at the turn the
  // address names).
  const live = m.status !== 'finished';
  const ui = playerUi(document.getElementById('player'), { label: 'Turn', key: 'turn' });

  // Draws what the view says: the summary, the player once there are turns,
  // the result once it is over.
  async function show(v) {
    fill(root, summary(v));
    root.removeAttribute('aria-busy');
    note.dataset.status = v.status;
    note.dataset.turn = String(v.turn);
    note.hidden = v.status === 'finished';
    if (v.status === 'lobby') {
      fill(note, el('strong', {}, 'Lobby'), `: ${plural(v.players - v.joined, 'seat is', 'seats are')} still free; `
        + 'this page shows the match as soon as it starts.');
      return;
    }
    if (v.status === 'playing') {
      fill(note, el('strong', {}, 'Live'), ': the match is playing; each turn shows here as it resolves.');
    }
    if (!player) {
      const first = await api(`/api/matches/${v.match_id}/turns?count=1`);
      const r = renderer(ui.stage, first.turns[0].view.seats.map((s) => s.account), shapes);
      player = createPlayer(ui, r, { key: 'turn', label: 'Turn',
        load: (from, count) => api(`/api/matches/${v.match_id}/turns?from=${from}&count=${count}`).then((d) => d.turns) });
      document.getElementById('watch').hidden = false;
    }
    await player.setNewest(v.turn, { follow: live, openAtNewest: true });
    if (v.status === 'finished') await result(v);
  }

  try {
    await show(m);
  } catch (err) {
    problem(ui.stage, err);
  }
  // A match not over yet: a long poll at a time, while the tab is seen.
  while (m.status !== 'finished') {
    await visible();
    let next;
    try {
      next = await api(`/api/matches/${m.match_id}/wait?after=${m.turn}`);
    } catch (_) {
      await sleep(RETRY_MS);
      continue;
    }
    if (next.status !== m.status || next.turn !== m.turn || next.joined !== m.joined) {
      try {
        await show(next);
      } catch (_) {
        await sleep(RETRY_MS);
        continue;
      }
    }
    m = next;
  }
}

main();
