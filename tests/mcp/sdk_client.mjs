// The official MCP TypeScript SDK's client (@modelcontextprotocol/sdk 1.x,
// protocol 2025-11-25) against a running daemon, driven by test_mcp.py:
//
//   node sdk_client.mjs URL ARCADED
//
// URL is the daemon's /mcp; ARCADED the daemon's binary, whose `deal`
// subcommand (the engine's solver) tells how each Duskcourt court of seed
// 7 is cleared. Lists the prompts and gets every game's (its rules and
// the loop of tools in the message), starts a run as the Stackcraft
// prompt says; plays a Duskcourt run on seed 7 until a court is cleared,
// ends and finishes it; plays a Stackcraft run with cap 10 to its end and
// finishes it; provokes refusals (a stale token, an illegal action, an
// unknown tool, an unknown prompt, a bad prompt argument). Prints one JSON object on stdout: the checks made
// ({ok, name}) and the runs (ids, certificates) for test_mcp.py to
// compare with the plain routes.
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, arcaded] = process.argv.slice(2);
const checks = [];
const out = { checks, runs: {} };

function ok(cond, name) {
	checks.push({ ok: Boolean(cond), name });
	return Boolean(cond);
}

// The structured result of a tool, which the SDK has validated against
// the tool's outputSchema.
async function call(client, name, args) {
	const r = await client.callTool({ name, arguments: args });
	return { r, s: r.structuredContent, text: r.content?.[0]?.text ?? '' };
}

// The agent check's puzzles, read off the text by the blind reader of
// tests/e2e/puzzle_solver.py (one python process, a puzzle a line).
let solver = null;
const solved = [];
function solve(puzzle) {
	if (solver === null) {
		const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'e2e');
		solver = spawn('python3', ['-u', '-c', 'import sys\nsys.path.insert(0, sys.argv[1])\n' +
			'from puzzle_solver import solve\nfor line in sys.stdin:\n    try:\n' +
			'        print(solve(line.strip()), flush=True)\n    except ValueError:\n' +
			'        print(0, flush=True)\n', dir], { stdio: ['pipe', 'pipe', 'inherit'] });
		createInterface({ input: solver.stdout }).on('line', (l) => solved.shift()(Number(l)));
	}
	return new Promise((resolve) => {
		solved.push(resolve);
		solver.stdin.write(puzzle.replace(/\n/g, ' ') + '\n');
	});
}

// What a player reads off a run's text block, and nothing else.
function read(text) {
	const lines = text.split('\n');
	const out = {
		status: /^\S+ run \S+: (\S+)/.exec(lines.find((l) => / run /.test(l)) ?? '')?.[1],
		handle: /"handle": "([^"]+)"/.exec(text)?.[1],
		next: /^next: (act|finish_run) /m.exec(text)?.[1],
		legal: /^legal actions: (.*)$/m.exec(text)?.[1].split(' ').filter((a) => a !== 'none'),
		check: /^agent check: (.*) -- answer with agentCheck \{"token": "([^"]+)"/m.exec(text),
		options: null,
	};
	const h = lines.findIndex((l) => l.startsWith('option:'));
	if (h >= 0) {
		const names = lines[h].slice(7).trim().split(' ');
		out.options = [];
		for (const l of lines.slice(h + 1)) {
			const m = /^(place [\d ]+?): ([\d ]+?)( \(ends the run\))?$/.exec(l);
			if (!m)
				break;
			const f = Object.fromEntries(m[2].split(' ').map((v, i) => [names[i], Number(v)]));
			out.options.push({ command: m[1], ends: Boolean(m[3]), ...f });
		}
	}
	return out;
}

// The option a simple player takes: no run-ending lock, most lines, then
// fewest holes, the lowest stack (or the deepest lock).
function choose(options) {
	const key = (o) => [o.ends ? 1 : 0, -(o.lines ?? 0), o.holes ?? 0, o.height ?? -(o.top ?? 0), o.bumpiness ?? 0];
	return options.slice().sort((a, b) => {
		const x = key(a), y = key(b);
		for (let i = 0; i < x.length; i++)
			if (x[i] !== y[i])
				return x[i] - y[i];
		return 0;
	})[0];
}

function deal(rung, k) {
	return JSON.parse(execFileSync(arcaded, ['deal', '7', String(rung), String(k)], { encoding: 'utf8' }));
}

async function main() {
	const client = new Client({ name: 'arcaded-mcp-test', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(url));
	await client.connect(transport);
	ok(client.getServerVersion()?.name === 'arcaded', 'initialize: the server names itself arcaded');
	ok(typeof client.getInstructions() === 'string' && client.getInstructions().includes('start_run'),
		'initialize: instructions tell how to play');
	ok(transport.sessionId === undefined, 'stateless: no Mcp-Session-Id was handed out');

	const { tools } = await client.listTools();
	const names = tools.map((t) => t.name);
	const want = ['list_games', 'get_rules', 'start_run', 'act', 'get_state', 'finish_run', 'get_run',
		'leaderboard', 'quick_match', 'create_match', 'join_match', 'match_move', 'wait_match', 'create_account',
		'my_runs'];
	ok(want.every((n) => names.includes(n)), `tools/list names every tool: ${names.join(' ')}`);
	ok(tools.every((t) => t.inputSchema?.type === 'object' && t.outputSchema?.type === 'object'),
		'every tool has an inputSchema and an outputSchema');

	const games = await call(client, 'list_games', {});
	const table = games.s.games.map((g) => g.name);
	const act = tools.find((t) => t.name === 'act');
	ok(JSON.stringify(act.inputSchema.properties.game.enum) === JSON.stringify(table),
		`the game argument's enum is the game table: ${table.join(' ')}`);
	const start = tools.find((t) => t.name === 'start_run');
	ok(start.inputSchema.properties.cap?.type === 'integer' && start.inputSchema.properties.depth?.type === 'integer',
		'start_run takes the table\'s init options (cap, depth)');

	const { resources } = await client.listResources();
	ok(table.every((g) => resources.some((r) => r.uri === `arcaded://rules/${g}`)),
		'resources/list has arcaded://rules/<game> for every game');
	const rules = await call(client, 'get_rules', { game: 'duskcourt' });
	const res = await client.readResource({ uri: 'arcaded://rules/duskcourt' });
	ok(res.contents[0].text === rules.s.howToPlay, 'arcaded://rules/duskcourt reads the rules\' howToPlay');

	// ---- prompts: one a game, its rules and the loop of tools ----
	ok(client.getServerCapabilities()?.prompts !== undefined, 'initialize: the prompts capability');
	const { prompts } = await client.listPrompts();
	ok(prompts.length === table.length + 1 && table.every((g) => prompts.some((p) => p.name === `play_${g}`)) &&
		prompts.some((p) => p.name === 'play_match'), `prompts/list: play_<game> for every game, and play_match`);
	for (const g of table) {
		const p = prompts.find((x) => x.name === `play_${g}`);
		if (!ok(p, `play_${g} is listed`))
			continue;
		const seed = p.arguments.some((a) => a.name === 'seed');
		const howTo = (await call(client, 'get_rules', { game: g })).s.howToPlay;
		const got = await client.getPrompt({ name: p.name, arguments: seed ? { seed: '7' } : {} });
		const m = got.messages[0];
		const text = m?.content?.text ?? '';
		ok(got.description === p.description && p.description.startsWith('Play a game of ') &&
			got.messages.length === 1 && m.role === 'user' && m.content.type === 'text',
			`prompts/get ${p.name}: "${got.description}", one user message of text`);
		ok(text.includes(howTo), `prompts/get ${p.name}: the message holds the game's rules`);
		ok(text.includes(`start_run with {"game": "${g}"${seed ? ', "seed": 7' : ''}}`) &&
			text.includes(`act with {"game": "${g}"`) && text.includes(`finish_run with {"game": "${g}"`),
			`prompts/get ${p.name}${seed ? ' seed 7' : ''}: start_run, act and finish_run, with the game`);
	}
	// The start the Stackcraft prompt gives is a start_run that works.
	const craft = await client.getPrompt({ name: 'play_stackcraft', arguments: { seed: '11', cap: '3' } });
	const startArgs = JSON.parse(/start_run with (\{[^}]*\})/.exec(craft.messages[0].content.text)?.[1] ?? 'null');
	const started = startArgs && await call(client, 'start_run', startArgs);
	ok(started && !started.r.isError && started.s.state.cap === 3 && started.s.status === 'playing',
		`the start_run play_stackcraft gives (${JSON.stringify(startArgs)}) starts that run`);
	const match = await client.getPrompt({ name: 'play_match', arguments: { players: '3' } });
	ok(/create_match with \{"players": 3\}/.test(match.messages[0].content.text) &&
		match.messages[0].content.text.includes('match_move'), 'prompts/get play_match: create_match for 3, then match_move');
	for (const [what, req, re] of [
		['an unknown prompt', { name: 'play_chess' }, /Unknown prompt/],
		['a seed that is no number', { name: 'play_duskcourt', arguments: { seed: 'seven' } }, /seed/],
		['an argument the prompt does not take', { name: 'play_duskcourt', arguments: { colour: 'red' } }, /colour/],
	]) {
		try {
			await client.getPrompt(req);
			ok(false, `prompts/get with ${what} is a JSON-RPC error`);
		} catch (e) {
			ok(e.code === -32602 && re.test(e.message), `prompts/get with ${what}: JSON-RPC error ${e.code} (${e.message})`);
		}
	}

	// ---- every game's text names what a player needs ----
	const figures = {
		stackfall: /piece [IJLOSTZ], next [IJLOSTZ ]+, hold \w+.*score \d+, lines \d+, level \d+/,
		duskcourt: /rung \d+, lives \d+, score \d+, streak \d+, boulders on squares [0-9 a-z]+.*jackal rule/,
		stackcraft: /piece [IJLOSTZ], next [IJLOSTZ], score \d+, lines \d+/,
		hatetris: /piece [IJLOSTZ], lines \d+, pieces \d+/,
		wells: /piece [IJLOSTZ], pieces \d+/,
		'hatetris-classic': /piece [IJLOSTZ], lines \d+, pieces \d+/,
	};
	for (const g of table) {
		const s = await call(client, 'start_run', { game: g });
		ok(!s.r.isError && figures[g] && figures[g].test(s.text), `start_run ${g}: the text names its figures: ` +
			s.text.split('\n')[1]);
	}

	// ---- every game to its end, from the text alone, by handle ----
	out.sizes = {};
	const starts = { stackfall: { seed: 5 }, duskcourt: { seed: 7 }, stackcraft: { seed: 5, cap: 20 } };
	for (const g of table) {
		let t = await call(client, 'start_run', { game: g, ...(starts[g] ?? {}) });
		let seen = read(t.text);
		const handle = seen.handle;
		let calls = 1, bytes = t.text.length, refused = 0;
		const act = async (action) => {
			const args = { game: g, handle, action };
			if (seen.check)
				args.agentCheck = { token: seen.check[2], answer: await solve(seen.check[1]) };
			const r = await call(client, 'act', args);
			calls++;
			bytes += r.text.length;
			if (r.r.isError)
				refused++;
			seen = read(r.text);
			return r;
		};
		if (g === table[0]) {
			// One wrong character of the handle: a result that says what to
			// send, and the run goes on with the handle as written.
			const slip = handle.slice(0, -1) + (handle.endsWith('a') ? 'b' : 'a');
			const bad = await call(client, 'get_state', { game: g, handle: slip });
			ok(bad.r.isError === true && bad.s.error?.code === 'invalid_handle' &&
				/Send the handle exactly as the run's results write it/.test(bad.text),
				`a handle with one wrong character: isError invalid_handle, saying what to send: ${bad.text.split('\n')[0]}`);
			const again = { game: g, handle: handle.toUpperCase() };
			if (seen.check)
				again.agentCheck = { token: seen.check[2], answer: await solve(seen.check[1]) };
			const upper = await call(client, 'get_state', again);
			ok(!upper.r.isError && read(upper.text).handle === handle, 'the handle in upper case reads the run');
			seen = read(upper.text);
			// A misnamed argument: a result the model reads, naming the right
			// one, with the board and the call to make.
			const misnamed = { game: g, handle, move: 'options' };
			if (seen.check)
				misnamed.agentCheck = { token: seen.check[2], answer: await solve(seen.check[1]) };
			const wrong = await call(client, 'act', misnamed);
			ok(wrong.r.isError === true && /unknown argument 'move' \(did you mean 'action'\?\)/.test(wrong.text) &&
				/^piece [A-Z]/m.test(wrong.text) && /^0123456789$/m.test(wrong.text) && read(wrong.text).next === 'act',
				'act with move for action: isError, "did you mean \'action\'", the board and the next call');
			seen = read(wrong.text);
			// A wrong answer to the agent check: refused, a new puzzle and the
			// call to make again.
			if (seen.check) {
				const spent = await call(client, 'act', { game: g, handle, action: 'options',
					agentCheck: { token: seen.check[2], answer: (await solve(seen.check[1])) + 1 } });
				ok(spent.r.isError === true && spent.s.error?.status === 428 && read(spent.text).check &&
					read(spent.text).next === 'act' && read(spent.text).handle === handle,
					'a wrong puzzle answer: isError 428, a new puzzle and the call to make again, by handle');
				seen = read(spent.text);
			}
		}
		while (seen.next === 'act' && calls < 700) {
			if (seen.legal === undefined) {
				await act('options');
				if (!seen.options?.length)
					break;
				await act(choose(seen.options).command);
			} else {
				const pick = seen.legal.filter((a) => a !== 'endRun' && a !== 'reset');
				await act(pick[0] ?? seen.legal[0] ?? 'endRun');
			}
		}
		ok(seen.next === 'finish_run' && refused === 0 && seen.handle === handle,
			`${g}: played to its end by handle from the text alone (${calls} calls, ${refused} refused, ` +
			`then ${seen.next})`);
		const args = { game: g, handle, rating: 6, review: `${g} played over MCP by a text-reading policy` };
		if (seen.check)
			args.agentCheck = { token: seen.check[2], answer: await solve(seen.check[1]) };
		const f = await call(client, 'finish_run', args);
		ok(!f.r.isError && /^certificate: v4\.public\./m.test(f.text) && read(f.text).next === undefined,
			`${g}: finish_run by handle answers the certificate in the text`);
		out.sizes[g] = { calls, bytes };
	}
	if (solver !== null)
		solver.stdin.end();

	// ---- Duskcourt, seed 7, until a court is cleared ----
	let r = await call(client, 'start_run', { game: 'duskcourt', seed: 7 });
	ok(!r.r.isError && r.s.status === 'playing' && r.s.state.seed === 7 && r.s.runId,
		`start_run duskcourt seed 7: playing, run ${r.s.runId}`);
	ok(r.text.includes(r.s.boardText) && r.text.includes('legal actions:') && !r.text.includes(r.s.stateToken) &&
		r.text.includes(`"handle": "${r.s.handle}"`),
		'the text block holds the board, the legal actions and the handle, not the token');
	const first = r.s.stateToken;
	const dc = r.s.runId;

	// A refusal of the game is a result with isError that carries the run.
	const bad = await call(client, 'act', { game: 'duskcourt', stateToken: first, action: '15x14' });
	ok(bad.r.isError === true && bad.s.error?.code === 'illegal_action' && bad.s.error?.status === 422 &&
		bad.s.state?.phase === 'playing' && bad.s.stateToken === first,
		'an illegal action is isError 422 illegal_action with the unchanged state and token');

	const sol = deal(1, r.s.state.courtsDealt - 1).solution;
	for (const step of sol) {
		const short = `${step.from}x${step.to}`;
		ok(r.s.legalActions.some((a) => a.from === step.from && a.to === step.to) && r.text.includes(short),
			`${short} is legal and written so in the text block`);
		r = await call(client, 'act', { game: 'duskcourt', stateToken: r.s.stateToken, action: short });
		ok(!r.r.isError, `act ${short}: ${r.s.status}`);
	}
	ok(r.s.state.phase === 'break' && r.s.state.lastResult === 'clear' && r.s.state.rung === 1,
		`the court of rung 1 is cleared: ${r.s.state.phase}, ${r.s.state.lastResult}, rung ${r.s.state.rung}`);
	const stale = await call(client, 'act', { game: 'duskcourt', stateToken: first, action: '4x0' });
	ok(stale.r.isError && stale.s.error?.code === 'stale_state_token' && stale.s.error?.status === 409 &&
		typeof stale.s.stateToken === 'string' && stale.s.stateToken !== first && stale.s.state?.phase === 'break',
		'an old token is isError 409 stale_state_token with the run as it stands and a newest token');
	// The token a refusal hands out is the newest: the run goes on with it.
	const state = await call(client, 'get_state', { game: 'duskcourt', stateToken: stale.s.stateToken });
	ok(!state.r.isError && state.s.state.score === r.s.state.score && state.s.state.phase === 'break',
		'get_state with the refusal\'s token reads the run as it stands');
	r = await call(client, 'act', { game: 'duskcourt', stateToken: r.s.stateToken, action: 'endRun' });
	ok(!r.r.isError && r.s.status === 'done', `act endRun: ${r.s.status}`);
	const fin = await call(client, 'finish_run', { game: 'duskcourt', stateToken: r.s.stateToken, rating: 9,
		review: 'cleared the first court over MCP' });
	ok(!fin.r.isError && typeof fin.s.certificate === 'string' && fin.s.certificate.startsWith('v4.public.') &&
		fin.s.final?.phase === 'done' && fin.s.status === 'finished',
		'finish_run answers the final summary and a v4.public certificate');
	ok(fin.text.includes(fin.s.certificate), 'the certificate is in the text block');
	const again = await call(client, 'finish_run', { game: 'duskcourt', stateToken: r.s.stateToken, rating: 9,
		review: 'twice' });
	ok(again.r.isError && again.s.error?.code === 'already_finished', 'a second finish is isError already_finished');
	out.runs.duskcourt = { runId: dc, certificate: fin.s.certificate, final: fin.s.final, score: r.s.state.score };

	// ---- Stackcraft, cap 10, to its end ----
	r = await call(client, 'start_run', { game: 'stackcraft', cap: 10 });
	ok(!r.r.isError && r.s.state.cap === 10 && r.s.status === 'playing', `start_run stackcraft cap 10: run ${r.s.runId}`);
	const sc = r.s.runId;
	let moves = 0;
	while (r.s.status === 'playing' && moves < 20) {
		const id = r.s.legalActions[0].id;
		ok(r.text.includes(id), `the legal id ${id} is in the text block`);
		r = await call(client, 'act', { game: 'stackcraft', stateToken: r.s.stateToken, action: id });
		if (!ok(!r.r.isError, `act ${id}`))
			break;
		moves++;
	}
	ok(r.s.status === 'over' && r.s.state.end_reason === 'capped' && r.s.state.pieces === 10 && moves === 10,
		`the run ends capped after 10 pieces (${moves} acts, ${r.s.state.end_reason})`);
	const scfin = await call(client, 'finish_run', { game: 'stackcraft', stateToken: r.s.stateToken, rating: 7,
		review: 'ten pieces over MCP' });
	ok(!scfin.r.isError && scfin.s.certificate?.startsWith('v4.public.'), 'finish_run stackcraft: a certificate');
	out.runs.stackcraft = { runId: sc, certificate: scfin.s.certificate, final: scfin.s.final };

	const run = await call(client, 'get_run', { game: 'stackcraft', runId: sc });
	ok(!run.r.isError && run.s.replay?.actions?.length === 10, 'get_run shows the replay of the 10 moves');
	const lb = await call(client, 'leaderboard', { game: 'duskcourt', seed: 7 });
	ok(!lb.r.isError && lb.s.entries.some((e) => e.runId === dc), 'leaderboard seed 7 lists the Duskcourt run');
	const missing = await call(client, 'get_run', { game: 'duskcourt', runId: '1' });
	ok(missing.r.isError && missing.s.error?.code === 'run_not_found', 'an unknown run is isError run_not_found');

	// ---- what is no tool result ----
	try {
		await client.callTool({ name: 'no_such_tool', arguments: {} });
		ok(false, 'an unknown tool is a JSON-RPC error');
	} catch (e) {
		ok(e.code === -32602 && /Unknown tool/.test(e.message), `an unknown tool is JSON-RPC error ${e.code}`);
	}
	const chess = await call(client, 'act', { game: 'chess', stateToken: 'x', action: 'e4' });
	ok(chess.r.isError === true && chess.s.error?.code === 'invalid_arguments' &&
		/argument 'game' must be one of stackfall/.test(chess.text),
		`a game off the table is a tool error naming the games: ${chess.text.split('\n')[0]}`);
	await client.close();
	await versus(url);
}

// A REST request of the bot's, with its agent key.
async function rest(base, key, method, path, body) {
	const r = await fetch(base + path, { method, headers: { 'Content-Type': 'application/json',
		...(key ? { Authorization: `Bearer ${key}` } : {}) }, body: body ? JSON.stringify(body) : undefined });
	return { status: r.status, json: await r.json() };
}

// An account made with create_action, a second client with its key in the
// header, my_runs, and a rated quick match against a REST bot played to
// its end from the text alone.
async function versus(url) {
	const base = url.replace(/\/mcp$/, '');
	const anon = new Client({ name: 'arcaded-mcp-test', version: '1.0.0' });
	await anon.connect(new StreamableHTTPClientTransport(new URL(url)));
	const made = await call(anon, 'create_account', { name: 'sdk_agent' });
	const key = /"agentKey":"(arcd_[0-9a-z_]+)"/.exec(made.text)?.[1];
	ok(!made.r.isError && key && /Authorization: Bearer <the key>/.test(made.text),
		'create_account: the key in the text, with how to put it in the host\'s configuration');
	const mine = await call(anon, 'my_runs', { game: 'duskcourt' });
	ok(mine.r.isError === true && mine.s.error?.status === 401, 'my_runs without a key: isError 401');
	await anon.close();

	const agent = new Client({ name: 'arcaded-mcp-test', version: '1.0.0' });
	await agent.connect(new StreamableHTTPClientTransport(new URL(url),
		{ requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
	const run = await call(agent, 'start_run', { game: 'duskcourt', seed: 3 });
	const runs = await call(agent, 'my_runs', { game: 'duskcourt' });
	ok(!runs.r.isError && runs.text.includes(run.s.runId) && runs.s.account === 'sdk_agent',
		'my_runs lists the run the account just started');

	const bot = (await rest(base, null, 'POST', '/api/v1/accounts', { name: 'rest_bot' })).json.agentKey;
	let t = await call(agent, 'quick_match', { players: 2, turnSeconds: 60 });
	const mid = /match (\d+): lobby/.exec(t.text)?.[1];
	ok(!t.r.isError && mid && /next: wait_match/.test(t.text), `quick_match: a lobby of the queue (${mid}), then wait_match`);
	const joined = await rest(base, bot, 'POST', '/api/matches/quick', { players: 2, turn_seconds: 60 });
	ok(joined.json.match_id === mid, 'the REST bot\'s quick match is the same match');
	t = await call(agent, 'wait_match', { matchId: mid, afterTurn: 0 });
	let turns = 0, bytes = 0, refusals = 0;
	ok(/: playing, 2 of 2 seats taken/.test(t.text) && /seat 0 sdk_agent \(you\)/.test(t.text) &&
		/next: match_move/.test(t.text), 'wait_match: the match plays, your seat, then match_move');
	while (turns < 200) {
		const next = /^next: match_move \{"matchId": "(\d+)", "turn": (\d+)/m.exec(t.text);
		if (!next)
			break;
		const turn = Number(next[2]);
		// A placement that does not fit is refused with the reason: try the
		// next one, and resign when none fits.
		let move = null;
		for (let k = 0; k < 40 && (move === null || move.r.isError); k++) {
			const command = k < 39 ? `place ${Math.floor(k / 10)} ${(turn + k) % 10}` : 'resign';
			move = await call(agent, 'match_move', { matchId: mid, turn, command });
			bytes += move.text.length;
			if (move.r.isError)
				refusals++;
		}
		if (!ok(!move.r.isError, `match_move turn ${turn}: ${move.text.split('\n')[0]}`))
			break;
		// The bot tries its placements in turn until one fits, else resigns.
		for (let k = 0; k < 40; k++) {
			const command = k < 39 ? `place ${(1 + Math.floor(k / 10)) % 4} ${(turn * 3 + k) % 10}` : 'resign';
			const b = await rest(base, bot, 'POST', `/api/matches/${mid}/move`, { turn, command });
			if (b.status !== 422)
				break;
		}
		t = await call(agent, 'wait_match', { matchId: mid, afterTurn: turn - 1 });
		bytes += t.text.length;
		turns++;
	}
	ok(/: finished/.test(t.text) && /^end: /m.test(t.text) && !/^next:/m.test(t.text),
		`the quick match played to its end over MCP against the REST bot: ${turns} turns, ${refusals} refused, ` +
		`${Math.round(bytes / Math.max(1, 2 * turns))} bytes of text a call`);
	const view = await rest(base, null, 'GET', `/api/matches/${mid}`);
	ok(view.json.status === 'finished' && view.json.queue === true, 'the plain route knows the match, finished, from the queue');
	await agent.close();
}

main().then(() => {
	process.stdout.write(JSON.stringify(out) + '\n');
}, (e) => {
	checks.push({ ok: false, name: `the SDK client ran to its end: ${e?.stack ?? e}` });
	process.stdout.write(JSON.stringify(out) + '\n');
});
