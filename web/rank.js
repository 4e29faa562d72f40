// rank.js: where a run, or an account's best run, stands on a leaderboard,
// read off the leaderboard route (GET /api/games/{game}/leaderboard, best
// first, every entry with its rank). The route gives no count, so the board
// is read from the top a page of 100 at a time until the end, at most
// MAX_PAGES pages: a seed's board is short (every run on it), a board past
// 2,000 runs is reported as "more than", with the rank when it was seen.
import { api } from './common.js';

const PAGE = 100;
const MAX_PAGES = 20;

// The board of game (on seed, or every seed when seed is null) read from
// its top: {rank (of the first entry mine(entry) holds, or null), entry
// (that one), best (the first entry, or null), runnerUp (the second),
// total (entries read), complete (the board ended within the pages read:
// total is then its length)}.
export async function standing(game, seed, mine) {
  const out = { rank: null, entry: null, best: null, runnerUp: null, total: 0, complete: false };
  const on = seed === null || seed === undefined ? '' : `&seed=${encodeURIComponent(seed)}`;
  let after = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const d = await api(`/api/games/${encodeURIComponent(game)}/leaderboard?limit=${PAGE}${on}`
      + (after ? `&after=${encodeURIComponent(after)}` : ''));
    for (const e of d.entries) {
      if (!out.best) out.best = e;
      else if (!out.runnerUp) out.runnerUp = e;
      if (out.rank === null && mine(e)) {
        out.rank = e.rank;
        out.entry = e;
      }
    }
    out.total += d.entries.length;
    if (d.next === null) {
      out.complete = true;
      break;
    }
    after = d.next;
  }
  return out;
}

// "3 of 12" (or "3 of more than 2000", or "below the first 2000" when the
// board was not read to its end), or null when the board holds no entry
// of ours.
export function rankText(s) {
  const of = s.complete ? `${s.total}` : `more than ${s.total}`;
  if (s.rank !== null) return `${s.rank} of ${of}`;
  return s.complete ? null : `below the first ${s.total}`;
}

// The share of the board at or above rank, as "top 25%", when the board
// was read to its end.
export function topShare(s) {
  if (s.rank === null || !s.complete || !s.total) return null;
  return `top ${Math.max(1, Math.ceil((100 * s.rank) / s.total))}%`;
}
