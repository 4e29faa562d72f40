// stackcraft_bot.ts: a starter bot for Stackcraft in TypeScript, on the token
// routes (/api/games/stackcraft/...), its client generated from the contract
// the daemon serves (GET /openapi.yaml, by openapi-typescript into
// arcaded.d.ts; openapi-fetch makes the calls). Every request and answer is
// typed from that contract, so `tsc --strict` checks the bot against it.
//
// What it does: the same as examples/stackcraft_bot.py. It starts a run with
// an episode cap, and each turn drops every listed legal placement
// (`legalActions`) into its own copy of the board and plays the one that
// clears the most lines, then leaves the fewest holes, the lowest stack and
// the flattest surface; then it finishes the run with a review.
//
// Run it from this folder, with a daemon serving (./dev up) and node 18 or
// later:
//
//     npm ci && npm run generate && npm run build
//     node dist/stackcraft_bot.js --cap 50 --seed 42 [--key arcd_...]
//
// --url (else ARCADED_URL, else http://127.0.0.1:8080) and --key (else
// ARCADED_KEY: the run belongs to that account) as the Python starters take
// them. A 429 is waited out as its Retry-After says. Exit status 0 when the
// run ended and was finished; 1 with a one-line message otherwise.
import createClient from 'openapi-fetch';
import { parseArgs } from 'node:util';
import type { components, paths } from './arcaded.js';

type State = components['schemas']['StackcraftState'];
type Placement = components['schemas']['StackcraftPlacement'];

// How good the board is after filling cells ([x, y], y = 0 the top row):
// smaller is better, compared item by item.
function score(board: number[][], cells: number[][]): number[] {
  const rows = board.map((r) => r.slice());
  for (const [x, y] of cells) rows[y][x] = 1;
  const kept = rows.filter((r) => !r.every((v) => v));
  const lines = rows.length - kept.length;
  const after = [...Array.from({ length: lines }, () => new Array<number>(10).fill(0)), ...kept];
  const heights: number[] = [];
  let holes = 0;
  for (let x = 0; x < 10; x++) {
    let top = after.findIndex((r) => r[x] !== 0);
    if (top < 0) top = 20;
    heights.push(20 - top);
    for (let y = top; y < 20; y++) if (after[y][x] === 0) holes++;
  }
  let bumps = 0;
  for (let x = 1; x < 10; x++) bumps += Math.abs(heights[x] - heights[x - 1]);
  return [-lines, holes, Math.max(...heights), bumps];
}

function better(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

// === The policy: the one function to edit ===================================
function choose(state: State, legal: Placement[]): string {
  let best = legal[0];
  let bestScore = score(state.board, best.cells);
  for (const p of legal.slice(1)) {
    const s = score(state.board, p.cells);
    if (better(s, bestScore)) [best, bestScore] = [p, s];
  }
  return best.id;
}
// =============================================================================

// fetch, waiting out a 429 as Retry-After says (at most 60 s a wait, 20 tries).
async function patientFetch(request: Request): Promise<Response> {
  for (let i = 0; ; i++) {
    const answer = await fetch(request.clone());
    const wait = Number(answer.headers.get('Retry-After') ?? '1');
    if (answer.status !== 429 || i >= 20 || wait > 60) return answer;
    console.error(`429 on ${request.method} ${new URL(request.url).pathname}: waiting ${wait} s as Retry-After asks`);
    await new Promise((done) => setTimeout(done, wait * 1000));
  }
}

// The answer's data, or an Error naming the route, the status and the error.
function ok<T>(route: string, r: { data?: T; error?: unknown; response: Response }): T {
  if (r.data !== undefined) return r.data;
  const e = (r.error as { error?: { code?: string; message?: string } } | undefined)?.error;
  throw new Error(`${route}: ${r.response.status} ${e?.code ?? ''}: ${e?.message ?? ''}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: process.env.ARCADED_URL ?? 'http://127.0.0.1:8080' },
      key: { type: 'string', default: process.env.ARCADED_KEY },
      cap: { type: 'string', default: '50' },
      seed: { type: 'string' },
    },
  });
  const headers: Record<string, string> = values.key ? { Authorization: `Bearer ${values.key}` } : {};
  const api = createClient<paths>({ baseUrl: values.url.replace(/\/$/, ''), headers, fetch: patientFetch });

  const body = { cap: Number(values.cap), ...(values.seed === undefined ? {} : { seed: Number(values.seed) }) };
  let run = ok('POST /api/games/stackcraft/init', await api.POST('/api/games/stackcraft/init', { body }));
  console.log(`run ${run.runId}, cap ${values.cap}`);
  while (run.state.status === 'playing') {
    const action = choose(run.state, run.legalActions);
    run = ok('POST /api/games/stackcraft/action',
      await api.POST('/api/games/stackcraft/action', { body: { stateToken: run.stateToken, action } }));
  }
  const st = run.state;
  console.log(`run over (${st.end_reason}): lines ${st.lines}, score ${st.score}, pieces ${st.pieces}`);
  const done = ok('POST /api/games/stackcraft/finish', await api.POST('/api/games/stackcraft/finish', {
    body: { stateToken: run.stateToken, rating: 6, review: 'A TypeScript starter: most lines, then fewest holes.' },
  }));
  console.log(`finished: ${JSON.stringify(done.final)}`);
  console.log(`certificate: ${done.certificate.slice(0, 40)}...`);
}

main().catch((e: unknown) => {
  const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.message})` : '';
  console.error(`stackcraft_bot: ${e instanceof Error ? e.message : String(e)}${cause}`);
  process.exit(1);
});
